"""The hand evaluator: melds, deadwood, the best discard and lay-offs.

Seed 000 (Spielregeln) and seed 002 (Kartenkombinationen) define the melds: a
set is three or four cards of one rank, a run three or more cards of one suit
in sequence; the ace is low, so Q-K-A and K-A-2 are no runs. Seed 002
(Varianten) names the two switches that relax this: ``rules.ace_high`` lets an
ace follow the king (Q-K-A, J-Q-K-A), ``rules.round_the_corner`` lets runs turn
the corner (K-A-2, Q-K-A-2). Seed 002 lists round the corner as going further
than ace-high ("des Weiteren auch"), so ``round_the_corner`` allows every run
that ``ace_high`` allows, whatever ``ace_high`` says. A card is in at most one
meld (seed 001, Meldung). Deadwood is every card outside the melds, counted
ace 1, two to nine face value, ten and court cards 10 (seed 000).

How the search stays exact and fast: runs stay within one suit and sets cut
across suits. So the evaluator tries every way of forming sets (for each rank
held three or four times: no set, the set of all four, or one of the sets of
three) and, for each, looks up the best runs of what is left in each suit in a
table indexed by that suit's 13-bit rank mask. A hand holds at most three ranks
three or more times, so there are at most 72 ways. The tables are built once per
run variant, on first use (or by `prepare`).

A hand is handled as one int with a 16-bit lane per suit (♣ ♦ ♥ ♠ from the
low end), rank r at bit r - 1 of its lane.

One module, though long: every function here reads a hand as the same bit mask
(`_position`) through the tables `prepare` builds for each rules variant; split,
that private encoding would have to become an interface between the parts."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from scoring.engine.cards import DECK, SUITS, Card, InvalidCard, parse_cards
from scoring.engine.rules import RULESETS, Rules

__all__ = [
    "Arrangement",
    "IllegalMeld",
    "LayOff",
    "WrongHandSize",
    "arrange",
    "best_discard",
    "deadwood",
    "is_meld",
    "knock_value",
    "lay_off",
    "prepare",
]

MAX_HAND = 11
KNOCK_HAND = 11

# Run variants, each with its own lookup tables.
_ACE_LOW, _ACE_HIGH, _ROUND_THE_CORNER = 0, 1, 2

_LANE = 16
_SUIT_MASK = (1 << 13) - 1
_FULL_SUIT = _SUIT_MASK
# A rank bit times this lands on the same rank in all four lanes.
_ALL_SUITS = 1 | 1 << 16 | 1 << 32 | 1 << 48
# More deadwood than any hand holds; also marks "no card in this suit to discard".
_UNREACHABLE = 1000


class WrongHandSize(ValueError):
    """A hand with a number of cards the evaluator cannot score."""


class IllegalMeld(ValueError):
    """Cards put down as a meld that are no set or run under the rules in play."""


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Melds and deadwood of a hand.

    ``melds``: runs in sequence order (Q-K-A-2 when the corner may be turned),
    sets in suit order, the melds sorted by their lowest card. ``deadwood``: the
    cards outside the melds, sorted. ``points``: the deadwood's value.
    """

    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]
    points: int


@dataclass(frozen=True, slots=True)
class LayOff:
    """The defender's hand after a knock.

    ``melds``: the defender's own melds. ``laid_off``: the cards laid off onto the
    knocker's melds, in the order they are put down. ``placements``: the same
    cards as ``(card, index of the knocker's meld)`` pairs, the index counting
    the knocker's melds as they were passed in. ``deadwood`` and ``points``: what
    is left, and its value.
    """

    melds: tuple[tuple[Card, ...], ...]
    laid_off: tuple[Card, ...]
    placements: tuple[tuple[Card, int], ...]
    deadwood: tuple[Card, ...]
    points: int


# --- Cards as bits -------------------------------------------------------------


def _position(card: Card) -> int:
    return SUITS.index(card.suit) * _LANE + card.rank - 1


_BIT_OF_CARD = {card: 1 << _position(card) for card in DECK}
# Keyed by object id, so the hot path avoids hashing the dataclass; only the
# canonical `DECK` cards (alive for the whole process) are in it, and any other
# equal Card falls back to `_BIT_OF_CARD`.
_BIT_OF_DECK_CARD = {id(card): bit for card, bit in _BIT_OF_CARD.items()}
_CARD_AT: list[Card | None] = [None] * (4 * _LANE)
for _card_in_deck in DECK:
    _CARD_AT[_position(_card_in_deck)] = _card_in_deck
del _card_in_deck
# Sort keys in the order of Card (rank, then suit), so that sorting never has to
# compare Cards themselves.
_RANK_FIRST = [position % _LANE * 4 + position // _LANE for position in range(4 * _LANE)]
_VALUE_AT = [min(position % _LANE + 1, 10) for position in range(4 * _LANE)]
_LANES = (0, _LANE, 2 * _LANE, 3 * _LANE)


def _card(rank: int, suit: str) -> Card:
    return DECK[SUITS.index(suit) * 13 + rank - 1]


def _cards_of(bits: int) -> tuple[Card, ...]:
    """The cards of a bit set, in suit-then-rank order."""
    cards = []
    while bits:
        low = bits & -bits
        cards.append(_CARD_AT[low.bit_length() - 1])
        bits ^= low
    return tuple(cards)


def _sorted_cards(bits: int) -> tuple[Card, ...]:
    """The cards of a bit set, in the order of Card: by rank, then suit."""
    positions = []
    while bits:
        low = bits & -bits
        positions.append(low.bit_length() - 1)
        bits ^= low
    positions.sort(key=_RANK_FIRST.__getitem__)
    return tuple(_CARD_AT[position] for position in positions)


def _hand_bits(cards: str | Iterable[str | Card]) -> int:
    """The hand as a bit set; at most 11 distinct cards, given as anything that
    `parse_cards` reads."""
    if type(cards) is tuple or type(cards) is list:
        # The common case, `DECK` cards in a list or tuple, skips parsing.
        bits = 0
        try:
            for card in cards:
                bits |= _BIT_OF_DECK_CARD[id(card)]
        except KeyError:
            pass
        else:
            if bits.bit_count() == len(cards) <= MAX_HAND:
                return bits
    return _parsed_bits(cards)


def _parsed_bits(cards: str | Iterable[str | Card]) -> int:
    parsed = parse_cards(cards)
    if len(parsed) > MAX_HAND:
        raise WrongHandSize(
            f"A hand holds at most {MAX_HAND} cards (ten, plus the card just drawn); "
            f"this one has {len(parsed)}."
        )
    bits = 0
    for card in parsed:
        bits |= _BIT_OF_CARD[card]
    return bits


def _check_knock_hand(bits: int) -> None:
    if bits.bit_count() != KNOCK_HAND:
        raise WrongHandSize(
            f"Choosing a discard needs {KNOCK_HAND} cards (ten, plus the card just drawn); "
            f"this hand has {bits.bit_count()}."
        )


def _variant(rules: Rules) -> int:
    if rules.round_the_corner:
        return _ROUND_THE_CORNER
    return _ACE_HIGH if rules.ace_high else _ACE_LOW


# --- Runs within one suit ------------------------------------------------------


def _value(rank: int) -> int:
    return rank if rank < 10 else 10


def _runs_along(order: Sequence[int], mask: int) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """Runs and deadwood points of the ranks in ``mask`` when only neighbours in
    ``order`` may follow each other.

    A stretch of three or more held ranks is best melded as one run: no card of
    it can join any other run, and leaving one out only adds deadwood.
    """
    runs: list[tuple[int, ...]] = []
    points = 0
    stretch: list[int] = []
    for rank in (*order, 0):
        if rank and mask >> (rank - 1) & 1:
            stretch.append(rank)
            continue
        if len(stretch) >= 3:
            runs.append(tuple(stretch))
        else:
            points += sum(_value(r) for r in stretch)
        stretch = []
    return points, tuple(runs)


_ACE_LOW_ORDER = tuple(range(1, 14))
_ACE_HIGH_ORDER = (*range(2, 14), 1)


def _suit_runs(mask: int, variant: int) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """The best runs among one suit's ranks (bit r - 1 for rank r): deadwood points
    of the rest, and the runs as rank tuples in sequence order.

    With ``ace_high`` the ace may sit above the king instead; on equal points
    it stays low. Round the corner, the ranks form a circle: reading it from
    just after a missing rank turns it into a line.
    """
    if variant == _ROUND_THE_CORNER:
        if mask == _FULL_SUIT:
            return 0, (_ACE_LOW_ORDER,)
        gap = (~mask & -~mask).bit_length()
        return _runs_along((*range(gap + 1, 14), *range(1, gap + 1)), mask)
    best = _runs_along(_ACE_LOW_ORDER, mask)
    if variant == _ACE_HIGH and mask & 1 and mask >> 12 & 1:
        high = _runs_along(_ACE_HIGH_ORDER, mask)
        if high[0] < best[0]:
            best = high
    return best


# Arrangements and lay-offs ask again and again for the same few suits.
_suit_runs_cached = lru_cache(maxsize=4096)(_suit_runs)


# --- Lookup tables -------------------------------------------------------------

_RUN_DEADWOOD: list[list[int] | None] = [None, None, None]
_DISCARD_GAIN: list[list[int] | None] = [None, None, None]


def _run_deadwood(variant: int) -> list[int]:
    """Per suit mask: the least deadwood points of that suit's cards in runs."""
    table = _RUN_DEADWOOD[variant]
    if table is None:
        table = [_suit_runs(mask, variant)[0] for mask in range(1 << 13)]
        _RUN_DEADWOOD[variant] = table
    return table


def _discard_gain(variant: int) -> list[int]:
    """Per suit mask: the change in that suit's run deadwood when its best card to
    discard goes (usually negative); ``_UNREACHABLE`` for an empty suit."""
    gain = _DISCARD_GAIN[variant]
    if gain is None:
        table = _run_deadwood(variant)
        gain = [_UNREACHABLE] * (1 << 13)
        for mask in range(1, 1 << 13):
            rest = mask
            best = _UNREACHABLE
            while rest:
                low = rest & -rest
                best = min(best, table[mask ^ low])
                rest ^= low
            gain[mask] = best - table[mask]
        _DISCARD_GAIN[variant] = gain
    return gain


def prepare(rules: Rules = RULESETS["classic"]) -> None:
    """Build the lookup tables for these rules now rather than on first use
    (for example when a server starts). The tables depend only on the run
    switches ``ace_high`` and ``round_the_corner``."""
    _discard_gain(_variant(rules))


# --- Sets ----------------------------------------------------------------------


def _threes(bits: int) -> int:
    """Rank bits (one lane) of the ranks held in at least three suits."""
    c = bits & _SUIT_MASK
    d = bits >> 16 & _SUIT_MASK
    h = bits >> 32 & _SUIT_MASK
    s = bits >> 48
    return (c & d & (h | s)) | (h & s & (c | d))


def _set_choices(bits: int, threes: int) -> Sequence[int]:
    """Every way to form sets, as the bits of the cards that go into sets.

    Per rank held three times: that set, or none. Per rank held four times: the
    set of four, one of the four sets of three (the fourth card may be needed
    in a run), or none. "None" comes first.
    """
    choices: Sequence[int] = (0,)
    while threes:
        rank_bit = threes & -threes
        threes ^= rank_bit
        spread = rank_bit * _ALL_SUITS
        held = bits & spread
        options = _FOUR_OF_A_KIND[rank_bit] if held == spread else (0, held)
        if len(choices) == 1:
            choices = options
        else:
            choices = [chosen | option for chosen in choices for option in options]
    return choices


def _four_of_a_kind_options(rank_bit: int) -> tuple[int, ...]:
    spread = rank_bit * _ALL_SUITS
    return (0, spread, *(spread ^ rank_bit << lane for lane in _LANES))


_FOUR_OF_A_KIND = {1 << rank: _four_of_a_kind_options(1 << rank) for rank in range(13)}


def _run_points(bits: int, table: list[int]) -> int:
    return (
        table[bits & _SUIT_MASK]
        + table[bits >> 16 & _SUIT_MASK]
        + table[bits >> 32 & _SUIT_MASK]
        + table[bits >> 48]
    )


def _best_sets(bits: int, table: list[int]) -> tuple[int, int]:
    """Least deadwood points of a hand, and the set cards of the first choice of
    sets that reaches it."""
    best_points, best_sets = _UNREACHABLE, 0
    for chosen in _set_choices(bits, _threes(bits)):
        points = _run_points(bits ^ chosen, table)
        if points < best_points:
            best_points, best_sets = points, chosen
    return best_points, best_sets


def _least_deadwood_with_sets(bits: int, threes: int, table: list[int]) -> int:
    """Least deadwood points over every choice of sets."""
    best = _UNREACHABLE
    for chosen in _set_choices(bits, threes):
        rest = bits ^ chosen
        points = (
            table[rest & _SUIT_MASK]
            + table[rest >> 16 & _SUIT_MASK]
            + table[rest >> 32 & _SUIT_MASK]
            + table[rest >> 48]
        )
        if points < best:
            best = points
    return best


def _least_deadwood(bits: int, table: list[int]) -> int:
    threes = _threes(bits)
    if not threes:
        return _run_points(bits, table)
    return _least_deadwood_with_sets(bits, threes, table)


# --- Public evaluator ----------------------------------------------------------


def is_meld(cards: str | Iterable[str | Card], rules: Rules = RULESETS["classic"]) -> bool:
    """Whether the cards form one meld: a set of three or four cards of one rank,
    or a run of three or more cards of one suit in sequence (seed 000,
    Spielregeln: Sätze, Folgen; seed 002, Kartenkombinationen). The ace is low;
    Q-K-A only with ``rules.ace_high`` or ``rules.round_the_corner``, K-A-2 and
    Q-K-A-2 only with ``rules.round_the_corner`` (seed 002, Varianten).
    """
    return _is_meld(parse_cards(cards), _variant(rules))


def _is_meld(cards: tuple[Card, ...], variant: int) -> bool:
    if len(cards) < 3:
        return False
    if len({card.rank for card in cards}) == 1:
        return True
    return len({card.suit for card in cards}) == 1 and _run_order(cards, variant) is not None


def _run_order(cards: tuple[Card, ...], variant: int) -> tuple[int, ...] | None:
    """The ranks of one suit's cards in sequence order, if they form one run."""
    mask = 0
    for card in cards:
        mask |= 1 << (card.rank - 1)
    points, runs = _suit_runs_cached(mask, variant)
    if points == 0 and len(runs) == 1:
        return runs[0]
    return None


def deadwood(cards: str | Iterable[str | Card], rules: Rules = RULESETS["classic"]) -> int:
    """The least deadwood points of 0 to 11 cards, all of them arranged (seed 000,
    Klopfen: "schlechte Karten", the cards in no set or run; ace 1, court cards
    10). The same number as ``arrange(cards, rules).points``, only faster.
    """
    bits = _hand_bits(cards)
    # `_variant` and `_run_deadwood` by hand: this is the hot path.
    variant = 2 if rules.round_the_corner else 1 if rules.ace_high else 0
    table = _RUN_DEADWOOD[variant] or _run_deadwood(variant)
    c = bits & _SUIT_MASK
    d = bits >> 16 & _SUIT_MASK
    h = bits >> 32 & _SUIT_MASK
    s = bits >> 48
    threes = (c & d & (h | s)) | (h & s & (c | d))
    if threes:
        return _least_deadwood_with_sets(bits, threes, table)
    return table[c] + table[d] + table[h] + table[s]


def knock_value(cards: str | Iterable[str | Card], rules: Rules = RULESETS["classic"]) -> int:
    """The deadwood a player with 11 cards knocks with: the least deadwood of the
    ten cards left after the best discard, which is never counted (seed 000,
    Klopfen: "diese Karte wird nicht mitgezählt"; seed 001: with 3, 5 and 9 as
    deadwood the player knocks with the nine and counts 8). The same number as
    ``best_discard(cards, rules)[1].points``.
    """
    bits = _hand_bits(cards)
    _check_knock_hand(bits)
    variant = 2 if rules.round_the_corner else 1 if rules.ace_high else 0
    table = _RUN_DEADWOOD[variant] or _run_deadwood(variant)
    gain = _DISCARD_GAIN[variant] or _discard_gain(variant)
    # The discard leaves one suit, so only that suit's runs change.
    c = bits & _SUIT_MASK
    d = bits >> 16 & _SUIT_MASK
    h = bits >> 32 & _SUIT_MASK
    s = bits >> 48
    if (c & d & (h | s)) | (h & s & (c | d)):
        return _knock_value_with_sets(bits, table, gain)
    return table[c] + table[d] + table[h] + table[s] + min(gain[c], gain[d], gain[h], gain[s])


def _knock_value_with_sets(bits: int, table: list[int], gain: list[int]) -> int:
    """`knock_value` over every choice of sets. Discarding a set card is covered
    by the choices that leave it in its suit."""
    best = _UNREACHABLE
    for chosen in _set_choices(bits, _threes(bits)):
        rest = bits ^ chosen
        lanes = [rest >> lane & _SUIT_MASK for lane in _LANES]
        points = sum(table[mask] for mask in lanes) + min(gain[mask] for mask in lanes)
        best = min(best, points)
    return best


def arrange(cards: str | Iterable[str | Card], rules: Rules = RULESETS["classic"]) -> Arrangement:
    """The arrangement of 0 to 11 cards into melds with the least deadwood points
    (seed 000, Spielregeln: Sätze and Folgen, a card in one meld only; seed 000,
    Klopfen: only the deadwood is counted). With 11 cards all of them are
    arranged: 11 cards in melds are big gin, 0 points (seed 001).

    Where several arrangements reach the least points, the one returned
    depends only on the cards, not on their order or how they are written
    (forming no set is tried before forming one).
    Raises `InvalidCard` for a bad or repeated card, `WrongHandSize` above 11.
    """
    bits = _hand_bits(cards)
    variant = _variant(rules)
    points, sets = _best_sets(bits, _run_deadwood(variant))
    return _arrangement(bits, sets, points, variant)


def _arrangement(bits: int, sets: int, points: int, variant: int) -> Arrangement:
    """The melds and deadwood once the set cards are chosen; ``points`` is known."""
    keyed_melds = []
    rest = sets
    while rest:
        # The lowest position left is the lowest suit of its rank: the set's first card.
        lowest = (rest & -rest).bit_length() - 1
        same_rank = sets & (1 << lowest % _LANE) * _ALL_SUITS
        keyed_melds.append((_RANK_FIRST[lowest], _cards_of(same_rank)))
        rest &= ~same_rank
    left = bits ^ sets
    for lane in _LANES:
        for run in _suit_runs_cached(left >> lane & _SUIT_MASK, variant)[1]:
            positions = [lane + rank - 1 for rank in run]
            meld = tuple(_CARD_AT[position] for position in positions)
            keyed_melds.append((_RANK_FIRST[lane + min(run) - 1], meld))
            for position in positions:
                left ^= 1 << position
    # No two melds share their lowest card, so the keys alone decide the order.
    keyed_melds.sort()
    return Arrangement(
        melds=tuple(meld for _, meld in keyed_melds),
        deadwood=_sorted_cards(left),
        points=points,
    )


def best_discard(
    cards: str | Iterable[str | Card], rules: Rules = RULESETS["classic"]
) -> tuple[Card, Arrangement]:
    """For 11 cards: the discard that leaves the ten cards with the least deadwood,
    and the arrangement of those ten. Its points are what the player knocks
    with: the discard is never counted (seed 000, Klopfen; seed 001: with 3, 5
    and 9 as deadwood, knock with the nine and count 8).

    When several discards leave the same least deadwood, the one with the
    highest value goes, then the highest card (by rank, then ♣ < ♦ < ♥ < ♠):
    the knock value is the same, and the player throws away the most points.
    Raises `WrongHandSize` unless there are exactly 11 cards.
    """
    bits = _hand_bits(cards)
    _check_knock_hand(bits)
    variant = _variant(rules)
    table = _run_deadwood(variant)
    left = _points_by_discard(bits, table)
    discard = min(left, key=lambda p: (left[p], -_VALUE_AT[p], -_RANK_FIRST[p]))
    kept = bits ^ 1 << discard
    points, sets = _best_sets(kept, table)
    return _CARD_AT[discard], _arrangement(kept, sets, points, variant)


def _points_by_discard(bits: int, table: list[int]) -> dict[int, int]:
    """The least deadwood left after each discard, keyed by the discard's position.

    A discard changes only its own suit's runs; a set card is discarded under
    the choices of sets that leave it in its suit (the first choice has no sets).
    """
    least: dict[int, int] = {}
    for chosen in _set_choices(bits, _threes(bits)):
        rest = bits ^ chosen
        total = _run_points(rest, table)
        for lane in _LANES:
            mask = rest >> lane & _SUIT_MASK
            others = total - table[mask]
            cards = mask
            while cards:
                rank_bit = cards & -cards
                cards ^= rank_bit
                points = others + table[mask ^ rank_bit]
                position = lane + rank_bit.bit_length() - 1
                if points < least.get(position, _UNREACHABLE):
                    least[position] = points
    return least


# --- Laying off ----------------------------------------------------------------


def lay_off(
    knocker_melds: Iterable[str | Iterable[str | Card]],
    defender_cards: str | Iterable[str | Card],
    rules: Rules = RULESETS["classic"],
) -> LayOff:
    """The defender's best result after a knock: his own melds, plus his cards
    laid off onto the knocker's melds, leaving the least deadwood points
    (seed 000, Klopfen: the defender may lay off onto the knocker's melds;
    seed 002, Beispiele: Anlegen).

    - A set of three takes the fourth card of its rank (♣Q onto ♥Q-♦Q-♠Q).
    - A run takes the next cards in sequence at either end, one card making
      room for the next: ♥A and ♥5 both go onto ♥2-♥3-♥4, and ♥6 after ♥5.
      ``ace_high`` and ``round_the_corner`` apply as for any run.
    - Cards never leave the knocker's melds: ♦J and ♦K do not make a run with
      the ♦Q of the knocker's four queens (seed 002, Gegenbeispiel).
    - Own melds and lay-offs compete for the same cards; both are searched
      together. A card that fits a set and a run goes where it helps most.

    Whether the defender may lay off at all (not on gin unless
    ``rules.layoff_on_gin``) is the caller's decision: this function always
    lays off. Among results with equal points the one laying off the fewest
    cards is returned. Raises `IllegalMeld` when a knocker's meld is no meld
    under the rules, `InvalidCard` when a card is named twice anywhere,
    `WrongHandSize` when the defender holds more than 11 cards.
    """
    variant = _variant(rules)
    melds = _knocker_melds(knocker_melds, variant)
    bits = _hand_bits(defender_cards)
    _check_apart(melds, bits)
    table = _run_deadwood(variant)
    options = [_lay_off_options(meld, bits, variant) for meld in melds]
    best_key, best_combo = None, ()
    for combo in product(*options):
        used = 0
        for option_bits, _ in combo:
            if used & option_bits:
                break
            used |= option_bits
        else:
            key = (_least_deadwood(bits ^ used, table), used.bit_count())
            if best_key is None or key < best_key:
                best_key, best_combo = key, combo
    return _lay_off_result(bits, best_combo, variant)


def _knocker_melds(
    knocker_melds: Iterable[str | Iterable[str | Card]], variant: int
) -> list[tuple[Card, ...]]:
    if isinstance(knocker_melds, str):
        raise IllegalMeld("Give the knocker's melds as a list of melds, one item per meld.")
    melds = []
    for meld in knocker_melds:
        cards = parse_cards(meld)
        if not _is_meld(cards, variant):
            shown = " ".join(str(card) for card in cards) or "(no cards)"
            raise IllegalMeld(
                f"{shown} is not a meld: a meld is 3 or 4 cards of one rank, "
                "or 3 or more cards of one suit in sequence."
            )
        melds.append(cards)
    return melds


def _check_apart(melds: list[tuple[Card, ...]], defender_bits: int) -> None:
    seen = defender_bits
    for meld in melds:
        for card in meld:
            bit = _BIT_OF_CARD[card]
            if seen & bit:
                raise InvalidCard(
                    f"{card} is named twice: it is in the defender's hand or in another of "
                    "the knocker's melds."
                )
            seen |= bit


_Option = tuple[int, tuple[Card, ...]]


def _lay_off_options(meld: tuple[Card, ...], bits: int, variant: int) -> list[_Option]:
    """Every way the defender can lay off onto one knocker's meld, "nothing" first."""
    if meld[0].rank == meld[1].rank:
        return _set_options(meld, bits)
    return _run_options(meld, bits, variant)


def _set_options(meld: tuple[Card, ...], bits: int) -> list[_Option]:
    options: list[_Option] = [(0, ())]
    if len(meld) == 3:
        (suit,) = set(SUITS) - {card.suit for card in meld}
        fourth = _card(meld[0].rank, suit)
        if bits & _BIT_OF_CARD[fourth]:
            options.append((_BIT_OF_CARD[fourth], (fourth,)))
    return options


def _run_options(meld: tuple[Card, ...], bits: int, variant: int) -> list[_Option]:
    """Lay-offs onto a run: the next k held cards below it and j above it."""
    suit = meld[0].suit
    order = _run_order(meld, variant)
    assert order is not None
    below = _chain(order, bits, suit, variant, upward=False)
    above = _chain(order, bits, suit, variant, upward=True)
    options: list[_Option] = []
    for low_count in range(len(below) + 1):
        for high_count in range(len(above) + 1):
            cards = below[:low_count] + above[:high_count]
            option_bits = sum(_BIT_OF_CARD[card] for card in cards)
            # Round the corner, both ends can reach the same card.
            if option_bits.bit_count() == len(cards):
                options.append((option_bits, cards))
    return options


def _chain(
    order: tuple[int, ...], bits: int, suit: str, variant: int, *, upward: bool
) -> tuple[Card, ...]:
    """The defender's cards that follow one end of a run, each next to the last."""
    in_run = set(order)
    position = _positions(order)[-1 if upward else 0]
    step = 1 if upward else -1
    top = 13 if variant == _ACE_LOW else 14
    chain = []
    while True:
        position += step
        if variant == _ROUND_THE_CORNER:
            position = (position - 1) % 13 + 1
        if not 1 <= position <= top:
            break
        rank = 1 if position == 14 else position
        card = _card(rank, suit)
        if rank in in_run or not bits & _BIT_OF_CARD[card]:
            break
        chain.append(card)
        in_run.add(rank)
    return tuple(chain)


def _positions(order: tuple[int, ...]) -> list[int]:
    """Run ranks as positions on a line, the ace 14 when it follows the king."""
    positions = list(order)
    if positions[-1] == 1 and len(positions) > 1 and positions[-2] == 13:
        positions[-1] = 14
    return positions


def _lay_off_result(bits: int, combo: tuple[_Option, ...], variant: int) -> LayOff:
    placements = tuple(
        (card, meld_index) for meld_index, (_, cards) in enumerate(combo) for card in cards
    )
    laid_bits = 0
    for option_bits, _ in combo:
        laid_bits |= option_bits
    kept = bits ^ laid_bits
    points, sets = _best_sets(kept, _run_deadwood(variant))
    own = _arrangement(kept, sets, points, variant)
    return LayOff(
        melds=own.melds,
        laid_off=tuple(card for card, _ in placements),
        placements=placements,
        deadwood=own.deadwood,
        points=own.points,
    )
