"""How long seating a round at tables of three to six takes
(tournaments/engine/tables.py): club fields of 12 to 40 played to a sixth round,
and fields of 100 and 500 (``BENCH_SEATING_ENTRANTS``).

Each round is seated by the standings with random results, so the same entrants
keep meeting near the top and near the bottom, and late rounds of a small field
cannot avoid repeats. Run with ``python -m benchmarks`` (all benchmarks) or
``python -m benchmarks.grouping``. Everything is seeded, so the figures vary only
with the machine.
"""

from __future__ import annotations

import itertools
import os
import random
import time

from tournaments.engine.tables import explain, seat_tables

SEED = 2024
ROUNDS = 6
CLUBS = range(12, 41, 4)
LARGEST = int(os.environ.get("BENCH_SEATING_ENTRANTS", 500))


def main() -> None:
    print("Seating at tables of three to six (tournaments/engine/tables.py)")
    for size in (3, 4):
        _clubs(size)
    for count, size in ((100, 3), (100, 4), (LARGEST, 3), (LARGEST, 4)):
        _field(count, size)


def _clubs(size: int) -> None:
    """Every club field from 12 to 40 entrants, six rounds each."""
    worst, where, total = 0.0, None, 0.0
    for count in CLUBS:
        times, repeats = _tournament(count, size)
        total += sum(times)
        if max(times) > worst:
            worst, where = max(times), (count, times.index(max(times)) + 1, repeats)
    count, number, repeats = where
    print(
        f"  12-40 entrants at tables of {size}, rounds 1-{ROUNDS}: {total * 1000:.0f} ms in all;"
        f" worst {worst * 1000:.0f} ms ({count} entrants, round {number}; repeats by round"
        f" {repeats})"
    )


def _field(count: int, size: int) -> None:
    times, repeats = _tournament(count, size)
    figures = ", ".join(f"{seconds * 1000:.0f}" for seconds in times)
    print(
        f"  {count} entrants at tables of {size}, rounds 1-{ROUNDS}: {figures} ms"
        f" (repeats by round {repeats})"
    )


def _tournament(count: int, size: int) -> tuple[list[float], list[int]]:
    """Seat ``ROUNDS`` rounds by the standings; the last has five rounds behind it."""
    rng = random.Random(SEED + count * 10 + size)
    entrants = [f"P{number:03d}" for number in range(1, count + 1)]
    totals = dict.fromkeys(entrants, 0)
    ranking = entrants[:]
    rng.shuffle(ranking)
    met: list[tuple[str, str]] = []
    times, repeats = [], []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        tables = seat_tables(ranking, size, met)
        times.append(time.perf_counter() - start)
        repeats.append(sum(line.repeats for line in explain(ranking, tables, met)))
        for table in tables:
            met.extend(itertools.combinations(table, 2))
            for entrant in table:
                totals[entrant] += rng.randint(-60, 60)
        ranking = sorted(entrants, key=lambda entrant: (-totals[entrant], rng.random()))
    return times, repeats


if __name__ == "__main__":
    main()
