"""Canasta: what the cards count, the first meld's minimum, a side's score for one
hand, the winner of a party, and who plays with whom.

Seed 003 ("Canasta"): two to six players, two packs of 55 cards. Twos and jokers
are wild; the red threes (♥3, ♦3) are bonus cards ("Prämien-Karten") laid out as
soon as they come, never melded. A meld is a set of one rank; seven or more cards
make a canasta, natural ("echt") without wild cards, mixed ("unecht") with them.
A side (Partei) may go out once it has a canasta; going out with a hand that
never melded before is going out concealed ("Verdeckte Hand"). Each hand every
side writes its melded cards plus its bonuses minus the cards left in its
players' hands; the first side to reach 5,000 wins the party.

Cards are written as in `scoring.engine.cards` (``"AS"``, ``"TD"``, ``"10♥"``,
``"qs"``) plus ``"JK"`` for a joker.

Decisions the seed leaves open
------------------------------
- Two packs of 55 are 52 cards and three jokers each: every card is there twice
  and there are six jokers. Counting cards refuses a third copy or a seventh joker.
- ``"JK"`` is a joker in either case; a red three in card text is refused
  (`BonusCard`): it is counted with ``red_threes``, never as a card.
- Scores move in fives, so the seed's steps for the first meld (0–1,495,
  1,500–2,995) are read as "from 0", "from 1,500", "from 3,000"; a score in
  between (1,497) counts with the step below.
- Going out concealed is going out (the seed calls it a special form of going
  out): `side_score` counts the 100 for going out with it even when
  ``went_out`` was not ticked. `check_side` asks the scorer to tick both.
- All four red threes count 200 each, and a side that melded nothing has all
  800 taken off.
- `side_score` counts what it is given and refuses only numbers that cannot be
  (negative, more than four red threes, not whole numbers). Whether the entries
  fit together is for `check_side` and `check_hand`, which list every problem.
- The 500 points for a red three a player forgot to lay out are a penalty of their
  own (`FORGOTTEN_RED_THREE_PENALTY`), not part of a side's score for the hand.
- A canasta is worth at least 35 points of cards when natural (seven fours to
  sevens) and 50 when mixed (six of them and a two); all meldable cards of the two
  packs are worth 1,280 points and number 106, so no hand holds more than fifteen
  canastas. The checks use these bounds.
- A side at exactly the same highest total as another at 5,000 or more has not
  won: the sides play another hand, and the next totals decide.
- Five players: a partnership of three against one of two; the three take turns
  sitting out, as the seed says for a partnership of three at six.
- Six players choose two or three partnerships; the engine does not guess.

One module of some 680 lines on purpose: the rules contract names this module for
Canasta's functions, and a game's rules read top to bottom, from its cards to its
party and its record, the way the seed gives them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import replace

from scoring.engine.cards import DECK, Card, InvalidCard, parse_card
from scoring.engine.games.game import (
    EntryError,
    EntryField,
    Figure,
    FigureKind,
    HandScore,
    Option,
    Outcome,
    check_table,
    count_of,
    majority_of_others,
    reason,
    side_totals,
)
from scoring.engine.games.game import Problem as _

#: A joker's text (the seed's packs hold three each).
JOKER = "JK"
#: The points a side must reach to win the party.
TARGET = 5000
NATURAL_CANASTA_BONUS = 500
MIXED_CANASTA_BONUS = 300
RED_THREE_BONUS = 100
#: Each red three when one side holds all four.
ALL_RED_THREES_BONUS = 200
RED_THREES = 4
GOING_OUT_BONUS = 100
CONCEALED_BONUS = 100
#: Seed 003: a red three not laid out at once costs its holder 500 points.
FORGOTTEN_RED_THREE_PENALTY = 500
#: Seed 003 "Minus / 0 – 1495 / 1500 – 2995 / 3000 und mehr": (from score, minimum).
FIRST_MELD_STEPS = ((3000, 120), (1500, 90), (0, 50))
FIRST_MELD_BELOW_ZERO = 15

#: Two packs of 55: every card twice and six jokers.
COPIES = 2
JOKERS = 6
CANASTA_CARDS = 7
#: The cheapest natural canasta: seven cards of 5 points.
NATURAL_CANASTA_FLOOR = 35
#: The cheapest mixed canasta: six cards of 5 points and a two.
MIXED_CANASTA_FLOOR = 50

_POINTS_BY_RANK = {1: 20, 2: 20, 3: 5, 4: 5, 5: 5, 6: 5, 7: 5}
_JOKER_POINTS = 50
_SEPARATORS = re.compile(r"[\s,]+")


class BonusCard(ValueError):
    """A red three named where only meld cards belong."""


def _is_red_three(card: Card) -> bool:
    return card.rank == 3 and card.suit in "DH"


def _is_joker(item: object) -> bool:
    return isinstance(item, str) and item.strip().upper() == JOKER


def card_points(card: str | Card) -> int:
    """What one card counts, in a meld (plus) or left in the hand (minus).

    Seed 003 ("Jede Karte hat einen Punktwert"): every joker 50; every two and ace
    20; king, queen, jack, ten, nine, eight 10; seven, six, five, four and the black
    threes 5. A red three is a bonus card, not a meld card: `BonusCard`. A text
    that names no card raises `ValueError` naming it.
    """
    if _is_joker(card):
        return _JOKER_POINTS
    try:
        parsed = parse_card(card)
    except InvalidCard:
        raise InvalidCard(
            f"{card!r} is not a card (write e.g. TD, 10♦, qs, or JK for a joker)."
        ) from None
    if _is_red_three(parsed):
        raise BonusCard(
            f"{parsed} is a red three: a bonus card, laid out at once and never melded. "
            "Count it with the red threes."
        )
    return _POINTS_BY_RANK.get(parsed.rank, 10)


def _card_texts(cards: str | Iterable[str | Card]) -> list:
    if isinstance(cards, str):
        return [text for text in _SEPARATORS.split(cards) if text]
    return list(cards)


def card_points_sum(cards: str | Iterable[str | Card]) -> int:
    """What several cards count together: a side's melds, or the cards left in its
    players' hands (seed 003, "Karten, die … auf dem Tisch liegen, zählen plus,
    Karten auf der Hand einzelner Spieler minus").

    ``cards``: a string of cards separated by spaces or commas, or an iterable of
    card texts or `Card`. Each card is counted by `card_points`. The two packs of 55
    hold every card twice and six jokers: a third copy or a seventh joker raises
    `ValueError`, and so does a red three.
    """
    items = _card_texts(cards)
    total = sum(card_points(item) for item in items)
    jokers = sum(1 for item in items if _is_joker(item))
    if jokers > JOKERS:
        raise ValueError(f"The two packs hold {JOKERS} jokers, not {jokers}.")
    copies = Counter(parse_card(item) for item in items if not _is_joker(item))
    for card, count in sorted(copies.items()):
        if count > COPIES:
            raise ValueError(f"{card} is named {count} times: the two packs hold it twice.")
    return total


#: What every card that can be melded is worth: the whole table's cards in a hand.
ALL_CARDS_POINTS = COPIES * sum(
    card_points(card) for card in DECK if not _is_red_three(card)
) + JOKERS * card_points(JOKER)
#: How many cards can be melded: both packs without the four red threes.
ALL_CARDS = COPIES * len(DECK) + JOKERS - RED_THREES
#: The most canastas one hand can hold, at seven cards each.
MOST_CANASTAS = ALL_CARDS // CANASTA_CARDS


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _whole(name: str, value: object) -> int:
    if not _is_whole(value):
        raise ValueError(f"{name} must be a whole number, not {value!r}.")
    return value


def first_meld_minimum(score: int) -> int:
    """What a side's first meld of a hand must be worth, by the side's score before it.

    Seed 003 ("Je nach aktuellem Punktestand einer Mannschaft, muss ihre erste
    Meldung unterschiedlich wertvoll sein"): below 0, 15; 0 to 1,495, 50; 1,500 to
    2,995, 90; 3,000 and more, 120. Only the cards' points count, not the bonus
    for a canasta; several melds laid down together count together.
    """
    score = _whole("The score", score)
    if score < 0:
        return FIRST_MELD_BELOW_ZERO
    return next(minimum for start, minimum in FIRST_MELD_STEPS if score >= start)


def red_three_points(red_threes: int) -> int:
    """What a side's red threes are worth (seed 003): 100 each, and 200 each when
    the side holds all four."""
    red_threes = _whole("Red threes", red_threes)
    if not 0 <= red_threes <= RED_THREES:
        raise ValueError(f"A side holds 0 to {RED_THREES} red threes, not {red_threes}.")
    each = ALL_RED_THREES_BONUS if red_threes == RED_THREES else RED_THREE_BONUS
    return each * red_threes


def side_score(
    *,
    meld_points: int,
    natural_canastas: int = 0,
    mixed_canastas: int = 0,
    red_threes: int = 0,
    went_out: bool = False,
    concealed: bool = False,
    hand_points: int = 0,
    has_melded: bool = True,
) -> int:
    """A side's score for one hand (seed 003, "Abrechnung").

    The points of the cards in the side's melds; 500 for each natural and 300 for
    each mixed canasta; 100 for each red three, 200 each when the side holds all
    four; 100 for going out and 100 more for going out concealed; minus the points
    of the cards left in its players' hands. A side that melded nothing
    (``has_melded=False``) has its red threes taken off instead of added.

    Going out concealed is going out: ``concealed`` scores both hundreds. Negative
    numbers, more than four red threes or numbers that are not whole raise
    `ValueError`; `check_side` says whether the entries fit together.
    """
    numbers = {
        "Meld points": meld_points,
        "Natural canastas": natural_canastas,
        "Mixed canastas": mixed_canastas,
        "Hand points": hand_points,
    }
    for name, value in numbers.items():
        if _whole(name, value) < 0:
            raise ValueError(f"{name} cannot be negative ({value}).")
    bonus = natural_canastas * NATURAL_CANASTA_BONUS + mixed_canastas * MIXED_CANASTA_BONUS
    if went_out or concealed:
        bonus += GOING_OUT_BONUS
    if concealed:
        bonus += CONCEALED_BONUS
    red = red_three_points(red_threes)
    return meld_points + bonus + (red if has_melded else -red) - hand_points


def winner(totals: Sequence[int] | Mapping[Hashable, int]) -> Hashable | None:
    """The side that has won the party, or ``None`` while it goes on.

    Seed 003: "Spielgewinner einer Partie ist, wer als erstes 5000 Punkte erreicht.
    Überschreiten beide Parteien während einer Runde diese Marke, gewinnt, wer die
    höchste Punktzahl hat." ``totals`` are the sides' totals after the latest hand:
    a sequence (a side is its index) or a mapping (a side is its key). Once one
    side has 5,000 or more the party is over; when several have, the highest total
    wins. When the highest totals are equal nobody has won yet: another hand is
    played and the totals after it decide.
    """
    sides = dict(totals) if isinstance(totals, Mapping) else dict(enumerate(totals))
    if len(sides) < 2:
        raise ValueError("A party of Canasta has at least two sides.")
    for total in sides.values():
        _whole("A side's total", total)
    over = {side: total for side, total in sides.items() if total >= TARGET}
    if not over:
        return None
    best = max(over.values())
    leaders = [side for side, total in over.items() if total == best]
    return leaders[0] if len(leaders) == 1 else None


def check_side(
    *,
    meld_points: int,
    natural_canastas: int = 0,
    mixed_canastas: int = 0,
    red_threes: int = 0,
    went_out: bool = False,
    concealed: bool = False,
    hand_points: int = 0,
    has_melded: bool = True,
    score: int | None = None,
) -> list[str]:
    """The scorer's checks on one side's entries for a hand, as a list of problems in
    words a player understands; an empty list means the entries fit together.

    Seed 003: a side must have a canasta before it goes out; going out concealed
    is going out; there are four red threes; a canasta has at least seven cards
    (so its cards are worth at least 35 points when natural, 50 when mixed); a side
    that melded nothing has no melds and cannot go out; every card counts 5, 10,
    20 or 50, so points come in fives. With ``score``, the side's total before the
    hand, the melds are worth at least what its first meld had to be
    (`first_meld_minimum`): cards are never taken out of a meld.
    """
    numbers = {
        "meld_points": meld_points,
        "natural_canastas": natural_canastas,
        "mixed_canastas": mixed_canastas,
        "red_threes": red_threes,
        "hand_points": hand_points,
    }
    problems = _number_problems(numbers)
    if problems:
        return problems
    if red_threes > RED_THREES:
        problems.append(
            _(
                "There are only %(all)s red threes, not %(held)s.",
                all=RED_THREES,
                held=red_threes,
            )
        )
    if meld_points % 5:
        problems.append(
            _(
                "Meld points come in fives (every card counts 5, 10, 20 or 50): %(value)s.",
                value=meld_points,
            )
        )
    if hand_points % 5:
        problems.append(
            _(
                "Hand points come in fives (every card counts 5, 10, 20 or 50): %(value)s.",
                value=hand_points,
            )
        )
    if concealed and not went_out:
        problems.append(_("Going out concealed is going out: tick 'went out' too."))
    canastas = natural_canastas + mixed_canastas
    if not has_melded:
        if meld_points or canastas:
            problems.append(_("A side that melded nothing has no meld points and no canastas."))
        if went_out or concealed:
            problems.append(_("A side that melded nothing cannot have gone out."))
    elif (went_out or concealed) and canastas == 0:
        problems.append(_("A side can only go out once it has a canasta."))
    if has_melded and meld_points == 0:
        problems.append(
            _(
                "No meld points: if the side melded nothing, say so (its red threes then count "
                "against it)."
            )
        )
    floor = natural_canastas * NATURAL_CANASTA_FLOOR + mixed_canastas * MIXED_CANASTA_FLOOR
    if meld_points < floor:
        template = (
            _(
                "%(canastas)s holds at least %(floor)s points of cards, more than the "
                "%(points)s meld points entered."
            )
            if canastas == 1
            else _(
                "%(canastas)s hold at least %(floor)s points of cards, more than the "
                "%(points)s meld points entered."
            )
        )
        problems.append(
            _(
                template,
                canastas=_canastas_text(natural_canastas, mixed_canastas),
                floor=floor,
                points=meld_points,
            )
        )
    if canastas > MOST_CANASTAS:
        problems.append(
            _(
                "%(canastas)s canastas need %(cards)s cards; the two packs have %(all)s to meld.",
                canastas=canastas,
                cards=canastas * CANASTA_CARDS,
                all=ALL_CARDS,
            )
        )
    if meld_points + hand_points > ALL_CARDS_POINTS:
        problems.append(
            _(
                "Melds and hands of %(points)s points: all the cards of the two packs are "
                "worth %(all)s.",
                points=meld_points + hand_points,
                all=ALL_CARDS_POINTS,
            )
        )
    if has_melded and score is not None and meld_points:
        minimum = first_meld_minimum(score)
        if meld_points < minimum:
            problems.append(
                _(
                    "At %(score)s points a side's first meld is worth at least %(minimum)s; "
                    "its melds cannot be worth %(points)s.",
                    score=score,
                    minimum=minimum,
                    points=meld_points,
                )
            )
    return problems


# What each number of a side's entry is called when it cannot be: not whole, negative.
_NOT_WHOLE = {
    "meld_points": _("Meld points must be a whole number, not %(value)r."),
    "natural_canastas": _("Natural canastas must be a whole number, not %(value)r."),
    "mixed_canastas": _("Mixed canastas must be a whole number, not %(value)r."),
    "red_threes": _("Red threes must be a whole number, not %(value)r."),
    "hand_points": _("Hand points must be a whole number, not %(value)r."),
}
_NEGATIVE = {
    "meld_points": _("Meld points cannot be negative (%(value)s)."),
    "natural_canastas": _("Natural canastas cannot be negative (%(value)s)."),
    "mixed_canastas": _("Mixed canastas cannot be negative (%(value)s)."),
    "red_threes": _("Red threes cannot be negative (%(value)s)."),
    "hand_points": _("Hand points cannot be negative (%(value)s)."),
}


def _number_problems(numbers: Mapping[str, object]) -> list[str]:
    problems = []
    for key, value in numbers.items():
        if not _is_whole(value):
            problems.append(_(_NOT_WHOLE[key], value=value))
        elif value < 0:
            problems.append(_(_NEGATIVE[key], value=value))
    return problems


def _canastas_text(natural: int, mixed: int) -> str:
    parts = []
    if natural:
        parts.append(
            _("1 natural canasta")
            if natural == 1
            else _("%(count)s natural canastas", count=natural)
        )
    if mixed:
        parts.append(
            _("1 mixed canasta") if mixed == 1 else _("%(count)s mixed canastas", count=mixed)
        )
    if len(parts) == 1:
        return parts[0]
    return _("%(first)s and %(second)s", first=parts[0], second=parts[1])


_COUNTED = frozenset(
    {"meld_points", "natural_canastas", "mixed_canastas", "red_threes", "hand_points"}
)
_SIDE_ENTRIES = frozenset(
    {
        "meld_points",
        "natural_canastas",
        "mixed_canastas",
        "red_threes",
        "went_out",
        "concealed",
        "hand_points",
        "has_melded",
        "score",
    }
)


def check_hand(sides: Sequence[Mapping[str, object]]) -> list[str]:
    """The scorer's checks on a whole hand: every side's (`check_side`), each problem
    headed by the side's number (from 1), then those across the sides.

    ``sides``: one mapping per side with `check_side`'s keywords. Seed 003: the
    hand ends when one player goes out (or the stock runs out), so at most one side
    went out; there are four red threes between all sides; all the cards melded
    and held are worth no more than the two packs; no more canastas than the cards
    allow. A mapping with a key `check_side` does not know raises `ValueError`.
    """
    if len(sides) < 2:
        raise ValueError("A hand of Canasta has at least two sides.")
    problems = []
    for number, entries in enumerate(sides, start=1):
        unknown = sorted(set(entries) - _SIDE_ENTRIES)
        if unknown:
            raise ValueError(
                _(
                    "Side %(number)s: no such entry %(names)s.",
                    number=number,
                    names=", ".join(unknown),
                )
            )
        if "meld_points" not in entries:
            raise ValueError(_("Side %(number)s: the meld points are missing.", number=number))
        problems += [
            _("Side %(number)s: %(problem)s", number=number, problem=problem)
            for problem in check_side(**entries)
        ]
    if not all(_is_whole(v) for e in sides for key, v in e.items() if key in _COUNTED):
        return problems  # the totals across sides need every number readable first
    out = [n for n, e in enumerate(sides, start=1) if e.get("went_out") or e.get("concealed")]
    if len(out) > 1:
        problems.append(
            _(
                "Only one side goes out in a hand; sides %(sides)s are marked as gone out.",
                sides=_numbers_text(out),
            )
        )
    red_threes = sum(entries.get("red_threes", 0) for entries in sides)
    if red_threes > RED_THREES:
        problems.append(
            _(
                "There are %(all)s red threes; the sides hold %(held)s.",
                all=RED_THREES,
                held=red_threes,
            )
        )
    points = sum(entries["meld_points"] + entries.get("hand_points", 0) for entries in sides)
    if points > ALL_CARDS_POINTS:
        problems.append(
            _(
                "Melds and hands of %(points)s points in all: the cards of the two packs are "
                "worth %(all)s.",
                points=points,
                all=ALL_CARDS_POINTS,
            )
        )
    canastas = sum(
        entries.get("natural_canastas", 0) + entries.get("mixed_canastas", 0) for entries in sides
    )
    if canastas > MOST_CANASTAS:
        problems.append(
            _(
                "%(canastas)s canastas in one hand need %(cards)s cards; "
                "the two packs have %(all)s to meld.",
                canastas=canastas,
                cards=canastas * CANASTA_CARDS,
                all=ALL_CARDS,
            )
        )
    return problems


def _numbers_text(numbers: Sequence[int]) -> str:
    return _(
        "%(some)s and %(last)s",
        some=", ".join(str(n) for n in numbers[:-1]),
        last=numbers[-1],
    )


def _side_count(players: int, partnerships: int | None) -> int:
    players = _whole("The number of players", players)
    if not 2 <= players <= 6:
        raise ValueError(_("Canasta is played by two to six, not %(players)s.", players=players))
    if players <= 3:
        if partnerships is not None:
            raise ValueError(
                _(
                    "%(players)s players play each on their own, without partnerships.",
                    players=players,
                )
            )
        return players
    if players == 6:
        if partnerships not in (2, 3):
            raise ValueError(_("Six players play as two or three partnerships: choose one."))
        return partnerships
    if partnerships not in (None, 2):
        raise ValueError(_("%(players)s players play as two partnerships.", players=players))
    return 2


def sides_for(players: int, partnerships: int | None = None) -> list[tuple[int, ...]]:
    """Who plays with whom: the sides, each a tuple of places 0 … players − 1.

    Seed 003: "Bei bis zu drei Spielern spielt jeder gegen jeden. Bei vier bildet man
    zwei Parteien. Bei fünf Spielern muss einer immer aussetzen. Zu sechst spielen
    entweder zwei oder drei Parteien gegeneinander." Places are the order round the
    table (after the draw for partners); partners take every second place at a
    table of two partnerships and every third at one of three, so they sit
    opposite. Two or three players take no ``partnerships``; four and five play
    as two; six must say 2 or 3. Five are three against two, and a partnership of
    three sits one out each hand (`sitting_out`).
    """
    count = _side_count(players, partnerships)
    return [tuple(range(first, players, count)) for first in range(count)]


def sitting_out(players: int, hand: int, partnerships: int | None = None) -> tuple[int, ...]:
    """The places that sit out hand number ``hand`` (from 1).

    Seed 003: "Bei einer Dreier-Partei muss jedoch immer einer sitzen." Every
    partnership of three (five players, or six in two partnerships) sits one member
    out: its last in the first hand, so the first hand looks like one of four, then
    its first, then its second, and round again. The one coming back takes the
    chair of the one going out. Everyone else plays every hand.
    """
    hand = _whole("The hand number", hand)
    if hand < 1:
        raise ValueError(f"Hands are counted from 1, not {hand}.")
    sides = sides_for(players, partnerships)
    return tuple(side[(hand + 1) % 3] for side in sides if len(side) == 3)


# --------------------------------------------------------------------------- the game


def _count(name: str, most: int, label: str, required: bool = False) -> EntryField:
    """A side's number of a hand, 0 when left empty."""
    return EntryField(name, most=most, required=required, default=0, label=label)


class Canasta:
    """Canasta behind `scoring.engine.games.game.Game`: two to six players, each
    for himself up to three, in partnerships from four; the highest total is best.

    Four to six play as two partnerships unless six choose three
    (``partnerships``). A hand's entry: ``sides``, one mapping per side with `side_score`'s keywords
    (meld points, canastas, red threes, went out, concealed, points left in hand,
    whether it melded). The scorer's checks (`check_hand`) must pass, with each
    side's first-meld minimum from its total before the hand."""

    key = "canasta"
    name = _("Canasta")
    table_sizes = (2, 3, 4, 5, 6)
    lower_wins = False
    options = {
        "partnerships": Option(
            None,
            choices=(None, 2, 3),
            label=_("Partnerships"),
            help=_("Partners sit opposite each other: every second seat (every third of three)."),
            words={
                None: _("Each on their own up to three players, two partnerships from four"),
                3: _("Six players: three partnerships of two"),
            },
        )
    }
    figures = {
        "canastas_per_party": FigureKind(_("Canastas per party"), False, "parties"),
        "went_out": FigureKind(_("Hands gone out"), True, "hands"),
    }
    draws_for_ties = False
    fact_words = {"went_out": _("Went out: %(side)s")}
    formats: Mapping = {}
    confirmations_needed = staticmethod(majority_of_others)
    entry_fields = (
        _count("meld_points", ALL_CARDS_POINTS, _("Points of the melded cards"), required=True),
        _count("natural_canastas", MOST_CANASTAS, _("Natural canastas")),
        _count("mixed_canastas", MOST_CANASTAS, _("Mixed canastas")),
        _count("red_threes", RED_THREES, _("Red threes")),
        _count("hand_points", ALL_CARDS_POINTS, _("Points left in hand")),
        EntryField("went_out", "tick", required=False, default=False, label=_("Went out")),
        EntryField(
            "concealed", "tick", required=False, default=False, label=_("Went out concealed")
        ),
        EntryField("melded_nothing", "tick", required=False, label=_("Melded nothing")),
    )
    entry_body = (
        EntryField(
            "sides",
            "record",
            help="Each side's entries, in side order.",
            fields=(
                *(replace(field, per_side=False) for field in entry_fields[:-1]),
                EntryField("has_melded", "tick", per_side=False, required=False, default=True),
            ),
        ),
    )
    hint_label = _("First meld at least")

    def entry_from(self, values: Mapping, sides: int, options: Mapping) -> dict:
        """Each side's entries by name, a number left empty 0, a tick unticked
        False; a side that "melded nothing" has not melded."""

        def side(n):
            given = {f.name: values[f.name].get(n) or f.default for f in self.entry_fields}
            given["has_melded"] = not given.pop("melded_nothing")
            return given

        return {"sides": [side(n) for n in range(sides)]}

    def values_from(self, entry: Mapping) -> dict:
        given = list(enumerate(entry.get("sides") or []))
        values = {f.name: {n: side.get(f.name) for n, side in given} for f in self.entry_fields}
        return values | {
            "melded_nothing": {n: not side.get("has_melded", True) for n, side in given}
        }

    def record(self, hands, places, parties) -> dict[str, Figure]:
        """His side's natural and mixed canastas per finished party, and the hands
        his side went out."""
        canastas = [h.facts.get("canastas") or () for h in hands]
        made = sum(c[h.side] for c, h in zip(canastas, hands, strict=True) if len(c) > h.side)
        return {
            "canastas_per_party": Figure(made / parties if parties else None, parties),
            "went_out": count_of(hands, "went_out"),
        }

    def sides(self, players: int, options: Mapping) -> list[tuple[int, ...]]:
        check_table(self, players)
        partnerships = options.get("partnerships")
        if players >= 4 and partnerships is None:
            partnerships = 2  # six agree on three partnerships only when they say so
        try:
            return sides_for(players, partnerships)
        except ValueError as error:
            raise EntryError(reason(error)) from error

    def hand(self, entry: Mapping, totals: Sequence[int], options: Mapping) -> HandScore:
        given = entry.get("sides")
        if not isinstance(given, Sequence) or len(given) != len(totals):
            raise EntryError(_("Give the entries of all %(sides)s sides.", sides=len(totals)))
        if not all(isinstance(side, Mapping) for side in given):
            raise EntryError(_("Each side's entries are given by name."))
        sides = [{**side, "score": total} for side, total in zip(given, totals, strict=True)]
        try:
            problems = check_hand(sides)
            if problems:
                raise EntryError(problems)
            scores = tuple(
                side_score(**{k: v for k, v in side.items() if k != "score"}) for side in sides
            )
        except EntryError:
            raise
        except ValueError as error:
            raise EntryError(reason(error)) from error
        out = [n for n, side in enumerate(given) if side.get("went_out") or side.get("concealed")]
        facts = {
            "canastas": [
                side.get("natural_canastas", 0) + side.get("mixed_canastas", 0) for side in given
            ],
            "went_out": out[0] if out else None,
        }
        return HandScore(scores, facts)

    def standing(self, hands: Sequence[HandScore], sides: int, options: Mapping) -> Outcome:
        now = side_totals(hands, sides)
        found = winner(now)
        return Outcome(True, frozenset({found})) if found is not None else Outcome(False)

    def hints(self, now: Sequence[int]) -> list[int]:
        """What each side's first meld must be worth in the next hand."""
        return [first_meld_minimum(total) for total in now]


GAME = Canasta()
