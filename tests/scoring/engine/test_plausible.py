"""What the cards can hold: no deadwood above what ten cards leave, no big gin under
rules without it, no Oklahoma hand without its up-card. Checked from the cards."""

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.cards import DECK, parse_cards
from scoring.engine.hands import (
    MOST_DEADWOOD,
    ImpossibleDeadwood,
    MissingUpCard,
    UnknownEnding,
    check_deadwood,
    check_entry,
    most_deadwood,
)
from scoring.engine.melds import arrange
from scoring.engine.rules import RULESETS
from scoring.engine.showdown import showdown

CLASSIC = RULESETS["classic"]
# Two each of king, queen, jack, ten and nine, the suits alternating: no set, no run.
WORST_TEN = "KS KH QD QC JS JH TD TC 9S 9H"


def most_by_rank_counts(cards):
    """Independently of the engine: the most a hand of ``cards`` cards with at most
    two of a rank (three would be a set) can be worth, over every count per rank."""
    values = [min(rank, 10) for rank in range(1, 14)]
    best = 0
    # Counts 0–2 for the five highest-valued ranks and the nine lower ones grouped
    # by value: enough, since a lower card never beats a higher one.
    for counts in product(range(3), repeat=6):
        taken = sum(counts)
        if taken > cards:
            continue
        worth = sum(c * v for c, v in zip(counts, [10, 10, 10, 10, 9, 8], strict=True))
        rest = sorted((v for v in values if v < 8 for _ in range(2)), reverse=True)
        best = max(best, worth + sum(rest[: cards - taken]))
    return best


def test_ten_cards_hold_at_most_98_points_of_deadwood():
    assert MOST_DEADWOOD == 98 == most_deadwood(10) == most_by_rank_counts(10)


def test_the_worst_ten_cards_have_no_meld_and_98_points_of_deadwood():
    for name in ("classic", "oklahoma"):
        arrangement = arrange(parse_cards(WORST_TEN), RULESETS[name])
        assert (arrangement.melds, arrangement.points) == ((), 98)


def test_a_hand_with_too_many_cards_holds_106():
    # Seed 000 § 14.13: eleven cards, the eleventh an eight of a third suit.
    assert most_deadwood(11) == 106 == most_by_rank_counts(11)
    assert arrange(parse_cards(WORST_TEN + " 8D"), CLASSIC).points == 106


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=10, max_size=10, unique=True))
def test_no_ten_cards_arrange_to_more_than_the_bound(cards):
    assert arrange(cards, CLASSIC).points <= MOST_DEADWOOD


@pytest.mark.parametrize(
    "who, fields",
    [
        ("knocker", {"knocker_points": 99, "defender_points": 0, "ending": "knock"}),
        ("defender", {"knocker_points": 3, "defender_points": 105, "ending": "knock"}),
        ("defender", {"knocker_points": 0, "defender_points": 99, "ending": "gin"}),
        ("defender", {"knocker_points": 0, "defender_points": 90, "ending": "gin",
                      "defender_missing_cards": 1}),
    ],
)  # fmt: skip
def test_more_deadwood_than_the_cards_hold_is_refused(who, fields):
    with pytest.raises(ImpossibleDeadwood) as refused:
        check_entry(CLASSIC, **fields)
    assert refused.value.who == who


def test_the_most_the_cards_hold_is_accepted():
    check_entry(CLASSIC, ending="knock", knocker_points=3, defender_points=98)
    check_entry(
        CLASSIC, ending="knock", knocker_points=3, defender_points=106, defender_too_many_cards=True
    )


def test_big_gin_is_only_known_to_rules_with_its_bonus():
    with pytest.raises(UnknownEnding):
        check_entry(CLASSIC, ending="big_gin", knocker_points=0, defender_points=20)
    check_entry(RULESETS["cardgames"], ending="big_gin", knocker_points=0, defender_points=20)


def test_oklahoma_needs_the_up_card_except_for_a_no_game():
    oklahoma = RULESETS["oklahoma"]
    with pytest.raises(MissingUpCard):
        check_entry(oklahoma, ending="knock", knocker_points=3, defender_points=20)
    check_entry(oklahoma, ending="knock", knocker_points=3, defender_points=20, up_card="5H")
    check_entry(oklahoma, ending="no_game", knocker_points=None, defender_points=None)


def test_eleven_cards_in_melds_are_gin_with_a_discard_under_rules_without_big_gin():
    shown = showdown(
        CLASSIC,
        knocker_cards=parse_cards("2H 3H 4H 7C 7D 7S 9S TS JS QS KS"),
        defender_cards=parse_cards("AH 5H KC KD 8D 8C 6C QD QC 2D"),
    )
    assert (shown.ending, shown.points) == ("gin", 0)
    assert shown.discard is not None


def test_a_refusal_names_who_how_much_and_the_most_the_cards_hold():
    # Ten cards hold at most 98 (two each of K, Q, J, 10, 9: 2 × (10+10+10+10+9)).
    with pytest.raises(ImpossibleDeadwood) as refused:
        check_entry(CLASSIC, ending="knock", knocker_points=99, defender_points=0)
    assert str(refused.value) == (
        "The knocker's cards cannot hold 99 points of deadwood: at most 98."
    )
    assert (refused.value.who, refused.value.points, refused.value.most) == ("knocker", 99, 98)


def test_a_knocker_short_of_cards_holds_less_and_none_holds_nothing():
    # Seed 000 § 14.11: nine cards hold at most 98 − 9 = 89; no card holds nothing.
    check_entry(CLASSIC, ending="knock", knocker_points=98, defender_points=0)
    check_entry(
        CLASSIC, ending="knock", knocker_points=89, defender_points=0, knocker_missing_cards=1
    )
    with pytest.raises(ImpossibleDeadwood, match="at most 89"):
        check_entry(
            CLASSIC, ending="knock", knocker_points=90, defender_points=0, knocker_missing_cards=1
        )
    with pytest.raises(ImpossibleDeadwood, match="at most 0"):
        check_entry(
            CLASSIC, ending="knock", knocker_points=1, defender_points=0, knocker_missing_cards=10
        )


def test_a_defender_with_ten_cards_holds_at_most_98():
    with pytest.raises(ImpossibleDeadwood, match="defender's cards cannot hold 99"):
        check_entry(CLASSIC, ending="knock", knocker_points=0, defender_points=99)


def test_no_cards_hold_no_deadwood_and_a_negative_count_is_refused():
    assert most_deadwood(0) == 0
    assert most_deadwood() == 98
    with pytest.raises(ValueError, match=r"^A number of cards must be a whole number of 0 or "):
        most_deadwood(-1)


def test_the_refusals_of_big_gin_and_of_a_missing_up_card_say_why():
    with pytest.raises(UnknownEnding) as refused:
        check_entry(CLASSIC, ending="big_gin", knocker_points=0, defender_points=20)
    assert str(refused.value) == (
        "The rules 'classic' do not know big gin: eleven cards in melds are gin."
    )
    with pytest.raises(MissingUpCard) as refused:
        check_entry(RULESETS["oklahoma"], ending="knock", knocker_points=3, defender_points=20)
    assert str(refused.value) == "Under Oklahoma the up-card sets the knock limit: enter it too."


def test_the_counts_alone_are_checked_for_ten_cards_each_unless_told_otherwise():
    check_deadwood(knocker_points=98, defender_points=98)
    with pytest.raises(ImpossibleDeadwood, match="defender's cards cannot hold 99"):
        check_deadwood(knocker_points=0, defender_points=99)
