"""An evening planned ahead (tournaments.engine.mixer): every round seats each
entrant once at tables the game plays, or gives a bye; a fresh evening meets
nobody twice where a design is known; a re-plan counts the meetings played; the
same arguments give the same plan."""

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.engine.formats import format_of
from tournaments.engine.mixer import (
    MOST_ROUNDS,
    evening,
    meetings,
    plan_evening,
    rounds_to_meet_everyone,
)
from tournaments.engine.planned import UnplannableField
from tournaments.engine.schedules import TableGame

ANY = range(3, 7)


def seated(rounds):
    return [round_.tables for round_ in rounds]


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 40), st.integers(3, 6), st.integers(1, 5), st.booleans())
def test_every_round_seats_each_entrant_once_at_tables_the_game_plays(count, size, rounds, short):
    played_by = range(size - 1, 7) if short else range(size, 7)
    game = TableGame(size, played_by)
    plan = evening(count, game, rounds)

    assert len(plan) == rounds
    for round_ in plan:
        everyone = [p for table in round_.tables for p in table] + list(round_.byes)
        assert sorted(everyone) == list(range(count))
        assert all(len(table) in played_by for table in round_.tables)
        sizes = [len(table) for table in round_.tables]
        assert sizes == sorted(sizes, reverse=True) and (not sizes or sizes[0] - sizes[-1] <= 1)


def test_byes_go_round_before_anyone_sits_out_twice():
    plan = evening(10, TableGame(3, ANY), 6)

    byes = Counter(p for round_ in plan for p in round_.byes)
    assert sum(byes.values()) == 6 and set(byes.values()) == {1}


@pytest.mark.parametrize(("count", "size", "rounds"), [(13, 4, 4), (16, 4, 5), (15, 3, 7)])
def test_a_fresh_evening_meets_nobody_twice_where_a_design_is_known(count, size, rounds):
    plan = evening(count, TableGame(size, ANY), rounds)

    assert meetings(seated(plan), range(count)).repeats == 0


def test_a_re_plan_counts_the_meetings_already_played():
    order = list(range(16))
    game = TableGame(4, ANY)
    evening_of_16 = seated(plan_evening(order, game, 5))
    played = evening_of_16[:2]
    # One leaves after two rounds: the three rounds left for the 15, re-planned
    # from the plan of the 16, still repeat nothing.
    rest = seated(plan_evening(order[1:], game, 3, played=played, before=evening_of_16[2:]))
    met = Counter(
        frozenset(pair)
        for tables in played + rest
        for table in tables
        for pair in itertools.combinations(table, 2)
    )
    assert 0 not in {p for pair in itertools.chain(*rest) for p in pair}
    assert max(met.values()) == 1


def test_the_same_arguments_give_the_same_plan():
    game = TableGame(4, ANY)
    played = [[("a", "b", "c", "d"), ("e", "f", "g")]]
    first = plan_evening(list("abcdefg"), game, 3, played=played, sat_out="a")
    assert first == plan_evening(list("abcdefg"), game, 3, played=played, sat_out="a")


def test_the_rounds_to_meet_everyone_are_bounded():
    assert rounds_to_meet_everyone(13, TableGame(4, ANY)) == 4
    assert rounds_to_meet_everyone(64, TableGame(3, ANY)) == MOST_ROUNDS
    assert rounds_to_meet_everyone(3, TableGame(4, ANY)) == 1


def test_meetings_count_repeats_pairs_again_and_pairs_never():
    tables = [[(0, 1, 2)], [(0, 1, 3)], [(0, 1, 2)]]
    assert meetings(tables, range(4)) == meetings(tables, [0, 1, 2, 3])
    result = meetings(tables, range(4))
    assert (result.repeats, result.again, result.never) == (4, 3, 1)


def test_no_round_is_refused():
    with pytest.raises(UnplannableField):
        evening(8, TableGame(4, ANY), 0)


def test_the_format_plans_through_the_mixer():
    plan = format_of("planned").plan(list("abcdefgh"), TableGame(4, ANY), 2)
    assert [len(round_.tables) for round_ in plan] == [2, 2]
