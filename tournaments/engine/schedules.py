"""Round robin at tables of three to six: fixed schedules in which every two
entrants sit at one table exactly once, for the fields where such a schedule
exists.

A schedule is a list of rounds, each a list of tables, each a tuple of points
0 … n − 1 in seat order (the first seat deals first); who is which point is
drawn by lot (`formats.RoundRobin`). Which fields have one, decided as a club
would:

* **One table.** ``k`` entrants at tables of ``k`` meet everyone at once: the
  schedule is one round. A club that came to play one table plays it for the
  rounds it agreed, a new party each round with the seats turned by one (the
  organizer's number of rounds; one when none is set): every two then sit
  together once a round, all alike. A field one short plays the same one table
  of ``k − 1``, where the game is played by ``k − 1``.
* **k² entrants at tables of k, for k = 3, 4, 5: the affine plane of order k.**
  Its points are the pairs (x, y) of the field with k elements (the integers
  modulo 3 and modulo 5; for 4 the field GF(4) = {0, 1, a, a + 1} with
  a² = a + 1, written as the bits 0 to 3: adding is exclusive or); its lines are
  x = c and y = m·x + b for every slope m. The k lines of one slope (a parallel
  class) cover every point once: a round of k tables. Any two points lie on
  exactly one line, so every two entrants sit together exactly once, and the
  k + 1 classes are the k + 1 rounds. Round 1 is the lines x = c: the lot cut
  in order (1–k, k+1–2k, …), as a Swiss round 1 at tables.
* **k² − 1 entrants, where the game is played by k − 1:** the same plane with its
  last point left empty. Each round the line through the empty point is a table
  of k − 1 (listed last: the larger tables first), and since that point lies on
  one line of every class, every entrant plays exactly one round at the short
  table. Fields shorter still would leave tables of k − 2 or two short tables a
  round, and are not offered.
* **Nowhere else.** Every two meeting once needs (k − 1) to divide (n − 1) and,
  at full tables, k to divide n; no affine plane of order 6 exists (Euler's
  thirty-six officers, shown impossible by Tarry), so at tables of six only the
  one table is offered; 10 entrants at tables of four have no schedule at all.
  Other fields do have schedules (15 at tables of three, Kirkman's schoolgirls;
  28 at tables of four), but they are not built here (`schedule_fields`): a
  round robin of any other field plays a schedule planned ahead, in which some
  pairs meet more than once and some never (`formats.robin_tables`).

Any other field, and any number of rounds, is seated by a schedule planned ahead
with the fewest repeat meetings found (`planned_schedule`, from
`tournaments.engine.planned`; its designs and the field arithmetic live in
`tournaments.engine.designs`).

The seats turn by one each round (a table of round r is seated from its r-th
point on), so the first seat, who deals first, is not always the same entrant.

Plain Python, like the rest of the engine: no Django, no database.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cache

from tournaments.engine.designs import arithmetic
from tournaments.engine.planned import UnplannableField, planned_schedule

__all__ = [
    "PLANE_ORDERS",
    "NoSchedule",
    "TableGame",
    "UnplannableField",
    "affine_plane",
    "arithmetic",
    "planned_schedule",
    "schedule_fields",
    "table_schedule",
    "turned",
]

#: The table sizes that have an affine plane here (a prime or a prime power).
PLANE_ORDERS = (3, 4, 5)


class NoSchedule(ValueError):
    """A field for which no round robin at tables of ``size`` is offered;
    ``fields`` are the field sizes that have one."""

    def __init__(self, count: int, size: int, fields: Sequence[int]):
        shown = ", ".join(map(str, fields))
        super().__init__(
            f"{count} entrants have no round-robin schedule at tables of {size}: "
            f"{shown} entrants have one."
        )
        self.count, self.size, self.fields = count, size, tuple(fields)


@dataclass(frozen=True, slots=True)
class TableGame:
    """A game as a tournament seats it: at tables of ``size``, where a table of it
    may have any of the numbers ``played_by`` (`Game.table_sizes`)."""

    size: int
    played_by: Collection[int]

    @property
    def plays_short(self) -> bool:
        """Whether a table one smaller than the size can play the game."""
        return self.size - 1 in self.played_by


def schedule_fields(game: TableGame) -> tuple[int, ...]:
    """The field sizes that have a schedule at ``game``'s tables, smallest first:
    one table (``size``, and ``size − 1`` where the game plays short), and for
    tables of 3, 4 and 5 the affine plane (``size²``, and ``size² − 1`` where the
    game plays short). Tables of four of a game played by three or more: 3, 4,
    15, 16."""
    size = game.size
    fields = {size}
    if size in PLANE_ORDERS:
        fields.add(size * size)
    if game.plays_short:
        fields |= {field - 1 for field in fields}
    return tuple(sorted(fields))


def table_schedule(count: int, game: TableGame) -> list[list[tuple[int, ...]]]:
    """The schedule for ``count`` entrants at ``game``'s tables (see the module):
    rounds of tables of the points 0 … count − 1, in seat order, the larger
    tables first. One table is a schedule of one round. A field without a
    schedule raises `NoSchedule`, naming those that have one."""
    fields = schedule_fields(game)
    if count not in fields:
        raise NoSchedule(count, game.size, fields)
    if count <= game.size:
        return [[tuple(range(count))]]
    plane = affine_plane(game.size)
    if count == game.size * game.size:
        return [list(tables) for tables in plane]
    # One point left empty: the last, so that round 1 is still the lot cut in order.
    return [
        sorted(
            (tuple(point for point in table if point < count) for table in tables),
            key=lambda table: -len(table),
        )
        for tables in plane
    ]


def turned(table: Sequence, turns: int) -> tuple:
    """A table's seats turned by ``turns``: seated from its ``turns``-th entrant on."""
    if not table:
        return ()
    turns %= len(table)
    return (*table[turns:], *table[:turns])


@cache
def affine_plane(order: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The affine plane of ``order`` (3, 4 or 5) as a schedule: order + 1 rounds of
    ``order`` tables of ``order`` points, point (x, y) numbered x·order + y.
    Round 1 is the lines x = c, then y = m·x + b for m = 0, 1, …; round r's
    tables are seated turned by r − 1 (`turned`). Any other order raises
    `ValueError`."""
    if order not in PLANE_ORDERS:
        raise ValueError(f"An affine plane is built here of order 3, 4 or 5, not {order}.")
    add, times = arithmetic(order)
    elements = range(order)

    def point(x: int, y: int) -> int:
        return x * order + y

    classes = [[tuple(point(c, y) for y in elements) for c in elements]]
    for slope in elements:
        lines = [
            tuple(sorted(point(x, add[times[slope][x]][b]) for x in elements)) for b in elements
        ]
        classes.append(sorted(lines))
    return tuple(
        tuple(turned(line, number) for line in lines) for number, lines in enumerate(classes)
    )
