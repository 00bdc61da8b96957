"""The faults ``make load`` survives (benchmarks/load.py): a web and a live worker
killed (in groups: a web and a live group lost), the database's connections
dropped and Redis restarted while the phones play, and the Celery worker killed as
it pairs a round. Each acts on the running ``Lab`` and says what it did."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import time

import psycopg

from benchmarks.load_figures import process_tree

#: The round the Celery worker is killed while pairing: a championship's first round
#: by default; CI's small run takes a small one (the same path, in seconds).
FAULT_ENTRANTS = int(os.environ.get("LOAD_FAULT_ENTRANTS", 1000))


def inject_faults(lab, locust: subprocess.Popen, seconds: int, arrival: float) -> None:
    """While the phones play: at 1/4 of the run a gunicorn worker of web and one of
    live are killed (in groups: the first web and live groups are lost whole and
    come back), at 1/2 every PostgreSQL connection of the site is dropped, at 3/4
    Redis restarts. The run is counted from the users' ``arrival``, or from 10 s
    into it when they take longer to arrive (a championship's phones do)."""
    step = seconds / 4
    time.sleep(step + min(arrival, 10))
    killed = time.monotonic()
    if len(lab.layout.web) > 1:
        # Groups as separate hosts: one of each kind lost whole, the others serve.
        lab.layout.lose_first_groups(open_streams(lab, lab.layout.live[0]))
        live = True
    else:
        live = kill_workers(lab)
    time.sleep(max(0, step - (time.monotonic() - killed)))  # the lost groups' restart counts
    if live:
        refused = lab.live_log.read_text().count("Service Unavailable")
        print(
            f"    the reconnecting streams: {refused} answered 503 (the page polls and "
            "opens its stream again after a growing wait)"
        )
    dropped = drop_connections(lab.database)
    print(f"  fault: {dropped} PostgreSQL connections of the site dropped (pg_terminate_backend)")
    time.sleep(step)
    lab.redis.kill()
    lab.redis.wait()
    # An organizer starts a round while Redis is away: the task cannot be sent.
    lab.python(
        "-m",
        "benchmarks.championship",
        "start",
        "fault-redis",
        "40",
        str(lab.folder / "fault-redis.json"),
        quiet=True,
    )
    connected = lab.worker_log.read_text().count("Connected to redis")
    lab.start_redis()
    print(
        "  fault: Redis killed, a round started while it was away, Redis started again "
        "empty (every cached page, counter and queued task lost)"
    )
    worker_back(lab, connected)


def kill_workers(lab) -> bool:
    """A gunicorn worker of web and one of live killed; True when there was one
    of live to kill."""
    web, live = lab.layout.web[0], lab.layout.live[0]
    workers = process_tree([web.process.pid])[1:]
    if workers:
        os.kill(workers[0], signal.SIGKILL)
        print(f"  fault: gunicorn worker {workers[0]} killed (SIGKILL); the master starts another")
    workers = process_tree([live.process.pid])[1:]
    if workers:
        held = open_streams(lab)
        os.kill(workers[0], signal.SIGKILL)
        print(
            f"  fault: live worker {workers[0]} killed (SIGKILL) with {held} streams open "
            "on live: its streams drop; the pages poll, reconnect after the retry "
            "and ask what they missed"
        )
    return bool(workers)


def worker_back(lab, connected: int, seconds: float = 30) -> None:
    """Waits until the Celery worker is back on the broker. A worker may give up
    on a broker that went away (kombu's "Unrecoverable error" while it restores
    its unacknowledged tasks): compose then starts it again (``restart:
    unless-stopped``), and so does this lab, and says so."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if lab.worker.poll() is not None:
            print("    the Celery worker had stopped with the broker: started again")
            lab.start_worker()
            return
        if lab.worker_log.read_text().count("Connected to redis") > connected:
            return
        time.sleep(0.2)
    print(f"    the Celery worker was not back on the broker within {seconds:.0f} s")


def open_streams(lab, group=None) -> int:
    """Connections established to ``live`` now (the streams, and any request on
    its way), to every live group or to ``group``."""
    ports = [f"{g.port:04X}" for g in ([group] if group else lab.layout.live)]
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as file:
            for line in file.readlines()[1:]:
                fields = line.split()
                if fields[1].rsplit(":", 1)[1] in ports and fields[3] == "01":
                    count += 1
    return count


def drop_connections(database: str) -> int:
    base, name = database.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as connection:
        rows = connection.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            [name],
        ).fetchall()
    return len(rows)


def pairing_survives_a_killed_worker(lab) -> None:
    """A tournament of its own starts round 1; the worker is killed (the whole
    process group, SIGKILL) while it pairs; a new worker pairs the round, once."""
    lab.python(
        "-m",
        "benchmarks.championship",
        "start",
        "fault-pairing",
        str(FAULT_ENTRANTS),
        str(lab.folder / "fault.json"),
    )
    round_id = json.loads((lab.folder / "fault.json").read_text())["round"]
    lab.wait(lambda: "pair_round" in lab.worker_log.read_text(), "the pairing task", 60, every=0.02)
    os.killpg(lab.worker.pid, signal.SIGKILL)
    lab.worker.wait()
    status = round_status(lab.database, round_id)
    print(
        "  fault: the Celery worker killed (SIGKILL) as it began pairing a round of "
        f"{FAULT_ENTRANTS:,} entrants; the round was then {status!r}; a new worker started"
    )
    started = time.monotonic()
    lab.start_worker()
    lab.python("-m", "benchmarks.championship", "paired-once", str(round_id))
    print(f"  (paired {time.monotonic() - started:.0f} s after the kill)")


def round_status(database: str, round_id: int) -> str:
    with psycopg.connect(database) as connection:
        query = "SELECT status FROM tournaments_round WHERE id = %s"
        return connection.execute(query, [round_id]).fetchone()[0]
