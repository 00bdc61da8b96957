"""Standings of a tournament played at tables of three to six (issue 28: the
other games of seed 003, Chinchón, Canasta, Blaue Vierzehn, Cruzo).

Seed 003 scores a party, not a tournament; what a tournament makes of a party,
decided here as a club would:

* **Tournament points by place at the table.** Every entrant scores 2 points for
  each player at the table placed below and 1 for each placed equal. That is the
  scale "at a table of n the first gets n − 1, the second n − 2 … the last 0,
  shared places share the points of the places they cover", doubled so that a
  shared place still scores a whole number (two sharing first at a table of four
  score (6 + 4) / 2 = 5 each). A table of k hands out k·(k − 1) points whatever
  its result, and every meeting counts the same: 2 for placing above an
  opponent, 1 each for placing equal.
* **Game score**, the first tiebreak: the sum of the party margins
  (`scoring.engine.games.game.margins`: what each side won or lost by, as if
  every side settled with every other). They add up to zero at every table, so
  they compare across tables and games.
* **Parties won**, the second tiebreak: parties where the entrant placed first,
  alone or shared.
* **A bye** (`bye_points`) scores the middle of the scale at a full table, the
  table size − 1 (3 at tables of four), as an average result would; its game
  score is 0 (the average margin) and it is not a party won.
* Entrants equal on all three share their place.

Entrants are any hashable ids; nothing here knows about the database.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass

from tournaments.engine.tables import table_sizes

Entrant = Hashable


@dataclass(frozen=True, slots=True)
class AtTable:
    """A finished party at one table: its entrants in seat order, each one's place
    at the table (1 = best; equal places are shared) and margin."""

    entrants: tuple
    places: tuple[int, ...]
    margins: tuple[int, ...]

    def __post_init__(self) -> None:
        if not len(self.entrants) == len(self.places) == len(self.margins):
            raise ValueError("A table's places and margins name each of its entrants.")
        if len(set(self.entrants)) != len(self.entrants):
            raise ValueError("An entrant sits once at a table.")


@dataclass(frozen=True, slots=True)
class TableBye:
    """An entrant who sat out a round."""

    entrant: Entrant


@dataclass(frozen=True, slots=True)
class TableTotal:
    """An entrant's line so far: tournament ``points``, game ``score`` (the sum of
    the margins), parties ``won``, ``games`` (parties and byes) and ``byes``."""

    entrant: Entrant
    points: int = 0
    score: int = 0
    won: int = 0
    games: int = 0
    byes: int = 0

    @property
    def key(self) -> tuple[int, int, int]:
        """What orders the standings: points, then game score, then parties won."""
        return (self.points, self.score, self.won)


@dataclass(frozen=True, slots=True)
class TablePlace:
    """One line of the standings: ``place`` is shared (``shared``) by entrants
    equal on points, game score and parties won."""

    total: TableTotal
    place: int
    shared: bool


def place_points(places: Sequence[int]) -> tuple[int, ...]:
    """The tournament points of each place at one table (see the module): 2 for
    every other player placed below, 1 for every other placed equal."""
    return tuple(
        sum(2 if other > own else 1 if other == own else 0 for other in places) - 1
        for own in places
    )


def table_totals(
    entrants: Iterable[Entrant], results: Iterable[AtTable | TableBye], *, bye_points: int
) -> dict[Entrant, TableTotal]:
    """Every entrant's line from the results so far. Every entrant listed starts
    at 0, a late entrant too: the rounds missed are not byes. A result naming an
    entrant not listed raises `ValueError`."""
    lines = {entrant: TableTotal(entrant) for entrant in entrants}

    def add(entrant, points=0, score=0, won=0, bye=0):
        if entrant not in lines:
            raise ValueError(f"{entrant} is not an entrant.")
        line = lines[entrant]
        lines[entrant] = TableTotal(
            entrant,
            line.points + points,
            line.score + score,
            line.won + won,
            line.games + 1,
            line.byes + bye,
        )

    for result in results:
        if isinstance(result, TableBye):
            add(result.entrant, points=bye_points, bye=1)
        elif isinstance(result, AtTable):
            points = place_points(result.places)
            for entrant, place, earned, margin in zip(
                result.entrants, result.places, points, result.margins, strict=True
            ):
                add(entrant, points=earned, score=margin, won=int(place == 1))
        else:
            raise TypeError(f"Not a result: {result!r}")
    return lines


def table_places(totals: Iterable[TableTotal]) -> list[TablePlace]:
    """The standings: most points first, then the higher game score, then more
    parties won; entrants equal on all three share the place ("2nd" for both,
    the next is 4th) and keep the order given."""
    ordered = sorted(totals, key=lambda line: tuple(-value for value in line.key))
    result: list[TablePlace] = []
    for index, line in enumerate(ordered):
        tied_above = index and ordered[index - 1].key == line.key
        tied_below = index + 1 < len(ordered) and ordered[index + 1].key == line.key
        place = result[-1].place if tied_above else index + 1
        result.append(TablePlace(line, place, bool(tied_above or tied_below)))
    return result


def bye_points(size: int) -> int:
    """A bye's points at tables of ``size``: the middle of the scale (see the module)."""
    return size - 1


def byes_needed(count: int, size: int, played_by: Collection[int]) -> int:
    """How many of ``count`` entrants sit out a round at tables of ``size``.

    `tables.table_sizes` makes tables whose sizes differ by one; a smaller table
    the game is not played at (``played_by``: the numbers of players it takes,
    `Game.table_sizes`) cannot play, so one entrant after another sits out until
    every table is one the game is played at: 5 entrants of Blaue Vierzehn (3 to
    6 players) at tables of four would sit 3 and 2, so one sits out and 4 play.
    When no table can be made at all, everyone sits out."""
    for byes in range(count + 1):
        if all(players in played_by for players in table_sizes(count - byes, size)):
            return byes
    return count


def lowest_without_bye(
    ranking: Sequence[Entrant], had_bye: Iterable[Entrant], count: int
) -> list[Entrant]:
    """The ``count`` entrants who sit out: the lowest placed who have had no bye
    yet, and, when too few are left without one, the lowest placed of those who
    had the fewest. Listed lowest first."""
    byes: dict = {}
    for entrant in had_bye:
        byes[entrant] = byes.get(entrant, 0) + 1
    bottom_up = list(reversed(ranking))
    order = sorted(range(len(bottom_up)), key=lambda i: (byes.get(bottom_up[i], 0), i))
    return [bottom_up[i] for i in order[:count]]
