import pytest
from django.urls import reverse

from clubs.models import Club, Membership
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db

URL = reverse("manage:club-create")


@pytest.fixture
def nora(client):
    user = UserFactory(first_name="Nora Nash")
    client.force_login(user)
    return user


def create(client, **fields):
    data = {"name": "Café Pik", "slug": "", "language": "de", "time_zone": "Europe/Vienna"}
    return client.post(URL, {**data, **fields}, follow=True)


def test_a_logged_in_person_creates_a_club_and_goes_on_to_invite(client, nora):
    page = client.get(URL)
    response = create(client)

    assert page.status_code == 200
    club = Club.objects.get(slug="cafe-pik")
    assert response.redirect_chain[-1][0] == reverse("manage:invitation-list", args=[club.slug])
    assert "you own it" in response.text
    assert "Europe/Vienna" in response.text
    assert club.memberships.get().role == Membership.Role.OWNER
    assert club in [
        row.record for row in client.get(reverse("manage:club-list")).context["table"].rows
    ]


def test_the_club_form_offers_the_languages_and_time_zones(client, nora):
    form = client.get(URL).context["form"]
    assert [code for code, _ in form.fields["language"].choices] == ["en", "de"]
    assert ("Europe/Berlin", "Europe/Berlin") in form.fields["time_zone"].choices


def test_a_taken_address_is_refused_beside_the_form(client, nora):
    ClubFactory(slug="cafe-pik")

    response = create(client, slug="cafe-pik")

    assert response.status_code == 400
    assert "cafe-pik-2 is free" in response.text
    assert Club.objects.count() == 1
    assert response.context["form"]["slug"].value() == "cafe-pik-2"


def test_a_wrong_time_zone_is_refused_beside_the_form(client, nora):
    response = create(client, time_zone="Mars/Olympus")

    assert response.status_code == 400
    assert not Club.objects.filter(name="Café Pik").exists()


def test_the_form_sent_twice_makes_one_club(client, nora):
    key = {"form_key": "same-key-for-both-sends"}
    create(client, **key)
    again = create(client, **key)

    assert Club.objects.filter(name="Café Pik").count() == 1
    assert again.status_code == 200


def test_a_visitor_is_sent_to_log_in(client):
    response = client.get(URL)
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
