"""Standings and round reads: a fixed number of queries however many entrants,
and the explanation the organizer reads."""

import pytest
from django.utils import translation

from tests.tournaments.conftest import play_out
from tournaments import selectors, services

pytestmark = pytest.mark.django_db


def two_rounds(started, committed, count):
    tournament, round = started([f"P{i:03d}" for i in range(count)])
    for view in selectors.round_tables(round):
        if not view.table.bye:
            play_out(view.table, view.entrants[0])
    services.round_close(round=round)
    committed(services.round_pair_next, tournament=tournament)
    second = tournament.round_set.get(number=2)
    return tournament, second


@pytest.mark.parametrize("count", [10, 60])
def test_standings_and_round_reads_take_the_same_queries_for_any_field(
    started, committed, count, django_assert_num_queries
):
    tournament, second = two_rounds(started, committed, count)
    view = selectors.round_tables(second)[0]
    play_out(view.table, view.entrants[1])

    with django_assert_num_queries(7):
        standings = selectors.standings_for(tournament)
    with django_assert_num_queries(5):
        tables = selectors.round_tables(second)
    entrants = {e.pk: e for e in selectors.tournament_entrants(tournament)}
    with django_assert_num_queries(0):
        lines = selectors.round_explanation(second, entrants)

    assert len(standings.lines) == count
    assert len(tables) == count // 2
    assert len(lines) == count // 2


def test_the_explanation_names_places_and_points_in_the_readers_language(started, committed):
    tournament, second = two_rounds(started, committed, 4)
    entrants = {e.pk: e for e in selectors.tournament_entrants(tournament)}
    leader = entrants[second.standings[0]]
    points = selectors.standings_for(tournament).lines[0].points

    english = selectors.round_explanation(second, entrants)
    with translation.override("de"):
        german = selectors.round_explanation(second, entrants)

    assert english[0].startswith(f"{leader} (1st, +{points}) plays ")
    assert german[0].startswith(f"{leader} (1., +{points}) spielt gegen ")
