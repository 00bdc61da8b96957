from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.games.cruzo import (
    GAME,
    default_scheme,
    finishing_order,
    place_points,
    standing,
)
from scoring.engine.games.game import EntryError

NAMES = ["Anna", "Bernd", "Clara", "Dieter", "Emil", "Frieda", "Gerd", "Hanna"]

orders = st.integers(2, 8).flatmap(lambda n: st.permutations(NAMES[:n]))
schemes = st.lists(st.integers(0, 20), min_size=8, max_size=10).map(
    lambda points: sorted(points, reverse=True)
)


# Points per place: the first out wins (seed 003 "Spielende"); the club's scheme.


def test_four_players_score_three_two_one_nothing():
    assert place_points(["Clara", "Anna", "Dieter", "Bernd"]) == {
        "Clara": 3,
        "Anna": 2,
        "Dieter": 1,
        "Bernd": 0,
    }


def test_two_players_score_one_and_nothing():
    assert place_points(["Bernd", "Anna"]) == {"Bernd": 1, "Anna": 0}


@given(orders)
def test_the_last_scores_nothing_and_each_place_above_one_more(order):
    points = place_points(order)
    assert set(points) == set(order)
    assert points[order[-1]] == 0
    for better, worse in pairwise(order):
        assert points[better] == points[worse] + 1


@given(orders, schemes)
def test_a_club_scheme_gives_each_place_its_points(order, scheme):
    points = place_points(order, scheme)
    assert [points[player] for player in order] == scheme[: len(order)]


def test_a_club_scheme_longer_than_the_table_is_cut_to_its_places():
    assert place_points(["Anna", "Bernd", "Clara"], [10, 6, 3, 1, 0]) == {
        "Anna": 10,
        "Bernd": 6,
        "Clara": 3,
    }


def test_the_default_scheme_counts_down_to_nothing():
    assert default_scheme(5) == (4, 3, 2, 1, 0)
    assert default_scheme(2) == (1, 0)
    with pytest.raises(ValueError, match="at least two players"):
        default_scheme(1)


@pytest.mark.parametrize("players", [3.0, "3", True])
def test_a_number_of_players_is_a_whole_number(players):
    with pytest.raises(ValueError) as refused:
        default_scheme(players)
    assert str(refused.value) == f"Cruzo needs at least two players, not {players!r} (seed 003)."


def test_players_sharing_a_place_score_the_better_place_and_skip_the_next():
    points = place_points(["Anna", {"Bernd", "Clara"}, "Dieter"])
    assert points == {"Anna": 3, "Bernd": 2, "Clara": 2, "Dieter": 0}


@pytest.mark.parametrize(
    ("order", "message"),
    [
        (["Anna", "Bernd", "Anna"], "Anna is named twice: every player has one place."),
        (["Anna", {"Bernd", "Anna"}], "Anna is named twice: every player has one place."),
        (["Anna"], "Cruzo needs at least two players, not 1 (seed 003)."),
        ([], "Cruzo needs at least two players, not 0 (seed 003)."),
        (
            [{"Anna", "Bernd"}, "Clara"],
            "The first place is not shared: whoever went out first wins the game (seed 003).",
        ),
        (["Anna", set(), "Bernd"], "A shared place needs the players who share it."),
        ("Anna Bernd", "Give the finishing order as a list of players, first out first."),
        (None, "Give the finishing order as a list of players, first out first."),
    ],
)
def test_a_broken_finishing_order_is_refused(order, message):
    with pytest.raises(ValueError) as refused:
        place_points(order)
    assert str(refused.value) == message


@pytest.mark.parametrize(
    ("scheme", "message"),
    [
        ([2, 1], "names 2 places, but 3 players"),
        ([2, 1, -1], "whole numbers of 0 or more"),
        ([2, 1.5, 0], "whole numbers of 0 or more"),
        ([1, 2, 0], "worse place cannot score more"),
    ],
)
def test_a_broken_scheme_is_refused(scheme, message):
    with pytest.raises(ValueError, match=message):
        place_points(["Anna", "Bernd", "Clara"], scheme)


@pytest.mark.parametrize(
    ("scheme", "said"),
    [
        ([2, 1], "The points scheme names 2 places, but 3 players have a place."),
        ([2, True, 0], "The points for a place must be whole numbers of 0 or more."),
        ([3, 3, 4], "A worse place cannot score more than a better one."),
    ],
)
def test_a_broken_scheme_is_refused_in_full_words(scheme, said):
    with pytest.raises(ValueError) as refused:
        place_points(["Anna", "Bernd", "Clara"], scheme)
    assert str(refused.value) == said


def test_equal_points_for_two_places_are_a_scheme():
    assert place_points(["Anna", "Bernd", "Clara"], [3, 3, 0]) == {
        "Anna": 3,
        "Bernd": 3,
        "Clara": 0,
    }


# Placing by the cards left on the table: "je weniger das sind, um so besser".


def test_the_rest_are_placed_by_the_fewest_cards_on_the_table():
    order = finishing_order(["Dieter"], {"Anna": 4, "Bernd": 1, "Clara": 6})
    assert order == ["Dieter", "Bernd", "Anna", "Clara"]
    assert place_points(order) == {"Dieter": 3, "Bernd": 2, "Anna": 1, "Clara": 0}


def test_equal_counts_share_a_place():
    order = finishing_order(["Anna", "Bernd"], {"Clara": 3, "Dieter": 1, "Emil": 3})
    assert order == ["Anna", "Bernd", "Dieter", frozenset({"Clara", "Emil"})]
    assert place_points(order) == {"Anna": 4, "Bernd": 3, "Dieter": 2, "Clara": 1, "Emil": 1}


@given(
    st.permutations(NAMES).flatmap(
        lambda names: st.tuples(
            st.integers(1, 7).map(lambda k: names[:k]),
            st.lists(st.integers(0, 6), min_size=1, max_size=7),
        ).map(lambda drawn: (drawn[0], dict(zip(names[len(drawn[0]) :], drawn[1], strict=False))))
    )
)
def test_whoever_went_out_ranks_above_everyone_still_in(game):
    went_out, cards_left = game
    points = place_points(finishing_order(went_out, cards_left))
    assert set(points) == set(went_out) | set(cards_left)
    for still_in in cards_left:
        assert all(points[out] > points[still_in] for out in went_out)
    for one, other in pairwise(went_out):
        assert points[one] > points[other]
    for one in cards_left:
        for other in cards_left:
            fewer = cards_left[one] < cards_left[other]
            assert (points[one] > points[other]) == fewer


@pytest.mark.parametrize(
    ("went_out", "cards_left", "message"),
    [
        ([], {"Anna": 2, "Bernd": 3}, "nobody went out"),
        (["Anna"], {"Bernd": 7}, "0 to 6 cards left on the table"),
        (["Anna"], {"Bernd": -1}, "0 to 6 cards left on the table"),
        (["Anna"], {"Bernd": "2"}, "0 to 6 cards left on the table"),
        (["Anna"], {"Anna": 2, "Bernd": 3}, "Anna went out and cannot have cards left"),
        (["Anna", "Anna"], {"Bernd": 3}, "Anna is named twice"),
        (["Anna"], {}, "at least two players"),
    ],
)
def test_a_broken_game_end_is_refused(went_out, cards_left, message):
    with pytest.raises(ValueError, match=message):
        finishing_order(went_out, cards_left)


@pytest.mark.parametrize(
    ("cards_left", "said"),
    [
        (
            {"Bernd": 7},
            "Bernd can have 0 to 6 cards left on the table (three open, three Bunker), not 7.",
        ),
        (
            {"Bernd": 2, "Clara": "2"},
            "Clara can have 0 to 6 cards left on the table (three open, three Bunker), not '2'.",
        ),
        ({"Anna": 0, "Bernd": 2}, "Anna went out and cannot have cards left on the table."),
    ],
)
def test_cards_left_that_cannot_be_are_refused_in_full_words(cards_left, said):
    with pytest.raises(ValueError) as refused:
        finishing_order(["Anna"], cards_left)
    assert str(refused.value) == said


@pytest.mark.parametrize("went_out", ["Anna", {"Anna"}, None])
def test_the_players_who_went_out_are_a_list_in_order(went_out):
    with pytest.raises(ValueError) as refused:
        finishing_order(went_out, {"Bernd": 2})
    assert str(refused.value) == "Give the players who went out as a list, first out first."


# The party: an agreed number of games, the most points win.


@given(st.integers(2, 6).flatmap(lambda n: st.lists(st.permutations(NAMES[:n]), min_size=1)))
def test_every_game_hands_out_the_same_points_and_the_most_lead(games):
    players = len(games[0])
    totals = dict.fromkeys(games[0], 0)
    for order in games:
        for player, points in place_points(order).items():
            totals[player] += points
    assert sum(totals.values()) == len(games) * players * (players - 1) // 2
    result = standing(totals, games_played=len(games), games_agreed=len(games))
    most = max(totals.values())
    assert result.over
    assert result.winners == result.leaders == {p for p, t in totals.items() if t == most}


def test_the_most_points_win_once_the_agreed_games_are_played():
    result = standing({"Anna": 5, "Bernd": 7, "Clara": 3}, games_played=5, games_agreed=5)
    assert result.over
    assert result.winners == {"Bernd"}
    assert result.games_left == 0


def test_before_the_last_game_there_is_a_leader_but_no_winner():
    result = standing({"Anna": 5, "Bernd": 7, "Clara": 3}, games_played=5, games_agreed=8)
    assert not result.over
    assert result.leaders == {"Bernd"}
    assert result.winners == frozenset()
    assert result.games_left == 3


def test_players_tied_on_the_most_points_share_the_win():
    result = standing({"Anna": 7, "Bernd": 7, "Clara": 1}, games_played=5, games_agreed=5)
    assert result.winners == {"Anna", "Bernd"}


@pytest.mark.parametrize(
    ("totals", "played", "agreed", "message"),
    [
        ({"Anna": 3}, 3, 3, "at least two players"),
        ({"Anna": 3, "Bernd": -1}, 3, 3, "Bernd's total must be a whole number"),
        ({"Anna": 3, "Bernd": 0}, 4, 3, "4 games played, but the party was agreed on 3"),
        ({"Anna": 0, "Bernd": 0}, 0, 0, "at least one game"),
        ({"Anna": 0, "Bernd": 0}, 1.0, 3, "games played must be a whole number"),
    ],
)
def test_a_broken_standing_is_refused(totals, played, agreed, message):
    with pytest.raises(ValueError, match=message):
        standing(totals, played, agreed)


# A game entered at the table (the game behind the interface).


def test_a_game_entered_scores_the_places_and_names_the_first_out():
    scored = GAME.hand({"went_out": [2, 0], "cards_left": {"1": 4, 3: 2}}, [0] * 4, {})
    assert scored.scores == (2, 0, 3, 1)
    assert scored.facts == {"first": 2}


def test_players_with_as_many_cards_left_share_their_place_at_the_table():
    scored = GAME.hand({"went_out": [1], "cards_left": {0: 2, 2: 2, 3: 5}}, [0] * 4, {})
    assert scored.scores == (2, 3, 2, 0)
    assert scored.facts == {"first": 1}


def test_a_game_entered_without_cards_left_needs_everyone_out():
    scored = GAME.hand({"went_out": [1, 0]}, [0, 0], {})
    assert scored.scores == (0, 1)


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        (
            {"went_out": [0], "cards_left": [(1, 3)]},
            "Give the cards left on the table by player.",
        ),
        (
            {"went_out": [0], "cards_left": {1: 3}},
            "Every player has a place: went out, or cards left on the table.",
        ),
        (
            {"went_out": [], "cards_left": {0: 3, 1: 2, 2: 1}},
            "The game is won by the first player to go out; nobody went out yet.",
        ),
    ],
)
def test_a_game_entry_that_cannot_be_placed_is_refused_in_words(entry, problem):
    with pytest.raises(EntryError) as refused:
        GAME.hand(entry, [0, 0, 0], {})
    assert refused.value.problems == [problem]
