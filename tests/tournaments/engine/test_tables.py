"""Seating a round at tables of three to six: fewest repeat meetings, then the
standings as closely as they can be followed."""

import itertools
import math
import random
from collections import Counter
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.engine.grouping import Search
from tournaments.engine.tables import TableLine, explain, seat_tables, table_sizes

EIGHT = list("ABCDEFGH")
DENSE = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)
# Large fields late in a tournament: each entrant has met a few of the others.
SPARSE = (0.0, 0.05, 0.1, 0.2)


def positions(ranking, tables):
    place = {entrant: i for i, entrant in enumerate(ranking)}
    return [tuple(place[entrant] for entrant in table) for table in tables]


def repeats(tables, met):
    times = Counter(frozenset(pair) for pair in met)
    return sum(
        times[frozenset(pair)] for table in tables for pair in itertools.combinations(table, 2)
    )


def ranking_cut(count, size):
    tables, start = [], 0
    for length in table_sizes(count, size):
        tables.append(tuple(range(start, start + length)))
        start += length
    return tables


# --------------------------------------------------------------------------- references


def every_seating(count, size):
    """Every valid seating by its definition, built without the search's order:
    each place in turn joins a table already open or opens one (so every
    partition of the places comes up once); kept are those whose tables,
    listed by their best-placed entrant, have the sizes of `table_sizes`."""
    sizes = table_sizes(count, size)

    def partitions(place, tables):
        if place == count:
            yield tables
            return
        for index in range(len(tables)):
            if len(tables[index]) < max(sizes):
                yield from partitions(
                    place + 1, [*tables[:index], (*tables[index], place), *tables[index + 1 :]]
                )
        if len(tables) < len(sizes):
            yield from partitions(place + 1, [*tables, (place,)])

    for tables in partitions(0, []):
        ordered = sorted(tables, key=min)
        if [len(table) for table in ordered] == sizes:
            yield ordered


def brute_force(ranking, size, met):
    """The rule by exhaustion: the fewest repeats, then the tables' sorted
    places compared in order, as positions in ``ranking``."""
    named_met = [pair for pair in met if set(pair) <= set(ranking)]

    def key(tables):
        named = [[ranking[p] for p in table] for table in tables]
        return repeats(named, named_met), [sorted(table) for table in tables]

    best = min(every_seating(len(ranking), size), key=key, default=[])
    return [tuple(sorted(table)) for table in best]


def memo_reference(ranking, size, met):
    """The rule by a plain memoised search: the fewest repeats of every field
    left once tables 1, 2, … are seated (each headed by the best-placed left),
    then the tables taken one by one, each the first in dictionary order that
    still allows that fewest."""
    count = len(ranking)
    sizes = table_sizes(count, size)
    times = Counter(frozenset(pair) for pair in met)

    def cost(table):
        return sum(
            times[frozenset((ranking[a], ranking[b]))] for a, b in itertools.combinations(table, 2)
        )

    def choices(left):
        table = len(sizes) - next(
            n for n in range(len(sizes) + 1) if sum(sizes[len(sizes) - n :]) == len(left)
        )
        head, rest = left[0], left[1:]
        for others in itertools.combinations(rest, sizes[table] - 1):
            chosen = (head, *others)
            yield chosen, tuple(p for p in rest if p not in others)

    @cache
    def least(left):
        if not left:
            return 0
        return min(cost(table) + least(rest) for table, rest in choices(left))

    tables, left = [], tuple(range(count))
    while left:
        table, left = next(
            (table, rest)
            for table, rest in choices(left)
            if cost(table) + least(rest) == least(left)
        )
        tables.append(table)
    return tables


@st.composite
def rounds(draw, min_size=0, max_size=9, sizes=(3, 4, 5, 6), densities=DENSE):
    """A standings order with a random history of meetings: pairs in either
    order, some met twice or more, some naming entrants who withdrew."""
    count = draw(st.integers(min_size, max_size))
    size = draw(st.sampled_from(sizes))
    ranking = [f"P{i}" for i in range(count)]
    random.Random(draw(st.integers(0, 2**32))).shuffle(ranking)
    density = draw(st.sampled_from(densities))
    rng = random.Random(draw(st.integers(0, 2**32)))
    met = []
    for pair in itertools.combinations([*ranking, "Gone"], 2):
        times = 0
        while rng.random() < density / (1 + 2 * times):
            times += 1
        met += [pair if rng.random() < 0.5 else pair[::-1] for _ in range(times)]
    rng.shuffle(met)
    return ranking, size, met


def planted(count, size, seed):
    """A valid seating chosen at random, and a history in which every pair not
    at one of its tables has met: that seating is the only one without a
    repeat."""
    rng = random.Random(seed)
    ranking = [f"P{i}" for i in range(count)]
    left, hidden = list(range(count)), []
    for length in table_sizes(count, size):
        head, rest = left[0], left[1:]
        others = sorted(rng.sample(rest, length - 1))
        hidden.append((head, *others))
        left = [p for p in rest if p not in others]
    together = {frozenset(pair) for table in hidden for pair in itertools.combinations(table, 2)}
    met = [
        (ranking[a], ranking[b])
        for a, b in itertools.combinations(range(count), 2)
        if frozenset((a, b)) not in together
    ]
    return ranking, met, hidden


# --------------------------------------------------------------------------- the rule, by example


def test_with_no_meeting_the_tables_are_the_ranking_cut_in_order():
    tables = seat_tables(EIGHT, 4)

    assert tables == [("A", "B", "C", "D"), ("E", "F", "G", "H")]


def test_the_leader_sits_with_the_best_placed_he_has_not_met():
    tables = seat_tables(EIGHT, 4, [("A", "B")])

    assert tables == [("A", "C", "D", "E"), ("B", "F", "G", "H")]


def test_a_pair_listed_twice_counts_as_two_repeats():
    # Two tables of two: A-B and C-D repeat three meetings, the other two
    # seatings two each. Counted once, A-B would tie and come first.
    met = [("A", "B"), ("A", "B"), ("C", "D"), ("A", "C"), ("B", "D"), ("A", "D"), ("B", "C")]

    assert seat_tables("ABCD", 3, met) == [("A", "C"), ("B", "D")]


def test_repeats_are_accepted_only_as_far_as_every_seating_has_them():
    # Nine at tables of three; A and B have met everyone but each other, so
    # whoever joins them repeats two meetings, and apart they would repeat four.
    met = [(x, y) for x in "AB" for y in "CDEFGHI"]

    tables = seat_tables("ABCDEFGHI", 3, met)

    assert tables == [("A", "B", "C"), ("D", "E", "F"), ("G", "H", "I")]
    assert repeats(tables, met) == 2


def test_where_every_seating_has_a_repeat_the_leaders_table_is_still_as_high_as_it_can_be():
    # Every seating of these six repeats a meeting; A-B-E and C-D-F repeat
    # only A-B, and no seating with one repeat has a higher first table.
    met = [("A", "B"), ("A", "C"), ("A", "D"), ("B", "C")]

    tables = seat_tables("ABCDEF", 3, met)

    assert tables == [("A", "B", "E"), ("C", "D", "F")]
    assert repeats(tables, met) == 1


def test_tables_list_their_entrants_in_standings_order():
    tables = seat_tables(["Zoe", "Al", "Mo", "Bo", "Cy", "Di"], 3, [("Zoe", "Al")])

    assert tables == [("Zoe", "Mo", "Bo"), ("Al", "Cy", "Di")]


def test_an_uneven_field_puts_the_larger_tables_first():
    assert [len(table) for table in seat_tables(list(range(10)), 4)] == [4, 3, 3]
    assert [len(table) for table in seat_tables(list(range(7)), 6)] == [4, 3]


def test_the_larger_tables_stay_at_the_top_even_when_a_smaller_one_would_avoid_a_repeat():
    # Seven at tables of four and three: the leader heads the table of four.
    # He has met everyone but G, so his table has two repeats at least; at a
    # table of three it would have had one.
    met = [("A", x) for x in "BCDEF"]

    tables = seat_tables("ABCDEFG", 4, met)

    assert tables == [("A", "B", "C", "G"), ("D", "E", "F")]
    assert repeats(tables, met) == 2


def test_a_field_smaller_than_one_table_sits_at_one_short_table():
    assert seat_tables(["A", "B"], 5) == [("A", "B")]
    assert seat_tables(["A"], 3) == [("A",)]


def test_four_at_tables_of_three_sit_at_two_tables_of_two():
    assert seat_tables("ABCD", 3) == [("A", "B"), ("C", "D")]


def test_an_empty_field_gets_no_tables():
    assert seat_tables([], 4) == []


def test_meetings_of_withdrawn_entrants_are_ignored():
    assert seat_tables(EIGHT, 4, [("A", "Gone"), ("Gone", "B")]) == seat_tables(EIGHT, 4)


def test_entrants_may_be_any_hashable_ids():
    assert seat_tables([7, (1, 2), "x", None], 4, [(7, None)]) == [(7, (1, 2), "x", None)]


@pytest.mark.parametrize(
    ("size", "met", "expected"),
    [
        (
            3,
            "AF AH AJ BI BK CF CH CI CK DI DK EF EJ EK FG FH FJ FK GJ GK HI HJ",
            ["ABC", "DEG", "FIJ", "HK"],
        ),
        (
            4,
            "AC AK BC BI CD CH CI CJ CK DF DH DI DJ EG EK GK HI IJ JK",
            ["ABDE", "CFGI", "HJK"],
        ),
    ],
)
def test_crowded_uneven_fields_keep_every_larger_table_headed_better(size, met, expected):
    # Eleven entrants who met often, at tables of two sizes: seating the
    # hardest entrant first, the search meets seatings that head a smaller
    # table better than a larger one, and must pass them by. The expected
    # tables are those of the memoised search.
    ranking = list("ABCDEFGHIJK")
    pairs = [tuple(pair) for pair in met.split()]

    tables = seat_tables(ranking, size, pairs)

    assert ["".join(table) for table in tables] == expected
    assert positions(ranking, tables) == memo_reference(ranking, size, pairs)


# --------------------------------------------------------------------------- table sizes


@pytest.mark.parametrize(
    ("count", "size", "sizes"),
    [
        (0, 4, []),
        (1, 4, [1]),
        (12, 4, [4, 4, 4]),
        (13, 4, [4, 3, 3, 3]),
        (10, 3, [3, 3, 2, 2]),
        (4, 3, [2, 2]),
        (7, 6, [4, 3]),
        (17, 5, [5, 4, 4, 4]),
    ],
)
def test_table_sizes_are_as_even_as_the_table_count_allows(count, size, sizes):
    assert table_sizes(count, size) == sizes


@given(st.integers(0, 300), st.integers(3, 6))
def test_table_sizes_give_the_fewest_tables_differing_by_at_most_one(count, size):
    sizes = table_sizes(count, size)

    assert sum(sizes) == count
    assert len(sizes) == math.ceil(count / size)
    assert all(0 < length <= size for length in sizes)
    assert sizes == sorted(sizes, reverse=True)
    assert not sizes or max(sizes) - min(sizes) <= 1


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("size", [-1, 0, 1, 2, 7, 12])
def test_a_size_outside_three_to_six_is_refused(size):
    with pytest.raises(ValueError, match=f"3 to 6 players, not {size}"):
        seat_tables(EIGHT, size)


def test_a_size_given_as_true_is_refused():
    with pytest.raises(ValueError, match="table size"):
        seat_tables(EIGHT, True)


def test_an_entrant_listed_twice_in_the_ranking_is_refused():
    with pytest.raises(ValueError, match="C is listed twice in the ranking"):
        seat_tables(["A", "B", "C", "D", "C"], 3)


@pytest.mark.parametrize("pair", [("A",), ("A", "B", "C"), (), 5, None])
def test_a_pair_that_met_must_name_two_entrants(pair):
    with pytest.raises(ValueError, match="must name two entrants"):
        seat_tables(EIGHT, 4, [("A", "B"), pair])


def test_a_pair_naming_one_entrant_twice_is_refused():
    with pytest.raises(ValueError, match="names B twice"):
        seat_tables(EIGHT, 4, [("B", "B")])


# --------------------------------------------------------------------------- properties


@settings(max_examples=120, deadline=None)
@given(rounds(max_size=8))
def test_seating_equals_the_exhaustive_search(round_):
    ranking, size, met = round_

    assert positions(ranking, seat_tables(ranking, size, met)) == brute_force(ranking, size, met)


@settings(max_examples=60, deadline=None)
@given(rounds(min_size=9, max_size=13, sizes=(3, 4)))
def test_seating_of_larger_fields_equals_the_memoised_search(round_):
    ranking, size, met = round_

    assert positions(ranking, seat_tables(ranking, size, met)) == memo_reference(ranking, size, met)


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from([(7, 4), (10, 3), (10, 4), (11, 3), (11, 4), (13, 4)]),
    st.sampled_from([0.4, 0.5, 0.6, 0.7]),
    st.integers(0, 2**32),
)
def test_uneven_fields_that_met_often_equal_the_memoised_search(field, density, seed):
    # Tables of two sizes: the search that seats the hardest place first must
    # still keep every larger table headed better than every smaller one.
    count, size = field
    rng = random.Random(seed)
    ranking = [f"P{i}" for i in range(count)]
    met = [pair for pair in itertools.combinations(ranking, 2) if rng.random() < density]

    assert positions(ranking, seat_tables(ranking, size, met)) == memo_reference(ranking, size, met)


@settings(max_examples=60, deadline=None)
@given(rounds(max_size=45, densities=SPARSE))
def test_everyone_sits_once_at_even_tables_listed_best_placed_first(round_):
    ranking, size, met = round_

    tables = seat_tables(ranking, size, met)

    place = {entrant: i for i, entrant in enumerate(ranking)}
    seated = [entrant for table in tables for entrant in table]
    assert sorted(seated, key=place.get) == ranking
    assert [len(table) for table in tables] == table_sizes(len(ranking), size)
    assert all(list(table) == sorted(table, key=place.get) for table in tables)
    heads = [place[table[0]] for table in tables]
    assert heads == sorted(heads)
    assert repeats(tables, met) <= repeats(
        [[ranking[p] for p in table] for table in ranking_cut(len(ranking), size)], met
    )


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 80), st.integers(3, 6))
def test_with_no_meeting_so_far_the_tables_are_the_ranking_cut(count, size):
    ranking = [f"P{i}" for i in range(count)]

    assert positions(ranking, seat_tables(ranking, size)) == ranking_cut(count, size)


@settings(max_examples=40, deadline=None)
@given(st.integers(6, 48), st.sampled_from([3, 4, 5, 6]), st.integers(0, 2**32))
def test_the_only_seating_without_a_repeat_is_found(count, size, seed):
    ranking, met, hidden = planted(count, size, seed)

    assert positions(ranking, seat_tables(ranking, size, met)) == hidden


@settings(max_examples=25, deadline=None)
@given(st.integers(9, 48), st.sampled_from([3, 4]), st.integers(0, 2**32))
def test_the_only_seating_with_one_repeat_is_found_when_none_has_fewer(count, size, seed):
    ranking, met, hidden = planted(count, size, seed)
    # Two at the last of those tables met once: every other seating puts
    # two or more pairs together again.
    last = hidden[-1]
    met.append((ranking[last[0]], ranking[last[1]]))

    tables = seat_tables(ranking, size, met)

    assert positions(ranking, tables) == hidden
    assert repeats(tables, met) == 1


@settings(max_examples=30, deadline=None)
@given(rounds(max_size=20, densities=SPARSE))
def test_neither_the_order_of_meetings_nor_of_their_names_matters(round_):
    ranking, size, met = round_
    turned = [pair[::-1] for pair in reversed(met)]

    assert seat_tables(ranking, size, turned) == seat_tables(ranking, size, met)


@settings(max_examples=20, deadline=None)
@given(rounds(min_size=9, max_size=12, sizes=(3, 4)))
def test_the_result_does_not_depend_on_which_search_decides(round_):
    # With few places left every table is checked before it is taken; with
    # none checked, the plain search in standings order must agree.
    ranking, size, met = round_
    checked = seat_tables(ranking, size, met)
    original = Search.CHECKED
    try:
        Search.CHECKED = 0
        unchecked = seat_tables(ranking, size, met)
    finally:
        Search.CHECKED = original

    assert unchecked == checked


# --------------------------------------------------------------------------- explain


def test_explain_says_who_moved_to_avoid_a_repeat_and_what_the_cut_would_have_repeated():
    met = [("A", "B"), ("C", "E"), ("C", "E")]
    tables = seat_tables("ABCDEF", 3, met)

    lines = explain("ABCDEF", tables, met)

    assert lines == [
        TableLine(
            number=1,
            seats=("A", "C", "D"),
            places=(1, 3, 4),
            repeats=0,
            met_before=(),
            cut_repeats=1,
            moved_away=("B",),
            moved_in=("D",),
        ),
        TableLine(
            number=2,
            seats=("B", "E", "F"),
            places=(2, 5, 6),
            repeats=0,
            met_before=(),
            cut_repeats=0,
            moved_away=("D",),
            moved_in=("B",),
        ),
    ]
    assert not lines[0].is_cut


def test_explain_counts_a_pair_met_twice_twice():
    lines = explain("ABCD", [("A", "B", "C", "D")], [("B", "A"), ("A", "B"), ("C", "D")])

    assert lines[0].met_before == (("A", "B", 2), ("C", "D", 1))
    assert lines[0].repeats == 3
    assert lines[0].is_cut


def test_explain_follows_a_seating_changed_by_hand():
    lines = explain("ABCDEF", [("F", "A", "B"), ("C", "D", "E")], [("A", "F")])

    assert lines[0].places == (6, 1, 2)
    assert lines[0].met_before == (("A", "F", 1),)
    assert lines[0].moved_away == ("C",)
    assert lines[0].moved_in == ("F",)


def test_explain_refuses_an_entrant_seated_twice_or_not_in_the_ranking():
    with pytest.raises(ValueError, match="B is seated twice"):
        explain("ABCD", [("A", "B"), ("B", "C")])
    with pytest.raises(ValueError, match="X is seated but not in the ranking"):
        explain("ABCD", [("A", "X")])


@settings(max_examples=30, deadline=None)
@given(rounds(max_size=24, densities=SPARSE))
def test_explain_adds_up_to_the_repeats_of_the_round(round_):
    ranking, size, met = round_
    tables = seat_tables(ranking, size, met)

    lines = explain(ranking, tables, met)

    assert sum(line.repeats for line in lines) == repeats(tables, met)
    cut = [[ranking[p] for p in table] for table in ranking_cut(len(ranking), size)]
    assert sum(line.cut_repeats for line in lines) == repeats(cut, met)
    assert [line.seats for line in lines] == tables
