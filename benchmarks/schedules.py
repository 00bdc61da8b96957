"""Schedules planned ahead (tournaments/engine/planned.py): for a table of club
fields (8 to 64 players, tables of three to six, three to ten rounds), the repeat
meetings found, the least known, and the time taken.

"Least known" is 0 where a schedule without repeats is known (a design or the
social-golfer results) or found here; elsewhere "≥ b" with the counting bound b of
`repeat_bound` ("?" where that bound is 0 and no schedule is known to reach it).
The schedules are deterministic, so only the times vary with the machine; each is
the processor time of the fastest of ``BENCH_RUNS`` runs (one by default: a run
of every field takes about 15 s of processor time). Processor time, not the
clock: the contract's bound is for one core, and on a shared machine the clock
also counts the time others hold the cores. The fields of more players than
``BENCH_SCHEDULE_PLAYERS`` (64: none) are left out.

Run with ``python -m benchmarks`` (all benchmarks) or ``python -m benchmarks.schedules``.
"""

from __future__ import annotations

import os
import time

from tournaments.engine.planned import repeat_bound, repeat_meetings
from tournaments.engine.schedules import planned_schedule

RUNS = int(os.environ.get("BENCH_RUNS", 1))
MOST_PLAYERS = int(os.environ.get("BENCH_SCHEDULE_PLAYERS", 64))

#: (players, table size, rounds) and whether a schedule without repeats is known.
FIELDS = [
    (8, 4, 3, False),
    (9, 3, 4, True),
    (10, 4, 4, False),
    (12, 3, 5, False),
    (13, 4, 4, True),
    (15, 3, 7, True),
    (16, 4, 5, True),
    (18, 3, 8, True),
    (19, 3, 10, False),
    (20, 4, 5, True),
    (21, 3, 10, True),
    (22, 6, 3, False),
    (24, 4, 7, True),
    (25, 5, 6, True),
    (27, 3, 10, True),
    (28, 4, 9, True),
    (29, 4, 9, True),
    (30, 5, 7, False),
    (32, 4, 10, True),
    (36, 6, 5, False),
    (40, 4, 10, True),
    (40, 5, 8, False),
    (45, 3, 10, False),
    (48, 6, 8, False),
    (50, 5, 10, False),
    (60, 4, 10, False),
    (63, 4, 10, True),
    (64, 3, 10, False),
    (64, 6, 10, False),
]


def main() -> None:
    print(f"Schedules planned ahead (tournaments/engine/planned.py), best of {RUNS}")
    columns = f"{'players':>7} {'size':>4} {'rounds':>6} {'repeats':>7} {'least known':>11}"
    print(f"  {columns} {'CPU ms':>7}")
    worst = 0.0
    for count, size, rounds, perfect in [field for field in FIELDS if field[0] <= MOST_PLAYERS]:
        seconds, schedule = _timed(count, size, rounds)
        worst = max(worst, seconds)
        bound = repeat_bound(count, size, rounds)
        repeats = repeat_meetings(schedule)
        known = "0" if perfect or not repeats else (f"≥ {bound}" if bound else "?")
        print(f"  {count:>7} {size:>4} {rounds:>6} {repeats:>7} {known:>11} {seconds * 1000:>7.0f}")
    print(f"  slowest: {worst * 1000:.0f} ms of processor time (the contract allows 5 s)")


def _timed(count: int, size: int, rounds: int):
    best, schedule = float("inf"), None
    for _ in range(max(RUNS, 1)):
        start = time.process_time()
        schedule = planned_schedule(count, size, rounds)
        best = min(best, time.process_time() - start)
    return best, schedule


if __name__ == "__main__":
    main()
