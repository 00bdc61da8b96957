"""A create form sent once (clubs.submissions): its key is claimed in the
transaction that makes the item, held by a unique constraint; a second sending
makes nothing and is sent to the first one's item. Each form's own test is beside
its page's tests; the same form sent at the same moment, tests/test_races.py."""

import pytest
from django.db import IntegrityError, transaction
from django.template import Context, Template
from django.test import RequestFactory

from clubs.models import FormSubmission
from clubs.submissions import AlreadySent, key_of, submit_once
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


class Maker:
    """Makes a numbered item each time it is called, living at /items/<n>/."""

    def __init__(self):
        self.made = 0

    def __call__(self):
        self.made += 1
        return self.made

    @staticmethod
    def location(made):
        return f"/items/{made}/"


def test_a_key_sent_again_makes_nothing_and_points_to_what_the_first_made():
    user, make = UserFactory(), Maker()
    first = submit_once(user=user, key="k1", make=make, location=make.location)

    with pytest.raises(AlreadySent) as again:
        submit_once(user=user, key="k1", make=make, location=make.location)

    assert (first, make.made) == (1, 1)
    assert again.value.location == "/items/1/"
    assert str(again.value) == "This form was already sent: here is what it made."


def test_without_a_key_every_sending_makes_as_before():
    user, make = UserFactory(), Maker()

    made = [submit_once(user=user, key="", make=make, location=make.location) for _ in (1, 2)]

    assert made == [1, 2]
    assert not FormSubmission.objects.exists()


def test_a_refused_sending_leaves_its_key_free_to_be_sent_again():
    user, make = UserFactory(), Maker()

    def refuse():
        make()
        raise ValueError("no name")

    with pytest.raises(ValueError):
        submit_once(user=user, key="k1", make=refuse, location=make.location)
    assert not FormSubmission.objects.exists()

    assert submit_once(user=user, key="k1", make=make, location=make.location) == 2
    assert FormSubmission.objects.get().location == "/items/2/"


def test_a_key_belongs_to_the_login_that_sent_it():
    make = Maker()

    for user in (UserFactory(), UserFactory()):
        submit_once(user=user, key="k1", make=make, location=make.location)

    assert make.made == 2


def test_the_database_refuses_one_login_claiming_one_key_twice():
    user = UserFactory()
    FormSubmission.objects.create(user=user, key="k1", location="/items/1/")

    with pytest.raises(IntegrityError), transaction.atomic():
        FormSubmission.objects.create(user=user, key="k1", location="/items/2/")


@pytest.mark.parametrize("sent", ["", "x" * 65, "a b", "ke\x00y"])
def test_a_key_the_site_does_not_make_counts_as_none(sent):
    assert key_of(RequestFactory().post("/", {"form_key": sent})) == ""


def test_each_showing_of_a_form_carries_a_new_key():
    page = Template("{% load form_keys %}{% form_key %}")
    shown = {page.render(Context()) for _ in (1, 2)}

    assert len(shown) == 2
    for html in shown:
        key = html.split('value="')[1].split('"')[0]
        assert html.startswith('<input type="hidden" name="form_key"')
        assert key_of(RequestFactory().post("/", {"form_key": key})) == key
