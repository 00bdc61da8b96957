"""An evening planned ahead at tables of three to six (the format "planned", a
mixer; and a round robin at tables for a field without a perfect schedule).

Every round is fixed before play: the rounds not yet played are planned with the
fewest repeat meetings, counting the meetings of the rounds already played. A
fresh evening whose tables the game plays is `planned.planned_schedule` (its
designs meet nobody twice where that is known); an evening re-planned after a
late entry or a withdrawal, or one where some must sit out, is searched here the
same way (a greedy start, then swaps of two entrants within a round), from the
meetings so far.

Sitting out: where a table of the smaller size is one the game is not played at
(Blaue Vierzehn at tables of three, 10 players: 3, 3, 2, 2), those who sit out a
round are chosen before the search, each round those who sat out least, in the
order drawn (turning by the round), until every table plays
(`table_points.byes_needed`).

Plain Python, like the rest of the engine: the same arguments give the same plan.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournaments.engine.planned import (
    STEPS_PER_SEAT,
    T0,
    T1,
    UnplannableField,
    greedy_round,
    planned_schedule,
    swap_seats,
    turned,
)
from tournaments.engine.schedules import TableGame
from tournaments.engine.table_points import byes_needed
from tournaments.engine.tables import table_sizes

Entrant = Hashable

#: The most rounds an evening is planned for: the search answers within its time
#: for up to 64 players and 10 rounds (docs/developers.md,
#: "The engine's contract").
MOST_ROUNDS = 10


@dataclass(frozen=True, slots=True)
class PlannedRound:
    """One round of a planned evening: its tables in order, each a tuple in seat
    order (the first seat deals first), the larger first; ``byes``: who sits out."""

    tables: tuple[tuple, ...]
    byes: tuple = ()


@dataclass(frozen=True, slots=True)
class Meetings:
    """What an evening's tables make of ``count`` players: ``repeats``, the repeat
    meetings (every pair's rounds at one table less one, over the pairs that met
    more than once); ``again``, the pairs that meet more than once; ``never``, the
    pairs that never sit at one table."""

    repeats: int
    again: int
    never: int


def meetings(
    rounds: Iterable[Iterable[Sequence[Entrant]]], entrants: Iterable[Entrant]
) -> Meetings:
    """The meetings of the tables ``rounds`` (each round a list of tables) among
    ``entrants``."""
    everyone = list(dict.fromkeys(entrants))
    met = Counter(
        frozenset(pair)
        for tables in rounds
        for table in tables
        for pair in itertools.combinations(table, 2)
    )
    pairs = len(everyone) * (len(everyone) - 1) // 2
    among = set(everyone)
    seen = [times for pair, times in met.items() if pair <= among]
    return Meetings(
        repeats=sum(times - 1 for times in seen if times > 1),
        again=sum(times > 1 for times in seen),
        never=pairs - len(seen),
    )


def rounds_to_meet_everyone(count: int, game: TableGame) -> int:
    """The fewest rounds in which each of ``count`` players could meet every other,
    ``size − 1`` new ones a round: ⌈(count − 1) / (size − 1)⌉, at most
    `MOST_ROUNDS` and at least one."""
    return max(1, min(MOST_ROUNDS, -(-(count - 1) // (game.size - 1))))


def plan_evening(
    order: Sequence[Entrant],
    game: TableGame,
    rounds: int,
    *,
    played: Sequence[Iterable[Sequence[Entrant]]] = (),
    sat_out: Iterable[Entrant] = (),
    before: Sequence[Iterable[Sequence[Entrant]]] = (),
) -> list[PlannedRound]:
    """The ``rounds`` rounds after those ``played`` (each a list of tables of
    entrants) for the entrants ``order`` (in the order drawn by lot) at
    ``game``'s tables, with the fewest repeat meetings found counting those
    played; ``sat_out``: an entrant once for every round it sat out. Round
    numbers go on from the rounds played (the seats turn by them).

    ``before``: these rounds' tables as planned for another field (a re-plan).
    The search starts from them, those gone taken out and those new seated where
    there is room, so a plan without repeats stays one when someone leaves."""
    index = {entrant: point for point, entrant in enumerate(order)}
    met = Counter(
        frozenset((index[a], index[b]))
        for tables in played
        for table in tables
        for a, b in itertools.combinations(table, 2)
        if a in index and b in index
    )
    byes = Counter(index[e] for e in sat_out if e in index)
    start = [[[index[e] for e in table if e in index] for table in tables] for tables in before]
    points = evening(
        len(order), game, rounds, met=met, byes=byes, first=len(played) + 1, start=start
    )
    return [
        PlannedRound(
            tuple(tuple(order[p] for p in table) for table in round_.tables),
            tuple(order[p] for p in round_.byes),
        )
        for round_ in points
    ]


def evening(
    count: int,
    game: TableGame,
    rounds: int,
    *,
    met: Mapping[frozenset, int] | None = None,
    byes: Mapping[int, int] | None = None,
    first: int = 1,
    start: Sequence[Sequence[Sequence[int]]] = (),
) -> list[PlannedRound]:
    """``rounds`` rounds for the players ``0 … count − 1`` at ``game``'s tables,
    numbered from ``first``: the planned schedule where nothing was played before
    and every table plays, else the search from the meetings ``met`` so far (by
    pair) and the rounds each sat out (``byes``), starting from the tables
    ``start`` where a round has them (`plan_evening`'s ``before``).
    ``UnplannableField`` for fewer than one round."""
    if rounds < 1:
        raise UnplannableField(f"A schedule has at least one round, not {rounds}.")
    met, byes = dict(met or {}), Counter(byes or {})
    out = byes_needed(count, game.size, game.played_by)
    if not out and not any(met.values()) and first == 1 and not start:
        try:
            schedule = planned_schedule(count, game.size, rounds)
        except UnplannableField:
            pass
        else:
            return [PlannedRound(tuple(tables)) for tables in schedule]
    sitting: list[list[int]] = []
    for number in range(first, first + rounds):
        turn = (number - 1) * out
        chosen = sorted(range(count), key=lambda p: (byes[p], (p - turn) % max(count, 1)))[:out]
        byes.update(chosen)
        sitting.append(sorted(chosen))
    starts = [
        _adopted(start[n], count, game, sitting[n]) if n < len(start) and not out else None
        for n in range(rounds)
    ]
    seated = _searched(count, game.size, sitting, met, first, starts)
    return [
        PlannedRound(
            tuple(
                sorted(
                    (turned(sorted(table), number) for table in tables),
                    key=len,
                    reverse=True,
                )
            ),
            tuple(out_),
        )
        for number, (tables, out_) in enumerate(zip(seated, sitting, strict=True), start=first - 1)
    ]


def _adopted(
    tables: Sequence[Sequence[int]], count: int, game: TableGame, out: list[int]
) -> list[list[int]] | None:
    """A round planned before, for this field: the players gone are taken out,
    each new one seated at the smallest table (the first of those), and the round
    kept when its tables differ by at most one and the game plays each; else
    ``None`` (the greedy start seats that round)."""
    present = set(range(count)) - set(out)
    seated = [[p for p in table if p in present] for table in tables]
    seated = [table for table in seated if table]
    placed = {p for table in seated for p in table}
    for player in sorted(present - placed):
        if not seated:
            return None
        smallest = min(range(len(seated)), key=lambda n: len(seated[n]))
        seated[smallest].append(player)
    sizes = sorted(len(table) for table in seated)
    if sizes != table_sizes(len(present), game.size)[::-1]:
        return None
    return seated if all(size in game.played_by for size in sizes) else None


def _searched(
    count: int,
    size: int,
    sitting: list[list[int]],
    before: Mapping[frozenset, int],
    first: int,
    starts: Sequence[list[list[int]] | None] = (),
) -> list[list[list[int]]]:
    """Each round's tables of those not ``sitting`` out, with the fewest repeat
    meetings counting ``before``: a start (the round's tables of ``starts``
    where given, else greedy), then simulated annealing over swaps of two
    entrants within a round, as `planned._searched` (its steps per seat and
    temperatures), seeded by the arguments."""
    key = sorted((sorted(pair), times) for pair, times in before.items() if times)
    rng = random.Random(f"evening {count} {size} {first} {sitting} {key} {list(starts)}")
    met = [[0] * count for _ in range(count)]
    for pair, times in before.items():
        if len(pair) == 2:
            a, b = pair
            met[a][b] += times
            met[b][a] += times
    players = [[p for p in range(count) if p not in set(out)] for out in sitting]
    seating = []
    for number, present in enumerate(players):
        given = starts[number] if number < len(starts) else None
        if given is None:
            seating.append(greedy_round(present, table_sizes(len(present), size), met, rng))
            continue
        for table in given:
            for a, b in itertools.combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1
        seating.append([list(table) for table in given])
    where = [dict.fromkeys(present, 0) for present in players]
    for number, tables in enumerate(seating):
        for position, table in enumerate(tables):
            for player in table:
                where[number][player] = position
    cost = sum(times - 1 for row in met for times in row if times > 1) // 2
    best, best_cost = [[list(t) for t in r] for r in seating], cost
    movable = [n for n, tables in enumerate(seating) if len(tables) > 1]
    steps = STEPS_PER_SEAT * sum(len(players[n]) for n in movable)
    temperature, cooling = T0, (T1 / T0) ** (1 / max(steps, 1))
    randrange, uniform = rng.randrange, rng.random
    for _ in range(steps):
        if best_cost == 0:
            break
        temperature *= cooling
        number = movable[randrange(len(movable))]
        tables, seat, present = seating[number], where[number], players[number]
        for _ in range(4):
            a = present[randrange(len(present))]
            mine, row = tables[seat[a]], met[a]
            if any(row[q] > 1 for q in mine if q != a):
                break
        b = present[randrange(len(present))]
        if seat[a] == seat[b]:
            continue
        delta = swap_seats(a, b, tables, seat, met, temperature, uniform)
        if delta is None:
            continue
        cost += delta
        if cost < best_cost:
            best, best_cost = [[list(t) for t in r] for r in seating], cost
    return best
