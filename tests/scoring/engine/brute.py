"""A slow, plainly exhaustive hand evaluator that `scoring.engine.melds` is checked against.

It shares nothing with `scoring.engine.melds` but the cards and the rules: it reads
the meld rule straight off the rule text, lists every meld a hand contains and
tries every way of combining them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations, product

from scoring.engine.cards import Card
from scoring.engine.rules import Rules


def is_meld(cards: Iterable[Card], rules: Rules) -> bool:
    """A set of 3 or 4 cards of one rank, or 3 or more cards of one suit whose
    ranks can be read as consecutive numbers: the ace as 1; also as 14 when Q-K-A
    is allowed; and any stretch of the circle A-2-…-K-A when round the corner."""
    cards = list(cards)
    ranks = [card.rank for card in cards]
    if len(cards) < 3:
        return False
    if len(set(ranks)) == 1:
        return len(cards) <= 4
    if len({card.suit for card in cards}) != 1:
        return False
    readings = [ranks]
    if rules.ace_high or rules.round_the_corner:
        readings.append([14 if rank == 1 else rank for rank in ranks])
    if any(
        sorted(reading) == list(range(min(reading), min(reading) + len(cards)))
        for reading in readings
    ):
        return True
    if rules.round_the_corner:
        return any(
            sorted((rank - start) % 13 for rank in ranks) == list(range(len(cards)))
            for start in range(1, 14)
        )
    return False


def all_melds(cards: Iterable[Card], rules: Rules) -> list[frozenset[Card]]:
    """Every meld among the cards. A meld is all one rank or all one suit, so
    only groups of cards sharing a rank or a suit need to be tried."""
    cards = list(cards)
    groups = {}
    for card in cards:
        groups.setdefault(("rank", card.rank), []).append(card)
        groups.setdefault(("suit", card.suit), []).append(card)
    melds = set()
    for group in groups.values():
        for size in range(3, len(group) + 1):
            for chosen in combinations(group, size):
                if is_meld(chosen, rules):
                    melds.add(frozenset(chosen))
    return sorted(melds, key=lambda meld: sorted(meld))


def least_deadwood(cards: Iterable[Card], rules: Rules) -> int:
    """The least deadwood points of the cards: the lowest card either stays
    deadwood or goes into one of the melds that contain it; try all of them."""
    hand = frozenset(cards)
    melds = all_melds(hand, rules)

    @cache
    def best(left: frozenset[Card]) -> int:
        if not left:
            return 0
        lowest = min(left)
        result = lowest.value + best(left - {lowest})
        for meld in melds:
            if lowest in meld and meld <= left:
                result = min(result, best(left - meld))
        return result

    return best(hand)


def least_deadwood_after_discard(cards: Sequence[Card], rules: Rules) -> dict[Card, int]:
    """For each card of the hand, the least deadwood of the others."""
    return {card: least_deadwood(set(cards) - {card}, rules) for card in cards}


def knock_value(cards: Sequence[Card], rules: Rules) -> int:
    return min(least_deadwood_after_discard(cards, rules).values())


def lay_off_points(
    knocker_melds: Sequence[Sequence[Card]], defender: Iterable[Card], rules: Rules
) -> int:
    """The defender's least deadwood when each of his cards may stay in his hand
    or go onto any one of the knocker's melds.

    Laying off is legal exactly when every knocker's meld, with the cards laid
    onto it, is still one meld: a longer run or set can always be built up one
    card at a time from the ends, each step a meld. A card can only join a meld
    of its rank or of its suit, which keeps the number of assignments small.
    """
    defender = list(defender)
    targets = [
        [None]
        + [
            index
            for index, meld in enumerate(knocker_melds)
            if all(card.rank == other.rank for other in meld)
            or all(card.suit == other.suit for other in meld)
        ]
        for card in defender
    ]
    best = None
    for assignment in product(*targets):
        grown = [list(meld) for meld in knocker_melds]
        kept = []
        for card, target in zip(defender, assignment, strict=True):
            if target is None:
                kept.append(card)
            else:
                grown[target].append(card)
        if all(is_meld(meld, rules) for meld in grown):
            points = _least_deadwood_cached(frozenset(kept), rules)
            best = points if best is None else min(best, points)
    return best


@cache
def _least_deadwood_cached(cards: frozenset[Card], rules: Rules) -> int:
    return least_deadwood(cards, rules)
