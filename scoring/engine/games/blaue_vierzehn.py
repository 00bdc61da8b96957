"""Blaue Vierzehn: a trick game in which every point is a bad one.

Seed 003 ("Blaue Vierzehn"): the cards 1 to 15 of an "Elfer raus" pack, in four
colours, 60 cards for three to six players. "Es werden alle Karten gleichmäßig an
die Spieler ausgeteilt"; the highest number of the colour led takes the trick.
After the deal each player counts the cards of his tricks: "Für jede rote Karte
bekommt man 2 Punkte, für jede Vierzehn 5 Punkte (auch für die rote Vierzehn) und
für die blaue Vierzehn gibt es 13 Punkte." The points are added up over all
deals, and "Ziel ist es, möglichst wenig Punkte zu bekommen".

A card is written as its number, then its colour: ``R`` rot, ``Y`` gelb, ``G``
grün, ``B`` blau (``"14B"``, ``"7R"``); lower case is read too.

Decisions the seed leaves open
------------------------------
- The red fourteen counts 5 in all, not 2 + 5, and the blue fourteen 13 in all:
  a deal is then worth 14 × 2 + 3 × 5 + 13 = 56 (`DEAL_POINTS`).
- 60 cards divide evenly at every table the seed allows: three players get 20
  cards, four 15, five 12, six 10. No card is ever left over, so there is no
  rule for leftovers; fewer than three or more than six players are refused.
- A player's points are possible when some of the deck's cards are worth them:
  every number from 0 to 56 except 1, 3, 53 and 55. The points of one deal must
  also fit together: one sharing-out of the 60 cards has to give every player
  his number at once. Only the four fourteens count an odd number, so no more
  than four players can write an odd number, and 14, 14, 14, 14 is impossible
  (the fourteens cannot all go in pairs into piles of 14). The 42 cards worth
  nothing always fill every pile up to whole tricks. The check is about the
  cards only; it does not ask whether the deal could have been played that way.
- The table agrees before the first deal how many deals the party has; the
  party is over after that many deals. Whoever has the fewest points wins, and
  players tied on the fewest points share the win (the seed names no tie-break).
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from scoring.engine.cards import InvalidCard
from scoring.engine.games.game import (
    EntryError,
    EntryField,
    Figure,
    FigureKind,
    HandScore,
    Option,
    Outcome,
    after_agreed,
    check_agreed,
    count_of,
    each_alone,
    majority_of_others,
    reason,
)
from scoring.engine.games.game import Problem as _

#: The colours, as written after the number: rot, gelb (yellow), grün, blau.
COLOURS = "RYGB"
#: Seed 003: "lediglich die Karten mit den Zahlen 1 bis 15".
NUMBERS = range(1, 16)
#: Seed 003: "Gespielt werden kann mit 3 bis 6 Spielern."
TABLE_SIZES = range(3, 7)

RED_CARD_POINTS = 2
FOURTEEN_POINTS = 5
BLUE_FOURTEEN_POINTS = 13

_CARD_TEXT = re.compile(r"([1-9][0-9]?)([RYGB])", re.ASCII | re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s,]+")


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One card of the pack: a number 1–15 and a colour letter (``R Y G B``)."""

    number: int
    colour: str

    def __post_init__(self) -> None:
        number_ok = isinstance(self.number, int) and not isinstance(self.number, bool)
        if not (number_ok and self.number in NUMBERS) or self.colour not in tuple(COLOURS):
            raise InvalidCard(
                _(
                    "There is no Blaue Vierzehn card %(number)r %(colour)r: "
                    "the numbers run from 1 to 15 in the colours R, Y, G and B.",
                    number=self.number,
                    colour=self.colour,
                )
            )

    @property
    def points(self) -> int:
        """What the card counts in a trick (seed 003): the blue fourteen 13, every
        other fourteen 5 (the red one too, 5 in all), every other red card 2."""
        if self.number == 14:
            return BLUE_FOURTEEN_POINTS if self.colour == "B" else FOURTEEN_POINTS
        return RED_CARD_POINTS if self.colour == "R" else 0

    def __str__(self) -> str:
        return f"{self.number}{self.colour}"

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


#: The 60 cards: 1 to 15 in each colour, red first.
DECK: tuple[Card, ...] = tuple(Card(number, colour) for colour in COLOURS for number in NUMBERS)
BLUE_FOURTEEN = Card(14, "B")


def parse_card(text: str | Card) -> Card:
    """Read one card: its number 1–15, then ``R``, ``Y``, ``G`` or ``B`` (seed 003:
    the "Elfer raus" cards 1 to 15 in four colours). A `Card` is returned as it is;
    any other text raises `InvalidCard` (a `ValueError`) naming it."""
    if isinstance(text, Card):
        return text
    match = _CARD_TEXT.fullmatch(text.strip()) if isinstance(text, str) else None
    if match is None or int(match[1]) not in NUMBERS:
        raise InvalidCard(
            _(
                "%(card)r is not a Blaue Vierzehn card (write the number 1 to 15, then "
                "R, Y, G or B, e.g. 14B).",
                card=text,
            )
        )
    return Card(int(match[1]), match[2].upper())


def parse_cards(cards: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Read several cards from a string (separated by spaces or commas) or an
    iterable. The pack holds every card once (seed 003), so a card named twice
    raises `InvalidCard` naming it."""
    items = [t for t in _SEPARATORS.split(cards) if t] if isinstance(cards, str) else cards
    parsed = tuple(parse_card(item) for item in items)
    seen: set[Card] = set()
    for card in parsed:
        if card in seen:
            raise InvalidCard(
                _("%(card)s is named twice: the pack holds every card once.", card=str(card))
            )
        seen.add(card)
    return parsed


def trick_points(cards: str | Iterable[str | Card]) -> int:
    """What the cards of a player's tricks count (seed 003): every red card 2,
    every fourteen 5 (the red fourteen too, 5 in all), the blue fourteen 13."""
    return sum(card.points for card in parse_cards(cards))


#: Seed 003: the points of one whole deal; every deal's points add up to it.
DEAL_POINTS: int = trick_points(DECK)


def blue_fourteen_taken(cards: str | Iterable[str | Card]) -> bool:
    """Whether a player's tricks hold the blue fourteen, the card the game is
    named after (seed 003: 13 points, the worst card of a deal)."""
    return BLUE_FOURTEEN in parse_cards(cards)


def hand_size(players: int) -> int:
    """How many cards each player gets: all 60 are dealt evenly (seed 003, "Es
    werden alle Karten gleichmäßig an die Spieler ausgeteilt"), 20, 15, 12 or 10.
    A table of fewer than three or more than six raises `ValueError`."""
    _check_table_size(players)
    return len(DECK) // players


def _check_table_size(players: int) -> None:
    if isinstance(players, bool) or not isinstance(players, int) or players not in TABLE_SIZES:
        raise ValueError(
            f"Blaue Vierzehn is played by three to six players, not {players!r} (seed 003)."
        )


# The counting cards of the deck: red cards worth 2, fourteens worth 5, the blue fourteen.
# A player's points are told by how many of each kind his tricks hold.
_COUNTS = (
    sum(card.points == RED_CARD_POINTS for card in DECK),
    sum(card.points == FOURTEEN_POINTS for card in DECK),
    sum(card.points == BLUE_FOURTEEN_POINTS for card in DECK),
)


def _ways_to_score() -> dict[int, list[tuple[int, int, int]]]:
    """Every value a set of cards can be worth, with each way of taking it."""
    ways: dict[int, list[tuple[int, int, int]]] = {}
    for twos in range(_COUNTS[0] + 1):
        for fives in range(_COUNTS[1] + 1):
            for blue in range(_COUNTS[2] + 1):
                value = twos * RED_CARD_POINTS + fives * FOURTEEN_POINTS
                value += blue * BLUE_FOURTEEN_POINTS
                ways.setdefault(value, []).append((twos, fives, blue))
    return ways


_WAYS = _ways_to_score()


def _cards_can_give(values: Iterable[int]) -> bool:
    """Whether one sharing-out of the deck gives every player his value at once.
    Players take the counting cards in turn; the set of what is taken so far stays
    small (at most 15 × 4 × 2 combinations)."""
    taken = {(0, 0, 0)}
    for value in values:
        taken = {
            (twos + t, fives + f, blue + b)
            for twos, fives, blue in taken
            for t, f, b in _WAYS.get(value, ())
            if twos + t <= _COUNTS[0] and fives + f <= _COUNTS[1] and blue + b <= _COUNTS[2]
        }
    return _COUNTS in taken


def deal_check(points: Mapping[Hashable, int]) -> list[str]:
    """The problems with one deal's points, in words a player understands; an
    empty list when they can be right.

    Seed 003: every card of a player's tricks counts (red 2, fourteen 5, blue
    fourteen 13), so a deal's points add up to `DEAL_POINTS` (56), no player can
    write less than 0 or more than 56, nor a number no set of cards is worth
    (1, 3, 53, 55), and the numbers together must come from one sharing-out of
    the cards. The table must have three to six players. A value that is not a
    whole number raises `ValueError`.
    """
    for player, value in points.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(
                _(
                    "%(player)s's points must be a whole number, not %(value)r.",
                    player=player,
                    value=value,
                )
            )
    problems = []
    if len(points) not in TABLE_SIZES:
        problems.append(
            _(
                "Blaue Vierzehn is played by three to six players; this deal has %(count)s.",
                count=len(points),
            )
        )
    for player, value in points.items():
        if value < 0:
            problems.append(
                _(
                    "%(player)s: %(value)s is below 0; tricks never take points away.",
                    player=player,
                    value=value,
                )
            )
        elif value > DEAL_POINTS:
            problems.append(
                _(
                    "%(player)s: %(value)s is more than the %(deal)s a whole deal is worth.",
                    player=player,
                    value=value,
                    deal=DEAL_POINTS,
                )
            )
        elif value not in _WAYS:
            problems.append(
                _(
                    "%(player)s: no set of cards is worth %(value)s (a red card counts 2, "
                    "a fourteen 5, the blue fourteen 13).",
                    player=player,
                    value=value,
                )
            )
    total = sum(points.values())
    if total != DEAL_POINTS:
        problems.append(
            _(
                "The points add up to %(total)s, not %(deal)s: every deal's points "
                "add up to %(deal)s.",
                total=total,
                deal=DEAL_POINTS,
            )
        )
    if not problems and not _cards_can_give(points.values()):
        problems.append(
            _(
                "No sharing-out of the cards gives these points together: the fourteens "
                "count 5, 5, 5 and 13, every other point comes in twos from the red cards."
            )
        )
    return problems


@dataclass(frozen=True, slots=True)
class Standing:
    """The party so far. ``leaders``: the players with the fewest points now;
    ``winners``: the same once the party is over, empty before."""

    over: bool
    leaders: frozenset
    winners: frozenset
    deals_left: int


def standing(totals: Mapping[Hashable, int], deals_played: int, deals_agreed: int) -> Standing:
    """Where the party stands after ``deals_played`` of the ``deals_agreed`` deals.

    Seed 003: the points "werden notiert und über alle Runden aufsummiert, um am
    Ende den Sieger zu ermitteln", and the fewest points win. The party is over
    after the agreed number of deals; players tied on the fewest points share the
    win. Raises `ValueError` for a table of other than three to six, a negative
    or broken total, more deals played than agreed, or totals that do not add up
    to 56 for every deal played.
    """
    _check_table_size(len(totals))
    check_agreed(totals, deals_played, deals_agreed, "deal")
    if sum(totals.values()) != DEAL_POINTS * deals_played:
        raise ValueError(
            f"The totals add up to {sum(totals.values())}, but {deals_played} deals of "
            f"{DEAL_POINTS} points make {DEAL_POINTS * deals_played}."
        )
    fewest = min(totals.values())
    leaders = frozenset(player for player, total in totals.items() if total == fewest)
    over = deals_played == deals_agreed
    return Standing(
        over=over,
        leaders=leaders,
        winners=leaders if over else frozenset(),
        deals_left=deals_agreed - deals_played,
    )


# --------------------------------------------------------------------------- the game


class BlaueVierzehn:
    """Blaue Vierzehn behind `scoring.engine.games.game.Game`: three to six
    players, each for himself; the fewest points are best, after the number of
    deals the table agreed (``deals``; by default one deal each, so every player
    deals once).

    A hand's entry: each side's ``points`` from its tricks, or its ``cards`` (the
    cards of its tricks, counted here); the deal must add up to 56 (`deal_check`)."""

    key = "blaue_vierzehn"
    name = _("Blaue Vierzehn")
    table_sizes = tuple(TABLE_SIZES)
    lower_wins = True
    options = {
        "deals": Option(
            None,
            label=_("Number of deals"),
            help=_("Empty: one deal each, so every player deals once."),
        )
    }
    figures = {
        "blue_fourteens": FigureKind(_("Blue fourteens taken (card entries)"), True, "hands")
    }
    draws_for_ties = False
    fact_words = {"blue_fourteen": _("Blue fourteen: %(side)s")}
    formats: Mapping = {}
    confirmations_needed = staticmethod(majority_of_others)
    entry_fields = (
        EntryField(
            "points",
            most=DEAL_POINTS,
            label=_("Points from the tricks"),
            help="Each side's points from its tricks; a deal adds up to 56.",
        ),
    )

    def record(self, hands, places, parties) -> dict[str, Figure]:
        """The hands he took the blue fourteen, of those entered from the cards
        (only there is it known)."""
        known = [h for h in hands if "blue_fourteen" in h.facts]
        return {"blue_fourteens": count_of(known, "blue_fourteen")}

    def sides(self, players: int, options: Mapping) -> list[tuple[int, ...]]:
        return each_alone(self, players)

    def hand(self, entry: Mapping, totals: Sequence[int], options: Mapping) -> HandScore:
        cards, points = entry.get("cards"), entry.get("points")
        given = cards if cards is not None else points
        if not isinstance(given, Sequence) or len(given) != len(totals):
            raise EntryError(
                _("Give every player's points, or the cards of every player's tricks.")
            )
        facts = {}
        try:
            if cards is not None:
                # The piles together hold each card once: a card named in two
                # players' tricks (and another missing) could still add up to 56.
                parse_cards([card for pile in cards for card in parse_cards(pile)])
                counted = {n + 1: trick_points(pile) for n, pile in enumerate(cards)}
                taker = [n for n, pile in enumerate(cards) if blue_fourteen_taken(pile)]
                facts["blue_fourteen"] = taker[0] if taker else None
            else:
                counted = {n + 1: value for n, value in enumerate(points)}
            problems = deal_check(counted)
        except ValueError as error:
            raise EntryError(reason(error)) from error
        if problems:
            raise EntryError(problems)
        return HandScore(tuple(counted.values()), facts)

    def standing(self, hands: Sequence[HandScore], sides: int, options: Mapping) -> Outcome:
        return after_agreed(standing, hands, sides, options.get("deals"))


GAME = BlaueVierzehn()
