import pytest
from django.urls import reverse

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
