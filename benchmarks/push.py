"""Live push, measured: what an open stream costs the serving process, and how
long a committed hand takes to reach the streams.

1. Embedded (`make run`): one uvicorn process, no Redis. N streams are opened on
   seat pages; the process's resident memory before and after, per stream. Then a
   hand entered through the seat API (committed in the server): the time from
   sending it to each of the N streams hearing it.
2. Production's way (gunicorn with the uvicorn worker, Redis publish/subscribe,
   db 12): a hand committed in this process (another process, as a gunicorn sync
   worker or a Celery task would): the time from its commit to the stream's event.

Only 127.0.0.1. Run: `.venv/bin/python -m benchmarks.push` (PUSH_STREAMS=1000)."""

from __future__ import annotations

import asyncio
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
STREAMS = int(os.environ.get("PUSH_STREAMS", 1000))
SAMPLES = int(os.environ.get("PUSH_SAMPLES", 30))
REDIS_URL = os.environ.get("PUSH_REDIS_URL", "redis://127.0.0.1:6379/12")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kib(pid: int) -> int:
    """Resident memory of the process and its children (gunicorn's workers)."""
    total = 0
    pids = [pid]
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if children.exists():
        pids += [int(p) for p in children.read_text().split()]
    for p in pids:
        for line in Path(f"/proc/{p}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


def start(command: list[str], env: dict, port: int) -> subprocess.Popen:
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError(f"{command[0]} did not start")


async def open_stream(port: int, path: str):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    await writer.drain()
    await reader.readuntil(b"event: hello")
    await reader.readuntil(b"\n\n")
    return reader, writer


async def heard(reader) -> float:
    """When the stream's next "moved" event arrived (pings are skipped)."""
    while True:
        block = await reader.readuntil(b"\n\n")
        if b"event: moved" in block:
            return time.perf_counter()


def post(port: int, path: str, body: dict) -> None:
    import urllib.request

    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    urllib.request.urlopen(request, timeout=10).read()


def figures(name: str, seconds: list[float]) -> None:
    ms = sorted(1000 * s for s in seconds)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    print(f"  {name}: median {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, max {ms[-1]:.1f} ms")


def setup_django(env: dict) -> None:
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # This process makes its parties between awaits: plain blocking calls, no
    # event loop shared with them.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    django.setup()


def new_party():
    from tests.factories import start_party

    return list(start_party().seats.order_by("position"))


def embedded(env: dict) -> None:
    port = free_port()
    server = start(
        [
            PY,
            "-m",
            "uvicorn",
            "config.asgi:application",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        env,
        port,
    )
    try:
        asyncio.run(_embedded(server.pid, port))
    finally:
        server.terminate()
        server.wait()


async def _embedded(pid: int, port: int) -> None:
    seats = new_party()
    path = f"/table/{seats[1].token}/events/"
    warm = await open_stream(port, path)  # imports, the first request's caches
    warm[1].close()
    await asyncio.sleep(1)
    before = rss_kib(pid)
    streams = []
    for start in range(0, STREAMS, 100):
        streams += await asyncio.gather(
            *(open_stream(port, path) for _ in range(start, min(STREAMS, start + 100)))
        )
    await asyncio.sleep(1)
    after = rss_kib(pid)
    print(f"Embedded (one uvicorn process, in memory), {STREAMS} open streams:")
    print(
        f"  resident memory {before / 1024:.1f} MiB idle, {after / 1024:.1f} MiB with them: "
        f"{(after - before) / STREAMS:.1f} KiB a stream"
    )

    body = {
        "number": 1,
        "ending": "knock",
        "knocker": seats[0].position,
        "knocker_deadwood": 3,
        "defender_deadwood": 21,
    }
    waiting = [asyncio.create_task(heard(r)) for r, _ in streams]
    sent = time.perf_counter()
    await asyncio.to_thread(post, port, f"/api/tables/{seats[0].token}/hands", body)
    answered = time.perf_counter()
    times = await asyncio.gather(*waiting)
    print(
        f"  a hand entered through the API: answered after {1000 * (answered - sent):.1f} ms; "
        f"all {STREAMS} streams told after {1000 * (max(times) - sent):.1f} ms "
        f"(first {1000 * (min(times) - sent):.1f} ms)"
    )
    for _, writer in streams:
        writer.close()

    single = []
    for _ in range(SAMPLES):
        seats = new_party()
        reader, writer = await open_stream(port, f"/table/{seats[1].token}/events/")
        body["knocker"] = seats[0].position
        waiting = asyncio.create_task(heard(reader))
        sent = time.perf_counter()
        await asyncio.to_thread(post, port, f"/api/tables/{seats[0].token}/hands", body)
        single.append(await waiting - sent)
        writer.close()
    figures(f"request sent → event, one stream, {SAMPLES} hands", single)


def production(env: dict) -> None:
    port = free_port()
    server = start(
        [
            PY,
            "-m",
            "gunicorn",
            "-k",
            "live.worker.StreamWorker",
            "-w",
            "1",
            "-b",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
            "config.asgi:application",
        ],
        env,
        port,
    )
    try:
        asyncio.run(_production(port))
    finally:
        server.terminate()
        server.wait()


async def _production(port: int) -> None:
    from django.db import transaction

    from scoring.services import hands
    from scoring.services.knocks import Result

    latencies = []
    for _ in range(SAMPLES):
        seats = new_party()
        reader, writer = await open_stream(port, f"/table/{seats[1].token}/events/")
        waiting = asyncio.create_task(heard(reader))
        committed = []

        def enter(seats=seats, committed=committed):
            with transaction.atomic():
                # Runs first of the commit's callbacks: the moment of the commit.
                transaction.on_commit(lambda: committed.append(time.perf_counter()))
                hands.hand_enter(
                    seat=seats[0],
                    number=1,
                    entry=Result(
                        "knock", knocker=seats[0].position, knocker_deadwood=3, defender_deadwood=21
                    ),
                )

        await asyncio.to_thread(enter)
        latencies.append(await waiting - committed[0])
        writer.close()
    print("Production's way (gunicorn + uvicorn worker, Redis publish/subscribe):")
    figures(f"commit in another process → event, {SAMPLES} hands", latencies)


def main() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 4 * STREAMS + 256)), hard))
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "SQLITE_PATH": f"{folder}/push.sqlite3", "DEBUG": "on"}
        env.pop("REDIS_URL", None)
        env.pop("DATABASE_URL", None)
        subprocess.run([PY, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
        setup_django(env)
        embedded(env)
        redis_env = {**env, "REDIS_URL": REDIS_URL, "CACHE_KEY_PREFIX": "knock-push-bench"}
        try:
            import redis

            redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
        except Exception:
            print("No Redis at", REDIS_URL, "- the production figures are left out.")
            return
        from django.conf import settings

        # This process now publishes as a web or Celery process with Redis does.
        settings.REDIS_URL = REDIS_URL
        settings.CACHES["default"]["KEY_PREFIX"] = "knock-push-bench"
        production(redis_env)


if __name__ == "__main__":
    main()
