"""Schedules planned ahead: any number of rounds of tables for any field at tables
of three to six, with the fewest repeat meetings the project can find.

A club's mixer evening (or a round robin at tables for a field that has no
perfect schedule) fixes every round before play starts, whatever the results.
The rule: each round seats every entrant
exactly once at ⌈count / size⌉ tables whose sizes differ by at most one, the larger
first; the **repeat meetings** of a schedule are, for every pair, the rounds it
sits at one table less one, summed over the pairs that sat together more than
once; a schedule has as few as can be found.

How a schedule is found, first that applies:

1. **A known design** (`designs.catalogue`): a resolvable design, every pair at one
   table at most once: the affine planes and spaces (9, 16, 25, 27, 64 entrants)
   and the schedules shipped as data (`shipped_designs`: 15, 18 and 21 at tables
   of three, 20, 24, 28, 32 and 40 at tables of four). A field one to
   ``size − 1`` short of a design plays it with the missing entrants' seats left
   empty, chosen so that no table loses two seats: they are taken from one table
   of a round the evening does not play (a single missing seat needs no spare
   round), or else are points the rounds played never seat together (16 at
   tables of three for eight rounds, 30 at tables of four for ten).
2. **A search**: a start from a known design's rounds where the evening is longer
   than the design of that very field (they repeat nothing), and from the rounds
   known to follow it (`designs.further_rounds`); for a field a few short of a
   design that step 1 cannot seat, the better of a start from that design's
   rounds with the tables evened out and a start of its own; the other rounds
   greedy (each round, each entrant to the table where it
   meets the fewest it has met), then simulated annealing over swaps of two
   entrants in one round, favouring entrants who meet someone again. The search
   stops at the counting bound (`repeat_bound`) or after a fixed number of steps
   that grows with the field, never after a time: the same arguments give the
   same schedule (a generator seeded by the arguments).

Seat order: a table lists its entrants in ascending order turned by the round's
number less one (`turned`), so the first seat, who deals first, changes.

Plain Python, like the rest of the engine: no Django, no database.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence

from tournaments.engine.designs import catalogue, further_rounds

Schedule = list[list[tuple[int, ...]]]

#: The table sizes a planned schedule seats.
SIZES = range(3, 7)

#: Search steps per entrant and round: about 2.3 s for 64 entrants at tables of
#: six for 10 rounds on one core (the slowest field the contract bounds, 5 s).
STEPS_PER_SEAT = 1_000
T0, T1 = 0.6, 0.012


class UnplannableField(ValueError):
    """A field, table size or number of rounds a planned schedule cannot seat."""


def planned_schedule(count: int, size: int, rounds: int) -> Schedule:
    """``rounds`` rounds of tables for the entrants ``0 … count − 1`` at tables of
    ``size`` (3–6), planned before play (see the module): each round seats every
    entrant once at ⌈count / size⌉ tables whose sizes differ by at most one, the
    larger first, each table a tuple in seat order; as few repeat meetings as
    found, none where a known design allows it. The same arguments give the same
    schedule.

    Decisions: a table never seats fewer than ``size − 1`` (a field with two empty
    seats at one table would be better seated at smaller tables), so a field of
    ``size − 1`` or ``size`` plays one table each round, and fields that would
    leave two seats empty at a table (5 at tables of four: 3 + 2; 13 at tables of
    six: 5 + 4 + 4) are refused, as are sizes outside 3–6 and fewer than one
    round; all with `UnplannableField`."""
    table_sizes(count, size, rounds)  # refuses what cannot be seated
    schedule = _from_design(count, size, rounds) or min(
        (_searched(count, size, rounds, start) for start in _starts(count, size)),
        key=repeat_meetings,
    )
    return [
        sorted((turned(sorted(table), number) for table in round_), key=len, reverse=True)
        for number, round_ in enumerate(schedule)
    ]


def table_sizes(count: int, size: int, rounds: int = 1) -> list[int]:
    """The sizes of a round's tables for ``count`` entrants at tables of ``size``:
    ⌈count / size⌉ tables differing by at most one, the larger first. Refuses
    (`UnplannableField`) what `planned_schedule` refuses."""
    if size not in SIZES:
        raise UnplannableField(f"Tables seat three to six players, not {size}.")
    if rounds < 1:
        raise UnplannableField(f"A schedule has at least one round, not {rounds}.")
    if count < size - 1:
        raise UnplannableField(
            f"{count} players cannot fill a table of {size}: at least {size - 1} are needed."
        )
    number = -(-count // size)
    short, extra = divmod(count, number)
    if short < size - 1:
        raise UnplannableField(
            f"{count} players at tables of {size} would leave a table with {short}:"
            f" choose tables of {size - 1}."
        )
    return [short + 1] * extra + [short] * (number - extra)


def repeat_meetings(schedule: Iterable[Iterable[Sequence[int]]]) -> int:
    """The repeat meetings of a schedule: for every pair, the rounds it sits at one
    table less one, summed over the pairs that sat together more than once."""
    met = Counter(
        frozenset(pair)
        for round_ in schedule
        for table in round_
        for pair in itertools.combinations(table, 2)
    )
    return sum(times - 1 for times in met.values() if times > 1)


def repeat_bound(count: int, size: int, rounds: int) -> int:
    """A lower bound on the repeat meetings of any schedule (the counting bound):
    the meetings the rounds hold, less the pairs there are, or 0. Exact for one
    table; for many fields the least possible is higher."""
    meetings = rounds * sum(seats * (seats - 1) // 2 for seats in table_sizes(count, size))
    return max(0, meetings - count * (count - 1) // 2)


def turned(table: Sequence[int], turns: int) -> tuple[int, ...]:
    """A table's seats turned by ``turns``: seated from its ``turns``-th entrant on."""
    turns %= len(table)
    return (*table[turns:], *table[:turns])


def _from_design(count: int, size: int, rounds: int) -> Schedule | None:
    """The first rounds of a known design for ``count`` at tables of ``size``, or of
    one up to ``size − 1`` larger with the missing seats left empty (`_empty_seats`);
    None where none fits."""
    for points, classes in sorted(catalogue().get(size, {}).items()):
        missing = points - count
        if not 0 <= missing < size or len(classes) < rounds:
            continue
        empty = _empty_seats(classes, rounds, missing)
        if empty is None:
            continue
        kept = [p for p in range(points) if p not in empty]
        renumber = {point: number for number, point in enumerate(kept)}
        return [
            [tuple(renumber[p] for p in table if p in renumber) for table in round_]
            for round_ in classes[:rounds]
        ]
    return None


def _empty_seats(classes, rounds: int, missing: int) -> set[int] | None:
    """``missing`` points of a design that never sit at one table in its first
    ``rounds`` rounds, so that leaving their seats empty takes at most one seat from
    any table: one table of a round not played where there is one (a single point
    needs none), else points that the played rounds never seat together (18 at
    tables of three has such pairs); None where there are none."""
    if missing <= 1 or len(classes) > rounds:
        return set(classes[-1][0][:missing])
    met = {
        frozenset(pair)
        for round_ in classes[:rounds]
        for table in round_
        for pair in itertools.combinations(table, 2)
    }

    def apart(chosen: list[int], candidates: list[int]) -> list[int] | None:
        if len(chosen) == missing:
            return chosen
        for index, point in enumerate(candidates):
            found = apart(
                [*chosen, point],
                [q for q in candidates[index + 1 :] if frozenset((q, point)) not in met],
            )
            if found:
                return found
        return None

    # Highest points first: a design's points that stay put are numbered last.
    found = apart([], sorted(range(sum(map(len, classes[0]))), reverse=True))
    return set(found) if found else None


def _starts(count: int, size: int) -> list[Schedule]:
    """The rounds the search starts from, each tried (the fewest repeats kept, the
    first of equals): a known design of exactly ``count`` and the rounds known to
    follow it (`further_rounds`), since they repeat nothing or little (28 at tables
    of four for ten rounds: the nine of the design and one more meet the counting
    bound, 42); else the rounds of a design one to ``size − 1`` larger with seats
    left empty (`_short_design_rounds`), and also no rounds at all, since for a few
    fields (17 at tables of three for nine rounds) a start of its own does one
    repeat better; else no rounds."""
    design = catalogue().get(size, {}).get(count, ())
    if design:
        further = further_rounds(count, size)
        return [[[list(table) for table in round_] for round_ in (*design, *further)]]
    short = _short_design_rounds(count, size)
    return [short, []] if short else [[]]


def _short_design_rounds(count: int, size: int) -> Schedule:
    """The rounds of the smallest design one to ``size − 1`` larger than ``count``
    with its last points' seats left empty, for the fields `_from_design` cannot
    seat without a repeat (every two of the missing points met in a round played):
    a table left two or more seats short takes, for each, the entrant of a full
    table who has met its players least often in the design's rounds (19 at tables
    of three for ten rounds start one repeat from none, 29 at tables of four for
    ten two, and the search keeps them). None where there is no such design."""
    larger = [p for p in catalogue().get(size, {}) if count < p < count + size]
    if not larger:
        return []
    design = catalogue()[size][min(larger)]
    rounds = [[[p for p in table if p < count] for table in round_] for round_ in design]
    met = Counter(
        frozenset(pair)
        for round_ in rounds
        for table in round_
        for pair in itertools.combinations(table, 2)
    )
    for round_ in rounds:
        for short in round_:
            while len(short) < size - 1:
                _, taken, table = min(
                    (sum(met[frozenset((p, q))] for q in short), p, table)
                    for table in round_
                    if len(table) == size
                    for p in table
                )
                table.remove(taken)
                met.subtract(frozenset((taken, q)) for q in table)
                met.update(frozenset((taken, q)) for q in short)
                short.append(taken)
    return rounds


# The choice of the pair to swap stays written out in each search loop (here and
# in `mixer`): as a function called at every step it cost 17 % of the search's
# time, and the slowest field is within a second of its 5-second budget.
def swap_seats(a, b, tables, seat, met, temperature: float, uniform) -> int | None:
    """One move of the annealing: ``a`` and ``b`` trade their tables of the round
    (``tables``; ``seat``: each player's table in it) when that lowers the repeat
    meetings, or by chance as the ``temperature`` allows (``uniform``: the search's
    random numbers). Returns the change in repeat meetings, ``None`` when the move
    is refused (nothing changed); ``met`` follows the move."""
    mine, theirs = tables[seat[a]], tables[seat[b]]
    row, other = met[a], met[b]
    delta = 0
    for q in mine:
        if q != a:
            delta += (other[q] > 0) - (row[q] > 1)
    for q in theirs:
        if q != b:
            delta += (row[q] > 0) - (other[q] > 1)
    if delta > 0 and uniform() >= math.exp(-delta / temperature):
        return None
    for q in mine:
        if q != a:
            row[q] -= 1
            met[q][a] -= 1
            other[q] += 1
            met[q][b] += 1
    for q in theirs:
        if q != b:
            other[q] -= 1
            met[q][b] -= 1
            row[q] += 1
            met[q][a] += 1
    mine[mine.index(a)], theirs[theirs.index(b)] = b, a
    seat[a], seat[b] = seat[b], seat[a]
    return delta


def _searched(count: int, size: int, rounds: int, start: Schedule = ()) -> Schedule:
    """The schedule of the search (see the module): the rounds ``start`` where
    given (a design's, `_starts`), the others greedy, then simulated
    annealing over swaps within a round, stopping at the counting bound."""
    tables = table_sizes(count, size)
    rng = random.Random(f"planned {count} {size} {rounds}")
    met = [[0] * count for _ in range(count)]
    seating = [
        _given_round(start[number], met) if number < len(start) else None
        for number in range(rounds)
    ]
    seating = [round_ or greedy_round(range(count), tables, met, rng) for round_ in seating]
    where = [[0] * count for _ in range(rounds)]
    for number, round_ in enumerate(seating):
        for index, table in enumerate(round_):
            for player in table:
                where[number][player] = index
    cost = sum(times - 1 for row in met for times in row if times > 1) // 2
    bound = repeat_bound(count, size, rounds)
    best, best_cost = [[list(t) for t in r] for r in seating], cost
    steps = STEPS_PER_SEAT * count * rounds if len(tables) > 1 else 0
    temperature, cooling = T0, (T1 / T0) ** (1 / max(steps, 1))
    randrange, uniform = rng.randrange, rng.random
    for _ in range(steps):
        if best_cost <= bound:
            break
        temperature *= cooling
        number = randrange(rounds)
        round_, seat = seating[number], where[number]
        # Prefer an entrant who meets someone again at its table this round.
        for _ in range(4):
            a = randrange(count)
            mine, row = round_[seat[a]], met[a]
            if any(row[q] > 1 for q in mine if q != a):
                break
        b = randrange(count)
        if seat[a] == seat[b]:
            continue
        delta = swap_seats(a, b, round_, seat, met, temperature, uniform)
        if delta is None:
            continue
        cost += delta
        if cost < best_cost:
            best, best_cost = [[list(t) for t in r] for r in seating], cost
    return best


def _given_round(tables: list[list[int]], met: list[list[int]]) -> list[list[int]]:
    """A round taken as it is; its meetings are added to ``met``."""
    for table in tables:
        for a, b in itertools.combinations(table, 2):
            met[a][b] += 1
            met[b][a] += 1
    return [list(table) for table in tables]


def greedy_round(players: list[int], tables: list[int], met, rng) -> list[list[int]]:
    """One round seated greedily at tables of the sizes ``tables``: the players in a
    random order, each to the open table where it has met the fewest; the meetings
    are added to ``met``."""
    order = list(players)
    rng.shuffle(order)
    seated: list[list[int]] = [[] for _ in tables]
    for player in order:
        row = met[player]
        _, index = min(
            (sum(row[q] for q in table), index)
            for index, table in enumerate(seated)
            if len(table) < tables[index]
        )
        seated[index].append(player)
    for table in seated:
        for a, b in itertools.combinations(table, 2):
            met[a][b] += 1
            met[b][a] += 1
    return seated
