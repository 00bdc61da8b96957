"""How fast a table's phones are served: entering and confirming hands, and the seat
page as a party grows. Runs on the embedded default (a fresh SQLite file, WAL), the
way one laptop runs a club night.

Run with ``python -m benchmarks`` (all benchmarks) or ``python -m benchmarks.table``.
``BENCH_TABLE_PARTIES`` (40) parties of 8 hands each are entered; the seat page is
shown with the hands of ``BENCH_SHEETS`` ("1,20,60") on its sheet.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from random import Random

from benchmarks import fresh_database

PARTIES = int(os.environ.get("BENCH_TABLE_PARTIES", 40))
HANDS_PER_PARTY = 8
SHEET_SIZES = [int(n) for n in os.environ.get("BENCH_SHEETS", "1,20,60").split(",")]


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        _setup(os.path.join(folder, "bench.sqlite3"))
        print("Seat pages and entries (scoring services and views, SQLite)")
        _entries()
        _seat_page()


def _setup(path: str) -> None:
    os.environ.pop("DATABASE_URL", None)
    fresh_database(path)
    os.environ["SQLITE_PATH"] = path
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def _party(rules=None):
    from clubs.models import Club, Membership, Player
    from scoring.services.parties import party_start

    club, _ = Club.objects.get_or_create(slug="bench", defaults={"name": "Bench", "city": "-"})
    players = []
    for _ in range(2):
        player = Player.objects.create(name=f"Player {Player.objects.count() + 1}")
        Membership.objects.create(club=club, player=player)
        players.append(player)
    return party_start(club=club, format="two", players=players, rules=rules, rng=Random(1))


def _play(party, number: int, rng: Random) -> tuple[float, float]:
    """One hand: the table's forehand enters, the other side confirms. Seconds each."""
    from scoring.selectors import state_for
    from scoring.services.hands import hand_confirm, hand_enter
    from scoring.services.knocks import Result

    state, _ = state_for(party)
    knocker = state.tables[0].forehand
    seats = {s.position: s for s in state.seats}
    other = next(p for p in seats if p != knocker)
    result = Result(
        "knock",
        knocker=knocker,
        knocker_deadwood=rng.randint(0, 9),
        defender_deadwood=rng.randint(10, 30),
    )
    start = time.perf_counter()
    hand = hand_enter(seat=seats[knocker], number=number, entry=result).hand
    entered = time.perf_counter()
    hand_confirm(seat=seats[other], number=number, version=hand.version)
    return entered - start, time.perf_counter() - entered


def _entries() -> None:
    from scoring.engine.rules import RULESETS

    rules = RULESETS["classic"].but(target=10_000)
    rng = Random(7)
    parties = [_party(rules) for _ in range(PARTIES)]
    enter, confirm = [], []
    start = time.perf_counter()
    for number in range(1, HANDS_PER_PARTY + 1):
        for party in parties:
            e, c = _play(party, number, rng)
            enter.append(e)
            confirm.append(c)
    elapsed = time.perf_counter() - start
    count = len(enter)
    print(
        f"  {count} hands entered and confirmed over {PARTIES} parties: "
        f"{count / elapsed:,.0f} hands/s"
    )
    for label, times in (("enter", enter), ("confirm", confirm)):
        print(
            f"    {label:8} median {_ms(statistics.median(times))}, "
            f"p95 {_ms(statistics.quantiles(times, n=20)[-1])}"
        )


def _seat_page() -> None:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from scoring.engine.rules import RULESETS

    rules = RULESETS["classic"].but(target=10_000)
    client = Client()
    for size in SHEET_SIZES:
        party = _party(rules)
        rng = Random(size)
        for number in range(1, size + 1):
            _play(party, number, rng)
        url = party.seats.first().get_absolute_url()
        client.get(url)  # warm the template cache
        times = []
        for _ in range(20):
            start = time.perf_counter()
            response = client.get(url)
            times.append(time.perf_counter() - start)
        assert response.status_code == 200
        with CaptureQueriesContext(connection) as queries:
            client.get(url)
        print(
            f"  seat page with {size:2} hands: median {_ms(statistics.median(times))}, "
            f"{len(queries)} queries, {len(response.content) / 1024:.0f} KiB"
        )


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


if __name__ == "__main__":
    main()
