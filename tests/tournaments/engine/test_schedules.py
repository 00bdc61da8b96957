"""Round robin at tables of three to six: the schedules in which every two
entrants sit at one table exactly once (one table, the affine planes of order 3,
4 and 5, each one short where the game plays short), and the round robin's
tables drawn on them, with seats left empty by withdrawals."""

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.engine.formats import BY_SCHEDULE, RoundRobin, ScheduleComplete, format_of
from tournaments.engine.schedules import (
    NoSchedule,
    TableGame,
    affine_plane,
    arithmetic,
    schedule_fields,
    table_schedule,
    turned,
)

#: A game played by two to six (Canasta): every table one short can play.
ANY = range(2, 7)
ROBIN = RoundRobin()


def meetings(rounds):
    """How often each two sat at one table."""
    return Counter(
        frozenset(pair)
        for tables in rounds
        for table in tables
        for pair in itertools.combinations(table, 2)
    )


def test_the_fields_with_a_schedule_are_one_table_and_the_plane_each_one_short():
    assert schedule_fields(TableGame(3, ANY)) == (2, 3, 8, 9)
    assert schedule_fields(TableGame(4, ANY)) == (3, 4, 15, 16)
    assert schedule_fields(TableGame(5, ANY)) == (4, 5, 24, 25)
    # No affine plane of order 6: one table only.
    assert schedule_fields(TableGame(6, ANY)) == (5, 6)


def test_a_game_not_played_one_short_has_only_the_full_fields():
    # Blaue Vierzehn is played by 3 to 6: a table of two cannot play it.
    assert schedule_fields(TableGame(3, range(3, 7))) == (3, 9)
    # Chinchón is played by 2 to 4: tables of four may be three.
    assert schedule_fields(TableGame(4, (2, 3, 4))) == (3, 4, 15, 16)


@pytest.mark.parametrize(
    ("count", "size", "fields"),
    [(36, 6, (5, 6)), (10, 4, (3, 4, 15, 16)), (14, 4, (3, 4, 15, 16)), (12, 3, (2, 3, 8, 9))],
)
def test_a_field_without_a_schedule_is_refused_naming_those_that_have_one(count, size, fields):
    with pytest.raises(NoSchedule) as refused:
        table_schedule(count, TableGame(size, ANY))

    assert refused.value.fields == fields
    assert (refused.value.count, refused.value.size) == (count, size)
    assert ", ".join(map(str, fields)) in str(refused.value)


@pytest.mark.parametrize("order", [3, 4, 5])
def test_the_arithmetic_of_each_order_is_a_field(order):
    add, times = arithmetic(order)
    elements = range(order)
    for x, y, z in itertools.product(elements, repeat=3):
        assert times[x][add[y][z]] == add[times[x][y]][times[x][z]]
        assert add[x][add[y][z]] == add[add[x][y]][z]
    for x in elements:
        assert sorted(add[x][y] for y in elements) == list(elements)
        if x:
            # Every element but 0 has an inverse: multiplying by it permutes.
            assert sorted(times[x][y] for y in elements) == list(elements)


def test_gf4_squares_a_to_a_plus_one():
    _, times = arithmetic(4)
    # 2 is a, 3 is a + 1: a² = a + 1, a·(a + 1) = 1, (a + 1)² = a.
    assert (times[2][2], times[2][3], times[3][3]) == (3, 1, 2)


@pytest.mark.parametrize("order", [3, 4, 5])
def test_the_affine_plane_seats_every_two_together_exactly_once(order):
    plane = affine_plane(order)
    points = order * order

    assert len(plane) == order + 1
    for tables in plane:
        assert [len(table) for table in tables] == [order] * order
        assert sorted(p for table in tables for p in table) == list(range(points))
    met = meetings(plane)
    assert len(met) == points * (points - 1) // 2 and set(met.values()) == {1}


def test_round_one_is_the_lot_cut_in_order():
    assert affine_plane(4)[0] == ((0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11), (12, 13, 14, 15))


def test_the_seats_turn_each_round():
    plane = affine_plane(3)
    firsts = Counter(table[0] for tables in plane for table in tables)
    # Twelve tables, nine points: nobody takes the first seat more than twice.
    assert max(firsts.values()) <= 2
    assert turned((1, 2, 3), 4) == (2, 3, 1) and turned((), 3) == ()


def test_an_order_without_a_plane_here_is_refused():
    with pytest.raises(ValueError, match="order 3, 4 or 5"):
        affine_plane(6)


@pytest.mark.parametrize("size", [3, 4, 5])
def test_one_short_of_the_plane_each_plays_one_round_at_the_short_table(size):
    count = size * size - 1
    schedule = table_schedule(count, TableGame(size, ANY))

    short = Counter()
    for tables in schedule:
        # The larger tables first, one table short.
        assert [len(t) for t in tables] == [size] * (size - 1) + [size - 1]
        assert sorted(p for t in tables for p in t) == list(range(count))
        short.update(tables[-1])
    met = meetings(schedule)
    assert len(met) == count * (count - 1) // 2 and set(met.values()) == {1}
    assert set(short.values()) == {1} and len(short) == count


@settings(max_examples=60, deadline=None)
@given(
    size=st.sampled_from([3, 4, 5]),
    short=st.booleans(),
    seed=st.integers(min_value=0, max_value=2**32),
    names=st.sets(st.integers(min_value=-(10**6), max_value=10**6), min_size=25, max_size=25),
)
def test_every_two_drawn_entrants_sit_together_exactly_once_each_once_a_round(
    size, short, seed, names
):
    count = size * size - (1 if short else 0)
    entrants = sorted(names)[:count]
    game = TableGame(size, ANY)
    first = ROBIN.first_tables(entrants, game, random.Random(seed))
    rounds = [first.tables]
    for number in range(2, size + 2):
        plan = ROBIN.next_tables(number, entrants, first_order=first.order, game=game)
        assert plan.order is None and not plan.byes
        rounds.append(plan.tables)

    assert len(rounds) == size + 1 == ROBIN.table_round_count(count, game)
    for tables in rounds:
        seated = [e for table in tables for e in table]
        assert sorted(seated) == entrants
        assert {len(t) for t in tables} <= {size, size - 1}
    met = meetings(rounds)
    assert len(met) == count * (count - 1) // 2 and set(met.values()) == {1}
    with pytest.raises(ScheduleComplete):
        ROBIN.next_tables(size + 2, entrants, first_order=first.order, game=game)


def test_round_one_is_drawn_by_lot_and_kept():
    game = TableGame(3, ANY)
    entrants = list("ABCDEFGHI")
    plan = ROBIN.first_tables(entrants, game, random.Random(7))

    assert plan.how == BY_SCHEDULE and sorted(plan.order) == entrants
    assert plan.tables == [tuple(plan.order[i : i + 3]) for i in (0, 3, 6)]
    again = ROBIN.first_tables(reversed(entrants), game, random.Random(7))
    assert again.order == plan.order


def test_a_withdrawn_entrant_leaves_his_table_one_short():
    game = TableGame(3, (2, 3, 4))  # Chinchón: two can play
    order = list("ABCDEFGHI")
    playing = [e for e in order if e != "E"]
    plan = ROBIN.next_tables(2, playing, first_order=order, game=game)

    short = [t for t in plan.tables if len(t) == 2]
    assert len(short) == 1 and "E" not in short[0]
    assert plan.absent[plan.tables.index(short[0])] == ("E",)
    assert not plan.byes and sum(map(len, plan.tables)) == 8


def test_a_table_too_short_for_the_game_sits_out():
    game = TableGame(3, range(3, 7))  # Blaue Vierzehn: not by two
    order = list("ABCDEFGHI")
    playing = [e for e in order if e != "E"]
    plan = ROBIN.next_tables(2, playing, first_order=order, game=game)

    assert len(plan.tables) == 2 and all(len(t) == 3 for t in plan.tables)
    assert len(plan.byes) == 2 and "E" not in plan.byes
    assert sorted([*plan.byes, *(e for t in plan.tables for e in t)]) == playing


def test_one_table_plays_every_round_set_with_the_seats_turned():
    game = TableGame(4, ANY)
    first = ROBIN.first_tables("ABCD", game, random.Random(3))
    second = ROBIN.next_tables(2, list("ABCD"), first_order=first.order, game=game)
    fifth = ROBIN.next_tables(5, list("ABCD"), first_order=first.order, game=game)

    assert first.tables == [tuple(first.order)]
    assert second.tables == [turned(first.order, 1)]
    assert fifth.tables == first.tables
    assert ROBIN.table_round_count(4, game) == 1
    assert ROBIN.table_rounds_at_most(4, game) is None
    assert ROBIN.table_rounds_at_most(16, game) == 5


def test_only_the_knockout_is_not_played_at_tables():
    assert format_of("swiss").seats_tables and format_of("round_robin").seats_tables
    assert not format_of("knockout").seats_tables
    # The Swiss seats any field of one full table or more.
    assert format_of("swiss").table_fields(TableGame(4, ANY)) is None
    assert format_of("swiss").table_round_count(12, TableGame(4, ANY)) == 4
    assert ROBIN.table_fields(TableGame(4, ANY)) == (3, 4, 15, 16)
    # Any other field plays the rounds in which each could meet every other.
    assert ROBIN.table_round_count(10, TableGame(4, ANY)) == 3
    assert ROBIN.table_round_count(2, TableGame(4, ANY)) == 0
