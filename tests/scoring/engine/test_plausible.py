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
