"""The other games' parties as the ratings see them (seed 003): one match of all
the sides at the table, ranked by place; and a player's small record per game, as
the player's page asks each game for it (`Game.record`)."""

from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.games import GAMES
from scoring.engine.games.game import PlayedHand
from seasons.engine.ratings import rate_party, rated_match

DAY = date(2026, 11, 27)


def test_a_table_of_four_orders_the_new_ratings_by_place():
    after = rate_party({}, rated_match(1, DAY, [("a",), ("b",), ("c",), ("d",)], [1, 2, 3, 4]))
    mus = [after[p].mu for p in "abcd"]
    assert mus == sorted(mus, reverse=True) and len(set(mus)) == 4
    assert all(after[p].parties == 1 and after[p].last_played == DAY for p in "abcd")


def test_a_shared_place_is_a_tie():
    after = rate_party({}, rated_match(1, DAY, [("a",), ("b",), ("c",)], [1, 1, 3], won="ab"))
    assert after["a"].mu == after["b"].mu > 25 > after["c"].mu
    assert (after["a"].won, after["b"].won, after["c"].won) == (1, 1, 0)


def test_a_partnership_moves_as_one_team():
    after = rate_party({}, rated_match(1, DAY, [("a", "c"), ("b", "d")], [1, 2], won="ac"))
    assert after["a"].mu == after["c"].mu > 25 > after["b"].mu == after["d"].mu


def test_a_table_all_level_moves_nobody_but_counts():
    after = rate_party({}, rated_match(1, DAY, [("a",), ("b",)], [1, 1]))
    assert (after["a"].mu, after["a"].sigma, after["a"].parties) == (25.0, 25.0 / 3, 1)


@given(st.lists(st.integers(1, 4), min_size=2, max_size=6))
def test_a_better_place_never_leaves_a_lower_rating_from_the_same_start(places):
    players = [f"p{n}" for n in range(len(places))]
    after = rate_party({}, rated_match(1, DAY, [(p,) for p in players], places))
    for a, pa in zip(players, places, strict=True):
        for b, pb in zip(players, places, strict=True):
            if pa < pb:
                assert after[a].mu >= after[b].mu


def test_a_chinchon_record_counts_closes_chinchons_and_the_average_penalty():
    hands = [
        PlayedHand(0, (-10, 30), {"closer": 0, "chinchon": False, "clean": True}),
        PlayedHand(0, (0, 20), {"closer": 0, "chinchon": True, "clean": True}),
        PlayedHand(0, (15, 0), {"closer": 1, "chinchon": False, "clean": False}),
    ]
    record = GAMES["chinchon"].record(hands, [1], 1)
    assert (record["closes"].value, record["closes"].of) == (2, 3)
    assert record["chinchons"].value == 1
    assert record["average_penalty"].value == 5 / 3


def test_a_canasta_record_counts_the_sides_canastas_per_party_and_going_out():
    hands = [
        PlayedHand(1, (100, 900), {"canastas": [0, 3], "went_out": 1}),
        PlayedHand(1, (700, 50), {"canastas": [2, 1], "went_out": 0}),
    ]
    record = GAMES["canasta"].record(hands, [1, 2], 2)
    assert record["canastas_per_party"].value == 2
    assert (record["went_out"].value, record["went_out"].of) == (1, 2)


def test_blue_fourteens_rest_on_the_hands_entered_from_the_cards_and_cruzo_on_places():
    hands = [
        PlayedHand(2, (10, 20, 26), {"blue_fourteen": 2}),
        PlayedHand(2, (26, 20, 10), {"blue_fourteen": 0}),
        PlayedHand(2, (20, 20, 16), {}),
    ]
    record = GAMES["blaue_vierzehn"].record(hands, [], 1)
    assert (record["blue_fourteens"].value, record["blue_fourteens"].of) == (1, 2)
    assert GAMES["cruzo"].record([], [1, 2, 3, 2], 4)["average_place"].value == 2
    assert GAMES["cruzo"].record([], [], 0)["average_place"].value is None
