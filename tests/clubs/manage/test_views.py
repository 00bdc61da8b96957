import pytest
from django.urls import reverse

from tests.conftest import messages_after
from tests.factories import ClubFactory, OrganizerFactory

pytestmark = pytest.mark.django_db


def test_manage_requires_login(client):
    response = client.get(reverse("manage:club-list"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_manage_shows_only_the_clubs_the_user_organizes(client):
    organizer = OrganizerFactory(club__name="Mine")
    ClubFactory(name="Theirs")
    client.force_login(organizer.player.user)

    text = client.get(reverse("manage:club-list")).text

    assert "Mine" in text
    assert "Theirs" not in text


def test_the_api_key_form_sent_twice_makes_one_key(client, organizer, sent_twice):
    first, second = sent_twice(reverse("manage:token-list"), {"name": "club site"})

    assert organizer.player.user.api_tokens.count() == 1
    assert first.context["key"].startswith("knock_")
    assert second["Location"] == reverse("manage:token-list")
    assert "This form was already sent: here is what it made." in messages_after(client, second)
