"""The hand evaluator, checked against an exhaustive search and the seeds' examples."""

import importlib
import os
import random
import subprocess
import sys
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engine.cards import DECK, Card, InvalidCard, parse_card, parse_cards
from scoring.engine.melds import (
    Arrangement,
    IllegalMeld,
    LayOff,
    WrongHandSize,
    arrange,
    best_discard,
    deadwood,
    is_meld,
    knock_value,
    lay_off,
    prepare,
)
from scoring.engine.rules import RULESETS
from tests.scoring.engine import brute

CLASSIC = RULESETS["classic"]
ACE_HIGH = CLASSIC.but(ace_high=True)
ROUND_THE_CORNER = CLASSIC.but(round_the_corner=True)
VARIANTS = ["ace low", "ace high", "round the corner"]
RUN_RULES = pytest.mark.parametrize(
    "rules", [CLASSIC, ACE_HIGH, ROUND_THE_CORNER], ids=["classic", "ace_high", "round_the_corner"]
)
CHECKS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def cards(text):
    return parse_cards(text)


ANY_SIZE = st.integers(0, 11)


@st.composite
def hands(draw, sizes=ANY_SIZE):
    """Hands of random size: half from the whole deck, half crowded into a few
    neighbouring ranks (sometimes around the K-A corner) so that sets, runs and
    their conflicts are common."""
    size = draw(sizes)
    if draw(st.booleans()):
        return tuple(draw(st.permutations(DECK))[:size])
    start = draw(st.integers(1, 13))
    width = draw(st.integers(3, 7))
    ranks = {(start + step - 1) % 13 + 1 for step in range(width)}
    near = [card for card in DECK if card.rank in ranks]
    far = [card for card in DECK if card.rank not in ranks]
    return tuple((draw(st.permutations(near)) + draw(st.permutations(far)))[:size])


@st.composite
def knocks(draw, rules):
    """A knocker's melds (any legal ones, not only his best) and a defender's hand
    from the cards left, crowded around the same ranks."""
    table = draw(hands(sizes=st.integers(9, 11)))
    candidates = brute.all_melds(table, rules)
    melds, used = [], set()
    for meld in draw(st.permutations(candidates))[:4]:
        if not meld & used:
            melds.append(tuple(sorted(meld)))
            used |= meld
    ranks = {card.rank for card in table}
    rest = [card for card in DECK if card not in used]
    near = [card for card in rest if card.rank in ranks or (card.rank % 13 + 1) in ranks]
    far = [card for card in rest if card not in near]
    size = draw(st.integers(0, 11))
    defender = (draw(st.permutations(near)) + draw(st.permutations(far)))[:size]
    return melds, tuple(defender)


def assert_consistent(arrangement, hand, rules):
    melded = [card for meld in arrangement.melds for card in meld]
    assert Counter(melded + list(arrangement.deadwood)) == Counter(hand)
    assert all(brute.is_meld(meld, rules) for meld in arrangement.melds)
    assert arrangement.points == sum(card.value for card in arrangement.deadwood)
    assert list(arrangement.deadwood) == sorted(arrangement.deadwood)


# --- Agreement with the exhaustive search --------------------------------------


@RUN_RULES
@CHECKS
@given(data=st.data())
def test_least_deadwood_matches_exhaustive_search(rules, data):
    hand = data.draw(hands())
    expected = brute.least_deadwood(hand, rules)
    arrangement = arrange(hand, rules)
    assert deadwood(hand, rules) == expected
    assert arrangement.points == expected
    assert_consistent(arrangement, hand, rules)


@RUN_RULES
@CHECKS
@given(data=st.data())
def test_knock_value_matches_exhaustive_search_over_discards(rules, data):
    hand = data.draw(hands(sizes=st.just(11)))
    after_discard = brute.least_deadwood_after_discard(hand, rules)
    expected = min(after_discard.values())
    discard, arrangement = best_discard(hand, rules)
    assert knock_value(hand, rules) == expected
    assert arrangement.points == expected
    assert after_discard[discard] == expected
    assert_consistent(arrangement, [card for card in hand if card != discard], rules)
    tied = [card for card, points in after_discard.items() if points == expected]
    assert discard == max(tied, key=lambda card: (card.value, card))


@RUN_RULES
@CHECKS
@given(data=st.data())
def test_lay_off_matches_exhaustive_search_over_assignments(rules, data):
    knocker_melds, defender = data.draw(knocks(rules))
    result = lay_off(knocker_melds, defender, rules)
    assert result.points == brute.lay_off_points(knocker_melds, defender, rules)
    grown = [list(meld) for meld in knocker_melds]
    for card, index in result.placements:
        grown[index].append(card)
    assert all(brute.is_meld(meld, rules) for meld in grown)
    assert list(result.laid_off) == [card for card, _ in result.placements]
    own = Arrangement(melds=result.melds, deadwood=result.deadwood, points=result.points)
    kept = [card for card in defender if card not in result.laid_off]
    assert_consistent(own, kept, rules)
    assert len(kept) + len(result.laid_off) == len(defender)


@CHECKS
@given(hand=hands())
def test_round_the_corner_includes_ace_high(hand):
    both = CLASSIC.but(ace_high=True, round_the_corner=True)
    assert arrange(hand, both) == arrange(hand, ROUND_THE_CORNER)


@CHECKS
@given(hand=hands(), data=st.data())
def test_arrangement_does_not_depend_on_how_the_cards_are_given(hand, data):
    shuffled = data.draw(st.permutations(hand))
    as_text = " ".join(str(card) for card in shuffled)
    rebuilt = [Card(card.rank, card.suit) for card in shuffled]
    assert arrange(shuffled) == arrange(hand) == arrange(as_text) == arrange(rebuilt)
    assert deadwood(as_text) == deadwood(rebuilt) == deadwood(set(hand)) == arrange(hand).points


def rlcard(module):
    """An RLCard module. RLCard is a benchmark extra: a laptop without it skips the
    cross-check, CI installs it and sets KNOCK_REQUIRE_RLCARD so it never skips."""
    if os.environ.get("KNOCK_REQUIRE_RLCARD"):
        return importlib.import_module(f"rlcard.games.gin_rummy.utils.{module}")
    return pytest.importorskip(f"rlcard.games.gin_rummy.utils.{module}")


def test_deadwood_matches_rlcard_on_ten_cards():
    melding = rlcard("melding")
    utils = rlcard("utils")
    rng = random.Random(7)
    for _ in range(300):
        hand = rng.sample(DECK, 10)
        theirs = [utils.card_from_text(str(card)) for card in hand]
        clusters = melding.get_best_meld_clusters(theirs)
        expected = utils.get_deadwood_count(theirs, clusters[0] if clusters else [])
        assert deadwood(hand) == expected


# --- Melds ----------------------------------------------------------------------


@pytest.mark.parametrize("text", ["KS KH KD", "3C 3D 3H 3S", "AS 2S 3S", "8H 9H TH JH QH"])
def test_sets_and_runs_are_melds(text):
    assert is_meld(text)


@pytest.mark.parametrize("text", ["KS KH", "AS 2S 4S", "AS 2H 3S", "5C 5D 6C", ""])
def test_gaps_mixed_suits_and_pairs_are_no_melds(text):
    assert not is_meld(text)


@pytest.mark.parametrize(
    ("text", "classic", "ace_high", "round_the_corner"),
    [
        ("QH KH AH", False, True, True),
        ("JH QH KH AH", False, True, True),
        ("KH AH 2H", False, False, True),
        ("QH KH AH 2H", False, False, True),
        ("AH 2H 3H", True, True, True),
    ],
)
def test_ace_follows_the_king_only_under_the_switches(text, classic, ace_high, round_the_corner):
    assert is_meld(text, CLASSIC) is classic
    assert is_meld(text, ACE_HIGH) is ace_high
    assert is_meld(text, ROUND_THE_CORNER) is round_the_corner


@pytest.mark.parametrize("rules", [CLASSIC, ACE_HIGH, ROUND_THE_CORNER], ids=VARIANTS)
def test_a_whole_suit_is_one_run(rules):
    # Ace to king in sequence: one meld however the ace may be placed.
    assert is_meld(" ".join(f"{rank}H" for rank in "A23456789TJQK"), rules)


def test_with_ace_high_an_ace_that_fits_both_ends_stays_low():
    # A-2-3-4 and J-Q-K, or 2-3-4 and J-Q-K-A: no deadwood either way; the ace stays low.
    arrangement = arrange("AH 2H 3H 4H JH QH KH", ACE_HIGH)
    assert arrangement.points == 0
    assert arrangement.melds == (parse_cards("AH 2H 3H 4H"), parse_cards("JH QH KH"))


def test_queen_king_ace_counts_as_a_run_only_with_ace_high():
    hand = "QS KS AS 2S 3S"
    assert deadwood(hand, CLASSIC) == 20
    assert deadwood(hand, ACE_HIGH) == 5
    assert deadwood(hand, ROUND_THE_CORNER) == 0


def test_a_card_is_in_one_meld_only():
    # The 7♥ cannot serve both the sevens and the hearts: the run keeps more.
    result = arrange("7C 7D 7H 5H 6H 8H 9H")
    assert result.melds == (cards("5H 6H 7H 8H 9H"),)
    assert result.points == 14


def test_fourth_card_of_a_set_may_stay_in_its_run():
    result = arrange("5C 5D 5H 5S 6S 7S")
    assert result.points == 0
    assert (parse_card("5S"), parse_card("6S"), parse_card("7S")) in result.melds


def test_runs_are_listed_in_sequence_round_the_corner():
    result = arrange("QH KH AH 2H", ROUND_THE_CORNER)
    assert result.melds == (cards("QH KH AH 2H"),)


def test_no_cards_have_no_deadwood():
    assert arrange([]) == Arrangement(melds=(), deadwood=(), points=0)


def test_eleven_cards_in_melds_are_big_gin():
    hand = "AC 2C 3C 4C 9D 9H 9S JS QS KS 9C"
    result = arrange(hand)
    assert result.points == 0
    assert sum(len(meld) for meld in result.melds) == 11


# --- Knocking -------------------------------------------------------------------


def test_knocking_with_three_five_nine_discards_the_nine():
    # Seed 001: with 3, 5 and 9 as deadwood, knock with the nine and count 8.
    hand = "TC TD TH TS AD 2D 3D 4D 3C 5S 9H"
    assert arrange(hand).points == 17
    discard, arrangement = best_discard(hand)
    assert discard == parse_card("9H")
    assert arrangement.points == 8
    assert knock_value(hand) == 8


def test_best_discard_throws_away_the_highest_of_equal_choices():
    # Deadwood 7 + 8 + 10 + 10 + 10: throwing any court card leaves 35, and of
    # those the king (the highest card) goes.
    discard, arrangement = best_discard("AC 2C 3C 4D 5D 6D 7H 8S QD QH KS")
    assert discard == parse_card("KS")
    assert arrangement.points == 35


def test_best_discard_may_break_a_big_gin():
    # ♣A, ♣4 or any nine leave gin; a nine is worth most, and ♠ ranks highest.
    discard, arrangement = best_discard("AC 2C 3C 4C 9D 9H 9S JS QS KS 9C")
    assert arrangement.points == 0
    assert discard == parse_card("9S")


# --- Laying off (seed 002, Beispiele) -------------------------------------------


def test_ace_and_five_both_lay_off_on_two_three_four():
    result = lay_off(["2H 3H 4H"], "AH 5H")
    assert set(result.laid_off) == set(cards("AH 5H"))
    assert result.points == 0


def test_six_lays_off_after_the_five():
    result = lay_off(["2H 3H 4H"], "5H 6H KC")
    assert result.laid_off == cards("5H 6H")
    assert result.placements == ((parse_card("5H"), 0), (parse_card("6H"), 0))
    assert result.deadwood == cards("KC")
    assert result.points == 10


def test_six_does_not_lay_off_without_the_five():
    assert lay_off(["2H 3H 4H"], "6H").points == 6


def test_fourth_queen_lays_off_on_three_queens():
    result = lay_off(["QH QD QS"], "QC")
    assert result.placements == ((parse_card("QC"), 0),)
    assert result.points == 0


def test_defender_cannot_take_a_queen_out_of_the_knockers_four_queens():
    # Seed 002, Gegenbeispiel.
    result = lay_off(["QD QH QS QC"], "KD JD")
    assert result.laid_off == ()
    assert result.points == 20


def test_seven_of_spades_goes_on_the_run_when_the_eight_follows():
    result = lay_off(["7C 7D 7H", "4S 5S 6S"], "7S 8S")
    assert result.placements == ((parse_card("7S"), 1), (parse_card("8S"), 1))
    assert result.points == 0


def test_seven_of_spades_fits_the_set_as_well():
    assert lay_off(["7C 7D 7H"], "7S").points == 0


def test_own_melds_and_lay_offs_compete_for_the_same_cards():
    # The 5♥ either extends the knocker's run or completes the defender's fives.
    result = lay_off(["2H 3H 4H"], "5H 5C 5D 9S")
    assert result.points == 9


def test_defender_melds_before_laying_off_when_it_comes_to_the_same():
    result = lay_off(["2H 3H 4H"], "5H 6H 7H")
    assert result.melds == (cards("5H 6H 7H"),)
    assert result.laid_off == ()


def test_lay_offs_turn_the_corner_after_the_king_only_round_the_corner():
    knocker = ["4H 5H 6H 7H 8H 9H TH JH QH KH"]
    result = lay_off(knocker, "AH 2H", ROUND_THE_CORNER)
    assert result.laid_off == cards("AH 2H")
    assert result.points == 0
    assert lay_off(knocker, "AH 2H", CLASSIC).points == 3


def test_lay_off_chains_at_both_ends_round_the_corner():
    result = lay_off(["AH 2H 3H"], "KH QH 4H", ROUND_THE_CORNER)
    assert result.points == 0
    assert lay_off(["AH 2H 3H"], "KH QH 4H", CLASSIC).points == 20


def test_ace_lays_off_above_the_king_only_with_ace_high():
    assert lay_off(["JS QS KS"], "AS").points == 1
    assert lay_off(["JS QS KS"], "AS", ACE_HIGH).points == 0


def test_knock_with_five_against_twelve_laying_off_eight_leaves_four():
    # Seed 000, Klopfen: A knocks with 5; B has 12, lays off 8, keeps 4.
    knocker = arrange("2H 3H 4H 7C 7D 7H 9S TS JS 5C")
    assert knocker.points == 5
    defender = "QC QD QS AD 2D 3D 4D 5D 8S 4C"
    assert deadwood(defender) == 12
    result = lay_off(knocker.melds, defender)
    assert result.laid_off == cards("8S")
    assert result.points == 4


def test_lay_off_result_lists_placements_by_knocker_meld():
    result = lay_off(["2H 3H 4H", "9C 9D 9S"], "9H AH 5H")
    assert isinstance(result, LayOff)
    assert set(result.placements) == {
        (parse_card("AH"), 0),
        (parse_card("5H"), 0),
        (parse_card("9H"), 1),
    }


# --- Errors ---------------------------------------------------------------------


def test_twelve_cards_are_too_many():
    with pytest.raises(WrongHandSize, match="at most 11"):
        arrange(DECK[:12])
    with pytest.raises(WrongHandSize):
        deadwood(DECK[:12])


def test_best_discard_needs_eleven_cards():
    with pytest.raises(WrongHandSize, match="11 cards"):
        best_discard(DECK[:10])
    with pytest.raises(WrongHandSize):
        knock_value(DECK[:10])


@pytest.mark.parametrize("function", [arrange, deadwood, is_meld])
def test_a_card_named_twice_is_invalid(function):
    with pytest.raises(InvalidCard, match="AS"):
        function([DECK[39], DECK[39], DECK[40]])


def test_a_bad_card_is_invalid():
    with pytest.raises(InvalidCard, match="XX"):
        deadwood("AS XX")


def test_knocker_melds_must_be_melds():
    with pytest.raises(IllegalMeld, match="not a meld"):
        lay_off(["2H 3H 5H"], "4H")
    with pytest.raises(IllegalMeld):
        lay_off(["QH KH AH"], "JH")


def test_a_card_cannot_be_with_knocker_and_defender():
    with pytest.raises(InvalidCard, match="4H"):
        lay_off(["2H 3H 4H"], "4H 5H")


def test_round_the_corner_the_two_and_three_follow_queen_king_ace():
    # K-A-2 runs: after ♥Q-♥K-♥A the ♥2 fits, and the ♥3 after it.
    result = lay_off(["QH KH AH"], "2H 3H 9C", ROUND_THE_CORNER)
    assert result.laid_off == cards("2H 3H")
    assert result.points == 9
    # With the ace only high, nothing follows the ace.
    assert lay_off(["QH KH AH"], "2H 3H 9C", ACE_HIGH).points == 2 + 3 + 9


@pytest.mark.parametrize(
    ("melds", "defender", "message"),
    [
        (
            "2H 3H 4H",
            "9C",
            "Give the knocker's melds as a list of melds, one item per meld.",
        ),
        (
            ["2H 3H 5H"],
            "9C",
            "2H 3H 5H is not a meld: a meld is 3 or 4 cards of one rank, "
            "or 3 or more cards of one suit in sequence.",
        ),
        (
            [[]],
            "9C",
            "(no cards) is not a meld: a meld is 3 or 4 cards of one rank, "
            "or 3 or more cards of one suit in sequence.",
        ),
        (
            ["2H 3H 4H"],
            "4H 9C",
            "4H is named twice: it is in the defender's hand or in another of the knocker's melds.",
        ),
    ],
)
def test_knocker_melds_that_cannot_be_are_refused_with_the_reason(melds, defender, message):
    with pytest.raises(ValueError) as refused:
        lay_off(melds, defender)
    assert str(refused.value) == message


def test_queen_king_ace_knocks_only_with_the_ace_high():
    # 7 7 7 and 2-3-4♣ are melds; Q♠ K♠ A♠ 9♦ 10♥ are left, and a ten goes as discard:
    # classic 10 + 10 + 1 + 9 = 30; with the ace high Q-K-A is a run too, 9 is left.
    hand = "QS KS AS 7C 7D 7H 2C 3C 4C 9D TH"
    assert knock_value(hand, CLASSIC) == best_discard(hand, CLASSIC)[1].points == 30
    assert knock_value(hand, ACE_HIGH) == best_discard(hand, ACE_HIGH)[1].points == 9


@pytest.mark.parametrize("rules", [CLASSIC, ACE_HIGH, ROUND_THE_CORNER], ids=VARIANTS)
def test_preparing_the_tables_changes_no_result(rules):
    hand = "QS KS AS 7C 7D 7H 2C 3C 4C 9D TH"
    before = knock_value(hand, rules), deadwood(hand, rules)
    prepare(rules)
    assert (knock_value(hand, rules), deadwood(hand, rules)) == before


def test_when_a_run_and_a_set_leave_the_same_deadwood_the_run_is_kept():
    # 4-5-6♥ leaves 5♣ 5♦ (10); 5♣ 5♦ 5♥ leaves 4♥ 6♥ (10). No set is tried first.
    arrangement = arrange("4H 5H 6H 5C 5D")
    assert arrangement.melds == (cards("4H 5H 6H"),)
    assert arrangement.deadwood == cards("5C 5D")


@pytest.mark.parametrize(
    ("hand", "melds"),
    [
        ("7C 7D 7S 7H 8H 9H", ["7C 7D 7S", "7H 8H 9H"]),
        ("4H 5H 6H 5C 5D 5S", ["4H 5H 6H", "5C 5D 5S"]),
    ],
)
def test_melds_are_listed_by_their_lowest_card(hand, melds):
    # Rank first, then ♣ < ♦ < ♥ < ♠: 7♣ before 7♥, 4♥ before 5♣.
    assert arrange(hand).melds == tuple(cards(meld) for meld in melds)


def test_a_lone_ace_is_the_discard_that_leaves_gin():
    # 2-3-4-5♣, 5-6-7♦ and 8-9-10♠ are melds; throwing the ♥A away leaves no deadwood.
    hand = "2C 3C 4C 5C 5D 6D 7D 8S 9S TS AH"
    assert knock_value(hand) == 0
    assert best_discard(hand)[0] == parse_card("AH")


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ("deadwood('AS 2S 3S 9C')", "9"),
        ("deadwood('QS KS AS', RULESETS['classic'].but(ace_high=True))", "0"),
        ("knock_value('2C 3C 4C 5C 5D 6D 7D 8S 9S TS AH')", "0"),
        ("arrange('AS 2S 3S 9C').points", "9"),
        ("best_discard('2C 3C 4C 5C 5D 6D 7D 8S 9S TS AH')[1].points", "0"),
        ("lay_off(['2H 3H 4H'], 'AH 5H 9C').points", "9"),
    ],
)
def test_every_evaluator_works_as_the_first_call_in_a_new_process(call, expected):
    # The lookup tables are built on first use, by whichever function comes first (a
    # server's first request). A new interpreter has none built yet.
    imports = "from scoring.engine.melds import *; from scoring.engine.rules import RULESETS"
    script = f"{imports}; print({call})"
    done = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout.strip()) == (0, expected), done.stderr


def test_four_of_a_kind_may_all_stay_in_runs():
    # 6-7-8♣, 7-8-9♦ and 5-6-7♥ hold three of the sevens; 7♠ and K♦ are left: 17.
    # Any set of sevens breaks runs: 7♣ 7♦ 7♠ leaves 6♣ 8♣ 8♦ 9♦ K♦ = 41.
    hand = "6C 7C 8C 7D 8D 9D 5H 6H 7H 7S KD"
    assert deadwood(hand) == arrange(hand).points == 7 + 10
    assert arrange(hand).deadwood == cards("7S KD")
