"""`make load`'s crowd (``LOAD_CROWD=1000,5000,10000``; off unless set): spectators
that only hold the public page's stream, as a phone does once the page is drawn.
Plain asyncio clients, many in a process, in processes of their own (not locust's
greenlets): each opens its stream (arriving over `ARRIVAL_SECONDS`), counts every
event and lets it go. A client is a protocol (no task of its own) that reads its
stream into the process's one buffer and does not parse an event's JSON whole: it
reads the number off the data's first bytes and finds the parts carried by their
keys. The harness shares the machine's cores with the servers it measures, where a
spectator's phone has a processor of its own: 10,000 clients that parsed every event
(20–40 KiB) whole, each read by a task of its own, took up to half of the two cores;
read this way, the same events cost a quarter of the processor's time (2,000 clients
against a plain server). Each process also listens to the Redis channel the boards'
news are published on, so "told" is the time from a stored board's publication to
a client's event of that board, both read by the same clock.

Printed per size: the clients that held a stream, told p50 / p95 / max, the bytes of
an event ("a push") and a client's bytes a minute, and the requests to `web` a
client's page would make a minute after opening (a part an event did not carry);
`make load` prints `live`'s CPU and memory per open stream beside them (its
streams then hold the crowd's), and PostgreSQL's sessions meanwhile."""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import re
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

#: A moved event's data begins with its counter and number (live/events.py, `_encode`:
#: json.dumps' own separators), so the number is read off its first bytes.
_VERSION = re.compile(rb'\{"counter": "(?:[^"\\]|\\.)*", "version": (-?\d+)[,}]')
#: A part is carried when it is a key of the event's data: the key of its text
#: (``"parts"``) or of its edits (``"changes"``); the data has no other key named
#: like a part. Inside a JSON string every ``"`` is written ``\"``, so ``"tables": ``
#: ends a key, and it is the key ``tables`` when it follows ``{`` or ``, `` (where a
#: quote opens a key or a value, never one written inside a string).
_KEYS = {part: b'"%s": ' % part.encode() for part in PARTS}


def carried(data, start: int, end: int) -> int:
    """How many of `PARTS` the moved event's data (``data[start:end]``) carries."""
    found = 0
    for key in _KEYS.values():
        at = data.find(key, start, end)
        while at > start and data[at - 1 : at] != b"{" and data[at - 2 : at] != b", ":
            at = data.find(key, at + 1, end)
        found += at > start
    return found


def _end(buffer: bytearray, at: int, size: int) -> int:
    """Where the first event's end (its blank line) in ``buffer[at:size]`` begins, or
    -1. An event has a new line only after each of its few lines (the data's JSON
    writes its own escaped): looking for new lines alone is many times faster than
    for the pair in a 30 KiB event."""
    while (at := buffer.find(b"\n", at, size)) >= 0:
        if at + 1 < size and buffer[at + 1] == 10:  # "\n"
            return at
        at += 1
    return -1


class Spectator(asyncio.BufferedProtocol):
    """One client's stream, read as it arrives: each event is counted once its
    blank line has come, and let go. The stream is read into the process's one
    buffer (`Hold.read`) and counted there; only an event still on its way is
    kept, the client's own."""

    __slots__ = ("buffer", "crowd", "done", "held", "request", "searched", "transport")

    def __init__(self, request: bytes, crowd: Hold):
        self.request, self.crowd = request, crowd
        self.buffer = bytearray()
        self.searched = 0  # the buffer holds no event's end before this
        self.held = self.done = False
        self.transport = None

    def connection_made(self, transport):
        self.transport = transport
        self.crowd.open.add(self)
        transport.write(self.request)

    def get_buffer(self, sizehint):
        return self.crowd.read

    def buffer_updated(self, nbytes: int):
        crowd = self.crowd
        if self.buffer:
            self.buffer += crowd.view[:nbytes]
            buffer, size = self.buffer, len(self.buffer)
        else:  # counted where it was read
            buffer, size = crowd.read, nbytes
        start = self.take(buffer, size)
        if self.done:
            return
        # (The last byte may be the first of an event's end.)
        self.searched = max(size - 1, start) - start
        if buffer is crowd.read:
            if start < size:
                self.buffer = bytearray(crowd.view[start:size])
        elif start == size:
            self.buffer = bytearray()
        elif start:
            del buffer[:start]

    def take(self, buffer: bytearray, size: int) -> int:
        """Counts the events that ended in ``buffer[:size]``; where the rest begins."""
        start = 0
        if not self.held:
            head = buffer.find(b"\r\n\r\n", 0, size)
            if head < 0:
                return 0
            if b" 200 " not in buffer[: buffer.find(b"\r\n", 0, size)]:
                self.crowd.figures["refused"] += 1
                self.finish(ended=False)
                return 0
            self.held = True
            self.crowd.figures["held"] += 1
            start = self.searched = head + 4
        while (end := _end(buffer, self.searched, size)) >= 0:
            try:
                self.event(buffer, start, end + 2)
            except ValueError:
                self.finish(ended=True)
                return 0
            start = self.searched = end + 2
        return start

    def event(self, buffer: bytearray, start: int, end: int):
        """The event ``buffer[start:end]`` (up to and including its blank line)."""
        figures = self.crowd.figures
        data = buffer.find(b"data: ", start, end)
        fields = data if data >= 0 else end
        if buffer.find(b"event: moved", start, fields) >= 0:
            at = time.time()
            if data < 0:
                raise ValueError("an event without data")
            found = _VERSION.match(buffer, data + 6, end)
            if found is not None:
                version = int(found[1])
            else:  # not as `_encode` writes it: read it whole
                version = json.loads(buffer[data + 6 : end])["version"]
            figures["events"] += 1
            figures["bytes"] += end - start
            self.crowd.heard.append((version, at))
            # A part the event carries neither whole nor as edits, the page asks
            # `web` for (static/js/live.js): what the crowd costs the players.
            figures["asks"] += len(PARTS) - carried(buffer, data + 6, end)
        elif buffer.find(b"event: hello", start, fields) >= 0:
            # A hello without the board's number: the page asks for its parts.
            if data < 0:
                raise ValueError("an event without data")
            hello = json.loads(buffer[data + 6 : end])
            figures["asks"] += 0 if "board" in hello.get("versions", {}) else len(PARTS)

    def connection_lost(self, exc):
        self.finish(ended=True)

    def finish(self, ended: bool):
        if self.done:
            return
        self.done = True
        self.buffer = bytearray()
        if ended and asyncio.get_running_loop().time() < self.crowd.until - 1:
            self.crowd.figures["ended"] += 1  # the stream ended (or broke) before its time
        self.transport.close()
        self.crowd.open.discard(self)
        self.crowd.settled()


class Hold:
    """A process's clients and what they heard: ``figures`` and ``heard`` (a moved
    event's number, and when it had all come)."""

    def __init__(self, until: float):
        self.until = until
        self.figures = {"held": 0, "refused": 0, "ended": 0, "events": 0, "bytes": 0, "asks": 0}
        self.heard: list[tuple[int, float]] = []
        self.open: set[Spectator] = set()
        #: Where every client's stream is read (a client's read is counted before
        #: the next one's): asyncio's own reads make a new 256 KiB buffer each.
        self.read = bytearray(256 * 1024)
        self.view = memoryview(self.read)
        self.opening = 0
        self.all_done = asyncio.Event()

    def settled(self):
        if not self.open and not self.opening:
            self.all_done.set()

    async def connect(self, n, host, port, path):
        # HTTP/1.0: the stream comes unchunked, and ends with the connection.
        lines = [f"GET {path} HTTP/1.0", f"Host: {host}", "Accept: text/event-stream"]
        # (Behind where the TLS proxy would be: over HTTPS, each client from an
        # address of its own, as locust's users.)
        lines += [
            "X-Forwarded-Proto: https",
            f"X-Forwarded-For: 10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}",
        ]
        request = ("\r\n".join(lines) + "\r\n\r\n").encode()
        loop = asyncio.get_running_loop()
        try:
            await loop.create_connection(lambda: Spectator(request, self), host, port)
        except OSError:
            self.figures["refused"] += 1
        finally:
            self.opening -= 1
            self.settled()


async def hold(host, port, path, first, count, arrival, until) -> Hold:
    """``count`` clients (numbered from ``first``) on ``path``, arriving over
    ``arrival`` seconds, each until the loop's time ``until`` or its stream's end."""
    loop = asyncio.get_running_loop()
    crowd = Hold(until)
    started = loop.time()
    crowd.opening = count
    connecting = set()
    for n in range(count):
        # Spread over the arrival: n-th client at its share of it.
        wait = started + arrival * n / max(count, 1) - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        # (A task only while it connects: the stream is then read by its protocol.)
        task = asyncio.ensure_future(crowd.connect(first + n, host, port, path))
        connecting.add(task)
        task.add_done_callback(connecting.discard)
    crowd.settled()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(crowd.all_done.wait(), max(until - loop.time(), 0))
    for task in list(connecting):
        task.cancel()
    for client in list(crowd.open):
        client.finish(ended=False)
    return crowd


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
    listener = asyncio.ensure_future(_listen(redis_url, channel, published))
    loop = asyncio.get_running_loop()
    until = loop.time() + seconds
    crowd = await hold(host, int(port or 80), path, first, count, ARRIVAL_SECONDS, until)
    listener.cancel()
    told = [at - published[v] for v, at in crowd.heard if v in published]
    figures = {**crowd.figures, "told": told, "seconds": seconds - ARRIVAL_SECONDS}
    Path(out).write_text(json.dumps(figures))


if __name__ == "__main__":
    site, path, first, count, seconds, redis_url, channel, out = sys.argv[1:]
    asyncio.run(_crowd(site, path, int(first), int(count), float(seconds), redis_url, channel, out))
