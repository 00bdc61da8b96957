"""From what a table says to the result the services store (scoring/entries.py): what
is missing or contradictory in a hand said by its counts, and the two versions of a
disputed hand. No database: nothing here is stored."""

import pytest

from scoring import errors
from scoring.entries import counts_problem, result_from_counts, result_of_version
from scoring.models import Hand, Seat
from scoring.services.knocks import Result


def problem(ending="knock", knocker=0, knocker_deadwood=5, defender_deadwood=20, **rulings):
    return counts_problem(
        ending=ending,
        knocker=knocker,
        knocker_deadwood=knocker_deadwood,
        defender_deadwood=defender_deadwood,
        rulings=rulings,
    )


def no_game(knocker=None, knocker_deadwood=None, defender_deadwood=None, **rulings):
    return problem("no_game", knocker, knocker_deadwood, defender_deadwood, **rulings)


def test_a_complete_hand_has_no_problem():
    assert problem() is None
    assert problem("gin", knocker_deadwood=None) is None
    assert no_game() is None


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"ending": None}, "Say how the hand ended: knock, gin, big_gin or no_game."),
        ({"knocker": None}, "Tap who knocked (or went gin)."),
        ({"defender_deadwood": None}, "Enter the opponent's deadwood."),
        ({"knocker_deadwood": None}, "Enter the knocker's deadwood."),
        (
            {"ending": "gin", "knocker_deadwood": None, "knocker_missing_cards": 1},
            "A knocker who is short of cards has no gin.",
        ),
    ],
)
def test_what_is_missing_is_said_in_the_players_words(fields, message):
    assert problem(**fields) == message


def test_a_no_game_has_no_knocker_no_deadwood_and_no_ruling():
    assert no_game(illegal_knock_accepted=True) == (
        "A no-game scores nothing: a director's ruling needs a knock or gin."
    )
    message = "A no-game has no knocker, no deadwood and no rulings."
    assert no_game(knocker=0) == message
    assert no_game(defender_deadwood=0) == message


def test_a_knocker_short_of_cards_may_still_knock():
    # Seed 000 § 14.11: he knocks with nine cards, which hold at most 98 − 9 = 89.
    assert problem(knocker_deadwood=89, knocker_missing_cards=1) is None
    assert problem(knocker_deadwood=90, knocker_missing_cards=1) == (
        "The knocker's deadwood cannot be 90: the cards shown hold at most 89 points."
    )


def test_no_deadwood_exceeds_what_the_cards_shown_hold():
    # Ten cards hold at most 98 (two each of K, Q, J, 10 and 9); nine 89; eleven
    # (the defender with a card too many, seed 000 § 14.13) 98 + 8 = 106.
    assert problem(knocker_deadwood=10, defender_deadwood=98) is None
    assert problem(knocker_deadwood=99) == (
        "The knocker's deadwood cannot be 99: the cards shown hold at most 98 points."
    )
    assert problem(defender_deadwood=99) == (
        "The opponent's deadwood cannot be 99: the cards shown hold at most 98 points."
    )
    assert problem(defender_deadwood=90, defender_missing_cards=1) == (
        "The opponent's deadwood cannot be 90: the cards shown hold at most 89 points."
    )
    assert problem(defender_deadwood=106, defender_too_many_cards=True) is None


def test_a_result_said_by_its_counts_keeps_the_rulings_given_and_the_up_card():
    result = result_from_counts(
        ending="knock",
        knocker=1,
        knocker_deadwood=4,
        defender_deadwood=30,
        up_card="5h",
        rulings={"defender_missing_cards": 1, "illegal_knock_accepted": False},
    )
    assert result == Result(
        "knock", 1, 4, 30, details={"defender_missing_cards": 1, "up_card": "5H"}
    )
    assert result_from_counts(ending="gin", knocker=0, defender_deadwood=12) == Result(
        "gin", 0, 0, 12, details={}
    )
    assert result_from_counts(ending="no_game", knocker=0) == Result("no_game")


def disputed(**fields):
    """A disputed hand as stored: seat 0 entered a knock, seat 1 a gin."""
    hand = Hand(
        status=Hand.Status.DISPUTED,
        ending="knock",
        knocker=Seat(position=0),
        knocker_deadwood=3,
        defender_deadwood=21,
        details={"up_card": "7C"},
        counter={
            "seat": 1,
            "ending": "gin",
            "knocker": 1,
            "knocker_deadwood": 0,
            "defender_deadwood": 9,
            "details": {"knocker_missing_cards": 1},
        },
    )
    for name, value in fields.items():
        setattr(hand, name, value)
    return hand


def test_a_disputed_hand_is_decided_by_either_of_its_two_versions():
    hand = disputed()
    assert result_of_version(hand, "entered") == Result("knock", 0, 3, 21, {"up_card": "7C"})
    assert result_of_version(hand, "counter") == Result(
        "gin", 1, 0, 9, {"knocker_missing_cards": 1}
    )


def test_a_no_game_as_either_version_has_no_knocker():
    hand = disputed(
        ending="no_game",
        knocker=None,
        knocker_deadwood=None,
        defender_deadwood=None,
        details={},
        counter={"seat": 1, "ending": "no_game"},
    )
    assert result_of_version(hand, "entered") == Result("no_game", None, None, None, {})
    assert result_of_version(hand, "counter") == Result("no_game", None, None, None, {})


@pytest.mark.parametrize(
    "fields", [{"status": Hand.Status.PENDING}, {"counter": None}, {"counter": {}}]
)
def test_only_a_disputed_hand_has_two_versions(fields):
    with pytest.raises(errors.WrongDecision) as refused:
        result_of_version(disputed(**fields), "counter")
    assert str(refused.value) == "Only a disputed hand has two versions to choose from."
