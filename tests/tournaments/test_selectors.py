"""Standings and round reads: a fixed number of queries however many entrants,
and the explanation the organizer reads."""

import pytest
from django.utils import translation

from scoring.services.parties import party_cancel
from tests.factories import UserFactory
from tests.tournaments.conftest import play_out
from tournaments import board, explanations, registration, rounds
from tournaments.standings import standings_for
from tournaments.tables import round_tables, table_forfeit

pytestmark = pytest.mark.django_db


def two_rounds(started, committed, count):
    tournament, round = started([f"P{i:03d}" for i in range(count)])
    for view in round_tables(round):
        if not view.table.bye:
            play_out(view.table, view.entrants[0])
    rounds.round_close(round=round)
    committed(rounds.round_pair_next, tournament=tournament)
    second = tournament.round_set.get(number=2)
    return tournament, second


@pytest.mark.parametrize("count", [10, 60])
def test_standings_and_round_reads_take_the_same_queries_for_any_field(
    started, committed, count, django_assert_num_queries
):
    tournament, second = two_rounds(started, committed, count)
    view = round_tables(second)[0]
    play_out(view.table, view.entrants[1])

    # Nothing is kept inside the test's transaction (a party's score and its
    # table's results are kept after the commit of its change): every score is
    # settled from the hands, and every seat's result worked out from them.
    with django_assert_num_queries(9):
        standings = standings_for(tournament)
    with django_assert_num_queries(5):
        tables = round_tables(second)
    entrants = {e.pk: e for e in registration.tournament_entrants(tournament)}
    with django_assert_num_queries(0):
        lines = explanations.round_explanation(second, entrants)

    assert len(standings.lines) == count
    assert len(tables) == count // 2
    assert len(lines) == count // 2


def test_the_explanation_names_places_and_points_in_the_readers_language(started, committed):
    tournament, second = two_rounds(started, committed, 4)
    entrants = {e.pk: e for e in registration.tournament_entrants(tournament)}
    leader = entrants[second.standings[0]]
    points = standings_for(tournament).lines[0].points

    english = explanations.round_explanation(second, entrants)
    with translation.override("de"):
        german = explanations.round_explanation(second, entrants)

    assert english[0].startswith(f"{leader} (1st, +{points}) plays ")
    assert german[0].startswith(f"{leader} (1., +{points}) spielt gegen ")


def test_standings_count_byes_and_forfeits_and_leave_a_cancelled_party_out(started, committed):
    """Two rounds of five, worked out by hand (classic rules, bye 50, forfeit 120).

    A party won by gin against 90 deadwood ends in one hand: 20 + 90 = 110 hand
    points, 1 box (20), the game (100) and the shutout (100): +330 / -330. Against
    50 it takes two gins of 20 + 50 = 70: 140 points, 2 boxes (40), game 100,
    shutout 100: +380 / -380. A party cancelled after it finished counts nowhere:
    neither a game nor points at its table."""
    tournament, first = started(list("ABCDE"), bye_value=50, forfeit_value=120)
    expected = {
        e.pk: {"points": 0, "games": 0, "won": 0, "byes": 0} for e in tournament.entrants.all()
    }

    def add(entrant, points, won=0, bye=0):
        line = expected[entrant.pk]
        line["points"] += points
        line["games"] += 1
        line["won"] += won
        line["byes"] += bye

    games = [v for v in round_tables(first) if not v.table.bye]
    (bye,) = [v.entrants[0] for v in round_tables(first) if v.table.bye]
    winner, loser = games[0].entrants
    play_out(games[0].table, winner)
    add(winner, 330, won=1)
    add(loser, -330)
    present, absent = games[1].entrants
    table_forfeit(table=games[1].table, absent=absent)
    add(present, 120, won=1)
    add(absent, -120)
    add(bye, 50, bye=1)
    rounds.round_close(round=first)
    committed(rounds.round_pair_next, tournament=tournament)

    second = tournament.round_set.get(number=2)
    games = [v for v in round_tables(second) if not v.table.bye]
    (bye,) = [v.entrants[0] for v in round_tables(second) if v.table.bye]
    winner, loser = games[0].entrants
    play_out(games[0].table, winner, deadwood=50)
    add(winner, 380, won=1)
    add(loser, -380)
    cancelled = play_out(games[1].table, games[1].entrants[0])
    party_cancel(party=cancelled, user=UserFactory(), reason="Played at the wrong table")
    add(bye, 50, bye=1)
    rounds.round_close(round=second)

    organizers = {
        line.entrant.pk: {
            "points": line.points,
            "games": line.games,
            "won": line.won,
            "byes": line.byes,
        }
        for line in standings_for(tournament).lines
    }
    public_board = board.build_board(tournament)
    public = {
        line.entrant: {
            "points": line.points,
            "games": line.played + line.byes,
            "won": line.won,
            "byes": line.byes,
        }
        for line in public_board.standings
    }

    assert organizers == expected
    assert public == expected
    # Lines in order of points, the organizer's and the public's alike.
    points = [line["points"] for line in organizers.values()]
    assert points == sorted(points, reverse=True)
    assert list(public) == list(organizers)
    # The cancelled party's table shows no result either.
    (table,) = [t for t in public_board.rounds[1].tables if t.party == cancelled.pk]
    assert [side.points for side in table.sides] == [None, None]
