"""How long the standings take to build without a cache: the organizer's standings
(`tournaments.standings.standings_for`) and the public board (`tournaments.board.
build_board`, what an uncached public page builds) for a tournament of 1,000
entrants after 10 rounds (`demo.big`), on the embedded default (a fresh SQLite file).

Run with ``python -m benchmarks`` (all benchmarks) or ``python -m benchmarks.standings``.
Prints the best and the median of a few runs: the machine is shared, so the best
says most about the code.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ENTRANTS, ROUNDS = 1000, 10
RUNS = int(os.environ.get("BENCH_RUNS", 7))
ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    # A process of its own: another benchmark may have set Django up on its database.
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **os.environ,
            "SQLITE_PATH": os.path.join(folder, "bench.sqlite3"),
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }
        env.pop("DATABASE_URL", None)
        command = [sys.executable, "-m", "benchmarks.standings", "measure"]
        subprocess.run(command, cwd=ROOT, env=env, check=True)


def _measure() -> None:
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    from demo.big import big_tournament
    from tournaments import board, standings

    started = time.perf_counter()
    tournament = big_tournament(entrants=ENTRANTS, rounds=ROUNDS)
    print(
        f"Standings without a cache ({ENTRANTS} entrants, {ROUNDS} rounds, SQLite; "
        f"data built in {time.perf_counter() - started:.1f} s)"
    )
    for label, build in [
        ("organizer's standings (standings_for)", lambda: standings.standings_for(tournament)),
        ("public board (build_board)", lambda: board.build_board(tournament)),
    ]:
        times = []
        for _ in range(RUNS):
            started = time.perf_counter()
            build()
            times.append(time.perf_counter() - started)
        print(
            f"  {label:<40} best {min(times) * 1000:6.0f} ms   "
            f"median {statistics.median(times) * 1000:6.0f} ms"
        )


if __name__ == "__main__":
    if sys.argv[1:] == ["measure"]:
        _measure()
    else:
        main()
