"""The organizer's pages of an evening planned ahead: created from the form, the
round page shows every round's tables and the repeat meetings, the players'
cards page one card for each player with a table each round."""

import pytest
from django.urls import reverse

from tests.tournaments.manage.test_day import create
from tests.tournaments.test_table_tournaments import table_tournament
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_the_create_form_makes_an_evening_planned_ahead(client, club):
    response = create(client, club, game="blaue_vierzehn", table_size="4", format="planned")

    assert response.status_code == 302
    assert Tournament.objects.get(club=club).format == "planned"


def test_gin_rummy_planned_ahead_is_refused_in_words(client, club):
    response = create(client, club, format="planned")

    assert response.status_code == 400
    assert "tables of three to six" in response.text


def test_the_round_page_shows_the_evening_and_its_repeat_meetings(client, club, committed):
    tournament, _ = table_tournament(
        club, 13, committed, game="blaue_vierzehn", format="planned", rounds=4
    )
    page = client.get(reverse("manage:round-detail", args=[tournament.slug, 1])).text

    assert 'id="plan"' in page
    assert "Nobody meets anyone twice this evening." in page
    assert "18 pairs never sit at one table." in page
    for number in range(1, 5):
        assert f'id="plan-round-{number}"' in page
    assert "as planned for the evening" in page


def test_every_player_has_a_card_with_a_table_each_round(client, club, committed):
    tournament, _ = table_tournament(
        club, 13, committed, game="blaue_vierzehn", format="planned", rounds=4
    )
    page = client.get(reverse("manage:plan-cards", args=[tournament.slug])).text

    assert page.count('class="plan-card"') == 13
    for entrant in tournament.entrants.select_related("player"):
        assert f'id="plan-card-{entrant.pk}"' in page


def test_a_swiss_has_no_players_cards(client, club, committed):
    tournament, _ = table_tournament(club, 8, committed)
    page = client.get(reverse("manage:plan-cards", args=[tournament.slug])).text

    assert 'class="plan-card"' not in page
    assert "The evening is planned when round 1 is paired." in page
