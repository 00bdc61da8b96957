"""What an open stream of a public page holds in the `live` process: N streams of
the wall screen and the tournament page of a tournament of 1,000 entrants
(`demo.big`, its round in play) opened in one process through the site's ASGI
application, as uvicorn would hand them over, then told of a few stored boards
(the first carries the parts whole, the next as their changed lines). The memory
Python allocated and still holds (tracemalloc), per stream, once opened and once
told; and where the most of it was allocated.

With ``BENCH_STREAM_SERVER`` (``h11`` or ``httptools``: uvicorn's HTTP parser) the
streams are served by uvicorn itself on a local port, as `live` serves them,
and read by plain clients in a process of their own: what uvicorn holds for each
connection (its protocol, the transport, the request's scope) is then counted
too, where the default counts the benchmark's stand-in for it.

On the embedded default (SQLite, the local-memory cache, the streams told in
memory), in a process of its own. Run with ``python -m benchmarks`` (all
benchmarks) or ``python -m benchmarks.stream_memory`` (BENCH_STREAMS=500,
BENCH_STREAM_ENTRANTS=1000, BENCH_STREAM_SERVER)."""

from __future__ import annotations

import asyncio
import gc
import os
import socket
import subprocess
import sys
import threading
import time
import tracemalloc

from benchmarks import ROOT, in_own_process, migrated

STREAMS = int(os.environ.get("BENCH_STREAMS", 500))
ENTRANTS = int(os.environ.get("BENCH_STREAM_ENTRANTS", 1000))
BOARDS = 4
#: Frames kept of each allocation (BENCH_STREAM_FRAMES): more say where, slower.
FRAMES = int(os.environ.get("BENCH_STREAM_FRAMES", 1))
#: uvicorn's HTTP parser serving the streams (h11, httptools), or none: handed to
#: the ASGI application directly.
SERVER = os.environ.get("BENCH_STREAM_SERVER", "")
#: Instead of the memory, the event loop's own CPU time (its thread's: the boards
#: are stored in another) to open the streams and to tell them of each board,
#: without tracemalloc (BENCH_STREAM_CPU=on); with uvicorn's check of the proxy's
#: headers, each client sending them as behind the proxy
#: (BENCH_STREAM_PROXY_HEADERS=on), on uvloop's loop (BENCH_STREAM_LOOP=uvloop).
CPU = os.environ.get("BENCH_STREAM_CPU", "off") == "on"
PROXY_HEADERS = os.environ.get("BENCH_STREAM_PROXY_HEADERS", "off") == "on"
LOOP = os.environ.get("BENCH_STREAM_LOOP", "asyncio")


def main() -> None:
    in_own_process("benchmarks.stream_memory", without_redis=True)


class Stream:
    """One GET of a stream through the ASGI application; what it is sent is
    counted and let go, as a socket would."""

    def __init__(self, application, path: str):
        self.received = 0
        self.events = 0
        self.told = asyncio.Event()
        self.left = asyncio.Event()
        self.asked = False
        path, _, query = path.partition("?")
        scope = {
            "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "method": "GET", "scheme": "http", "path": path, "raw_path": path.encode(),
            "query_string": query.encode(), "root_path": "",
            "headers": [(b"host", b"testserver")],
            "client": ("127.0.0.1", 50000), "server": ("testserver", 80),
        }  # fmt: skip
        self.task = asyncio.ensure_future(application(scope, self.receive, self.send))

    async def receive(self):
        if not self.asked:
            self.asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await self.left.wait()
        return {"type": "http.disconnect"}

    async def send(self, message):
        body = message.get("body", b"")
        self.received += len(body)
        self.events += body.count(b"\n\n")
        self.told.set()


class Served:
    """The streams served by uvicorn on a local port, read by plain clients in a
    process of their own (`_clients`): each stream's events counted by a thin
    wrapper of the application (a closure a stream, about 0.2 KiB, counted too)."""

    def __init__(self, application):
        import uvicorn

        self.hellos = self.moved = 0
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        config = uvicorn.Config(
            self.counting(application), http=SERVER, loop="asyncio", lifespan="off",
            log_level="warning", proxy_headers=PROXY_HEADERS,
        )  # fmt: skip
        self.server = uvicorn.Server(config)
        self.task = asyncio.ensure_future(self.server.serve(sockets=[self.sock]))
        self.clients: list[subprocess.Popen] = []

    def counting(self, application):
        async def counted(scope, receive, send):
            async def sent(message):
                body = message.get("body", b"")
                self.hellos += body.startswith(b"event: hello")
                self.moved += body.startswith(b"event: moved")
                await send(message)

            await application(scope, receive, sent)

        return counted

    def open(self, paths: list[str], count: int) -> None:
        port = self.sock.getsockname()[1]
        command = [sys.executable, "-m", "benchmarks.stream_memory", "clients", str(port)]
        self.clients.append(subprocess.Popen([*command, str(count), *paths], cwd=ROOT))

    async def stop(self) -> None:
        for client in self.clients:
            client.kill()
            client.wait()
        self.server.should_exit = True
        await self.task


async def _clients(port: int, count: int, paths: list[str]) -> None:
    """``count`` streams on ``paths`` in turn, each read as it comes and let go."""

    async def one(n, path):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        lines = [f"GET {path} HTTP/1.1", "Host: testserver"]
        if PROXY_HEADERS:
            lines += ["X-Forwarded-Proto: https", f"X-Forwarded-For: 10.0.{n // 256}.{n % 256}"]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        while await reader.read(2**16):
            pass

    await asyncio.gather(*(one(n, paths[n % len(paths)]) for n in range(count)))


async def _until(condition, seconds=60.0):
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not condition():
        if loop.time() > deadline:
            raise TimeoutError
        await asyncio.sleep(0.01)


def _measure() -> None:
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # the boards are stored between awaits
    migrated()
    from asgiref.sync import sync_to_async
    from django.test import Client
    from django.urls import reverse

    from config.asgi import application
    from demo.big import big_tournament
    from live import streams
    from tournaments import stored_board
    from tournaments.models import Round

    tournament = big_tournament(entrants=ENTRANTS, rounds=10)
    # The last round in play: its 500 tables are a part of their own.
    Round.objects.filter(tournament=tournament, number=10).update(status=Round.Status.PLAYING)
    slug = tournament.slug
    paths = [
        reverse("public:tournament-events", args=[slug]) + "?parts=screen",
        reverse("public:tournament-events", args=[slug]) + "?parts=tables,standings",
    ]
    client = Client()
    for page in ("tournament-detail", "tournament-screen"):
        client.get(reverse(f"public:{page}", args=[slug]))  # the parts noted as asked

    def store():
        stored_board.board_wanted(tournament.pk)
        stored_board.board_store(tournament_id=tournament.pk)

    async def tell(streams_told, boards):
        for _ in range(boards):
            counts = [s.events for s in streams_told]
            await sync_to_async(store)()
            told = zip(streams_told, counts, strict=True)
            await _until(lambda t=list(told): all(s.events > n for s, n in t))

    async def run_served():
        # The same steps as `run`, the streams served by uvicorn.
        await sync_to_async(store)()
        served = Served(application)
        await _until(lambda: served.server.started)
        served.open(paths, 2)
        await _until(lambda: served.hellos >= 2)
        for _ in range(2):
            await tell_served(served, 2)
        if CPU:
            return await cpu_served(served)
        tracemalloc.start(FRAMES)
        gc.collect()
        before = tracemalloc.take_snapshot()
        served.open(paths, STREAMS)
        await _until(lambda: served.hellos >= 2 + STREAMS)
        for _ in range(BOARDS):
            await tell_served(served, 2 + STREAMS)
        gc.collect()
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
        top = [
            stat for stat in after.compare_to(before, "traceback") if stat.count_diff >= STREAMS / 2
        ]
        await served.stop()
        await streams.relay_stop()
        return 0, top

    async def cpu_served(served):
        clock = time.pthread_getcpuclockid(threading.get_ident())  # the loop's thread
        start = time.clock_gettime(clock)
        served.open(paths, STREAMS)
        await _until(lambda: served.hellos >= 2 + STREAMS)
        opened = time.clock_gettime(clock) - start
        told = []
        for _ in range(BOARDS):
            start = time.clock_gettime(clock)
            await tell_served(served, 2 + STREAMS)
            told.append(time.clock_gettime(clock) - start)
        await served.stop()
        await streams.relay_stop()
        return (opened, told), []

    async def tell_served(served, count):
        moved = served.moved
        await sync_to_async(store)()
        await _until(lambda: served.moved >= moved + count)

    async def run():
        await sync_to_async(store)()
        # Streams opened and told first: the imports, Django's and the process's
        # first caches are not any stream's.
        first = [Stream(application, path) for path in paths]
        await _until(lambda: all(s.events >= 1 for s in first))
        await tell(first, 2)
        tracemalloc.start(FRAMES)
        # N streams opened and told of a few boards, the other streams told too.
        # What is allocated at least once for every second stream is the streams';
        # what was allocated a few times (the parts read, the events encoded once
        # for all, the cache's copies) is the boards'.
        gc.collect()
        before = tracemalloc.take_snapshot()
        opened = [Stream(application, paths[n % 2]) for n in range(STREAMS)]
        await _until(lambda: all(s.events >= 1 for s in opened))  # the hello
        await tell(first + opened, BOARDS)
        gc.collect()  # what a request left in cycles is nobody's
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
        top = [
            stat for stat in after.compare_to(before, "traceback") if stat.count_diff >= STREAMS / 2
        ]
        pushed = sum(s.received for s in opened) / STREAMS
        for stream in first + opened:
            stream.left.set()
        await asyncio.gather(*(s.task for s in first + opened))
        await streams.relay_stop()
        return pushed, top

    if LOOP == "uvloop":
        import uvloop

        uvloop.install()
    pushed, top = asyncio.run(run_served() if SERVER else run())
    if CPU:
        opened, told = pushed
        print(
            f"The event loop's CPU time serving {STREAMS} streams (uvicorn, {SERVER}, {LOOP}, "
            f"proxy headers {'checked' if PROXY_HEADERS else 'left to Django'}): "
            f"{1000 * opened / STREAMS:.2f} ms a stream opened; a board told, "
            + ", ".join(f"{1e6 * t / STREAMS:.0f}" for t in told)
            + " µs a stream"
        )
        return
    held = sum(stat.size_diff for stat in top) / STREAMS
    sent = f"{pushed / 1024:.0f} KiB sent to each" if pushed else f"served by uvicorn, {SERVER}"
    print(
        f"An open stream's memory in the live process ({STREAMS} streams of a tournament "
        f"of {ENTRANTS:,} entrants, told of {BOARDS} boards, {sent})"
    )
    print(f"  {held:.0f} bytes per stream ({held / 1024:.1f} KiB; tracemalloc)")
    print("  allocated most at:")
    for stat in top[: int(os.environ.get("BENCH_STREAM_TOP", 6))]:
        print(f"    {stat.size_diff / STREAMS:8.0f} B a stream, {stat.count_diff} blocks")
        for frame in stat.traceback:
            print(f"      {frame.filename.removeprefix(str(ROOT) + '/')}:{frame.lineno}")


if __name__ == "__main__":
    if sys.argv[1:] == ["measure"]:
        _measure()
    elif sys.argv[1:2] == ["clients"]:
        asyncio.run(_clients(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]))
    else:
        main()
