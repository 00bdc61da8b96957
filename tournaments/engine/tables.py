"""Seating a round at tables of three to six, for the games played by more
than two at a table (seed 003: Chinchón, Canasta).

Every entrant sits at one table; the tables are as even as they can be, the
larger first, and listed best-placed first; as few pairs as possible sit
together again; and among the seatings with that fewest, the tables follow the
standings as closely as they can. `seat_tables` says exactly what each of
those means, `explain` tells the organizer why each table is as it is, and
`grouping` holds the search behind them.

Plain Python, like the rest of the engine: no Django, no database.
"""

from __future__ import annotations

import itertools
import operator
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from tournaments.engine.grouping import Search

Entrant = Hashable

SMALLEST, LARGEST = 3, 6


def table_sizes(count: int, size: int) -> list[int]:
    """The sizes of the tables for ``count`` entrants at tables of ``size``.

    There are ⌈count / size⌉ tables whose sizes differ by at most one, the
    larger first: 10 entrants at tables of four sit 4, 3, 3, and 7 at tables of
    six sit 4, 3. The count of tables comes first, so a field too small for the
    game still gets its table: 2 entrants at tables of three sit at one table
    of two, and 4 at tables of three at two tables of two (⌈4 / 3⌉ = 2 tables,
    and sizes 3 and 1 would differ by two). Whether such a table plays is the
    organizer's decision, not the seating's.
    """
    count = operator.index(count)
    size = _checked_size(size)
    if count < 0:
        raise ValueError(f"The number of entrants cannot be negative ({count}).")
    tables = -(-count // size)
    if not tables:
        return []
    smaller, larger_count = divmod(count, tables)
    return [smaller + 1] * larger_count + [smaller] * (tables - larger_count)


def seat_tables(
    ranking: Sequence[Entrant], size: int, met: Iterable[Iterable[Entrant]] = ()
) -> list[tuple]:
    """Seat a round at tables of ``size`` (3 to 6).

    ``ranking`` lists the entrants in standings order, best first. ``met``
    holds the pairs that already sat at one table, in any order; a pair listed
    twice met twice. Returns the tables, each a tuple of its entrants in
    standings order.

    What the result is, exactly:

    1. A seating seats every entrant once, at tables with the sizes of
       `table_sizes` in that order (the larger first), each table's
       best-placed entrant placed better than the next table's: tables are
       listed best-placed first. Both orders hold at once, so the leader sits
       at table 1, table k is headed by the best-placed entrant not at tables
       1 to k - 1, and the larger tables go to the top of the standings even
       where a smaller one would spare a repeat (7 at tables of four, the
       leader having met all but the 7th: he sits at the table of four).
    2. A seating's repeats: every two entrants at one table count as often as
       they met before. The result has the fewest repeats of all seatings.
    3. Among the seatings with the fewest repeats, the result follows the
       standings most closely: write each table as the sorted standings
       places of its entrants, and the seating as the list of its tables in
       order; the smallest list wins, compared as Python compares lists
       (the first table's places first, as words in a dictionary, then the
       second table's, …). So table 1 is as high as it can be, then table 2,
       and so on, as the Swiss pairing gives the leader the best-placed
       opponent the rest allows (`pairing.swiss_pairings`). With no meeting
       so far this is the ranking cut in order (1-4, 5-8, …).

    For example 8 entrants at tables of four, where the 1st and the 2nd have
    met, sit 1-3-4-5 and 2-6-7-8.

    Pairs naming entrants not in ``ranking`` are ignored: they belong to
    entrants who withdrew, whose meetings stay in the history. A size outside
    3 to 6, an entrant listed twice in ``ranking``, and a pair that does not
    name two entrants or names one entrant twice raise `ValueError`.

    The result is always exact; only the time varies (`grouping` says how the
    search goes). Whether a round can be seated without a repeat at all is a
    hard question in general (at tables of three it is partitioning a graph
    into triangles), so no method is fast for every field. Measured on two
    shared cores, seating each round by the standings of random results
    (``python -m benchmarks.grouping``): club fields of 12 to 40 at tables of
    three or four take at most about a third of a second up to the sixth
    round, most far less; fields of 100 and 500 about 0.1 and 0.3 seconds a
    round. Slow are small fields where almost everyone has met almost
    everyone: 20 to 30 entrants at tables of four in the eighth round take up
    to about 15 seconds, 24 at tables of five in the sixth round about 10,
    and 30 at tables of five over a minute; 100 at tables of six mostly under
    a second, once 11 seconds.
    """
    size = _checked_size(size)
    entrants = _distinct(ranking)
    count = len(entrants)
    weights = _weights(entrants, met)
    seating = Search(weights, table_sizes(count, size)).run()
    return [tuple(entrants[place] for place in table) for table in seating]


@dataclass(frozen=True, slots=True)
class TableLine:
    """Why one table of a round is as it is, for the organizer's page.

    ``places`` are standings places (1 = leader) in the order of ``seats``.
    ``met_before`` lists each pair at the table that met before, with how
    often, in standings order; ``repeats`` adds those up. ``cut_repeats`` is
    what the table of the plain ranking cut with this number would have
    repeated, ``moved_away`` are the entrants that table would have seated
    who sit elsewhere, and ``moved_in`` those who sit here instead.
    """

    number: int
    seats: tuple
    places: tuple[int, ...]
    repeats: int
    met_before: tuple[tuple[Entrant, Entrant, int], ...]
    cut_repeats: int = 0
    moved_away: tuple = ()
    moved_in: tuple = ()

    @property
    def is_cut(self) -> bool:
        """True when the table is exactly its slice of the ranking cut."""
        return not self.moved_away and not self.moved_in


def explain(
    ranking: Sequence[Entrant],
    tables: Sequence[Sequence[Entrant]],
    met: Iterable[Iterable[Entrant]] = (),
) -> list[TableLine]:
    """One `TableLine` per table of a seating, in table order.

    The lines answer "why do I sit with him again?" and "why am I not at the
    table my place would give me?": a table that is not its slice of the
    ranking cut (the tables of `table_sizes` filled 1, 2, 3, … in standings
    order) names who moved away and who moved in and what the cut's table
    would have repeated, and every table names the pairs that met before and
    how often. Works for any seating, including one
    an organizer changed by hand; ``met`` as for `seat_tables`. An entrant
    seated but not in ``ranking``, or seated twice, raises `ValueError`.
    """
    entrants = _distinct(ranking)
    position = {entrant: place for place, entrant in enumerate(entrants)}
    seen: set = set()
    for table in tables:
        for entrant in table:
            if entrant not in position:
                raise ValueError(f"{entrant} is seated but not in the ranking.")
            if entrant in seen:
                raise ValueError(f"{entrant} is seated twice.")
            seen.add(entrant)
    weights = _weights(entrants, met)

    def met_at(places: Iterable[int]) -> tuple[tuple[Entrant, Entrant, int], ...]:
        return tuple(
            (entrants[first], entrants[second], weights[first][second])
            for first, second in itertools.combinations(sorted(places), 2)
            if second in weights[first]
        )

    seated = sorted(position[entrant] for entrant in seen)
    lines, start = [], 0
    for number, table in enumerate(tables, start=1):
        places = tuple(position[entrant] for entrant in table)
        here, cut = set(places), set(seated[start : start + len(places)])
        start += len(places)
        met_before = met_at(here)
        lines.append(
            TableLine(
                number=number,
                seats=tuple(table),
                places=tuple(place + 1 for place in places),
                repeats=sum(times for _, _, times in met_before),
                met_before=met_before,
                cut_repeats=sum(times for _, _, times in met_at(cut)),
                moved_away=tuple(entrants[p] for p in sorted(cut - here)),
                moved_in=tuple(entrants[p] for p in sorted(here - cut)),
            )
        )
    return lines


# --------------------------------------------------------------------------- input


def _checked_size(size: int) -> int:
    if isinstance(size, bool):
        raise ValueError(f"A table size must be a number from {SMALLEST} to {LARGEST}.")
    size = operator.index(size)
    if not SMALLEST <= size <= LARGEST:
        raise ValueError(f"A table seats {SMALLEST} to {LARGEST} players, not {size}.")
    return size


def _distinct(ranking: Iterable[Entrant]) -> list:
    listed = list(ranking)
    seen: set = set()
    for entrant in listed:
        if entrant in seen:
            raise ValueError(f"{entrant} is listed twice in the ranking.")
        seen.add(entrant)
    return listed


def _weights(entrants: list, met: Iterable[Iterable[Entrant]]) -> list[dict[int, int]]:
    """For each standings place, how often it met each other place."""
    position = {entrant: place for place, entrant in enumerate(entrants)}
    times: Counter = Counter()
    for pair in met:
        try:
            first, second = pair
        except (TypeError, ValueError):
            raise ValueError(f"A pair that met must name two entrants, not {pair!r}.") from None
        if first == second:
            raise ValueError(f"A pair that met names {first} twice: nobody meets themselves.")
        if first in position and second in position:
            times[frozenset((position[first], position[second]))] += 1
    weights: list[dict[int, int]] = [{} for _ in entrants]
    for pair, count in times.items():
        first, second = pair
        weights[first][second] = weights[second][first] = count
    return weights
