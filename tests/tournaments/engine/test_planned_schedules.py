"""Schedules planned ahead (docs/developers.md, "The engine's contract"): every round a
partition into ⌈n/k⌉ tables differing by at most one, the larger first; the same
arguments the same schedule; no repeat meeting where a design is known; few
elsewhere; and the designs shipped as data each checked."""

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.engine.designs import affine_space, catalogue, further_rounds
from tournaments.engine.planned import UnplannableField, repeat_bound, repeat_meetings
from tournaments.engine.schedules import planned_schedule
from tournaments.engine.shipped_designs import GOLFERS_32_AT_4, SHIPPED


def meetings(schedule):
    """How often each two sat at one table."""
    return Counter(
        frozenset(pair)
        for tables in schedule
        for table in tables
        for pair in itertools.combinations(table, 2)
    )


def assert_well_seated(schedule, count, size, rounds):
    tables = -(-count // size)
    assert len(schedule) == rounds
    for round_ in schedule:
        sizes = [len(table) for table in round_]
        assert len(round_) == tables
        assert sizes == sorted(sizes, reverse=True)
        assert sizes[0] - sizes[-1] <= 1
        assert sorted(p for table in round_ for p in table) == list(range(count))
        assert all(isinstance(table, tuple) for table in round_)


@st.composite
def fields(draw):
    size = draw(st.integers(3, 6))
    tables = draw(st.integers(1, 4))
    count = draw(st.integers(max(2, tables * (size - 1)), tables * size))
    return count, size, draw(st.integers(1, 4))


@settings(max_examples=30)
@given(fields())
def test_every_round_seats_everyone_once_at_tables_differing_by_at_most_one(field):
    count, size, rounds = field
    schedule = planned_schedule(count, size, rounds)

    assert_well_seated(schedule, count, size, rounds)
    assert repeat_meetings(schedule) >= repeat_bound(count, size, rounds)


@settings(max_examples=10)
@given(fields())
def test_the_same_arguments_give_the_same_schedule(field):
    assert planned_schedule(*field) == planned_schedule(*field)


def test_repeat_meetings_count_each_pair_once_per_extra_round():
    # 0–1 and 2–3 meet three times (two repeats each), the four other pairs twice.
    schedule = [[(0, 1, 2, 3)], [(0, 1, 2, 3)], [(0, 1), (2, 3)]]
    assert repeat_meetings(schedule) == 2 + 2 + 4


def test_one_table_meets_every_pair_each_round():
    schedule = planned_schedule(4, 4, 3)

    assert [len(round_) for round_ in schedule] == [1, 1, 1]
    assert repeat_meetings(schedule) == 2 * 6 == repeat_bound(4, 4, 3)
    # The seats turn: the first seat deals first, a different entrant each round.
    assert len({round_[0][0] for round_ in schedule}) == 3


@pytest.mark.parametrize(
    ("count", "size", "rounds"),
    [
        (9, 3, 4),
        (16, 4, 5),
        (25, 5, 6),
        (15, 3, 7),
        (20, 4, 5),
        (24, 4, 7),
        (27, 3, 10),
        (28, 4, 9),
        (64, 4, 10),
        (21, 3, 10),
        (18, 3, 8),
        (40, 4, 10),
        (40, 4, 13),
        (32, 4, 9),
        (32, 4, 10),
        # A design with seats left empty: one to size − 1 short.
        (8, 3, 4),
        (14, 3, 6),
        (63, 4, 10),
        (61, 4, 10),
        (20, 3, 10),
        (19, 3, 9),
        (17, 3, 8),
        (37, 4, 10),
        (39, 4, 13),
        (31, 4, 9),
        (31, 4, 10),
        (29, 4, 9),
        # Two seats left empty where the rounds played never seat them together.
        (16, 3, 8),
        (30, 4, 9),
        (30, 4, 10),
    ],
)
def test_fields_with_a_known_design_meet_nobody_twice(count, size, rounds):
    schedule = planned_schedule(count, size, rounds)

    assert_well_seated(schedule, count, size, rounds)
    assert repeat_meetings(schedule) == 0


@pytest.mark.parametrize(("count", "size", "rounds"), [(25, 5, 7), (28, 4, 10), (9, 3, 6)])
def test_an_evening_longer_than_a_design_that_meets_everyone_repeats_only_what_it_must(
    count, size, rounds
):
    # The design's rounds seat every pair once; every round after them can only
    # repeat: the counting bound is the least, and the search starts from them.
    schedule = planned_schedule(count, size, rounds)

    assert_well_seated(schedule, count, size, rounds)
    assert repeat_meetings(schedule) == repeat_bound(count, size, rounds)


@pytest.mark.parametrize(
    ("count", "size", "rounds", "most"),
    [
        # 24 at tables of four: the design's seven rounds and one more.
        (24, 4, 8, 18),
        # 32 at tables of four: the design's ten rounds and the round known to
        # follow them, which seats the pairs that never met and meets the
        # counting bound.
        (32, 4, 11, 32),
    ],
)
def test_an_evening_longer_than_a_design_starts_from_it(count, size, rounds, most):
    assert repeat_meetings(planned_schedule(count, size, rounds)) <= most


@pytest.mark.parametrize(
    ("count", "size", "rounds", "most"),
    [
        # Every two of the missing points met in a round played: the design's
        # rounds, evened out, are a start a repeat or two from none (a start of
        # the search's own found 4, 18 and 21).
        (19, 3, 10, 1),
        (29, 4, 10, 2),
        (26, 4, 9, 2),
    ],
)
def test_a_field_a_few_short_of_a_design_it_cannot_play_starts_from_it(count, size, rounds, most):
    schedule = planned_schedule(count, size, rounds)

    assert_well_seated(schedule, count, size, rounds)
    assert repeat_meetings(schedule) <= most


@pytest.mark.parametrize(
    ("count", "size", "rounds", "most"),
    [(10, 4, 4, 6), (13, 4, 4, 6), (12, 3, 5, 4), (18, 5, 4, 8), (22, 6, 3, 12)],
)
def test_fields_without_a_perfect_schedule_have_few_repeats(count, size, rounds, most):
    schedule = planned_schedule(count, size, rounds)

    assert_well_seated(schedule, count, size, rounds)
    assert repeat_meetings(schedule) <= most


@pytest.mark.parametrize(
    ("count", "size", "rounds", "message"),
    [
        (12, 2, 3, "three to six"),
        (12, 7, 3, "three to six"),
        (12, 4, 0, "at least one round"),
        (2, 4, 3, "cannot fill a table of 4"),
        (1, 3, 3, "cannot fill a table of 3"),
        (5, 4, 3, "leave a table with 2"),
        (13, 6, 3, "leave a table with 4"),
    ],
)
def test_fields_that_cannot_be_seated_are_refused_with_a_reason(count, size, rounds, message):
    with pytest.raises(UnplannableField, match=message):
        planned_schedule(count, size, rounds)


def test_a_refusal_is_a_value_error():
    assert issubclass(UnplannableField, ValueError)


@pytest.mark.parametrize("design", [*SHIPPED, affine_space(3, 3), affine_space(3, 4)])
def test_each_design_seats_everyone_each_round_and_no_pair_twice(design):
    size = len(design[0][0])
    points = sum(map(len, design[0]))
    for tables in design:
        assert {len(table) for table in tables} == {size}
        assert sorted(p for table in tables for p in table) == list(range(points))
    assert set(meetings(design).values()) == {1}


@pytest.mark.parametrize("rounds", range(1, 11))
def test_32_at_tables_of_four_meet_nobody_twice_for_up_to_ten_rounds(rounds):
    schedule = planned_schedule(32, 4, rounds)

    assert_well_seated(schedule, 32, 4, rounds)
    assert repeat_meetings(schedule) == 0


def test_the_design_of_32_leaves_only_2i_and_2i_plus_1_apart():
    # Ten rounds of eight tables of four hold 480 of the 496 pairs; the 16 left are
    # a perfect matching, which the round after the design seats two by two.
    met = meetings(GOLFERS_32_AT_4)
    never = {frozenset(pair) for pair in itertools.combinations(range(32), 2)} - set(met)

    assert len(GOLFERS_32_AT_4) == 10
    assert set(met.values()) == {1}
    assert never == {frozenset((2 * i, 2 * i + 1)) for i in range(16)}
    (after,) = further_rounds(32, 4)
    assert sorted(p for table in after for p in table) == list(range(32))
    assert all(frozenset(table[:2]) in never and frozenset(table[2:]) in never for table in after)


def test_the_catalogue_keeps_the_longest_design_of_each_field():
    known = catalogue()

    assert len(known[3][27]) == 13 and len(known[4][64]) == 21
    assert len(known[3][15]) == 7
    assert set(known[4]) >= {16, 20, 24, 28, 64}
    assert len(known[4][28]) == 9
    assert len(known[3][21]) == 10 and len(known[3][18]) == 8 and len(known[4][40]) == 13
    assert len(known[4][32]) == 10
