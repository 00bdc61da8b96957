"""How long the standings take to build without a cache: the organizer's standings
(`tournaments.standings.standings_for`), the public board (`tournaments.board.
build_board`, what the board's builder builds) and the public parts it renders with
it, for a tournament of 1,000 entrants (``BENCH_ENTRANTS``) after 10 rounds (`demo.big`),
on the embedded default (a fresh SQLite file).

Run with ``python -m benchmarks`` (all benchmarks) or ``python -m benchmarks.standings``.
Prints the best and the median of a few runs: the machine is shared, so the best
says most about the code.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

from benchmarks import in_own_process, migrated

ENTRANTS, ROUNDS = int(os.environ.get("BENCH_ENTRANTS", 1000)), 10
RUNS = int(os.environ.get("BENCH_RUNS", 7))


def main() -> None:
    in_own_process("benchmarks.standings")


def _measure() -> None:
    migrated()
    from django.test import Client
    from django.urls import reverse

    from demo.big import big_tournament
    from tournaments import board, history, standings
    from tournaments.kept import keep_results
    from tournaments.public import parts

    started = time.perf_counter()
    tournament = big_tournament(entrants=ENTRANTS, rounds=ROUNDS)
    print(
        f"Standings without a cache ({ENTRANTS} entrants, {ROUNDS} rounds, SQLite; "
        f"data built in {time.perf_counter() - started:.1f} s)"
    )
    # What the builder renders with each board: the parts spectators asked for (here
    # the standings, the tables and the screen, in one language).
    client = Client()
    for part in ("standings", "tables", "screen"):
        client.get(reverse("public:tournament-live", args=[tournament.slug, part]))
    built = board.build_board(tournament)
    # Every seat worked out from the hands, as before the results were kept; then
    # kept, as the board's builder keeps them before each build (`tournaments.kept`).
    entrants = list(tournament.entrants.select_related("player").order_by("player__name", "pk"))
    rounds = list(tournament.round_set.order_by("number"))

    def recomputed():
        rows = history.tournament_history(tournament)
        return standings.standings_from(tournament, entrants, rounds, rows)

    def built_anew(tournament):
        # As a process's first build: no closed round kept from an earlier one.
        board._closed.clear()
        return board.build_board(tournament)

    started = time.perf_counter()
    kept = keep_results(tournament)
    print(f"  {kept} seats kept in {(time.perf_counter() - started) * 1000:.0f} ms")
    for label, build in [
        ("standings recomputed (standings_from)", recomputed),
        ("organizer's standings (standings_for)", lambda: standings.standings_for(tournament)),
        ("public board, built anew (build_board)", lambda: built_anew(tournament)),
        ("public board, closed rounds kept", lambda: board.build_board(tournament)),
        ("its parts asked for (parts_for_board)", lambda: parts.parts_for_board(tournament, built)),
    ]:
        times = []
        for _ in range(RUNS):
            started = time.perf_counter()
            build()
            times.append(time.perf_counter() - started)
        print(
            f"  {label:<42} best {min(times) * 1000:6.0f} ms   "
            f"median {statistics.median(times) * 1000:6.0f} ms"
        )


if __name__ == "__main__":
    if sys.argv[1:] == ["measure"]:
        _measure()
    else:
        main()
