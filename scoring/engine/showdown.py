"""Entering a hand from the cards: what the rules engine makes of the cards on the table.

The knocker shows ten cards (eleven: big gin, or a knock with the discard still in
hand), the defender ten. Seed 000 § 14 changes those numbers: a knocker or defender
who is short of cards shows fewer (§ 14.11, § 14.12), a defender with too many shows
eleven and may not lay off (§ 14.13).

By default the knocker's cards are arranged the best way (least deadwood). The
players may instead declare the melds the knocker actually put down (§ 14.6: he may
correct a wrong knock by arranging his melds differently), which changes what the
defender can lay off. Nothing here stores anything: `scoring.services` does.

A showdown that cannot be right raises a `ShowdownError` that says what is wrong
in plain data (which card, how many); `scoring.errors.explain` words it for the
players, in their language.
"""

from dataclasses import dataclass

from scoring.engine.cards import Card
from scoring.engine.melds import arrange, best_discard, is_meld, lay_off
from scoring.engine.rules import Rules

# The same words as `Hand.Ending`; this module stays free of models.
KNOCK, GIN, BIG_GIN = "knock", "gin", "big_gin"
HAND = 10


class ShowdownError(ValueError):
    """The cards shown cannot be right as they are."""


class WrongCardCount(ShowdownError):
    """A hand shows the wrong number of cards. ``who``: ``"knocker"`` or
    ``"defender"``; ``expected``: the count it should show; ``missing``: the
    knocker's missing cards (§ 14.11), when that ruling applies."""

    def __init__(self, who: str, count: int, expected: int, missing: int = 0):
        super().__init__(f"The {who}'s hand has {count} cards, not {expected}.")
        self.who, self.count, self.expected, self.missing = who, count, expected, missing


class CardInBothHands(ShowdownError):
    def __init__(self, card: Card):
        super().__init__(f"{card} cannot be in both hands.")
        self.card = card


class DeclaredCardNotInHand(ShowdownError):
    def __init__(self, card: Card):
        super().__init__(f"{card} is declared in a meld but is not in the knocker's hand.")
        self.card = card


class CardInTwoMelds(ShowdownError):
    def __init__(self, card: Card):
        super().__init__(f"{card} is in two declared melds.")
        self.card = card


class NotAMeld(ShowdownError):
    def __init__(self, cards: tuple[Card, ...]):
        super().__init__(f"{' '.join(_texts(cards))} is not a meld.")
        self.cards = cards


@dataclass(frozen=True)
class Showdown:
    """Both hands laid down.

    ``melds``, ``deadwood`` and ``points`` are the knocker's; ``discard`` is the card
    he throws when he showed eleven without big gin. ``laid_off`` are the defender's
    cards laid off onto those melds (empty when he may not lay off), and
    ``defender_melds``, ``defender_deadwood``, ``defender_points`` what he keeps.
    """

    ending: str
    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]
    points: int
    discard: Card | None
    declared: bool
    laid_off: tuple[Card, ...]
    defender_melds: tuple[tuple[Card, ...], ...]
    defender_deadwood: tuple[Card, ...]
    defender_points: int

    def details(self) -> dict:
        """The showdown as plain data for `Hand.details` (cards as text)."""
        data = {
            "knocker_melds": [_texts(meld) for meld in self.melds],
            "knocker_deadwood_cards": _texts(self.deadwood),
            "laid_off": _texts(self.laid_off),
            "defender_melds": [_texts(meld) for meld in self.defender_melds],
            "defender_deadwood_cards": _texts(self.defender_deadwood),
        }
        if self.discard is not None:
            data["discard"] = str(self.discard)
        if self.declared:
            data["declared"] = True
        return data


def showdown(
    rules: Rules,
    *,
    knocker_cards: tuple[Card, ...],
    defender_cards: tuple[Card, ...],
    melds: list[tuple[Card, ...]] | None = None,
    knocker_missing_cards: int = 0,
    defender_missing_cards: int = 0,
    defender_too_many_cards: bool = False,
) -> Showdown:
    """Arranges the knocker's cards (best, or as ``melds`` declare), lays the
    defender's cards off onto those melds (seed 000 § 10; not on gin unless
    ``rules.layoff_on_gin``; never with too many cards, § 14.13) and counts both.

    Raises a `ShowdownError`: a wrong number of cards (`WrongCardCount`), a card in
    both hands, or a declared meld that is no meld, is not in the knocker's hand, or
    shares a card with another declared meld.
    """
    _check_sizes(
        len(knocker_cards),
        len(defender_cards),
        knocker_missing_cards,
        defender_missing_cards,
        defender_too_many_cards,
    )
    shared = sorted(set(knocker_cards) & set(defender_cards))
    if shared:
        raise CardInBothHands(shared[0])
    if melds is None:
        knocker_melds, deadwood, points, discard = _best(knocker_cards, rules)
    else:
        knocker_melds, deadwood, points, discard = _declared(knocker_cards, melds, rules)
    if len(knocker_cards) == HAND + 1 and discard is None:
        ending = BIG_GIN
    elif points == 0 and not knocker_missing_cards:
        ending = GIN
    else:
        ending = KNOCK
    may_lay_off = (ending == KNOCK or rules.layoff_on_gin) and not defender_too_many_cards
    if may_lay_off:
        defence = lay_off(knocker_melds, defender_cards, rules)
        laid_off = defence.laid_off
    else:
        defence = arrange(defender_cards, rules)
        laid_off = ()
    return Showdown(
        ending=ending,
        melds=knocker_melds,
        deadwood=deadwood,
        points=points,
        discard=discard,
        declared=melds is not None,
        laid_off=laid_off,
        defender_melds=defence.melds,
        defender_deadwood=defence.deadwood,
        defender_points=defence.points,
    )


def _check_sizes(knocker, defender, knocker_missing, defender_missing, too_many) -> None:
    expected = (HAND - knocker_missing,) if knocker_missing else (HAND, HAND + 1)
    if knocker not in expected:
        raise WrongCardCount("knocker", knocker, expected[0], knocker_missing)
    # The evaluator counts at most eleven cards, so "too many" is the eleventh.
    expected_defender = HAND + 1 if too_many else HAND - defender_missing
    if defender != expected_defender:
        raise WrongCardCount("defender", defender, expected_defender)


def _best(cards, rules):
    """The arrangement with the least deadwood; with eleven cards, big gin when all
    eleven meld and the rules know big gin, else the best discard (which is never
    counted): without big gin, eleven cards in melds are a gin after the discard."""
    if len(cards) == HAND + 1:
        whole = arrange(cards, rules)
        if whole.points == 0 and rules.big_gin_bonus is not None:
            return whole.melds, (), 0, None
        discard, arrangement = best_discard(cards, rules)
        return arrangement.melds, arrangement.deadwood, arrangement.points, discard
    arrangement = arrange(cards, rules)
    return arrangement.melds, arrangement.deadwood, arrangement.points, None


def _declared(cards, melds, rules):
    """The knocker's cards as the players say he laid them down."""
    in_hand = set(cards)
    used: set[Card] = set()
    ordered = []
    for meld in melds:
        for card in meld:
            if card not in in_hand:
                raise DeclaredCardNotInHand(card)
            if card in used:
                raise CardInTwoMelds(card)
            used.add(card)
        if not is_meld(meld, rules):
            raise NotAMeld(tuple(meld))
        ordered.append(_in_sequence(meld, rules))
    ordered.sort(key=min)
    rest = [card for card in cards if card not in used]
    discard = None
    if len(cards) == HAND + 1 and rest:
        # One of eleven cards is the discard, and the players declared only the
        # melds: of the cards left over he throws the one worth most (then the
        # highest, as `best_discard` breaks ties), which leaves the least deadwood
        # these melds allow. Declaring the engine's own melds so gives its result.
        discard = max(rest, key=lambda card: (card.value, card))
        rest.remove(discard)
    deadwood = tuple(sorted(rest))
    return tuple(ordered), deadwood, sum(card.value for card in deadwood), discard


def _in_sequence(meld, rules) -> tuple[Card, ...]:
    """A legal meld's cards in the order the evaluator shows them (Q-K-A, not A-Q-K)."""
    (shown,) = arrange(meld, rules).melds
    return shown


def _texts(cards) -> list[str]:
    return [str(card) for card in cards]
