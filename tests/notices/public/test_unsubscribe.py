"""The one-click unsubscribe of every message: a GET asks, a POST turns the kind
off without a login; a token made elsewhere does nothing."""

import time

import pytest
from django.core import signing
from django.urls import reverse

from notices import tokens
from notices.models import Choice
from notices.tokens import unsubscribe_token

pytestmark = pytest.mark.django_db


def test_opening_the_link_asks_and_turns_nothing_off(client, members):
    (anna,) = members("Anna")
    url = reverse("public:notices-off", args=[unsubscribe_token(anna.pk, "sheet")])
    response = client.get(url)
    assert response.status_code == 200
    assert "No more messages of this kind: my party&#x27;s sheet when it ends?" in response.text
    assert not Choice.objects.exists()


def test_the_button_turns_that_kind_off_and_only_that(client, members):
    (anna,) = members("Anna")
    url = reverse("public:notices-off", args=[unsubscribe_token(anna.pk, "sheet")])
    response = client.post(url)
    assert response.status_code == 200
    assert "You get no more messages of this kind" in response.text
    (choice,) = Choice.objects.all()
    assert (choice.player, choice.kind, choice.email, choice.push) == (anna, "sheet", False, False)


@pytest.mark.parametrize("token", ["made-up", "WzEsInRhYmxlIl0:1xX1Vf:forged"])
def test_a_token_not_made_here_turns_nothing_off(client, members, token):
    members("Anna")
    response = client.post(reverse("public:notices-off", args=[token]))
    assert response.status_code == 400
    assert "This link does not work" in response.text
    assert not Choice.objects.exists()


def test_a_token_of_a_player_gone_is_refused(client):
    response = client.post(reverse("public:notices-off", args=[unsubscribe_token(999, "table")]))
    assert response.status_code == 400


def test_a_link_older_than_a_year_turns_nothing_off_and_says_so(client, members, monkeypatch):
    """Issue 44: unsubscribe links never expired."""
    (anna,) = members("Anna")
    url = reverse("public:notices-off", args=[unsubscribe_token(anna.pk, "sheet")])
    # A year and a day later, by the signature's clock.
    later = time.time() + tokens.MAX_AGE.total_seconds() + 24 * 3600
    monkeypatch.setattr(signing.time, "time", lambda: later)

    asked = client.get(url)
    posted = client.post(url)

    for answer in (asked, posted):
        assert answer.status_code == 410
        assert "This link has expired" in answer.text
    assert not Choice.objects.exists()


def test_a_link_within_its_year_still_works(client, members, monkeypatch):
    (anna,) = members("Anna")
    url = reverse("public:notices-off", args=[unsubscribe_token(anna.pk, "sheet")])
    later = time.time() + tokens.MAX_AGE.total_seconds() - 24 * 3600
    monkeypatch.setattr(signing.time, "time", lambda: later)

    assert client.post(url).status_code == 200
    assert Choice.objects.get().email is False
