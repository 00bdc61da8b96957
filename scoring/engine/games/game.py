"""One interface for every game a club scores (`Game`), and what all games share.

A game says who sits at its table and with whom (`Game.sides`), what one hand's
entry holds and what it scores (`Game.hand`), when a party is over and who won
(`Game.standing`), whether the lower total or the higher is better, its rule
variants (`Game.options`), and so what a party gives the standings, the seasons
and the ratings: the places at the table (`places`) and the margin each side won
or lost by (`margins`). The rest of Knock asks the game, never which game it is.

Sides are numbered 0, 1, … in seat order; a side is one player or a partnership.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol


class Problem(str):
    """One problem in words a player understands: the English sentence itself (a
    `str`), and what a translation needs, its ``template`` and ``params``.

    The engine speaks English; the service translates ``template`` into the page's
    language and fills in ``params`` (a param that is itself a `Problem`, a word or
    a part of the sentence, is translated too). Each module imports it as ``_`` so
    that ``makemessages`` finds the templates: ``_("%(card)s is named twice.", card=c)``.
    """

    template: str
    params: dict

    def __new__(cls, template: str, **params: object) -> Problem:
        problem = super().__new__(cls, template % params if params else template)
        problem.template, problem.params = template, params
        return problem


_ = Problem


def reason(error: Exception) -> str:
    """What an error raised with a `Problem` says, the `Problem` itself kept (``str``
    of the error would give its English only)."""
    first = error.args[0] if len(error.args) == 1 else None
    return first if isinstance(first, Problem) else str(error)


class EntryError(ValueError):
    """A hand's entry that cannot be scored: the message says why, in words a
    player at the table understands (each problem on its own line). Each problem
    is a `str`; those the engine words are `Problem`s the service can translate."""

    def __init__(self, problems: Sequence[str] | str):
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        super().__init__("\n".join(self.problems))


@dataclass(frozen=True, slots=True)
class Option:
    """A rule variant the table agrees before the party: its default and, where
    it is a choice, the values allowed (``None``: any whole number from ``least``).

    How a club says it (each a `Problem` the pages translate): the organizer's
    form's ``label`` and ``help``, and the ``words`` of the choices it offers
    (value → words; ``None``: a number the table agrees on, left empty for the
    default). Without a label the form names the option by its key."""

    default: object
    choices: tuple | None = None
    least: int = 1
    label: str = ""
    help: str = ""
    words: Mapping | None = None


@dataclass(frozen=True, slots=True)
class EntryField:
    """One field of a hand's entry, as the table fills it in (`Game.entry_fields`)
    and, under its ``key`` where that differs, as the API takes it (`entry_body`).

    ``kind``: ``"number"`` (whole, ``least`` to ``most``), ``"tick"``, ``"side"`` (one
    of those in play), ``"place"`` (1, 2, 3 …, or ``none``), ``"cards"`` (each
    matching ``pattern``); in an API body also ``"sides"`` (an order of sides) and
    ``"record"`` (of its own ``fields``). ``per_side``: one for each side in play
    (a list in side order, or ``keyed`` by the side's number as text). One not
    ``required`` may be left empty or out (``default``; null for a side out of
    play). ``label``, the words for a ``missing`` value and ``none``: `Problem`s
    the pages translate; ``help`` documents the API."""

    name: str
    kind: str = "number"
    per_side: bool = True
    least: int = 0
    most: int = 32767
    required: bool = True
    default: object = None
    label: str = ""
    missing: str = ""
    none: str = ""
    help: str = ""
    placeholder: str = ""
    pattern: str = ""
    keyed: bool = False
    fields: tuple = ()
    key: str = ""


@dataclass(frozen=True, slots=True)
class HandScore:
    """What one hand scored: each side's points (by side number) and the facts
    the statistics and the party's end need (who closed, a Chinchón, the blue
    fourteen, who went out …)."""

    scores: tuple[int, ...]
    facts: Mapping = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Outcome:
    """Where a party stands: ``over``, the ``winners`` once over (sides; more than
    one share the win), and the sides ``out`` of play (La Conga)."""

    over: bool
    winners: frozenset = frozenset()
    out: frozenset = frozenset()


@dataclass(frozen=True, slots=True)
class Figure:
    """A figure of a player's record and what it rests on: ``of`` hands or parties
    (a gin rate of 50 % from two hands is not one from two hundred)."""

    value: float | int | None
    of: int


@dataclass(frozen=True, slots=True)
class FigureKind:
    """What one figure of a game's record is called (``label``, a `Problem` the
    pages translate), whether it is a count of ``unit`` (``"hands"`` or
    ``"parties"``) rather than a mean, and so how it is shown."""

    label: str
    count: bool
    unit: str


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """One confirmed hand as one player played it: their ``side``, each side's
    ``scores`` and the engine's ``facts`` (`HandScore`)."""

    side: int
    scores: tuple[int, ...]
    facts: Mapping = field(default_factory=dict)


class Game(Protocol):
    """A game as the club scores it. Implemented once per game, in its module."""

    key: str
    #: The game's name as the seed gives it.
    name: str
    #: The numbers of players a table of this game may have.
    table_sizes: tuple[int, ...]
    #: Whether the lowest total is best (penalty points) rather than the highest.
    lower_wins: bool
    options: Mapping[str, Option]
    #: The figures of a player's record in this game (`record`), in page order.
    figures: Mapping[str, FigureKind]
    #: Whether a tournament's entrants tied on points are ordered by a card draw
    #: (seed 000's Kartenziehen). Where the game's own score orders the tied
    #: entrants first (tables of three to six), no draw is offered.
    draws_for_ties: bool
    #: The facts of a hand (`HandScore.facts`) its table is told, each in words
    #: (a `Problem` the pages translate): a fact naming a side fills ``%(side)s``
    #: with its players, a true one stands alone. Optional: none by default.
    fact_words: Mapping[str, str]
    #: The party formats that seat tables of their own within a party, each hand at
    #: the format's table (Gin Rummy's rotation, chouette, partnerships; empty:
    #: every player at the one table, every hand).
    formats: Mapping
    #: Optional, the entry (`EntryField`): the fields in page order (by default each
    #: side's points, `POINTS`), the API's body where not those fields, the words
    #: heading the row of `hints`; ``entry_from(values, sides, options)``,
    #: ``values_from(entry)`` and ``check_values(values, names, options)``, where
    #: the entry is not the fields' values as they are (`entry_from`); a game
    #: entered from its cards lays out the page's card picker (``picker_rows``,
    #: ``preview_cards``).
    entry_fields: tuple[EntryField, ...]
    entry_body: tuple[EntryField, ...]
    hint_label: str

    def record(
        self, hands: Sequence[PlayedHand], places: Sequence[int], parties: int
    ) -> dict[str, Figure]:
        """A player's figures (`figures`) from the confirmed hands they played and the
        places of their finished ``parties``."""

    def confirmations_needed(self, sides: Sequence[Sequence[int]], entering: int) -> int:
        """How many players not on side ``entering`` must confirm an entry."""

    def sides(self, players: int, options: Mapping) -> list[tuple[int, ...]]:
        """Who plays with whom: each side's seats (0 … players − 1)."""

    def hand(self, entry: Mapping, totals: Sequence[int], options: Mapping) -> HandScore:
        """One hand's scores from what the table entered; ``totals``: each side's
        total before the hand. Raises `EntryError` for an entry that cannot be."""

    def standing(self, hands: Sequence[HandScore], sides: int, options: Mapping) -> Outcome:
        """Where the party stands after these hands."""


def settle_options(game: Game, given: Mapping | None) -> dict:
    """The game's options with ``given`` over the defaults, each checked: an
    unknown option or a value outside its choices raises `EntryError`."""
    given = dict(given or {})
    unknown = sorted(set(given) - set(game.options))
    if unknown:
        raise EntryError(
            _("%(game)s has no rule called %(names)s.", game=game.name, names=", ".join(unknown))
        )
    options = {}
    for name, option in game.options.items():
        value = given.get(name, option.default)
        if option.choices is not None:
            if value not in option.choices:
                shown = ", ".join(str(c) for c in option.choices)
                raise EntryError(
                    _(
                        "%(name)s is one of %(shown)s, not %(value)r.",
                        name=name,
                        shown=shown,
                        value=value,
                    )
                )
        elif value is not None and (
            isinstance(value, bool) or not isinstance(value, int) or value < option.least
        ):
            raise EntryError(
                _(
                    "%(name)s is a whole number from %(least)s, not %(value)r.",
                    name=name,
                    least=option.least,
                    value=value,
                )
            )
        options[name] = value
    return options


def check_table(game: Game, players: int) -> None:
    """Refuses a table the game is not played at."""
    if players not in game.table_sizes:
        sizes = ", ".join(str(n) for n in game.table_sizes)
        raise EntryError(
            _(
                "%(game)s is played by %(sizes)s players, not %(players)s.",
                game=game.name,
                sizes=sizes,
                players=players,
            )
        )


def each_alone(game: Game, players: int) -> list[tuple[int, ...]]:
    """The sides of a game where each player plays for himself: one seat each."""
    check_table(game, players)
    return [(seat,) for seat in range(players)]


def check_agreed(totals: Mapping, played: int, agreed: int, noun: str) -> None:
    r"""Refuses what a party of an agreed number of ``noun``\s (deals, games)
    cannot stand on: counts that are not whole, none agreed, more played than
    agreed, or a total that is not a whole number of 0 or more."""
    for name, count in ((f"{noun}s played", played), (f"{noun}s agreed", agreed)):
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"The number of {name} must be a whole number, not {count!r}.")
    if agreed < 1:
        raise ValueError(f"A party has at least one {noun}.")
    if played > agreed:
        raise ValueError(f"{played} {noun}s played, but the party was agreed on {agreed}.")
    for player, total in totals.items():
        if isinstance(total, bool) or not isinstance(total, int) or total < 0:
            raise ValueError(
                f"{player}'s total must be a whole number of 0 or more, not {total!r}."
            )


def after_agreed(standing, hands: Sequence[HandScore], sides: int, agreed: int | None) -> Outcome:
    """Where a party of an agreed number of hands stands (by default one each,
    so every player deals once), from the game's ``standing(totals, played,
    agreed)``."""
    agreed = agreed or sides
    now = side_totals(hands, sides)
    found = standing(dict(enumerate(now)), min(len(hands), agreed), agreed)
    return Outcome(found.over, found.winners)


def side_totals(hands: Sequence[HandScore], sides: int) -> list[int]:
    """Each side's total over the hands."""
    result = [0] * sides
    for hand in hands:
        for side, points in enumerate(hand.scores):
            result[side] += points
    return result


def places(totals: Sequence[int], lower_wins: bool) -> list[int]:
    """Each side's place at the table by its total, best first; equal totals share
    the place (1, 2, 2, 4)."""
    ordered = sorted(totals, reverse=not lower_wins)
    return [ordered.index(total) + 1 for total in totals]


def finishing_places(totals: Sequence[int], winners, lower_wins: bool) -> tuple[int, ...]:
    """Each side's place at the table once the party ends: the party's winners first
    (a Chinchón wins at once, whatever the totals), then by total, the lower first
    where the game counts penalties (``lower_wins``). Equal sides share the place
    (1, 2, 2, 4). While no side has won, the places of the totals (`places`)."""
    winners = set(winners)
    sign = 1 if lower_wins else -1
    keys = [(side not in winners, sign * total) for side, total in enumerate(totals)]
    ordered = sorted(keys)
    return tuple(ordered.index(key) + 1 for key in keys)


def margins(totals: Sequence[int], lower_wins: bool) -> list[int]:
    """What each side won (+) or lost (−) by, as if every side settled with every
    other the difference of their totals: the stake per point times this is what
    a side is paid. Two sides: the difference; it always adds up to zero."""
    sign = -1 if lower_wins else 1
    whole = sum(totals)
    return [sign * (len(totals) * own - whole) for own in totals]


def ranked_winners(totals: Sequence[int], lower_wins: bool) -> frozenset:
    """The sides with the best total."""
    best = min(totals) if lower_wins else max(totals)
    return frozenset(side for side, total in enumerate(totals) if total == best)


def majority_of_others(sides: Sequence[Sequence[int]], entering: int) -> int:
    """Confirmations an entry needs (decided for the club's tables): at a table of
    two sides one player of the other side, as at Gin Rummy; at a table of three
    or more sides more than half of the players not on the entering side, so one
    friend of the entering player cannot wave a wrong hand through (at a table of
    four, two of the other three), and a table never stalls on one player who went
    for a drink."""
    if len(sides) == 2:
        return 1
    others = sum(len(seats) for side, seats in enumerate(sides) if side != entering)
    return others // 2 + 1


def count_of(hands: Sequence[PlayedHand], fact: str) -> Figure:
    """The hands in which the player's side is the one ``fact`` names."""
    return Figure(sum(h.facts.get(fact) == h.side for h in hands), len(hands))


def mean(values: Sequence[float]) -> Figure:
    values = list(values)
    return Figure(sum(values) / len(values) if values else None, len(values))


def player_margins(sides: Sequence[Sequence], side_margins: Sequence[int]) -> dict:
    """What each player wins (+) or pays (−) at the stake per point: the player's
    share of the side's margin (`margins`).

    Decided for the club's nights, as Gin Rummy's partnerships settle (seed 000:
    the team's margin, each partner paid by the partner of the other team across
    the table): every side stakes its margin once for each player of the
    smallest side, since that many play each hand for it, and its players share
    that as equally as whole points allow (the odd points to the first seats).
    So a player on their own wins or pays the margin; each partner of two
    partnerships of two (Canasta of four) or of three wins or pays the whole
    margin of the side; at Canasta of five, three against two, the two partners
    each win or pay the margin and the three (one of whom sits out each hand)
    share twice the margin. The players' amounts add up to nought, like the
    sides' margins. ``sides``: each side's players, in seat order."""
    smallest = min(len(players) for players in sides)
    result = {}
    for players, margin in zip(sides, side_margins, strict=True):
        stake = abs(margin) * smallest
        share, odd = divmod(stake, len(players))
        sign = -1 if margin < 0 else 1
        for n, player in enumerate(players):
            result[player] = sign * (share + (1 if n < odd else 0))
    return result


#: The entry of a game that declares none of its own: each side's points.
POINTS = (EntryField("points", label=_("Points")),)


def entry_fields(game: Game) -> tuple[EntryField, ...]:
    return getattr(game, "entry_fields", POINTS)


def entry_body(game: Game) -> tuple[EntryField, ...]:
    """The entry as the API takes it: the game's ``entry_body``, or its fields."""
    own = getattr(game, "entry_body", None)
    return own or tuple(replace(f, name=f.key or f.name) for f in entry_fields(game))


def entry_from(game: Game, values: Mapping, sides: int, options: Mapping) -> dict:
    """The entry `Game.hand` reads, from the fields' ``values`` (a field by side: a
    mapping, for the sides in play): the game's own, or each value under its
    field's key, a field by side's as a list in side order (``None``: out of play)."""
    if hasattr(game, "entry_from"):
        return game.entry_from(values, sides, options)
    return {
        f.key or f.name: [values[f.name].get(s) for s in range(sides)]
        if f.per_side
        else values[f.name]
        for f in entry_fields(game)
    }


def entry_values(game: Game, entry: Mapping) -> dict:
    """The fields' values of a stored entry, where a correction starts: the game's
    own, or the inverse of `entry_from`'s."""
    if hasattr(game, "values_from"):
        return game.values_from(entry)
    given = {f.name: entry.get(f.key or f.name) for f in entry_fields(game)}
    return {
        f.name: dict(enumerate(given[f.name] or [])) if f.per_side else given[f.name]
        for f in entry_fields(game)
    }


def entry_problems(game: Game, values: Mapping, names: Mapping, options: Mapping) -> list:
    """What the fields' ``values`` say together (a card in two hands), as the game
    checks them: ``(field, side, problem)`` each, ``field`` ``None`` for the whole
    entry, ``side`` ``None`` for a field of the hand. ``names``: the players of each side in
    play. A value that could not be read (a field's own problem) is left out."""
    check = getattr(game, "check_values", None)
    return list(check(values, names, options)) if check else []
