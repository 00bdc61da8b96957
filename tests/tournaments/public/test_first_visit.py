import pytest
from django.urls import reverse

from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_a_site_without_a_club_leads_the_first_visitor_to_sign_up(client):
    page = client.get(reverse("home"))

    assert "Start your club" in page.text
    assert f'href="{reverse("signup")}"' in page.text


def test_a_logged_in_person_on_a_site_without_a_club_is_led_to_create_one(client):
    client.force_login(UserFactory())

    page = client.get(reverse("home"))

    assert f'href="{reverse("manage:club-create")}"' in page.text


def test_a_site_with_clubs_shows_them_as_before(client):
    club = ClubFactory(name="Café Pik")

    page = client.get(reverse("home"))

    assert "Start your club" not in page.text
    assert club.name in page.text
