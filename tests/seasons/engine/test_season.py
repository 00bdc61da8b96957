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
    Score,
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


@pytest.mark.parametrize(
    ("scheme", "code", "message"),
    [
        ({"kind": "lottery"}, "unknown", "There is no scheme called 'lottery'."),
        (
            {"kind": PLACES},
            "places",
            "Points by place needs the points for at least the first place.",
        ),
        (
            {"kind": PLACES, "place_points": (10, -1)},
            "negative",
            "Points for a place cannot be negative.",
        ),
        ({"best_of": 0}, "best", "At least one event must count."),
        (
            {"minimum_events": -1},
            "minimum",
            "The minimum number of events cannot be negative.",
        ),
    ],
)
def test_a_refused_scheme_says_which_rule_it_breaks(scheme, code, message):
    # The pages word the rule by its code; the preview shows the message itself.
    with pytest.raises(SchemeError) as refused:
        Scheme(**scheme)
    assert refused.value.code == code
    assert str(refused.value) == message


def test_a_place_may_be_worth_nothing():
    scheme = Scheme(PLACES, (3, 0))
    assert scheme.place_points == (3, 0)


def test_each_score_keeps_its_event_result_place_and_points_and_beyond_the_table_scores_nothing():
    night = Event("n1", date(2026, 9, 1), {"ada": 90, "ben": 30, "cleo": -50, "dan": -70})
    table = season_table([night], Scheme(PLACES, (10, 8, 6)))
    assert [(line.player, line.place, line.total, line.scores) for line in table] == [
        ("ada", 1, 10, (Score("n1", 90, 1, 10),)),
        ("ben", 2, 8, (Score("n1", 30, 2, 8),)),
        ("cleo", 3, 6, (Score("n1", -50, 3, 6),)),
        ("dan", 4, 0, (Score("n1", -70, 4, 0),)),
    ]


def test_events_of_one_day_are_taken_in_the_order_of_their_keys():
    events = [
        Event(2, date(2026, 9, 1), {"ada": 40, "ben": -40}),
        Event(1, date(2026, 9, 1), {"ada": -10, "ben": 10}),
    ]
    ada = season_table(events, Scheme(PLUS_MINUS))[0]
    assert [score.event for score in ada.scores] == [1, 2]


def test_the_best_events_count_wherever_they_fall_and_the_dropped_keep_their_result():
    table = season_table(NIGHTS, Scheme(PLACES, (10, 8, 6), best_of=1))
    # Ben: 6 points on the first night, 10 on the second; only the second counts.
    ben = next(line for line in table if line.player == "ben")
    assert ben.total == 10
    assert ben.scores == (Score(1, -100, 3, 6, counted=False), Score(2, 200, 1, 10))


def test_of_equal_scores_more_events_then_the_player_come_first_in_a_shared_place():
    events = [
        Event(1, date(2026, 9, 1), {"cleo": 50, "ben": -50}),
        Event(2, date(2026, 9, 8), {"ben": 50, "ada": -50}),
        Event(3, date(2026, 9, 15), {"ada": 50, "cleo": -50}),
    ]
    # All three end on 0 from two events each: by player.
    table = season_table(events, Scheme(PLUS_MINUS))
    assert [(line.player, line.place) for line in table] == [("ada", 1), ("ben", 1), ("cleo", 1)]
    events.append(Event(4, date(2026, 9, 22), {"dan": 0, "cleo": 0}))
    # Cleo played three events to the others' two; Dan's one event scored 0 too.
    table = season_table(events, Scheme(PLUS_MINUS))
    assert [(line.player, line.place, line.events) for line in table] == [
        ("cleo", 1, 3),
        ("ada", 1, 2),
        ("ben", 1, 2),
        ("dan", 1, 1),
    ]


def test_players_short_of_the_minimum_are_listed_by_score_however_many_events_they_need():
    events = [
        Event(1, date(2026, 9, 1), {"ben": -10, "dan": 10}),
        Event(2, date(2026, 9, 8), {"ben": -10, "dan": 10}),
        Event(3, date(2026, 9, 15), {"cleo": 50, "dan": -50}),
    ]
    table = season_table(events, Scheme(PLUS_MINUS, minimum_events=3))
    assert [(line.player, line.place, line.total, line.needed) for line in table] == [
        ("dan", 1, -30, 0),
        ("cleo", None, 50, 2),
        ("ben", None, -20, 1),
    ]


def test_an_event_that_decided_its_places_scores_by_them_not_by_plus_minus():
    # A final: Cleo won it from the fourth seed, with the least plus/minus.
    cup = Event(
        4, date(2026, 9, 22), {"ada": 300, "ben": 100, "cleo": -20}, {"cleo": 1, "ada": 2, "ben": 3}
    )
    table = season_table([cup], Scheme(PLACES, (10, 8, 6)))
    assert [(line.player, line.total) for line in table] == [("cleo", 10), ("ada", 8), ("ben", 6)]
    # Plus/minus stays plus/minus.
    table = season_table([cup], Scheme(PLUS_MINUS))
    assert [line.player for line in table] == ["ada", "ben", "cleo"]


def test_a_player_the_event_did_not_place_comes_after_its_last():
    cup = Event(4, date(2026, 9, 22), {"ada": 3, "ben": 1, "dan": 9}, {"ben": 1, "ada": 2})
    (score,) = next(
        line for line in season_table([cup], Scheme(PLACES, (3, 2, 1))) if line.player == "dan"
    ).scores
    assert score.place == 3 and score.points == 1
