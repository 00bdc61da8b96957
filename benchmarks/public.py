"""The public standings under load, on this machine: gunicorn serves a tournament
of 1,000 entrants (``BENCH_ENTRANTS``) after 10 rounds, and locust asks for one page
as fast as it is answered — the standings with the cache, the standings with a cache
that keeps nothing, and a plain Django page (the login form: a template, no query) — and
prints requests per second and the 95th percentile, and the cached standings'
throughput as a share of the plain page's (the target: at least 50%).

Traffic goes only to 127.0.0.1; each run lasts ``BENCH_SECONDS`` (default 15).
With REDIS_URL set the cache is Redis, as in production; otherwise each gunicorn
worker keeps its own local memory cache. Run with ``python -m benchmarks.public``.
"""

from __future__ import annotations

import csv
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from benchmarks import fresh_database

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
ENTRANTS, ROUNDS = int(os.environ.get("BENCH_ENTRANTS", 1000)), 10
SECONDS = int(os.environ.get("BENCH_SECONDS", 15))
USERS = int(os.environ.get("BENCH_USERS", 16))
WORKERS = int(os.environ.get("BENCH_WORKERS", 2))


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **os.environ,
            "SQLITE_PATH": os.path.join(folder, "bench.sqlite3"),
            "DEBUG": "on",
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }
        env.pop("DATABASE_URL", None)
        print(
            f"Public standings under load ({ENTRANTS} entrants, {ROUNDS} rounds, gunicorn "
            f"{WORKERS} workers, locust {USERS} users, {SECONDS} s each)"
        )
        _prepare(env)
        results = {}
        for label, settings, path in [
            ("plain Django page (/login/)", "config.settings", "/login/"),
            ("standings, cached", "config.settings", "/t/big/"),
            ("standings, uncached", "benchmarks.uncached_settings", "/t/big/"),
        ]:
            results[label] = _measure({**env, "DJANGO_SETTINGS_MODULE": settings}, path, folder)
            rps, p95 = results[label]
            print(f"  {label:<30} {rps:8.1f} requests/s   p95 {p95:6.0f} ms")
        plain = results["plain Django page (/login/)"][0]
        cached = results["standings, cached"][0]
        uncached = results["standings, uncached"][0]
        print(f"  cached standings / plain page: {cached / plain:.0%} (target ≥ 50%)")
        if uncached:
            print(f"  cached / uncached standings:   {cached / uncached:.1f}×")
        else:
            # A board built afresh for every request may take longer than a short run.
            print(f"  cached / uncached standings:   no uncached page answered within {SECONDS} s")


def _prepare(env: dict) -> None:
    python = str(BIN / "python")
    fresh_database(env["SQLITE_PATH"])
    build = (
        "import django; django.setup(); from demo.big import big_tournament; "
        f"big_tournament(entrants={ENTRANTS}, rounds={ROUNDS})"
    )
    started = time.perf_counter()
    subprocess.run([python, "-c", build], cwd=ROOT, env=env, check=True)
    print(f"  (data built in {time.perf_counter() - started:.1f} s)")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _measure(env: dict, path: str, folder: str) -> tuple[float, float]:
    port = _free_port()
    server = subprocess.Popen(
        [
            str(BIN / "gunicorn"),
            "config.wsgi",
            "-b",
            f"127.0.0.1:{port}",
            "-w",
            str(WORKERS),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        url = f"http://127.0.0.1:{port}{path}"
        for _ in range(100):
            try:
                # Warm every worker (and its cache) before measuring.
                for _ in range(WORKERS * 4):
                    urllib.request.urlopen(url, timeout=60).read()
                break
            except OSError:
                time.sleep(0.2)
        prefix = os.path.join(folder, f"locust-{port}")
        subprocess.run(
            [
                str(BIN / "locust"),
                "-f",
                str(ROOT / "benchmarks/locustfile.py"),
                "--headless",
                "-u",
                str(USERS),
                "-r",
                str(USERS),
                "-t",
                f"{SECONDS}s",
                "--host",
                f"http://127.0.0.1:{port}",
                "--csv",
                prefix,
                "--only-summary",
                "--loglevel",
                "ERROR",
            ],
            cwd=ROOT,
            env={**env, "BENCH_PATH": path},
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        with open(f"{prefix}_stats.csv") as file:
            row = next(r for r in csv.DictReader(file) if r["Name"] == "Aggregated")
        if int(row["Failure Count"]):
            print(f"  !! {row['Failure Count']} failed requests for {path}")
        return float(row["Requests/s"]), _number(row["95%"])
    finally:
        server.terminate()
        server.wait(timeout=30)


def _number(text: str) -> float:
    return float("inf") if text == "N/A" else float(text)


if __name__ == "__main__":
    main()
