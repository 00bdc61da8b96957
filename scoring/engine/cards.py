"""Playing cards: the 52-card French deck that Gin Rummy is played with.

Seed 000 (Einleitung): one pack of 52 cards without jokers; the king is the
highest and the ace the lowest card of every suit; the ace counts 1, the ten
and the court cards 10, every other card its face value.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

#: Suits in card-draw order: clubs < diamonds < hearts < spades.
SUITS = "CDHS"
#: Rank letters, ace (1) to king (13).
RANKS = "A23456789TJQK"

_SUIT_ALIASES = {
    "c": "C", "d": "D", "h": "H", "s": "S",
    "♣": "C", "♦": "D", "♥": "H", "♠": "S",
    "♧": "C", "♢": "D", "♡": "H", "♤": "S",
}  # fmt: skip
_RANK_ALIASES = {letter.lower(): rank for rank, letter in enumerate(RANKS, start=1)}
_RANK_ALIASES["10"] = 10
_SEPARATORS = re.compile(r"[\s,]+")


class InvalidCard(ValueError):
    """A text that names no card, or a card named twice in one hand."""


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One card. Ordered by rank, then by suit (♣ < ♦ < ♥ < ♠), as in a card draw."""

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if not (isinstance(self.rank, int) and 1 <= self.rank <= 13) or self.suit not in SUITS:
            raise InvalidCard(f"There is no card with rank {self.rank!r} and suit {self.suit!r}.")

    @property
    def value(self) -> int:
        """Deadwood value: ace 1, two to nine face value, ten and court cards 10."""
        return min(self.rank, 10)

    @property
    def index(self) -> int:
        """Position 0–51 in a deck sorted by suit, then rank (handy for bit sets)."""
        return SUITS.index(self.suit) * 13 + self.rank - 1

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


#: All 52 cards, in `Card.index` order.
DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))


def parse_card(text: str) -> Card:
    """Read one card: ``"TD"``, ``"td"``, ``"10D"``, ``"10♦"``, ``"Q♠"``.

    The rank comes first (``A23456789TJQK`` or ``10``, either case), then the
    suit (``CDHS`` in either case, or a suit symbol). Anything else raises
    `InvalidCard` naming the text.
    """
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise InvalidCard(f"{text!r} is not a card.")
    cleaned = text.strip()
    rank = _RANK_ALIASES.get(cleaned[:-1].lower())
    suit = _SUIT_ALIASES.get(cleaned[-1:].lower())
    if rank is None or suit is None:
        raise InvalidCard(f"{text!r} is not a card (write e.g. TD, 10♦, qs).")
    return DECK[SUITS.index(suit) * 13 + rank - 1]


def parse_cards(texts: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Read several cards from a string (separated by spaces or commas) or an iterable.

    A card may appear only once: a second copy raises `InvalidCard` naming it.
    """
    items = [t for t in _SEPARATORS.split(texts) if t] if isinstance(texts, str) else list(texts)
    cards = tuple(parse_card(item) for item in items)
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise InvalidCard(f"{card} is named twice: every card is in the deck once.")
        seen.add(card)
    return cards
