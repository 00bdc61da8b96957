"""Every page tells search engines and link previews what it is: a meta
description, the site's by default and the page's own on the public pages."""

import html
import re

import pytest
from django.urls import reverse

from tests.tournaments.conftest import first_table
from tests.tournaments.test_table_tournaments import table_tournament

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Ben", "Carl", "Dora"]
DESCRIPTION = re.compile(r'<meta name="description" content="([^"]+)">')


def description(client, path) -> str:
    response = client.get(path)
    assert response.status_code == 200
    found = DESCRIPTION.findall(response.text)
    assert len(found) == 1, path
    return html.unescape(found[0])


def test_each_public_page_describes_itself(client, started):
    tournament, round = started(NAMES)
    entrant = first_table(round).seatings.get(side=0).entrant
    club = tournament.club
    texts = {
        "home": description(client, reverse("home")),
        "club": description(client, club.get_absolute_url()),
        "tournament": description(client, f"/t/{tournament.slug}/"),
        "round": description(client, f"/t/{tournament.slug}/rounds/1/"),
        "crosstable": description(client, f"/t/{tournament.slug}/crosstable/"),
        "player": description(client, f"/t/{tournament.slug}/players/{entrant.pk}/"),
        "screen": description(client, f"/t/{tournament.slug}/screen/"),
    }
    assert len(set(texts.values())) == len(texts)
    assert club.name in texts["club"]
    assert f"Spring Open, a Gin Rummy tournament of {club.name}" in texts["tournament"]
    assert texts["round"].startswith("Spring Open, round 1")
    assert texts["player"].startswith(f"{entrant.player.name} at Spring Open")
    assert texts["screen"].startswith("Spring Open on the wall screen")


def test_the_page_describes_the_tournament_by_its_game(client, club, committed):
    tournament, _ = table_tournament(club, 8, committed)

    found = description(client, f"/t/{tournament.slug}/")

    assert found.startswith(f"Chinchón Open, a Chinchón tournament of {club.name}")


def test_other_pages_carry_the_sites_description(client):
    assert description(client, reverse("login")).startswith("Knock runs Gin Rummy club nights")


def test_the_description_is_german_for_a_german_visitor(client):
    client.cookies["django_language"] = "de"
    assert description(client, reverse("login")).startswith("Knock führt Clubabende")
