"""`make load`'s crowd (``LOAD_CROWD=1000,5000,10000``; off unless set): spectators
that only hold the public page's stream, as a phone does once the page is drawn.
Plain asyncio clients, many in a process, in processes of their own (not locust's
greenlets): each opens its stream (arriving over `ARRIVAL_SECONDS`), reads every
event and lets it go. Each process also listens to the Redis channel the boards'
news are published on, so "told" is the time from a stored board's publication to
a client's event of that board, both read by the same clock.

Printed per size: the clients that held a stream, told p50 / p95 / max, the bytes of
an event ("a push") and a client's bytes a minute, and the requests to `web` a
client's page would make a minute after opening (a part an event did not carry);
`make load` prints `live`'s CPU and memory per open stream beside them (its
streams then hold the crowd's), and PostgreSQL's sessions meanwhile."""

from __future__ import annotations

import asyncio
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIZES = [int(n) for n in os.environ.get("LOAD_CROWD", "").split(",") if n.strip()]
#: Clients per process: an event loop reads a few thousand streams on one core.
PER_PROCESS = int(os.environ.get("LOAD_CROWD_PER_PROCESS", 2500))
#: The crowd arrives over this long: a championship's followers do not all open
#: their pages in the same second (the arrival is `make load`'s own line).
ARRIVAL_SECONDS = float(os.environ.get("LOAD_CROWD_ARRIVAL_SECONDS", 10))
#: The parts the tournament's page shows, which its stream carries.
PARTS = ("tables", "standings")


class Crowd:
    def __init__(self, processes: list[subprocess.Popen], results: list[Path], size: int):
        self.processes, self.results, self.size = processes, results, size

    def pids(self) -> list[int]:
        return [p.pid for p in self.processes]


def start(lab, size: int, seconds: float) -> Crowd:
    """``size`` clients on the public page's stream of the lab's tournament, for
    ``seconds`` after they all arrived."""
    slug = json.loads(lab.manifest.read_text())["slug"]
    path = f"/t/{slug}/events/?parts={','.join(PARTS)}"
    channel = f"{lab.env.get('CACHE_KEY_PREFIX', 'knock')}:push"
    count = math.ceil(size / PER_PROCESS)
    processes, results = [], []
    for n in range(count):
        share = size // count + (n < size % count)
        out = lab.folder / f"crowd-{size}-{n}.json"
        results.append(out)
        command = [
            sys.executable, "-m", "benchmarks.load_crowd", lab.live_site, path,
            str(n * PER_PROCESS), str(share),
            str(ARRIVAL_SECONDS + seconds), lab.env["REDIS_URL"], channel, str(out),
        ]  # fmt: skip
        processes.append(subprocess.Popen(command, cwd=ROOT, env=lab.env))
    return Crowd(processes, results, size)


def report(crowd: Crowd) -> dict:
    """The crowd's figures, once its processes are done, and their line (``line``)."""
    for process in crowd.processes:
        process.wait()
    found = [json.loads(p.read_text()) for p in crowd.results if p.exists()]
    told = sorted(t for f in found for t in f["told"])
    held = sum(f["held"] for f in found)
    events = sum(f["events"] for f in found)
    received = sum(f["bytes"] for f in found)
    minutes = max((f["seconds"] for f in found), default=0) / 60 or 1
    figures = {
        "held": held,
        **{k: sum(f.get(k, 0) for f in found) for k in ("refused", "ended", "asks")},
    }
    if told:
        figures.update(
            p50=told[len(told) // 2], p95=told[min(len(told) - 1, round(0.95 * len(told)))],
            most=told[-1],
        )  # fmt: skip
    per_push = received / events if events else 0
    figures["line"] = (
        f"    crowd of {crowd.size}: {held} held a stream ({figures['refused']} refused, "
        f"{figures['ended']} ended early); "
        + (
            f"told p50 {figures['p50']:.2f} s, p95 {figures['p95']:.2f} s, "
            f"max {figures['most']:.2f} s after each stored board; "
            if told
            else "told of no board; "
        )
        + f"{per_push / 1024:.1f} KiB a push, "
        + f"{received / max(held, 1) / minutes / 1024:.0f} KiB a client a minute; "
        + f"{figures['asks'] / max(held, 1) / minutes:.2f} requests to web a client a minute "
        + "after opening"
    )
    return figures


# --------------------------------------------------------------------------- one process


async def _client(n, host, port, path, until, figures, heard):
    try:
        # (A part carried whole is longer than asyncio's 64 KiB line at once.)
        reader, writer = await asyncio.open_connection(host, port, limit=16 * 2**20)
    except OSError:
        figures["refused"] += 1
        return
    # HTTP/1.0: the stream comes unchunked, and ends with the connection.
    lines = [f"GET {path} HTTP/1.0", f"Host: {host}", "Accept: text/event-stream"]
    # (Behind where the TLS proxy would be: over HTTPS, each client from an address
    # of its own, as locust's users.)
    lines += [
        "X-Forwarded-Proto: https",
        f"X-Forwarded-For: 10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}",
    ]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    try:
        head = await reader.readuntil(b"\r\n\r\n")
        if b" 200 " not in head.split(b"\r\n", 1)[0]:
            figures["refused"] += 1
            return
        figures["held"] += 1
        loop = asyncio.get_running_loop()
        while (left := until - loop.time()) > 0:
            block = await asyncio.wait_for(reader.readuntil(b"\n\n"), left)
            if b"event: hello" in block:
                # A hello without the board's number: the page asks for its parts.
                hello = json.loads(block[block.index(b"data: ") + 6 :])
                figures["asks"] += 0 if "board" in hello.get("versions", {}) else len(PARTS)
            if b"event: moved" not in block:
                continue
            at = time.time()
            data = json.loads(block[block.index(b"data: ") + 6 :])
            figures["events"] += 1
            figures["bytes"] += len(block)
            heard.append((data["version"], at))
            # A part the event carries neither whole nor as edits, the page asks
            # `web` for (static/js/live.js): what the crowd costs the players.
            carried = {*data.get("parts", ()), *data.get("changes", ())}
            figures["asks"] += len(set(PARTS) - carried)
    except (TimeoutError, asyncio.IncompleteReadError, OSError, ValueError):
        if asyncio.get_running_loop().time() < until - 1:
            figures["ended"] += 1  # the stream ended (or broke) before its time
    finally:
        writer.close()


async def _listen(redis_url, channel, published):
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(redis_url)
    async with client.pubsub(ignore_subscribe_messages=True) as pubsub:
        await pubsub.subscribe(channel)
        async for message in pubsub.listen():
            value, _, key = message["data"].decode().partition(" ")
            if key.startswith("v:board-stored:"):
                published.setdefault(int(value), time.time())


async def _crowd(site, path, first, count, seconds, redis_url, channel, out):
    host, _, port = site.removeprefix("http://").rstrip("/").partition(":")
    published: dict[int, float] = {}
    heard: list[tuple[int, float]] = []
    figures = {"held": 0, "refused": 0, "ended": 0, "events": 0, "bytes": 0, "asks": 0}
    listener = asyncio.ensure_future(_listen(redis_url, channel, published))
    loop = asyncio.get_running_loop()
    started = loop.time()
    until = started + seconds
    clients = []
    for n in range(count):
        # Spread over the arrival: n-th client at its share of it.
        wait = started + ARRIVAL_SECONDS * n / max(count, 1) - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        client = _client(first + n, host, int(port or 80), path, until, figures, heard)
        clients.append(asyncio.ensure_future(client))
    await asyncio.gather(*clients)
    listener.cancel()
    told = [at - published[v] for v, at in heard if v in published]
    figures.update(told=told, seconds=seconds - ARRIVAL_SECONDS)
    Path(out).write_text(json.dumps(figures))


if __name__ == "__main__":
    site, path, first, count, seconds, redis_url, channel, out = sys.argv[1:]
    asyncio.run(_crowd(site, path, int(first), int(count), float(seconds), redis_url, channel, out))
