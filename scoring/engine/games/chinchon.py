"""Chinchón (also La Conga): Spanish cards, melds, penalty points and the party.

Seed 003 ("Chinchón (auch: La Conga)"): a Spanish pack of 40 or 48 cards, ace (1),
2 to 9, Soldat (10), Reiter (11) and König (12) in the four suits Espadas, Copas,
Oros and Bastos; the 40-card pack has no 8s and 9s. Each player holds seven cards
and melds them into sets (cards of one rank, different suits) and sequences (cards
of one suit following each other), each at least three cards. When a player
closes, every card outside his melds counts its rank in penalty points; a closer
with every card melded gets a bonus of −10; seven cards in one sequence
(a Chinchón) win outright. At 100 penalty points the party ends and the lowest
total wins. In La Conga a player at 100 or more is out, the party ends when one
player is left under 100, and at 96 or more a player may close only with 5
points or fewer.

A card is written as its rank 1–12 and its suit letter: ``O`` oros, ``C`` copas,
``E`` espadas, ``B`` bastos (``"1O"``, ``"12E"``). In the 40-card pack the 7 is
followed by the 10, so 6-7-10 of one suit is a sequence; in the 48-card pack it
is not.

Decisions the seed leaves open
------------------------------

- Sequences do not turn the corner: the König is not followed by the ace.
- A set holds three or four cards, one of each suit; a meld of more than four
  would need a second pack, and the seed plays with one.
- The −10 goes only to the closer (as the contract reads the seed); another
  player who happens to have every card melded scores 0.
- ``is_chinchon`` also reads a hand of eight, the seven cards plus the card just
  drawn: the player shows the seven in sequence and discards the eighth.
- The seed sets no limit for closing outside La Conga's last stretch: a player
  may close with any penalty (``may_close``).
- The closing limit of La Conga is the seed's numbers as written (96 points, 5
  or fewer), although 96 + 5 is 101 and out: the club applies the rule, not the
  reason the seed gives for it. A player at 100 or more never closes: in the
  classic game the party is over, in La Conga he is out.
- Classic, tied for the lowest total when the party is over: the tied players
  share the win, and ``winner`` is ``None``.
- La Conga, everyone still in going out in the same hand: the party is over, and
  the lowest total among the players who were still in before that hand wins
  (``standing(..., before=...)``). The totals alone cannot tell a player who went
  out earlier from one who went out last, so without ``before`` (or on a tie)
  ``winner`` is ``None``.
- A Chinchón ends the party at once, whatever the totals say; the closer is
  passed as ``standing(..., chinchon=player)``.
- Totals may be negative (the −10 bonus); a hand's penalties may not.
- The scoring counts any number of players; the seed's two to four is a matter
  for the table.

One module of some 650 lines on purpose: the rules contract names this module for
Chinchón's functions, and a game's rules read top to bottom, from its cards to its
party and its record, the way the seed gives them.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, product

from scoring.engine.games.game import (
    EntryError,
    EntryField,
    Figure,
    FigureKind,
    HandScore,
    Option,
    Outcome,
    count_of,
    each_alone,
    majority_of_others,
    mean,
    reason,
    side_totals,
)
from scoring.engine.games.game import Problem as _

__all__ = [
    "CARD_PATTERN",
    "CLOSING_BONUS",
    "CONGA_CLOSING_LIMIT",
    "CONGA_LAST_STRETCH",
    "DECKS",
    "MAX_HAND",
    "MOST_PENALTY",
    "OUT_AT",
    "SUITS",
    "SUIT_NAMES",
    "Arrangement",
    "InvalidScore",
    "InvalidSpanishCard",
    "SpanishCard",
    "Standing",
    "WrongHandSize",
    "arrange",
    "hand_scores",
    "is_chinchon",
    "is_meld",
    "least_penalty",
    "may_close",
    "parse_card",
    "parse_cards",
    "spanish_deck",
    "standing",
]

#: Suit letters: oros, copas, espadas, bastos.
SUITS = "OCEB"
SUIT_NAMES = {"O": "oros", "C": "copas", "E": "espadas", "B": "bastos"}
#: The ranks of each pack in sequence order: the 40-card pack has no 8s and 9s.
DECKS: dict[int, tuple[int, ...]] = {
    40: (1, 2, 3, 4, 5, 6, 7, 10, 11, 12),
    48: tuple(range(1, 13)),
}
#: Seven cards in the hand, eight with the card just drawn.
MAX_HAND = 8
CHINCHON_LENGTH = 7
#: Seed 003: the closer with no card left over scores −10.
CLOSING_BONUS = -10
#: Seed 003: 100 penalty points end the party (classic) or put a player out (La Conga).
OUT_AT = 100
#: Seed 003, La Conga: from 96 points on, a player closes only with 5 or fewer.
CONGA_LAST_STRETCH = 96
CONGA_CLOSING_LIMIT = 5

#: The most penalty one hand may leave: eight cards of 12 points.
MOST_PENALTY = MAX_HAND * 12
#: A card as a phone sends it: its rank 1–12, then its suit letter, either case.
CARD_PATTERN = r"^(1[0-2]|[1-9])[OCEBoceb]$"

_CARD_TEXT = re.compile(r"(1[0-2]|[1-9])([OCEB])", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s,]+")


class InvalidSpanishCard(ValueError):
    """A text that names no Spanish card, a card the pack in play does not hold,
    or a card named twice in one hand."""


class WrongHandSize(ValueError):
    """More cards than a Chinchón hand ever holds."""


class InvalidScore(ValueError):
    """Penalties, totals or a closer that cannot belong to a Chinchón party."""


@dataclass(frozen=True, slots=True)
class SpanishCard:
    """One Spanish card: ``rank`` 1 (ace) to 12 (König), ``suit`` one of ``OCEB``.
    ``str(card)`` is its text, e.g. ``"10E"``."""

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if type(self.rank) is not int or not 1 <= self.rank <= 12 or self.suit not in SUITS:
            raise InvalidSpanishCard(
                _(
                    "There is no Spanish card with rank %(rank)r and suit %(suit)r.",
                    rank=self.rank,
                    suit=self.suit,
                )
            )

    @property
    def penalty(self) -> int:
        """Seed 003: a card left out of the melds counts its rank (Soldat 10,
        Reiter 11, König 12)."""
        return self.rank

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"

    def __repr__(self) -> str:
        return f"SpanishCard({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A hand's best melds: ``melds`` (sequences in order, sets in suit order
    O C E B, the melds sorted by their lowest card), ``left`` (the cards in no
    meld, by rank then suit) and ``penalty`` (the ranks of ``left`` added up)."""

    melds: tuple[tuple[SpanishCard, ...], ...]
    left: tuple[SpanishCard, ...]
    penalty: int


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a party stands: ``over``, ``out`` (the players at 100 or more) and
    ``winner`` (``None`` while the party runs, and when it ends without a sole winner)."""

    over: bool
    out: frozenset
    winner: Hashable | None


# --- Cards ----------------------------------------------------------------------


def _check_deck(deck: int) -> tuple[int, ...]:
    if type(deck) is not int or deck not in DECKS:
        raise ValueError(f"A Spanish pack has 40 or 48 cards, not {deck!r}.")
    return DECKS[deck]


def spanish_deck(deck: int = 40) -> tuple[SpanishCard, ...]:
    """Every card of the pack (seed 003: 40 cards without the 8s and 9s, or 48),
    suit by suit in the order O C E B, each suit in sequence order."""
    ranks = _check_deck(deck)
    return tuple(SpanishCard(rank, suit) for suit in SUITS for rank in ranks)


def _in_deck(card: SpanishCard, deck: int, text: object) -> SpanishCard:
    if card.rank not in DECKS[deck]:
        raise InvalidSpanishCard(
            _(
                "%(card)r is not in the %(deck)s-card pack: it has no 8s and 9s "
                "(they are played with 48 cards).",
                card=text,
                deck=deck,
            )
        )
    return card


def parse_card(text: str | SpanishCard, deck: int = 40) -> SpanishCard:
    """Read one card of the pack in play: the rank 1–12, then the suit letter
    ``O``, ``C``, ``E`` or ``B`` (either case), e.g. ``"1O"``, ``"12e"``.

    A text that names no Spanish card, or a card the pack does not hold (an 8 or
    a 9 in the 40-card pack, seed 003), raises `InvalidSpanishCard` naming it.
    """
    _check_deck(deck)
    if isinstance(text, SpanishCard):
        return _in_deck(text, deck, str(text))
    if not isinstance(text, str):
        raise InvalidSpanishCard(_("%(card)r is not a Spanish card.", card=text))
    match = _CARD_TEXT.fullmatch(text.strip())
    if match is None:
        raise InvalidSpanishCard(
            _(
                "%(card)r is not a Spanish card (write the rank 1–12, then the suit "
                "O, C, E or B, e.g. 12E).",
                card=text,
            )
        )
    card = SpanishCard(int(match[1]), match[2].upper())
    return _in_deck(card, deck, text)


def parse_cards(
    texts: str | Iterable[str | SpanishCard], deck: int = 40
) -> tuple[SpanishCard, ...]:
    """Read several cards: one string with the cards separated by spaces or
    commas, or an iterable of texts or `SpanishCard`s. The pack holds every card
    once, so a card named twice raises `InvalidSpanishCard`."""
    if isinstance(texts, str):
        items: list = [item for item in _SEPARATORS.split(texts) if item]
    elif isinstance(texts, Iterable):
        items = list(texts)
    else:
        raise InvalidSpanishCard(_("%(cards)r is no list of Spanish cards.", cards=texts))
    cards = tuple(parse_card(item, deck) for item in items)
    seen: set[SpanishCard] = set()
    for card in cards:
        if card in seen:
            raise InvalidSpanishCard(
                _("%(card)s is named twice: the pack holds every card once.", card=str(card))
            )
        seen.add(card)
    return cards


def _hand(cards: str | Iterable[str | SpanishCard], deck: int) -> tuple[SpanishCard, ...]:
    hand = parse_cards(cards, deck)
    if len(hand) > MAX_HAND:
        raise WrongHandSize(
            _(
                "A Chinchón hand holds seven cards, eight with the card just drawn; "
                "this one has %(count)s.",
                count=len(hand),
            )
        )
    return hand


def _sort_key(card: SpanishCard) -> tuple[int, int]:
    return card.rank, SUITS.index(card.suit)


# --- Melds ----------------------------------------------------------------------


def _is_sequence(cards: Sequence[SpanishCard], ranks: tuple[int, ...]) -> bool:
    if len({card.suit for card in cards}) != 1:
        return False
    places = sorted(ranks.index(card.rank) for card in cards)
    return places == list(range(places[0], places[0] + len(places)))


def is_meld(cards: str | Iterable[str | SpanishCard], deck: int = 40) -> bool:
    """Whether the cards form one meld (seed 003): a set, three or four cards of
    one rank in different suits, or a sequence, three or more cards of one suit
    following each other in the pack's order (in the 40-card pack the 7 is
    followed by the 10)."""
    ranks = _check_deck(deck)
    meld = parse_cards(cards, deck)
    if len(meld) < 3:
        return False
    if len({card.rank for card in meld}) == 1:
        return True
    return _is_sequence(meld, ranks)


def _set_choices(hand: Sequence[SpanishCard]) -> list[tuple[tuple[SpanishCard, ...], ...]]:
    """Every way to put sets down: for each rank held three times, that set or
    none; held four times, the set of four, one of its sets of three (the fourth
    card may be wanted in a sequence), or none. "None" comes first."""
    by_rank: dict[int, list[SpanishCard]] = {}
    for card in hand:
        by_rank.setdefault(card.rank, []).append(card)
    options = []
    for rank_cards in by_rank.values():
        if len(rank_cards) >= 3:
            held = tuple(sorted(rank_cards, key=_sort_key))
            threes = list(combinations(held, 3)) if len(held) == 4 else []
            options.append([None, held, *threes])
    return [tuple(meld for meld in choice if meld) for choice in product(*options)]


def _sequences(
    cards: Iterable[SpanishCard], ranks: tuple[int, ...]
) -> tuple[list[tuple[SpanishCard, ...]], list[SpanishCard]]:
    """The sequences among cards that go into no set, and the cards left.

    Within one suit every stretch of three or more neighbouring cards is best
    put down whole: none of its cards can join another sequence, and leaving one
    out only adds penalty points. Shorter stretches are left over."""
    cards = list(cards)
    runs: list[tuple[SpanishCard, ...]] = []
    left: list[SpanishCard] = []
    for suit in SUITS:
        in_suit = sorted((c for c in cards if c.suit == suit), key=lambda c: ranks.index(c.rank))
        stretch: list[SpanishCard] = []
        for card in [*in_suit, None]:
            if card and stretch and ranks.index(card.rank) == ranks.index(stretch[-1].rank) + 1:
                stretch.append(card)
                continue
            if len(stretch) >= 3:
                runs.append(tuple(stretch))
            else:
                left.extend(stretch)
            stretch = [card] if card else []
    return runs, left


def arrange(cards: str | Iterable[str | SpanishCard], deck: int = 40) -> Arrangement:
    """The melds that leave the least penalty (seed 003: "Die Werte aller Karten
    eines Spielers, die nicht in Sätzen oder Sequenzen verbaut sind, werden zu
    Strafpunkten zusammengezählt"), for a phone to show which cards go where.

    Sets are three or four cards of one rank, sequences three or more of one
    suit in the pack's order; each card is in at most one meld. A hand of 0 to 8
    cards; among arrangements with the same penalty, the first of `_set_choices`.
    """
    ranks = _check_deck(deck)
    hand = _hand(cards, deck)
    best: Arrangement | None = None
    for sets in _set_choices(hand):
        in_sets = {card for meld in sets for card in meld}
        runs, left = _sequences((card for card in hand if card not in in_sets), ranks)
        penalty = sum(card.penalty for card in left)
        if best is None or penalty < best.penalty:
            melds = tuple(sorted([*runs, *sets], key=lambda meld: min(map(_sort_key, meld))))
            best = Arrangement(melds, tuple(sorted(left, key=_sort_key)), penalty)
    assert best is not None
    return best


def least_penalty(cards: str | Iterable[str | SpanishCard], deck: int = 40) -> int:
    """The least penalty of a hand (seed 003): the ranks of the cards left out of
    the melds added up, the melds (sets of three or four of one rank, sequences
    of three or more of one suit in the pack's order, each card in at most one)
    chosen to leave the least. A hand of seven, any 0 to 8 accepted; a card the
    pack does not hold, a bad card text or a card named twice raises `ValueError`.
    """
    return arrange(cards, deck).penalty


def is_chinchon(cards: str | Iterable[str | SpanishCard], deck: int = 40) -> bool:
    """Whether the hand is a Chinchón (seed 003: "eine Sequenz von sieben
    aufeinanderfolgenden Karten"): seven cards of one suit in one sequence of the
    pack's order. A hand of eight (with the card just drawn) is one when seven of
    its cards are; fewer than seven cards never are."""
    ranks = _check_deck(deck)
    hand = _hand(cards, deck)
    for suit in SUITS:
        places = {ranks.index(card.rank) for card in hand if card.suit == suit}
        if any(all(start + step in places for step in range(7)) for start in places):
            return True
    return False


# --- Scores ---------------------------------------------------------------------


_NOT_PER_PLAYER = {
    "penalties": _("The penalties are given per player, not as %(values)r."),
    "totals": _("The totals are given per player, not as %(values)r."),
}
_NOT_WHOLE = {
    "penalties": _("The penalty of %(player)r must be a whole number, not %(value)r."),
    "totals": _("The total of %(player)r must be a whole number, not %(value)r."),
}


def _by_player(values: Mapping | Sequence, what: str) -> dict:
    """Players and their numbers (``what``: "penalties" or "totals"): a mapping, or
    a sequence read as players 0, 1, …"""
    if isinstance(values, Mapping):
        table = dict(values)
    elif isinstance(values, Sequence) and not isinstance(values, str):
        table = dict(enumerate(values))
    else:
        raise InvalidScore(_(_NOT_PER_PLAYER[what], values=values))
    for player, value in table.items():
        if type(value) is not int:
            raise InvalidScore(_(_NOT_WHOLE[what], player=player, value=value))
    return table


def hand_scores(penalties: Mapping | Sequence[int], closer: Hashable) -> dict:
    """Each player's score for the hand (seed 003): his least penalty, except
    that the closer writes −10 when all his cards were melded ("Hat ein Spieler
    beim Beenden der Runde keine übrigen Karten auf der Hand, bekommt er einen
    Bonus von -10 Punkten").

    ``penalties``: player → least penalty (a list counts as players 0, 1, …);
    ``closer``: the player who ended the hand. A closer who is not at the table
    or a negative penalty raises `InvalidScore`.
    """
    table = _by_player(penalties, "penalties")
    for player, penalty in table.items():
        if penalty < 0:
            raise InvalidScore(
                _(
                    "%(player)r cannot have %(penalty)s penalty points.",
                    player=player,
                    penalty=penalty,
                )
            )
    if closer not in table:
        raise InvalidScore(
            _("The closer %(closer)r is not one of the players of this hand.", closer=closer)
        )
    return {
        player: CLOSING_BONUS if player == closer and penalty == 0 else penalty
        for player, penalty in table.items()
    }


def may_close(total: int, penalty: int, conga: bool = False) -> bool:
    """Whether a player with this party total may close with this penalty.

    Seed 003, La Conga: from 96 points on, only with 5 points or fewer. The seed
    sets no other limit, so below that (and always in the classic game) any
    penalty may close. A player at 100 or more never closes: the classic party
    is over, and in La Conga he is out.
    """
    if type(total) is not int or type(penalty) is not int:
        raise InvalidScore(f"Total and penalty are whole numbers, not {total!r} and {penalty!r}.")
    if penalty < 0:
        raise InvalidScore(f"A hand cannot leave {penalty} penalty points.")
    if total >= OUT_AT:
        return False
    if conga and total >= CONGA_LAST_STRETCH:
        return penalty <= CONGA_CLOSING_LIMIT
    return True


def _sole_lowest(totals: Mapping, players: Iterable) -> Hashable | None:
    candidates = list(players)
    if not candidates:
        return None
    lowest = min(totals[player] for player in candidates)
    tied = [player for player in candidates if totals[player] == lowest]
    return tied[0] if len(tied) == 1 else None


def standing(
    totals: Mapping | Sequence[int],
    conga: bool = False,
    *,
    before: Mapping | Sequence[int] | None = None,
    chinchon: Hashable | None = None,
) -> Standing:
    """Where the party stands after a hand (seed 003).

    ``totals``: player → penalty points so far (a list counts as players 0, 1, …).
    ``out`` is every player at 100 or more.

    - Classic: the party is over once someone reaches 100, and the lowest total
      wins ("Erreicht ein Spieler 100 Strafpunkte oder mehr, endet das Spiel und
      der Spieler mit den wenigsten Punkten gewinnt"); tied for the lowest,
      nobody wins alone (``winner`` ``None``).
    - La Conga (``conga=True``): players at 100 or more are out; the party is
      over when one player is left under 100, who wins ("Das Spiel endet erst,
      wenn nur noch ein Spieler übrig ist, der weniger als 100 Punkte hat"). When
      the last players all go out in the same hand, the party is over too, and
      ``before`` (the totals before that hand) names who was still in: the
      lowest of them wins. Without ``before``, or tied, ``winner`` is ``None``.
    - ``chinchon``: the player who just closed with a Chinchón wins at once
      ("Ein Spieler gewinnt automatisch"); he must be one of the players and,
      in La Conga, still in.
    """
    table = _by_player(totals, "totals")
    out = frozenset(player for player, total in table.items() if total >= OUT_AT)
    if chinchon is not None:
        if chinchon not in table:
            raise InvalidScore(f"{chinchon!r} closed with a Chinchón but is not in this party.")
        if conga and chinchon in out:
            raise InvalidScore(f"{chinchon!r} is out of the party and cannot close.")
        return Standing(over=True, out=out, winner=chinchon)
    if not conga:
        over = bool(out)
        return Standing(over=over, out=out, winner=_sole_lowest(table, table) if over else None)
    still_in = [player for player in table if player not in out]
    if len(still_in) == 1:
        return Standing(over=True, out=out, winner=still_in[0])
    if still_in or not table:
        return Standing(over=False, out=out, winner=None)
    if before is None:
        return Standing(over=True, out=out, winner=None)
    earlier = _by_player(before, "totals")
    if earlier.keys() != table.keys():
        raise InvalidScore("The totals before the last hand must name the same players.")
    last_in = [player for player, total in earlier.items() if total < OUT_AT]
    return Standing(over=True, out=out, winner=_sole_lowest(table, last_in))


# --------------------------------------------------------------------------- the game


def _bad_cards(deck: int) -> str:
    if deck == 40:
        return _(
            "Write each card as its rank 1–7 or 10–12 and its suit O, C, E or B "
            "(e.g. 12E), every card once, seven or eight in all."
        )
    return _(
        "Write each card as its rank 1–12 and its suit O, C, E or B (e.g. 12E), "
        "every card once, seven or eight in all."
    )


class Chinchon:
    """Chinchón behind `scoring.engine.games.game.Game`: two to four players, each
    for himself; the lowest total is best.

    A hand's entry: ``closer`` (the side that closed), and either each side's
    ``penalties`` (its least penalty, as the players count it) or its ``cards``
    (the seven cards as tapped: the least penalty and a Chinchón are found here),
    with ``chinchon`` true when the closer showed seven in one run. In La Conga a
    player already out has no entry (``None``) and scores 0."""

    key = "chinchon"
    name = _("Chinchón")
    table_sizes = (2, 3, 4)
    lower_wins = True
    options = {
        "deck": Option(
            40,
            choices=DECKS,
            label=_("Pack"),
            words={40: _("40 cards (without 8s and 9s)"), 48: _("48 cards")},
        ),
        "conga": Option(
            False,
            choices=(False, True),
            label=_("Variant"),
            words={
                False: _("Classic: over once someone reaches 100, the lowest total wins"),
                True: _("La Conga: out at 100, the last player under 100 wins"),
            },
        ),
    }
    figures = {
        "closes": FigureKind(_("Hands closed"), True, "hands"),
        "chinchons": FigureKind(_("Chinchóns"), True, "hands"),
        "average_penalty": FigureKind(_("Average penalty per hand"), False, "hands"),
    }
    draws_for_ties = False
    fact_words = {"closer": _("Closed: %(side)s"), "chinchon": _("Chinchón!")}
    formats: Mapping = {}
    confirmations_needed = staticmethod(majority_of_others)
    entry_fields = (
        EntryField(
            "closer",
            "side",
            per_side=False,
            label=_("Who closed?"),
            missing=_("Say who closed the hand."),
        ),
        EntryField(
            "penalty",
            most=MOST_PENALTY,
            required=False,
            label=_("Penalty points"),
            key="penalties",
            help="Each side's penalty points; null for a player already out (La Conga).",
        ),
        EntryField(
            "cards",
            "cards",
            required=False,
            label=_("or the cards"),
            placeholder="1O 2O 3O 5C 5E 5B 12C",
            pattern=CARD_PATTERN,
            help="Instead of the penalties, each side's cards: their least penalty is found.",
        ),
        EntryField(
            "chinchon",
            "tick",
            per_side=False,
            required=False,
            default=False,
            label=_("The closer showed a Chinchón (seven cards in one run)"),
        ),
    )

    def entry_from(self, values: Mapping, sides: int, options: Mapping) -> dict:
        """Every player's cards where all in play gave them (their least penalty and
        a Chinchón are found in `hand`), else the penalties, of the cards counted."""
        deck, cards = options.get("deck", 40), values["cards"]
        shown = {
            side: list(map(str, parse_cards(text, deck))) for side, text in cards.items() if text
        }
        entry = {"closer": values["closer"], "chinchon": bool(values["chinchon"])}
        if shown and set(shown) == set(cards):
            return entry | {"cards": [shown.get(side) for side in range(sides)]}
        found = {side: least_penalty(hand, deck) for side, hand in shown.items()}
        penalties = values["penalty"] | found
        return entry | {"penalties": [penalties.get(side) for side in range(sides)]}

    def values_from(self, entry: Mapping) -> dict:
        cards = entry.get("cards") or []
        return {
            "closer": entry.get("closer"),
            "chinchon": entry.get("chinchon", False),
            "penalty": dict(enumerate(entry.get("penalties") or [])),
            "cards": {side: " ".join(hand) for side, hand in enumerate(cards) if hand},
        }

    def check_values(self, values: Mapping, names: Mapping, options: Mapping) -> list:
        """Each player in play gives the penalty or the cards; the cards are of the
        pack, each in one hand only, and a penalty typed beside them is theirs."""
        deck, problems, seen, twice = options.get("deck", 40), [], {}, None
        for side in names:
            text, typed = values["cards"].get(side), values["penalty"].get(side)
            if not text:
                if typed is None:
                    problems.append(("penalty", side, _("Give the penalty points or the cards.")))
                continue
            try:
                cards = parse_cards(text, deck)
                penalty = least_penalty(cards, deck)
            except ValueError:
                problems.append(("cards", side, _bad_cards(deck)))
                continue
            if typed not in (None, penalty):
                words = _(
                    "The cards leave %(penalty)s penalty points, not %(typed)s.",
                    penalty=penalty,
                    typed=typed,
                )
                problems.append(("penalty", side, words))
            for card in map(str, cards):
                if seen.setdefault(card, side) != side:
                    twice = twice or card
        if twice:
            words = _("%(card)s is in two hands: the pack holds every card once.", card=twice)
            problems.append((None, None, words))
        return problems

    def picker_rows(self, options: Mapping) -> list[dict]:
        """The pack in play suit by suit, for the page's picker to tap into the
        players' cards fields."""
        deck = spanish_deck(options.get("deck", 40))
        return [
            {"suit": suit, "name": SUIT_NAMES[suit], "cards": [c for c in deck if c.suit == suit]}
            for suit in SUITS
        ]

    def preview_cards(self, text: str, options: Mapping) -> dict:
        """What one player's cards typed so far come to, for the picker to show: the
        least penalty, a Chinchón and the count, or the words for cards that are not."""
        deck = options.get("deck", 40)
        try:
            cards = parse_cards(text, deck)
            found = least_penalty(cards, deck), is_chinchon(cards, deck), len(cards)
        except ValueError:
            return {"message": _bad_cards(deck)}
        return dict(zip(("penalty", "chinchon", "count"), found, strict=True))

    def record(self, hands, places, parties) -> dict[str, Figure]:
        """The hands he closed, those closed with a Chinchón (the party won at
        once), and his points per hand (the penalty, −10 for closing all melded)."""
        chinchons = sum(
            h.facts.get("closer") == h.side and bool(h.facts.get("chinchon")) for h in hands
        )
        return {
            "closes": count_of(hands, "closer"),
            "chinchons": Figure(chinchons, len(hands)),
            "average_penalty": mean([h.scores[h.side] for h in hands]),
        }

    def sides(self, players: int, options: Mapping) -> list[tuple[int, ...]]:
        return each_alone(self, players)

    def hand(self, entry: Mapping, totals: Sequence[int], options: Mapping) -> HandScore:
        conga, deck = options["conga"], options["deck"]
        out = {side for side, total in enumerate(totals) if conga and total >= OUT_AT}
        closer = entry.get("closer")
        if closer not in range(len(totals)) or closer in out:
            raise EntryError(_("Say who closed the hand: one of the players still in."))
        cards = entry.get("cards")
        given = cards if cards is not None else entry.get("penalties")
        if not isinstance(given, Sequence) or len(given) != len(totals):
            raise EntryError(_("Give every player's penalty, or every player's cards."))
        penalties, chinchon = {}, bool(entry.get("chinchon"))
        try:
            for side, value in enumerate(given):
                if side in out:
                    if value is not None:
                        raise EntryError(
                            _("Player %(number)s is out and plays no more hands.", number=side + 1)
                        )
                    continue
                if cards is not None:
                    penalties[side] = least_penalty(value, deck)
                    chinchon = chinchon or (side == closer and is_chinchon(value, deck))
                elif type(value) is int and value < 0:
                    # Named as the table names its players, not by their index.
                    raise EntryError(
                        _(
                            "Player %(number)s cannot have %(penalty)s penalty points.",
                            number=side + 1,
                            penalty=value,
                        )
                    )
                else:
                    penalties[side] = value
            scores = hand_scores(penalties, closer)
        except (InvalidScore, InvalidSpanishCard, WrongHandSize) as error:
            raise EntryError(reason(error)) from error
        if chinchon and penalties[closer] != 0:
            raise EntryError(_("A Chinchón melds all seven cards: the closer's penalty is 0."))
        if not may_close(totals[closer], penalties[closer], conga):
            raise EntryError(
                _(
                    "At %(total)s points a player may close only with %(limit)s or fewer "
                    "(La Conga).",
                    total=totals[closer],
                    limit=CONGA_CLOSING_LIMIT,
                )
            )
        return HandScore(
            tuple(scores.get(side, 0) for side in range(len(totals))),
            {"closer": closer, "chinchon": chinchon, "clean": penalties[closer] == 0},
        )

    def standing(self, hands: Sequence[HandScore], sides: int, options: Mapping) -> Outcome:
        now, before = side_totals(hands, sides), side_totals(hands[:-1], sides)
        last = hands[-1].facts if hands else {}
        found = standing(
            now,
            options["conga"],
            before=before,
            chinchon=last["closer"] if last.get("chinchon") else None,
        )
        if not found.over:
            return Outcome(False, out=found.out)
        if found.winner is not None:
            return Outcome(True, frozenset({found.winner}), found.out)
        # Tied for the lowest (or, in La Conga, all out at once): the lowest of
        # those still in before the last hand share the win.
        still_in = [s for s in range(sides) if not options["conga"] or before[s] < OUT_AT]
        best = min(now[s] for s in still_in)
        return Outcome(True, frozenset(s for s in still_in if now[s] == best), found.out)


GAME = Chinchon()
