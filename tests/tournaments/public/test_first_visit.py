import html
import re

import pytest
from django.urls import reverse

from scoring.engine.games import GAMES
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


def test_the_home_page_of_an_empty_site_names_every_game_and_presumes_none(client):
    page = client.get(reverse("home")).text

    hero = page[page.index('<section class="hero">') : page.index("</section>")]
    heading = re.search(r"<h1>(.*?)</h1>", hero).group(1)
    description = re.search(r'<meta name="description" content="([^"]+)">', page).group(1)
    assert "Gin Rummy" not in heading and "Gin Rummy" not in description
    for game in GAMES.values():
        assert game.name in html.unescape(hero)
