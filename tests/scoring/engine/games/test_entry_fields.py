"""What a table fills in for a hand, as each game declares it (`entry_fields`):
the values become the entry the game's `hand` reads (`entry_from`), a stored entry
gives the values back for a correction (`entry_values`), and what the values say
together is checked by the game (`entry_problems`)."""

from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.games import ENTRY_GAMES
from scoring.engine.games.game import (
    POINTS,
    entry_body,
    entry_fields,
    entry_from,
    entry_problems,
    entry_values,
)

CHINCHON, CANASTA = ENTRY_GAMES["chinchon"], ENTRY_GAMES["canasta"]
CRUZO, BLAUE_VIERZEHN = ENTRY_GAMES["cruzo"], ENTRY_GAMES["blaue_vierzehn"]
NAMES = {0: "Ada", 1: "Ben", 2: "Cleo"}


class Tally:
    """A game that declares nothing of its entry."""

    key, name, table_sizes = "tally", "Tally", (2, 3)


def test_a_game_that_declares_no_entry_takes_each_side_s_points():
    assert entry_fields(Tally()) == POINTS
    values = {"points": {0: 4, 1: 0, 2: 9}}
    assert entry_from(Tally(), values, 3, {}) == {"points": [4, 0, 9]}
    assert entry_values(Tally(), {"points": [4, 0, 9]}) == values
    assert entry_problems(Tally(), values, NAMES, {}) == []


@given(st.lists(st.integers(0, 56), min_size=3, max_size=6))
def test_points_by_side_come_back_as_they_were_entered(points):
    values = entry_values(BLAUE_VIERZEHN, {"points": points})
    assert entry_from(BLAUE_VIERZEHN, values, len(points), {}) == {"points": points}


@given(st.permutations(range(5)), st.integers(0, 5), st.lists(st.integers(0, 6), min_size=5))
def test_cruzo_s_places_and_cards_left_come_back_as_they_were_entered(order, out, left):
    went_out = list(order[:out])
    entry = {"went_out": went_out, "cards_left": {str(n): left[n] for n in order[out:]}}
    values = entry_values(CRUZO, entry)
    names = dict.fromkeys(range(5), "someone")
    assert entry_problems(CRUZO, values, names, {}) == []
    assert entry_from(CRUZO, values, 5, {}) == entry


def test_cruzo_refuses_a_gap_in_the_order_going_out():
    values = {"out": {0: 1, 1: 3, 2: None}, "left": {0: None, 1: None, 2: 2}}
    [(field, side, problem)] = entry_problems(CRUZO, values, NAMES, {})
    assert (field, side) == (None, None)
    assert problem.template.startswith("Number the players who went out 1, 2, 3")


def test_cruzo_names_the_player_still_in_without_a_count_of_cards():
    values = {"out": {0: 1, 1: None, 2: 2}, "left": {0: None, 1: None, 2: None}}
    [(_, _, problem)] = entry_problems(CRUZO, values, NAMES, {})
    assert str(problem) == "Ben did not go out: give the cards left on the table."


def test_a_side_that_melded_nothing_has_not_melded_and_empty_numbers_are_nought():
    values = {field.name: {0: None, 1: None} for field in entry_fields(CANASTA)}
    values["meld_points"] = {0: 120, 1: 0}
    values["melded_nothing"] = {0: False, 1: True}
    entry = entry_from(CANASTA, values, 2, {})
    assert [side["has_melded"] for side in entry["sides"]] == [True, False]
    assert entry["sides"][1]["red_threes"] == 0
    assert entry_values(CANASTA, entry)["melded_nothing"] == {0: False, 1: True}


def chinchon_values(**cards):
    return {
        "closer": 0,
        "chinchon": False,
        "penalty": {0: None, 1: None, 2: None} | cards.pop("penalty", {}),
        "cards": {0: "", 1: "", 2: ""} | cards.pop("cards", {}),
    }


def test_chinchon_stores_the_cards_only_when_every_player_gave_them():
    every = chinchon_values(
        cards={0: "1O 2O 3O 4O 5O 6O 7O", 1: "1C 1E 1B 5C 7E 12B 11C", 2: "2C 2E 2B 3C 4C 5E 7B"}
    )
    assert entry_from(CHINCHON, every, 3, {"deck": 40})["cards"][1][0] == "1C"
    some = chinchon_values(cards={1: "1C 1E 1B 5C 7E 12B 11C"}, penalty={0: 0, 2: 20})
    assert entry_from(CHINCHON, some, 3, {"deck": 40})["penalties"] == [0, 35, 20]


def test_chinchon_refuses_a_card_in_two_hands_and_a_player_with_neither():
    values = chinchon_values(cards={0: "1O 2O 3O", 1: "3O 5C"})
    problems = entry_problems(CHINCHON, values, NAMES, {"deck": 40})
    assert [(field, side) for field, side, _ in problems] == [("penalty", 2), (None, None)]
    assert str(problems[1][2]).startswith("3O is in two hands")


def test_the_api_takes_chinchon_s_penalties_under_their_own_name():
    assert [field.name for field in entry_body(CHINCHON)] == [
        "closer",
        "penalties",
        "cards",
        "chinchon",
    ]
