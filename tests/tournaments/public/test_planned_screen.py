"""The wall screen of an evening planned ahead shows the next round's tables as
planned, before it is paired; not once every round is paired, nor while the
pairings are not public."""

import pytest
from django.urls import reverse

from tests.conftest import clear_cache
from tests.tournaments.test_table_tournaments import close_and_pair, play_round, table_tournament

pytestmark = pytest.mark.django_db

HANDS = {3: [0, 50, 100], 4: [0, 20, 40, 100]}


def screen(client, tournament):
    clear_cache()
    return client.get(reverse("public:tournament-screen", args=[tournament.slug])).text


def test_the_screen_shows_the_next_round_as_planned(client, club, committed):
    tournament, round = table_tournament(club, 8, committed, format="planned", rounds=2)

    page = screen(client, tournament)
    assert 'data-group="plan"' in page and "Round 2, as planned" in page

    play_round(round, HANDS)
    close_and_pair(tournament, round, committed)
    assert 'data-group="plan"' not in screen(client, tournament)


def test_the_screen_keeps_the_plan_while_the_pairings_are_not_public(client, club, committed):
    tournament, _ = table_tournament(
        club, 8, committed, format="planned", rounds=2, public_pairings=False
    )

    assert 'data-group="plan"' not in screen(client, tournament)
