"""The championship load test (``make load``): Knock as in production on this
machine (docker/compose.yaml) — ``web``: gunicorn's sync workers with DEBUG off,
behind where the TLS proxy would be; ``live``: the pages' event streams (paths
ending in /events/, which the proxy sends there), gunicorn with uvicorn workers,
told of each change through Redis publish/subscribe; a Celery worker and beat,
PostgreSQL and a Redis of its own — and a tournament of ``LOAD_TABLES`` tables (two
phones each), spectators and a director, driven by locust
(benchmarks/championship_locust.py). Every phone and spectator holds its page's
stream on ``live`` and asks ``web`` only when told (or, while its stream is silent,
every 3 s, as the page's script does). Traffic goes only to 127.0.0.1.

It prints, in this order:

1. the seat poll (now the pages' fallback) against /health/, each asked as fast
   as it is answered;
2. one run per table count in ``LOAD_STEPS`` with ``LOAD_WORKERS`` gunicorn processes:
   requests per second, median, 95th and 99th percentile per kind of request,
   errors; the time from a confirmation's answer to the other phone's stream (the
   confirming phone is told by its answer) and each spectator's stream being told
   (p50/p95/p99); the streams held and the memory
   per open stream of ``live``; whether the targets hold (told to both phones p95
   ≤ 1 s, entry p95 ≤ 300 ms, seat page p95 ≤ 500 ms, the public board told p95
   ≤ 2 s, no errors, no stream that was not told); the largest count that holds;
   then, for each size in ``LOAD_CROWD``, the ``LOAD_TABLES`` run again with a crowd
   of that many spectators on the public page's stream (benchmarks/load_crowd.py:
   told p50/p95/max, bytes a push, ``live``'s CPU and memory per stream);
3. the same load with one gunicorn process, and the scaling;
4. a run with faults: a gunicorn worker and a live worker killed (its streams
   drop and reconnect after the server's retry, and their pages ask what they
   missed), PostgreSQL's connections dropped, Redis restarted (the live workers
   subscribe again; meanwhile the pages poll; a round started while it is away is
   paired by beat's catch-up once it is back), and the Celery worker killed in the
   middle of pairing a round of its own; each says what it did and what was lost;
5. the data check (`benchmarks.championship check`) over everything the phones were
   told, and a profile of the slowest kind of request.

Settings (environment): ``LOAD_TABLES`` (500), ``LOAD_STEPS`` (the tables for step 2,
default "125,250,500"), ``LOAD_SECONDS`` per run (60), ``LOAD_WORKERS`` (twice the
cores and one, as the image's web: 5 here),
``LOAD_LIVE_WORKERS`` (2, as compose.yaml's live),
``LOAD_SPECTATORS`` (200), ``LOAD_HAND_SECONDS`` (120), ``LOAD_HAMMER_SECONDS``
(15, each poll-cost run), ``LOAD_FAULT_ENTRANTS`` (1000, the round whose pairing
loses its worker), ``LOAD_VISIBILITY_SECONDS`` (30, how long that round's task
waits to be handed to the new worker), ``LOAD_DATABASE`` (a
PostgreSQL URL of a database this test may drop and create,
postgres://postgres@127.0.0.1:5432/knock_load), ``LOAD_GROUPS`` (1: the web and
live groups, each a gunicorn of its own on its own port, the workers shared out
between them) and ``LOAD_PROXY`` (on with more than one group: Caddy in front, as
in production; benchmarks/load_layout.py) and ``LOAD_CROWD`` (none: the crowds'
sizes, e.g. "1000,5000,10000"; ``LOAD_CROWD_PER_PROCESS``, 2500 clients a process;
``LOAD_CROWD_ONLY=on``: after the poll cost, only the crowds' runs, no table steps,
faults or data check: a few minutes on a shared machine) and
``LOAD_COMPRESS_STATIC`` (on: off collects the static files uncompressed, under the
same names; no request of the load asks for one)."""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from benchmarks import load_crowd, load_faults
from benchmarks.load_figures import (
    KINDS,
    SETTLE_SECONDS,
    SPAWN,
    TARGETS,
    cpu_seconds,
    nan,
    process_tree,
    read_stats,
    report,
    rss_kib,
)
from benchmarks.load_layout import Layout, free_port
from benchmarks.load_probe import Probe

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
TABLES = int(os.environ.get("LOAD_TABLES", 500))
STEPS = [int(n) for n in os.environ.get("LOAD_STEPS", "125,250,500").split(",")]
SECONDS = int(os.environ.get("LOAD_SECONDS", 60))
# As the image's web runs (docker/Dockerfile, WEB_CONCURRENCY): a sync process is
# held after each answer until its client closes the connection, so more processes
# than cores.
WORKERS = int(os.environ.get("LOAD_WORKERS", 2 * (os.cpu_count() or 1) + 1))
LIVE_WORKERS = int(os.environ.get("LOAD_LIVE_WORKERS", 2))
SPECTATORS = int(os.environ.get("LOAD_SPECTATORS", 200))
HAMMER = int(os.environ.get("LOAD_HAMMER_SECONDS", 15))
DATABASE = os.environ.get("LOAD_DATABASE", "postgres://postgres@127.0.0.1:5432/knock_load")
POLL_SECONDS = 3  # as the seat page's script
# Compressing the static files (brotli at its best) is nine tenths of collectstatic's
# 15 s of a core: CI's small run leaves it out.
COMPRESS_STATIC = os.environ.get("LOAD_COMPRESS_STATIC", "on") != "off"
CROWD_ONLY = os.environ.get("LOAD_CROWD_ONLY", "off") == "on"


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        lab = Lab(Path(folder))
        try:
            lab.run()
        finally:
            lab.stop()


class Lab:
    def __init__(self, folder: Path):
        self.database = DATABASE
        self.folder = folder
        self.redis_port = free_port()
        self.live_log = folder / "live.log"
        self.layout = Layout(self, WORKERS, LIVE_WORKERS)
        # Where the load goes: the proxy when it runs, else the one web and live group.
        self.site, self.live_site = self.layout.site, self.layout.live_site
        self.env = {
            # GUNICORN_CMD_ARGS reaches every gunicorn (an access log, a config file).
            **{
                k: v
                for k, v in os.environ.items()
                if k in ("PATH", "HOME", "LANG", "TMPDIR", "GUNICORN_CMD_ARGS")
            },
            "DEBUG": "off",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1",
            "BEHIND_PROXY": "on",
            "DATABASE_URL": DATABASE,
            "REDIS_URL": f"redis://127.0.0.1:{self.redis_port}/0",
            "CONN_MAX_AGE": "60",
            # A killed worker's task comes back after 30 s here (120 s by default;
            # CI's small run waits 10).
            "CELERY_VISIBILITY_TIMEOUT": os.environ.get("LOAD_VISIBILITY_SECONDS", "30"),
            "STATIC_ROOT": str(folder / "static"),
            "DJANGO_SETTINGS_MODULE": "config.settings",
            # The faults make the site log warnings with tracebacks; the figures are
            # what this test prints.
            "LOG_LEVEL": "ERROR",
            # How often the board is built, as the site is configured (10 s by default).
            **{k: v for k, v in os.environ.items() if k == "PUBLIC_REFRESH_SECONDS"},
        }
        self.redis = self.worker = self.beat = None
        self.manifest = folder / "manifest.json"
        self.ledgers: list[Path] = []

    # ------------------------------------------------------------------ the parts

    def run(self) -> None:
        print(f"Championship load test: {TABLES} tables, on {os.cpu_count()} cores")
        self.start_redis()
        self.create_database()
        plain = [] if COMPRESS_STATIC else ["--settings", "benchmarks.uncompressed_settings"]
        self.manage("collectstatic", "--noinput", "-v", "0", *plain)
        self.manage("migrate", "--noinput", "-v", "0")
        self.start_worker()
        self.start_beat()
        # One table more than any run uses: the profile plays it.
        biggest = (TABLES if CROWD_ONLY else max([*STEPS, TABLES])) + 1
        self.python("-m", "benchmarks.championship", "build", str(biggest), str(self.manifest))
        self.layout.start()
        print(f"Layout: {self.layout.describe()}")
        cost = self.poll_cost()
        results = {}
        print(
            f"\nLoad, {WORKERS} gunicorn processes (web) and {LIVE_WORKERS} with uvicorn "
            f"workers (live), {SECONDS} s per run (+ {SPECTATORS} spectators, 1 director)"
        )
        for tables in [] if CROWD_ONLY else STEPS:
            results[tables] = self.load(tables, f"{tables} tables")
        held = [n for n, r in results.items() if r["holds"]]
        if not CROWD_ONLY:
            print(f"  largest table count that holds the targets: {max(held) if held else 'none'}")
        for size in load_crowd.SIZES:  # LOAD_CROWD: spectators beside the load, on their stream
            self.load(TABLES, f"{TABLES} tables and a crowd of {size}", crowd=size)
        if CROWD_ONLY:
            return
        self.layout.restart_web(1)
        print(f"\nOne gunicorn process ({self.layout.describe()})")
        alone = self.hammer(self.poll_paths())
        single = self.load(TABLES, f"{TABLES} tables, 1 process")
        several = results.get(TABLES) or self.load(TABLES, f"{TABLES} tables, {WORKERS}")
        print(f"  scaling, 1 → {WORKERS} processes on {os.cpu_count()} cores:")
        for label in ("seat poll, unchanged (304)", "seat page"):
            print(
                f"    {label:<28} {alone[label]['rps']:6.0f} → {cost[label]['rps']:6.0f} "
                "requests/s at most"
            )
        for kind in TARGETS:
            before, after = single["p95"].get(kind, nan), several["p95"].get(kind, nan)
            print(f"    {kind:<28} p95 {before:6.0f} → {after:6.0f} ms under {TABLES} tables")
        per_table = 2 / POLL_SECONDS
        print(
            f"    polls alone, one process answers {alone['seat poll, unchanged (304)']['rps']:.0f}"
            f"/s: {alone['seat poll, unchanged (304)']['rps'] / per_table:.0f} tables' phones"
            f" ({per_table:.2f} polls/s a table)"
        )
        self.layout.restart_web(WORKERS)
        print(f"\nFaults, under the same load ({self.layout.describe()})")
        self.load(TABLES, f"{TABLES} tables with faults", faults=True)
        load_faults.pairing_survives_a_killed_worker(self)
        print("\nData check")
        ok = self.check()
        self.profile(results.get(TABLES) or several)
        if not ok:
            raise SystemExit(1)

    def start_redis(self) -> None:
        self.redis = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.redis_port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
        )
        self.wait(lambda: self.redis_ping(), "Redis")

    def redis_ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.redis_port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def create_database(self) -> None:
        import psycopg

        base, name = DATABASE.rsplit("/", 1)
        with psycopg.connect(f"{base}/postgres", autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            connection.execute(f'CREATE DATABASE "{name}"')

    def start_worker(self) -> None:
        self.worker_log = self.folder / f"worker-{time.monotonic_ns()}.log"
        with open(self.worker_log, "w") as log:
            self.worker = subprocess.Popen(
                [
                    str(BIN / "celery"),
                    "-A",
                    "config",
                    "worker",
                    "--concurrency",
                    "1",
                    "--loglevel",
                    "INFO",
                ],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.wait(lambda: "ready" in self.worker_log.read_text(), "the Celery worker")

    def start_beat(self) -> None:
        """Beat, as in production: it runs the catch-up of lost pairings."""
        schedule = str(self.folder / "beat-schedule")
        self.beat = subprocess.Popen(
            [str(BIN / "celery"), "-A", "config", "beat", "--loglevel", "WARNING", "-s", schedule],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def status(self, path: str, site: str = "") -> int:
        request = urllib.request.Request(
            (site or self.site) + path, headers={"X-Forwarded-Proto": "https"}
        )
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status
        except OSError:
            return 0

    def wait(self, ready, what: str, seconds: float = 120, every: float = 0.3) -> None:
        deadline = time.monotonic() + seconds
        while not ready():
            if time.monotonic() > deadline:
                raise SystemExit(f"{what} did not start within {seconds:.0f} s")
            time.sleep(every)

    def manage(self, *args: str) -> None:
        self.python("manage.py", *args)

    def python(self, *args: str, quiet: bool = False) -> None:
        """Runs Knock's Python; ``quiet``: its log (a fault's tracebacks) to a file."""
        with open(self.folder / "python.log", "a") as log:
            stderr = log if quiet else None
            subprocess.run(
                [sys.executable, *args], cwd=ROOT, env=self.env, check=True, stderr=stderr
            )

    def stop(self) -> None:
        self.layout.stop()
        for process in (self.beat, self.worker, self.redis):
            if process is not None and process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()

    # ------------------------------------------------------------------ measuring

    def locust(self, users: dict, seconds: int, extra_env: dict, name: str):
        prefix = self.folder / name
        settings = {k: v for k, v in os.environ.items() if k.startswith(("LOAD_", "GEVENT_"))}
        env = {**self.env, **settings, **extra_env, "LOAD_MANIFEST": str(self.manifest)}
        env["PYTHONPATH"] = str(ROOT)  # the spectators apply carried edits as the site makes them
        command = [
            str(BIN / "locust"),
            "-f",
            str(ROOT / "benchmarks/championship_locust.py"),
            "--headless",
            "-u",
            str(sum(users.values())),
            "-r",
            str(SPAWN),
            "-t",
            # The run's seconds are counted once every user is there and the
            # arrival has settled (`SETTLE_SECONDS`).
            f"{seconds + -(-sum(users.values()) // SPAWN) + SETTLE_SECONDS:.0f}s",
            "--host",
            self.site,
            "--csv",
            str(prefix),
            "--only-summary",
            "--loglevel",
            "ERROR",
            "--reset-stats",
            "--stop-timeout",
            "10",
            *users,
        ]
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=open(f"{prefix}.log", "w"),  # noqa: SIM115 (closed with the process)
        )
        return process, prefix

    def hammer(self, paths: dict) -> dict:
        """Each path asked by 16 clients as fast as gunicorn answers, one after the
        other: ``{label: (path, If-None-Match)}`` → the figures per label."""
        figures = {}
        for label, (path, tag) in paths.items():
            extra = {"LOAD_PATH": path, "LOAD_ETAG": tag}
            process, prefix = self.locust({"Hammer": 16}, HAMMER, extra, f"hammer-{len(figures)}")
            process.wait()
            figures[label] = read_stats(prefix)["hammer"]
        return figures

    def probe_paths(self) -> dict:
        """What the outside probe asks: the seat page and poll of a table the load
        leaves alone (the profile's), and the public page everyone shares."""
        paths = self.poll_paths()
        slug = json.loads(self.manifest.read_text())["slug"]
        return {
            "seat page": paths["seat page"][0],
            "seat poll": paths["seat poll, changed (200)"][0],
            "public page": f"/t/{slug}/",
        }

    def poll_paths(self) -> dict:
        token = json.loads(self.manifest.read_text())["tables"][-1]["seats"][0]["token"]
        poll = f"/table/{token}/state/"
        request = urllib.request.Request(self.site + poll, headers={"X-Forwarded-Proto": "https"})
        with urllib.request.urlopen(request) as response:
            etag = response.headers["ETag"]
        return {
            "/health/": ("/health/", ""),
            "seat poll, unchanged (304)": (poll, etag),
            "seat poll, changed (200)": (poll, '"0"'),
            "seat page": (f"/table/{token}/", ""),
        }

    def poll_cost(self) -> dict:
        """The seat poll (with the page's number: 304, and without: 200) against
        /health/, and the seat page, each as fast as it is answered."""
        figures = self.hammer(self.poll_paths())
        print(
            f"\nSeat poll against /health/ ({WORKERS} gunicorn processes, 16 clients, "
            f"{HAMMER} s each)"
        )
        for label, row in figures.items():
            print(
                f"  {label:<28} {row['rps']:8.0f} requests/s   median {row['p50']:4.0f} ms"
                f"   p95 {row['p95']:4.0f} ms   errors {row['errors']}"
            )
        health = figures["/health/"]["rps"]
        poll_rps = figures["seat poll, unchanged (304)"]["rps"]
        print(f"  a poll costs {health / poll_rps:.2f} health checks (target ≤ 1.5)")
        return figures

    def load(self, tables: int, label: str, faults: bool = False, crowd: int = 0) -> dict:
        ledger = self.folder / f"ledger-{len(self.ledgers)}.json"
        self.ledgers.append(ledger)
        users = {"Phone": 2 * tables, "Spectator": SPECTATORS, "Director": 1}
        extra = {
            "LOAD_TABLES": str(tables),
            "LOAD_LEDGER": str(ledger),
            "LOAD_SPECTATORS": str(SPECTATORS),
            "LOAD_LIVE": self.live_site,
        }
        idle = rss_kib(self.layout.live_pids())
        arrival = -(-sum(users.values()) // SPAWN) + SETTLE_SECONDS
        # The crowd arrives first, then the players: its streams are all held while
        # the run is measured.
        self.crowd = load_crowd.start(self, crowd, arrival + SECONDS + 5) if crowd else None
        if crowd:
            time.sleep(load_crowd.ARRIVAL_SECONDS)
        process, prefix = self.locust(users, SECONDS, extra, f"run-{len(self.ledgers)}")
        probe = None
        if faults:
            load_faults.inject_faults(self, process, SECONDS, arrival)
        else:  # the CPU time of each part while the users are all there, settled
            time.sleep(-(-sum(users.values()) // SPAWN) + SETTLE_SECONDS)
            probe = Probe(self.site, self.probe_paths())
            before, measured = self.cpu(process), time.monotonic()
            time.sleep(max(0, SECONDS - 5) / 2)
            held, busy = load_faults.open_streams(self), rss_kib(self.layout.live_pids())
            sessions = self.database_sessions()
            per_group = [load_faults.open_streams(self, g) for g in self.layout.live if g.running]
            time.sleep(max(0, SECONDS - 5) / 2)
            after, measured = self.cpu(process), time.monotonic() - measured
            probe.done.set()  # while the users are all there only
            # Per process: one that ended in between (a closed connection) takes its
            # time with it, so only those alive at the end are counted.
            spent = {
                part: sum(t - before[part].get(pid, 0) for pid, t in after[part].items())
                for part in after
            }
        process.wait()
        crowd_figures = load_crowd.report(self.crowd) if self.crowd is not None else None
        if faults:
            round_id = json.loads((self.folder / "fault-redis.json").read_text())["round"]
            print("  the round started while Redis was away, after beat's catch-up:")
            self.python("-m", "benchmarks.championship", "paired-once", str(round_id))
        stats = read_stats(prefix)
        said = Path(f"{prefix}.log").read_text()
        if "Traceback" in said:  # the simulated users' own failures: the harness is wrong
            print(f"  !! locust said:\n{said[said.index('Traceback') :][:3000]}")
        told = json.loads(ledger.read_text()) if ledger.exists() else {"unexpected": ["no ledger"]}
        result = report(label, stats, told, faults)
        if crowd_figures is not None:
            print(crowd_figures["line"])
        if probe is not None:
            probe.stop()
        if not faults:
            per = f"{(busy - idle) / held:.1f} KiB an open stream" if held else "no stream open"
            groups = f" ({' + '.join(map(str, per_group))})" if len(per_group) > 1 else ""
            print(
                f"    live: {held}{groups} open streams, resident memory {idle / 1024:.0f} MiB "
                f"without them, {busy / 1024:.0f} MiB with them: {per}"
            )
            total = sum(spent.values()) or 1
            shares = ", ".join(
                f"{part} {100 * used / total:.0f}% ({used / measured:.2f} cores)"
                for part, used in spent.items()
            )
            print(f"    where the machine's time went: {shares}")
            if crowd_figures is not None and held:
                live = sum(used for part, used in spent.items() if part.startswith("live"))
                print(
                    f"    live per open stream: {1000 * live / measured / held:.3f} ms of CPU "
                    f"a second, {(busy - idle) / held:.1f} KiB; PostgreSQL's sessions "
                    f"meanwhile: {sessions}"
                )
        return result

    def database_sessions(self) -> str:
        """PostgreSQL's sessions on the load's database now (a crowd's openings must
        take none)."""
        name = self.database.rsplit("/", 1)[1]
        sql = f"select count(*) from pg_stat_activity where datname = '{name}'"
        found = subprocess.run(
            ["psql", self.database.rsplit("/", 1)[0] + "/postgres", "-tAc", sql],
            capture_output=True,
            text=True,
        )
        return found.stdout.strip() or "?"

    def cpu(self, locust: subprocess.Popen) -> dict:
        """CPU seconds used so far by each part, per process (children too)."""
        roots = {
            **self.layout.roots(),
            "locust (the phones)": [locust.pid],
            "celery": [self.worker.pid, self.beat.pid],
            "redis": [self.redis.pid],
        }
        if getattr(self, "crowd", None) is not None:
            roots["crowd (its spectators)"] = self.crowd.pids()
        used = {
            part: {pid: cpu_seconds(pid) for pid in process_tree(pids)}
            for part, pids in roots.items()
        }
        postgres = subprocess.run(["pgrep", "-u", "postgres"], capture_output=True, text=True)
        used["postgresql"] = {int(pid): cpu_seconds(int(pid)) for pid in postgres.stdout.split()}
        return used

    def check(self) -> bool:
        ledger = {"entered": [], "confirmed": []}
        for path in self.ledgers:
            if path.exists():
                told = json.loads(path.read_text())
                ledger["entered"] += told["entered"]
                ledger["confirmed"] += told["confirmed"]
        merged = self.folder / "ledger.json"
        merged.write_text(json.dumps(ledger))
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "benchmarks.championship",
                "check",
                str(self.manifest),
                str(merged),
                self.site,
            ],
            cwd=ROOT,
            env=self.env,
        )
        return result.returncode == 0

    def profile(self, result: dict) -> None:
        slowest = max((k for k in result["p95"] if k in KINDS), key=result["p95"].get)
        print(
            f"\nWhere the time goes: the slowest kind of request is {slowest!r} "
            f"(p95 {result['p95'][slowest]:.0f} ms); one of them, profiled in-process:"
        )
        self.python("-m", "benchmarks.championship", "profile", slowest, str(self.manifest))


if __name__ == "__main__":
    main()
