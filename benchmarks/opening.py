"""What a spectator's opening of a public page costs the web processes: the
tournament page and the wall screen of a tournament of 1,000 entrants after 10
rounds (`demo.big`), their parts kept by the board's builder, opened as a phone
opens them — the page, then its live stream's checks (the stream itself is held
by `live`). Per opening: the requests to Django, the database queries, the cache
reads and the CPU time of this process, the best and the median of a few hundred.

On the embedded default (SQLite, the local-memory cache), in a process of its own.
Run with ``python -m benchmarks.opening`` (BENCH_OPENINGS=300).
"""

from __future__ import annotations

import os
import statistics
import sys
import time

from benchmarks import in_own_process, migrated

ENTRANTS, ROUNDS = 1000, 10
OPENINGS = int(os.environ.get("BENCH_OPENINGS", 300))


def main() -> None:
    in_own_process("benchmarks.opening", without_redis=True)


def _measure() -> None:
    migrated()
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from demo.big import big_tournament
    from tournaments import stored_board

    tournament = big_tournament(entrants=ENTRANTS, rounds=ROUNDS)
    # The board stored and its parts kept, as the builder leaves them at a
    # championship: the parts noted as asked by a first opening of each page.
    stored_board.board_store(tournament_id=tournament.pk)
    slug = tournament.slug
    pages = {
        "tournament page": (
            reverse("public:tournament-detail", args=[slug]),
            reverse("public:tournament-events", args=[slug]) + "?parts=tables,standings",
        ),
        "wall screen": (
            reverse("public:tournament-screen", args=[slug]),
            reverse("public:tournament-events", args=[slug]) + "?parts=screen",
        ),
    }
    client = Client()
    for page, stream in pages.values():
        client.get(page)
        client.get(stream)
    stored_board.board_store(tournament_id=tournament.pk)  # the noted parts kept too

    reads = []
    real_get, real_get_many = cache.get, cache.get_many

    def get(*args, **kwargs):
        reads.append(1)
        return real_get(*args, **kwargs)

    def get_many(*args, **kwargs):
        reads.append(1)
        return real_get_many(*args, **kwargs)

    cache.get, cache.get_many = get, get_many
    print(f"A spectator's opening ({ENTRANTS} entrants, {ROUNDS} rounds, SQLite, {OPENINGS} each)")
    for name, (page, stream) in pages.items():
        times, streams, sizes = [], [], []
        with CaptureQueriesContext(connection) as queries:
            reads.clear()
            for _ in range(OPENINGS):
                started = time.process_time()
                sizes.append(len(client.get(page).content))
                opened = time.process_time()
                client.get(stream)
                streams.append(time.process_time() - opened)
                times.append(time.process_time() - started)
        print(
            f"  {name:<16} 2 requests, {len(queries) / OPENINGS:.1f} queries, "
            f"{len(reads) / OPENINGS:.1f} cache reads; CPU best {min(times) * 1000:.1f} ms, "
            f"median {statistics.median(times) * 1000:.1f} ms (the stream's checks "
            f"{statistics.median(streams) * 1000:.1f} ms); the page "
            f"{statistics.median(sizes) / 1024:.0f} KiB"
        )


if __name__ == "__main__":
    if sys.argv[1:] == ["measure"]:
        _measure()
    else:
        main()
