"""Entering a hand from the cards: the arrangement, declared melds, lay-offs and the
card counts that seed 000 § 14 allows. No database: the evaluation stores nothing."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engine.cards import DECK, parse_cards
from scoring.engine.rules import RULESETS
from scoring.engine.showdown import ShowdownError, showdown
from scoring.errors import EntryError
from scoring.services.knocks import result_from_cards
from tests.scoring.engine.brute import all_melds

CLASSIC = RULESETS["classic"]
# Seed 002 (Beispiele): the knocker shows ♥2-♥3-♥4; the defender lays off ♥A and ♥5.
KNOCKER = "2H 3H 4H 7C 7D 7S 9S TS JS 2C"
DEFENDER = "AH 5H KC KD KS 8D 8C 6S QD QC"


def evaluate(knocker=KNOCKER, defender=DEFENDER, rules=CLASSIC, **options):
    return result_from_cards(
        rules,
        knocker=0,
        knocker_cards=parse_cards(knocker),
        defender_cards=parse_cards(defender),
        **options,
    )


def texts(cards):
    return sorted(cards.split())


def test_the_best_arrangement_counts_when_no_melds_are_declared():
    result = evaluate()
    assert (result.ending, result.knocker_deadwood, result.defender_deadwood) == ("knock", 2, 42)
    assert result.details["knocker_melds"] == [
        ["2H", "3H", "4H"],
        ["7C", "7D", "7S"],
        ["9S", "TS", "JS"],
    ]
    assert result.details["knocker_deadwood_cards"] == ["2C"]
    assert sorted(result.details["laid_off"]) == ["5H", "AH"]
    assert result.details["defender_melds"] == [["KC", "KD", "KS"]]
    assert "declared" not in result.details


def test_eleven_cards_knock_without_the_best_discard():
    result = evaluate(knocker=KNOCKER + " KD", defender="AH 5H KC QH KS 8D 8C 6S QD QC")
    assert (result.ending, result.knocker_deadwood) == ("knock", 2)
    assert result.details["discard"] == "KD"


# Gin: 2-3-4♥, 7♣ 7♦ 7♠ and 9-10-J-Q♠. The defender's K K K leave A♥ 5♥ 8♦ 8♣ 6♠ Q♦ Q♣:
# 1 + 5 + 8 + 8 + 6 + 10 + 10 = 48, or 42 once ♥A and ♥5 go onto 2-3-4♥.
GIN = "2H 3H 4H 7C 7D 7S 9S TS JS QS"


def test_the_defender_may_not_lay_off_on_gin():
    # Seed 000 § 11: "so darf der Gegner nur eigene Figuren auslegen".
    result = evaluate(knocker=GIN)
    assert (result.ending, result.defender_deadwood) == ("gin", 48)
    assert result.details["laid_off"] == []


def test_a_club_that_allows_lay_offs_on_gin_lets_the_defender_lay_off():
    # Seed 002, Varianten: "ob man unbrauchbare Karten an ein Gin-Blatt anlegen darf".
    result = evaluate(knocker=GIN, rules=CLASSIC.but(layoff_on_gin=True))
    assert (result.ending, result.defender_deadwood) == ("gin", 42)
    assert sorted(result.details["laid_off"]) == ["5H", "AH"]


def test_eleven_cards_in_melds_are_big_gin_and_nobody_lays_off():
    result = evaluate(
        knocker="2H 3H 4H 7C 7D 7S 9S TS JS QS KS",
        defender="AH 5H KC KD 8D 8C 6C QD QC 2D",
        rules=RULESETS["cardgames"],
    )
    assert (result.ending, result.knocker_deadwood, result.defender_deadwood) == ("big_gin", 0, 70)
    assert result.details["laid_off"] == []


def test_declared_melds_change_what_the_defender_can_lay_off():
    knocker = "3H 4H 5H 6H KC KD KS AC AD 2S"
    defender = "2H 7H QC QD JC TC 9S 9D 5C 8D"
    best = evaluate(knocker, defender)
    assert (best.knocker_deadwood, best.defender_deadwood) == (4, 41)
    assert sorted(best.details["laid_off"]) == ["2H", "7H"]

    # The knocker laid down ♥4-♥5-♥6 and kept ♥3: ♥2 no longer fits, ♥7 still does.
    declared = evaluate(knocker, defender, melds=[parse_cards("4H 5H 6H"), parse_cards("KC KD KS")])

    assert (declared.knocker_deadwood, declared.defender_deadwood) == (7, 43)
    assert declared.details["laid_off"] == ["7H"]
    assert declared.details["knocker_deadwood_cards"] == ["AC", "AD", "2S", "3H"]
    assert declared.details["declared"] is True


def test_declaring_fewer_melds_of_eleven_cards_discards_the_card_worth_most():
    result = evaluate(
        knocker=KNOCKER + " KD",
        defender="AH 5H KC QH KS 8D 8C 6S QD QC",
        melds=[parse_cards("2H 3H 4H"), parse_cards("7C 7D 7S")],
    )
    # ♠9 ♠10 ♠J ♣2 ♦K are left over: ♦K and ♠10 and ♠J are worth 10, ♦K is highest.
    assert result.details["discard"] == "KD"
    assert result.knocker_deadwood == 9 + 10 + 10 + 2


def test_a_run_in_sequence_is_shown_in_sequence_whatever_the_tapping_order():
    rules = CLASSIC.but(ace_high=True)
    result = evaluate(
        knocker="QS AS KS 7C 7D 7S 2H 3H 4H 2C",
        defender=DEFENDER.replace("KS", "JS"),
        rules=rules,
        melds=[parse_cards("AS QS KS")],
    )
    assert result.details["knocker_melds"] == [["QS", "KS", "AS"]]


@pytest.mark.parametrize(
    ("melds", "message"),
    [
        (["2H 3H 2C"], "2H 3H 2C is not a meld"),
        (["2H 3H"], "2H 3H is not a meld"),
        (["7C 7D 7S 7H"], "7H is declared in a meld but is not in the knocker's hand"),
        (["2H 3H 4H", "9S TS JS QS"], "QS is declared in a meld but is not in the knocker's hand"),
    ],
)
def test_an_illegal_declaration_is_refused_with_a_message(melds, message):
    with pytest.raises(EntryError, match=message):
        evaluate(melds=[parse_cards(meld) for meld in melds])


def test_a_card_in_two_declared_melds_is_refused():
    knocker = "7C 7D 7S 7H 8H 9H 2C 3C 4D 5D"
    with pytest.raises(EntryError, match="7H is in two declared melds"):
        evaluate(knocker, melds=[parse_cards("7C 7D 7H"), parse_cards("7H 8H 9H")])


def test_a_card_in_both_hands_is_refused():
    with pytest.raises(EntryError, match="2C cannot be in both hands"):
        evaluate(defender=DEFENDER.replace("QC", "2C"))


@pytest.mark.parametrize(
    ("knocker", "defender", "message"),
    [
        ("2H 3H 4H 7C 7D 7S 9S TS JS", DEFENDER, "knocker's hand has 9 cards"),
        (KNOCKER, "AH 5H KC KD KS 8D 8C 6S QD QC 9D", "defender's hand has 11 cards: tap 10"),
        (KNOCKER, "", "defender's hand has 0 cards"),
    ],
)
def test_a_wrong_number_of_cards_is_refused(knocker, defender, message):
    with pytest.raises(EntryError, match=message):
        evaluate(knocker, defender)


def test_a_knocker_short_of_cards_shows_fewer_and_never_has_gin():
    # § 14.11: nine cards all in melds, one card short.
    result = evaluate("2H 3H 4H 7C 7D 7S 9S TS JS", rulings={"knocker_missing_cards": 1})
    assert (result.ending, result.knocker_deadwood) == ("knock", 0)
    assert result.details["knocker_missing_cards"] == 1
    with pytest.raises(EntryError, match="with 1 missing, tap 9"):
        evaluate(rulings={"knocker_missing_cards": 1})


def test_a_defender_short_of_cards_shows_fewer():
    # § 14.12: the engine counts his nine cards; the missing one is scored later.
    result = evaluate(defender="AH 5H KC KD KS 8D 8C 6S QD", rulings={"defender_missing_cards": 1})
    assert result.defender_deadwood == 42 - 10
    assert result.details["defender_missing_cards"] == 1


def test_a_defender_with_too_many_cards_may_not_lay_off():
    # § 14.13: ♥A and ♥5 would fit the knocker's run; with eleven cards they stay.
    result = evaluate(
        defender="AH 5H KC KD KS 8D 8C 6S QD QC 9D", rulings={"defender_too_many_cards": True}
    )
    assert result.details["laid_off"] == []
    assert result.defender_deadwood == 1 + 5 + 8 + 8 + 6 + 10 + 10 + 9


def test_the_up_card_is_kept_and_may_be_in_a_hand():
    # Oklahoma: the up-card can be taken from the discard pile during play.
    result = evaluate(up_card="2C", rules=RULESETS["oklahoma"])
    assert result.details["up_card"] == "2C"


# --- Properties ------------------------------------------------------------------

RULES = st.sampled_from(
    [
        CLASSIC,
        RULESETS["cardgames"],
        CLASSIC.but(ace_high=True),
        CLASSIC.but(round_the_corner=True),
        CLASSIC.but(layoff_on_gin=True),
    ]
)


@st.composite
def deals(draw):
    """Ten or eleven cards for the knocker and ten for the defender, most of them
    from a few neighbouring ranks so that melds and lay-offs are common."""
    size = draw(st.sampled_from([10, 11]))
    start = draw(st.integers(1, 9))
    width = draw(st.integers(4, 6))
    near = [card for card in DECK if start <= card.rank < start + width]
    far = [card for card in DECK if card not in near]
    order = draw(st.permutations(near)) + draw(st.permutations(far))
    knocker = tuple(order[:size])
    rest = order[size:]
    defender = tuple(draw(st.permutations(rest[:8])) + draw(st.permutations(rest[8:])))[:10]
    return knocker, defender


@st.composite
def declarations(draw, cards, rules):
    """Some disjoint melds of the cards, as a player might declare them."""
    chosen, used = [], set()
    for meld in draw(st.permutations(all_melds(cards, rules))):
        if not meld & used and draw(st.booleans()):
            chosen.append(tuple(sorted(meld)))
            used |= meld
    return chosen


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=deals(), rules=RULES)
def test_declaring_the_best_arrangement_changes_nothing(deal, rules):
    knocker, defender = deal
    best = result_from_cards(rules, knocker=0, knocker_cards=knocker, defender_cards=defender)
    melds = [parse_cards(meld) for meld in best.details["knocker_melds"]]

    declared = result_from_cards(
        rules, knocker=0, knocker_cards=knocker, defender_cards=defender, melds=melds
    )

    assert (declared.ending, declared.knocker_deadwood, declared.defender_deadwood) == (
        best.ending,
        best.knocker_deadwood,
        best.defender_deadwood,
    )
    assert declared.details["knocker_melds"] == best.details["knocker_melds"]
    assert declared.details["knocker_deadwood_cards"] == best.details["knocker_deadwood_cards"]
    assert declared.details.get("discard") == best.details.get("discard")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=deals(), rules=RULES, data=st.data())
def test_no_legal_declaration_leaves_the_knocker_less_deadwood_than_the_best(deal, rules, data):
    knocker, defender = deal
    melds = data.draw(declarations(knocker, rules))
    best = result_from_cards(rules, knocker=0, knocker_cards=knocker, defender_cards=defender)

    declared = result_from_cards(
        rules, knocker=0, knocker_cards=knocker, defender_cards=defender, melds=melds
    )

    assert declared.knocker_deadwood >= best.knocker_deadwood
    # Every card is accounted for once: in a declared meld, in deadwood, or discarded.
    shown = [card for meld in declared.details["knocker_melds"] for card in meld]
    shown += declared.details["knocker_deadwood_cards"]
    shown += [declared.details["discard"]] if "discard" in declared.details else []
    assert sorted(shown) == sorted(str(card) for card in knocker)
    assert declared.knocker_deadwood == sum(
        card.value for card in parse_cards(declared.details["knocker_deadwood_cards"])
    )


# The engine's own refusals and details, as other callers than the services read them.


@pytest.mark.parametrize(
    ("knocker", "defender", "melds", "message"),
    [
        (KNOCKER[:-3], DEFENDER, None, "The knocker's hand has 9 cards, not 10."),
        (KNOCKER, DEFENDER.replace("AH", "2C"), None, "2C cannot be in both hands."),
        (
            KNOCKER,
            DEFENDER,
            [["2D", "3D", "4D"]],
            "2D is declared in a meld but is not in the knocker's hand.",
        ),
        (
            KNOCKER,
            DEFENDER,
            [["2H", "3H", "4H"], ["2H", "3H", "4H"]],
            "2H is in two declared melds.",
        ),
        (KNOCKER, DEFENDER, [["2H", "3H", "7C"]], "2H 3H 7C is not a meld."),
    ],
)
def test_the_engine_names_what_is_wrong_with_the_cards(knocker, defender, melds, message):
    with pytest.raises(ShowdownError) as refused:
        showdown(
            CLASSIC,
            knocker_cards=parse_cards(knocker),
            defender_cards=parse_cards(defender),
            melds=None if melds is None else [parse_cards(meld) for meld in melds],
        )
    assert str(refused.value) == message


def test_a_defender_with_too_few_cards_is_missing_none_unless_the_director_says_so():
    with pytest.raises(ShowdownError) as refused:
        showdown(
            CLASSIC, knocker_cards=parse_cards(KNOCKER), defender_cards=parse_cards(DEFENDER[:-3])
        )
    assert str(refused.value) == "The defender's hand has 9 cards, not 10."
    assert (refused.value.who, refused.value.missing) == ("defender", 0)


def test_the_details_name_the_defenders_deadwood_cards():
    # Seed 002: ♥A and ♥5 are laid off; K K K is a set; 8♦ 8♣ 6♠ Q♦ Q♣ stay.
    result = evaluate()
    assert texts(" ".join(result.details["defender_deadwood_cards"])) == texts("8D 8C 6S QD QC")


def test_against_gin_the_defender_arranges_his_cards_by_the_partys_rules():
    # No lay-off on gin. Round the corner Q-K-A of hearts is a run: the defender keeps
    # 2 + 3 + 9 + 10 + 4 + 6 + 8 = 42 of deadwood, not 42 + 10 + 10 + 1 = 63.
    rules = CLASSIC.but(round_the_corner=True)
    shown = showdown(
        rules,
        knocker_cards=parse_cards("2C 3C 4C 5D 5H 5S 7S 8S 9S TS"),
        defender_cards=parse_cards("QH KH AH 2D 3D 9C JC 4S 6D 8H"),
    )
    assert (shown.ending, shown.points, shown.defender_points) == ("gin", 0, 42)


CORNER = CLASSIC.but(round_the_corner=True)
# Round the corner Q-K-A of hearts is a run; so are 2-3-4 of clubs and three fives.
CORNER_KNOCKER = "QH KH AH 2C 3C 4C 5D 5H 5S 7S"
CORNER_DEFENDER = "2D 3D 9C JC 4S 6D 8H TD TH 9D"


def test_the_knocker_arranges_his_cards_by_the_partys_rules():
    shown = showdown(
        CORNER,
        knocker_cards=parse_cards(CORNER_KNOCKER),
        defender_cards=parse_cards(CORNER_DEFENDER),
    )
    assert (shown.ending, shown.points) == ("knock", 7)  # the seven of spades
    # Eleven cards: the king of clubs is the discard, the seven still counts.
    shown = showdown(
        CORNER,
        knocker_cards=parse_cards(CORNER_KNOCKER + " KC"),
        defender_cards=parse_cards(CORNER_DEFENDER),
    )
    assert (shown.ending, shown.points, str(shown.discard)) == ("knock", 7, "KC")


def test_big_gin_round_the_corner_needs_the_partys_rules():
    # J-Q-K-A of hearts, 2-3-4 of clubs and four fives: all eleven meld only round
    # the corner, and cardgames.io's rules know big gin.
    shown = showdown(
        RULESETS["cardgames"].but(round_the_corner=True),
        knocker_cards=parse_cards("JH QH KH AH 2C 3C 4C 5D 5H 5S 5C"),
        defender_cards=parse_cards(CORNER_DEFENDER),
    )
    assert shown.ending == "big_gin"


def test_declared_melds_are_shown_lowest_card_first_whatever_the_order_given():
    # The ace is the lowest card, so Q-K-A comes first (as the evaluator shows it).
    result = evaluate(
        CORNER_KNOCKER,
        CORNER_DEFENDER,
        rules=CORNER,
        melds=[["5D", "5H", "5S"], ["2C", "3C", "4C"], ["QH", "KH", "AH"]],
    )
    assert result.details["knocker_melds"] == [
        ["QH", "KH", "AH"],
        ["2C", "3C", "4C"],
        ["5D", "5H", "5S"],
    ]
