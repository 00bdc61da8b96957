"""Points by place at tables of three to six, and who sits out (issue 28)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.games.game import finishing_places
from tournaments.engine.table_points import (
    AtTable,
    TableBye,
    bye_points,
    byes_needed,
    lowest_without_bye,
    place_points,
    table_places,
    table_totals,
)


@pytest.mark.parametrize(
    ("places", "points"),
    [
        ((1, 2, 3, 4), (6, 4, 2, 0)),
        ((1, 2, 3), (4, 2, 0)),
        ((1, 1, 3, 4), (5, 5, 2, 0)),
        ((1, 2, 2, 4), (6, 3, 3, 0)),
        ((1, 1, 1), (2, 2, 2)),
        ((2, 1, 2, 1), (1, 5, 1, 5)),
    ],
)
def test_each_place_scores_two_for_every_player_below_and_one_for_every_equal(places, points):
    assert place_points(places) == points


@given(st.lists(st.integers(min_value=-50, max_value=150), min_size=3, max_size=6))
def test_a_table_of_k_hands_out_k_times_k_minus_one_points(totals):
    places = finishing_places(totals, (), lower_wins=True)
    assert sum(place_points(places)) == len(totals) * (len(totals) - 1)


def test_the_winners_come_first_whatever_the_totals_then_the_best_totals():
    # A Chinchón wins at once: seat 3 wins with the highest penalties.
    assert finishing_places([10, 20, 20, 50], {3}, lower_wins=True) == (2, 3, 3, 1)
    assert finishing_places([10, 20, 20, 50], {0}, lower_wins=True) == (1, 2, 2, 4)
    assert finishing_places([300, 500, 100], {1}, lower_wins=False) == (2, 1, 3)


def test_the_standings_order_points_then_game_score_then_parties_won():
    results = [
        AtTable(("a", "b", "c", "d"), (1, 2, 3, 4), (190, 70, -10, -250)),
        AtTable(("e", "f", "g"), (1, 2, 3), (100, 0, -100)),
        TableBye("h"),
    ]
    totals = table_totals("abcdefgh", results, bye_points=bye_points(4))
    lines = table_places(totals.values())

    assert [(x.total.entrant, x.total.points, x.total.score, x.place) for x in lines] == [
        ("a", 6, 190, 1),
        ("e", 4, 100, 2),
        ("b", 4, 70, 3),
        ("h", 3, 0, 4),
        ("f", 2, 0, 5),
        ("c", 2, -10, 6),
        ("g", 0, -100, 7),
        ("d", 0, -250, 8),
    ]
    assert totals["h"].byes == 1 and totals["h"].won == 0 and totals["h"].games == 1
    assert totals["a"].won == 1 and totals["b"].won == 0


def test_entrants_equal_on_points_score_and_parties_won_share_the_place():
    results = [AtTable(("a", "b", "c"), (1, 1, 3), (50, 50, -100))]
    lines = table_places(table_totals("abc", results, bye_points=2).values())

    assert [(x.total.entrant, x.place, x.shared) for x in lines] == [
        ("a", 1, True),
        ("b", 1, True),
        ("c", 3, False),
    ]


def test_a_result_of_someone_not_entered_is_refused():
    with pytest.raises(ValueError, match="not an entrant"):
        table_totals("ab", [TableBye("z")], bye_points=3)


@pytest.mark.parametrize(
    ("count", "size", "played_by", "byes"),
    [
        (10, 4, (2, 3, 4), 0),  # 4, 3, 3
        (5, 4, (2, 3, 4), 0),  # 3, 2: Chinchón is played by two
        (5, 4, (3, 4, 5, 6), 1),  # Blaue Vierzehn: not 3, 2, but 4 and one bye
        (9, 4, (3, 4, 5, 6), 0),  # 3, 3, 3
        (5, 3, (3, 4, 5, 6), 2),  # 3, 2 → 2, 2 → 3
        (2, 4, (3, 4, 5, 6), 2),  # no table at all
        (0, 4, (3, 4), 0),
    ],
)
def test_entrants_sit_out_until_every_table_is_one_the_game_is_played_at(
    count, size, played_by, byes
):
    assert byes_needed(count, size, played_by) == byes


def test_the_bye_goes_to_the_lowest_placed_without_one_then_the_fewest():
    ranking = ["a", "b", "c", "d", "e"]

    assert lowest_without_bye(ranking, [], 1) == ["e"]
    assert lowest_without_bye(ranking, ["e"], 2) == ["d", "c"]
    assert lowest_without_bye(ranking, ["a", "b", "c", "d", "e", "e"], 2) == ["d", "c"]
    assert lowest_without_bye(ranking, [], 0) == []


def test_a_bye_scores_the_middle_of_the_scale_at_a_full_table():
    assert [bye_points(size) for size in (3, 4, 5, 6)] == [2, 3, 4, 5]
    # The mean of what the places of a full table score.
    assert bye_points(4) == sum(place_points((1, 2, 3, 4))) / 4
