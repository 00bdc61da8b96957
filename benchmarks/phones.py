"""What a table's phones cost `web`: the processor time and the queries of each
request a hand brings (the entry, the confirmation, each phone's page read again),
through the whole middleware, as production serves them (DEBUG off, PostgreSQL,
Redis, tasks sent to the broker). The load test (`make load`) shows how many
tables a machine holds; this shows where one table's share goes.

Run with ``python -m benchmarks.phones``. Needs PostgreSQL (``BENCH_DATABASE``,
default ``postgres://postgres@127.0.0.1:5432/knock_bench_phones``, made afresh)
and Redis (``BENCH_REDIS``, default ``redis://127.0.0.1:6379/9``, emptied);
``BENCH_PHONES_PARTIES`` (30) parties of two play ``BENCH_PHONES_HANDS`` (4) hands.
"""

from __future__ import annotations

import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from random import Random

from benchmarks import ROOT

DATABASE = os.environ.get("BENCH_DATABASE", "postgres://postgres@127.0.0.1:5432/knock_bench_phones")
REDIS = os.environ.get("BENCH_REDIS", "redis://127.0.0.1:6379/9")
PARTIES = int(os.environ.get("BENCH_PHONES_PARTIES", 30))
HANDS = int(os.environ.get("BENCH_PHONES_HANDS", 4))
#: The seat pages are asked over HTTPS behind the proxy, as in production.
HTTPS = {"secure": True, "HTTP_X_FORWARDED_PROTO": "https"}


def main() -> None:
    """Runs the measurement in a process of its own, on its own settings."""
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **os.environ,
            "DEBUG": "off",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "testserver",
            "BEHIND_PROXY": "on",
            "DATABASE_URL": DATABASE,
            "REDIS_URL": REDIS,
            "CONN_MAX_AGE": "60",
            "STATIC_ROOT": folder,
            "LOG_LEVEL": "ERROR",
            "DJANGO_SETTINGS_MODULE": "benchmarks.uncompressed_settings",
        }
        command = [sys.executable, "-m", "benchmarks.phones", "measure"]
        subprocess.run(command, cwd=ROOT, env=env, check=True)


def measure() -> None:
    print("A table's phones in web (DEBUG off, PostgreSQL, Redis; processor time of web)")
    if not _ready():
        print("  skipped: needs PostgreSQL and Redis (BENCH_DATABASE, BENCH_REDIS)")
        return
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    rng = Random(3)
    figures: dict[str, list[tuple[float, int]]] = {"entry": [], "confirm": [], "seat page": []}

    def timed(kind, url, data=None):
        with CaptureQueriesContext(connection) as queries:
            start = time.process_time()
            ask = client.get if data is None else partial(client.post, data=data)
            response = ask(url, **HTTPS)
            figures[kind].append((time.process_time() - start, len(queries)))
        assert response.status_code in (200, 302), (kind, response.status_code)

    from benchmarks.table import _party
    from scoring.engine.rules import RULESETS

    rules = RULESETS["classic"].but(target=10_000)
    parties = [_party(rules) for _ in range(PARTIES)]
    for number in range(1, HANDS + 1):
        for seats, knocker in ((_seats(p), _forehand(p)) for p in parties):
            other = next(p for p in seats if p != knocker)
            entry = {
                "number": number,
                "ending": "knock",
                "knocker": knocker,
                "knocker_deadwood": rng.randint(0, 9),
                "defender_deadwood": rng.randint(10, 30),
                "key": secrets.token_hex(8),
            }
            timed("entry", seats[knocker].enter, entry)
            # Each phone reads its page again after each change (its stream says so).
            for seat in seats.values():
                timed("seat page", seat.page)
            confirm = {"number": number, "version": 1, "key": secrets.token_hex(8)}
            timed("confirm", seats[other].confirm, confirm)
            for seat in seats.values():
                timed("seat page", seat.page)
    for kind, rows in figures.items():
        cpu = [seconds for seconds, _ in rows]
        print(
            f"  {kind:10} median {statistics.median(cpu) * 1000:.1f} ms, "
            f"p95 {statistics.quantiles(cpu, n=20)[-1] * 1000:.1f} ms, "
            f"{statistics.median(q for _, q in rows):.0f} queries"
        )
    per_hand = sum(statistics.median(s for s, _ in figures[k]) for k in ("entry", "confirm"))
    per_hand += 4 * statistics.median(s for s, _ in figures["seat page"])
    print(f"  a hand at a table of two (2 writes, 4 pages): {per_hand * 1000:.0f} ms of web")


def _ready() -> bool:
    """Django set up on a fresh database and an empty Redis; False when either is away."""
    import psycopg
    import redis

    name = DATABASE.rsplit("/", 1)[1]
    try:
        with psycopg.connect(DATABASE.rsplit("/", 1)[0] + "/postgres", autocommit=True) as db:
            db.execute(f'DROP DATABASE IF EXISTS "{name}"')
            db.execute(f'CREATE DATABASE "{name}"')
        redis.Redis.from_url(REDIS).flushdb()
    except (psycopg.Error, redis.RedisError):
        return False
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)
    return True


class _Seat:
    def __init__(self, seat):
        self.page = seat.get_absolute_url()
        self.enter = f"{self.page}enter/"
        self.confirm = f"{self.page}confirm/"


def _seats(party) -> dict:
    return {s.position: _Seat(s) for s in party.seats.all()}


def _forehand(party) -> int:
    from scoring.selectors import state_for

    return state_for(party)[0].tables[0].forehand


if __name__ == "__main__":
    measure() if sys.argv[1:] == ["measure"] else main()
