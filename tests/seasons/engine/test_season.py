from datetime import date
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seasons.engine.season import (
    PLACES,
    PLUS_MINUS,
    Event,
    Scheme,
    SchemeError,
    places,
    season_table,
)

NIGHTS = [
    Event(1, date(2026, 9, 1), {"ada": 150, "ben": -100, "cleo": -50}),
    Event(2, date(2026, 9, 8), {"ada": -200, "ben": 200}),
    Event(3, date(2026, 9, 15), {"ada": 80, "cleo": -80}),
]


def test_the_sum_of_plus_minus_ranks_the_season():
    table = season_table(NIGHTS, Scheme(PLUS_MINUS))
    assert [(line.player, line.place, line.total) for line in table] == [
        ("ben", 1, 100),
        ("ada", 2, 30),
        ("cleo", 3, -130),
    ]


def test_points_by_place_score_each_event_and_equal_results_share_a_place():
    assert places({"a": 5, "b": 5, "c": 1}) == {"a": 1, "b": 1, "c": 3}
    table = season_table(NIGHTS, Scheme(PLACES, (10, 8, 6)))
    # Ada 10 + 8 + 10; Ben 6 + 10; Cleo 8 + 8: Ben and Cleo share second place.
    assert [(line.player, line.place, line.total) for line in table] == [
        ("ada", 1, 28),
        ("ben", 2, 16),
        ("cleo", 2, 16),
    ]


def test_only_the_best_events_count_and_the_others_are_shown_dropped():
    table = season_table(NIGHTS, Scheme(PLUS_MINUS, best_of=1))
    ada = next(line for line in table if line.player == "ada")
    assert ada.total == 150
    assert [s.counted for s in ada.scores] == [True, False, False]


def test_a_player_short_of_the_minimum_is_listed_below_with_what_he_needs():
    table = season_table(NIGHTS, Scheme(PLUS_MINUS, minimum_events=3))
    assert [(line.player, line.place, line.needed) for line in table] == [
        ("ada", 1, 0),
        ("ben", None, 1),
        ("cleo", None, 1),
    ]


@pytest.mark.parametrize(
    "scheme",
    [
        {"kind": "lottery"},
        {"kind": PLACES},
        {"kind": PLACES, "place_points": (10, -1)},
        {"best_of": 0},
        {"minimum_events": -1},
    ],
)
def test_a_scheme_that_cannot_score_is_refused(scheme):
    with pytest.raises(SchemeError):
        Scheme(**scheme)


results = st.dictionaries(st.sampled_from("abcdef"), st.integers(-300, 300), min_size=1, max_size=6)


# A busy machine must not fail a property: no deadline (never a wall-clock test).
@settings(deadline=None)
@given(st.lists(results, max_size=8), st.integers(1, 5), st.integers(0, 4))
def test_every_player_is_listed_once_and_places_never_fall_as_scores_rise(nights, best, minimum):
    events = [Event(n, date(2026, 1, 1 + n), r) for n, r in enumerate(nights)]
    table = season_table(events, Scheme(PLACES, (10, 8, 6, 5), best, minimum))
    players = {p for r in nights for p in r}
    assert sorted(line.player for line in table) == sorted(players)
    ranked = [line for line in table if line.place is not None]
    assert all(line.events >= minimum for line in ranked)
    for a, b in pairwise(ranked):
        assert a.total >= b.total and a.place <= b.place
        assert (a.place == b.place) == (a.total == b.total)
    for line in table:
        assert sum(s.counted for s in line.scores) == min(best, line.events)
