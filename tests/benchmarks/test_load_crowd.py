"""`make load`'s crowd reads its streams without reading each event's JSON whole
(benchmarks/load_crowd.py): what it counts — streams held, refused and ended, events,
their bytes, the numbers heard, the parts a page would ask for — is what reading
every event whole counts, on the same bytes, however they come in pieces."""

import asyncio
import json
import random

from benchmarks import load_crowd
from live.events import _encode, _Read
from live.streams import _event, told_id

HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\r\n"
# A part's text as a page holds it: quotes, new lines, and what looks like the
# event's own keys inside its strings.
TABLES = '<table class="tables">\n<tr><td data-x=\'{"standings": 1}\'>, "standings": </td></tr>\n'
STANDINGS = '<ol>\n<li>Ana "the \\"knock\\"" {"tables": 2}</li>\n</ol>\n'


def moved(version: int, texts: dict, changes: set = frozenset()) -> bytes:
    read = _Read(str(version), texts, {})
    edits = {part: (str(version - 1), [[1, 2, ["<tr>", "</tr>"]]]) for part in changes}
    return told_id({"board": version}, "m") + _encode("board", version, read, edits)


def stream() -> list[bytes]:
    """A public page's stream, as `live` writes it: its events, one by one."""
    return [
        HEAD + b"retry: 1500\n" + told_id({"board": 1}, "m") + _event("hello", {"versions": {}}),
        moved(2, {"tables": TABLES, "standings": STANDINGS}),
        moved(3, {"tables": TABLES, "standings": STANDINGS}, changes={"tables"}),
        moved(4, {"tables": TABLES, "standings": STANDINGS}, changes={"tables", "standings"}),
        moved(5, {}),  # the cache away: nothing carried
        moved(6, {"standings": STANDINGS}),
        b": waiting\n\n",
        _event("ping", {}),
        # A round of many tables, carried whole: longer than 64 KiB.
        moved(7, {"tables": TABLES * 1500, "standings": STANDINGS}, changes={"standings"}),
        moved(8, {"tables": TABLES * 3, "standings": STANDINGS * 400}),
        _event("hello", {"versions": {"board": "8"}, "resumed": True}),
        moved(123456789012345678, {"tables": TABLES}, changes={"tables"}),
    ]


def read_whole(data: bytes) -> tuple[dict, list[int]]:
    """What the crowd counted when it read every event's JSON whole."""
    figures = {"held": 1, "events": 0, "bytes": 0, "asks": 0}
    heard = []
    rest = data.split(b"\r\n\r\n", 1)[1]
    while b"\n\n" in rest:
        end = rest.index(b"\n\n") + 2
        block, rest = rest[:end], rest[end:]
        if b"event: hello" in block:
            hello = json.loads(block[block.index(b"data: ") + 6 :])
            figures["asks"] += 0 if "board" in hello.get("versions", {}) else 2
        if b"event: moved" not in block:
            continue
        event = json.loads(block[block.index(b"data: ") + 6 :])
        figures["events"] += 1
        figures["bytes"] += len(block)
        heard.append(event["version"])
        carried = {*event.get("parts", ()), *event.get("changes", ())}
        figures["asks"] += len({"tables", "standings"} - carried)
    return figures, heard


def counted(crowd: load_crowd.Hold) -> tuple[dict, list[int]]:
    found = {k: crowd.figures[k] for k in ("held", "events", "bytes", "asks")}
    return found, [version for version, _ in crowd.heard]


class Transport(asyncio.Transport):
    def __init__(self):
        super().__init__()
        self.written, self.closed = b"", False

    def write(self, data):
        self.written += data

    def close(self):
        self.closed = True


def arrived(client, piece: bytes):
    """``piece`` read from the client's stream, as asyncio reads it."""
    while piece:
        buffer = client.get_buffer(-1)
        size = min(len(buffer), len(piece))
        buffer[:size] = piece[:size]
        buffer[size : size + 2] = b"\n\n"[: len(buffer) - size]  # what another stream left
        client.buffer_updated(size)
        piece = piece[size:]


def test_the_events_count_as_read_whole_however_they_come_in_pieces():
    data = b"".join(stream())
    expected = read_whole(data)
    assert expected[0]["events"] == 8 and expected[0]["asks"] == 2 + 0 + 0 + 0 + 2 + 1 + 0 + 0 + 1
    assert max(map(len, stream())) > 64 * 1024
    pieces = random.Random(7)

    async def read(sizes):
        # Two clients, each read in turn into the process's one buffer.
        crowd = load_crowd.Hold(until=asyncio.get_running_loop().time() + 60)
        clients = [load_crowd.Spectator(b"GET / HTTP/1.0\r\n\r\n", crowd) for _ in range(2)]
        for client in clients:
            client.connection_made(Transport())
        at = 0
        for size in sizes:
            for client in clients:
                arrived(client, data[at : at + size])
                assert len(client.buffer) < 250 * 1024  # only the event on its way is kept
            at += size
        assert at >= len(data)
        assert not any(c.transport.closed or c.buffer for c in clients)
        return counted(crowd)

    cuttings = {
        "whole": [len(data)],  # (in reads of the buffer's length)
        "as events": map(len, stream()),
        "in bytes": [1] * len(data),
        "at random": [pieces.randint(1, 3000) for _ in range(len(data) // 1000)],
        "ends split": [len(b"".join(stream()[:3])) - 1, 1, 1, len(data)],
    }
    for how, sizes in cuttings.items():
        figures, heard = asyncio.run(read(list(sizes)))
        assert figures == {k: 2 * n for k, n in expected[0].items()}, how
        assert sorted(heard) == sorted(expected[1] * 2), how


def test_a_crowd_holds_its_streams_to_their_end_and_counts_them():
    events = stream()

    async def scenario():
        requests = []

        async def serve(reader, writer):
            requests.append(await reader.readuntil(b"\r\n\r\n"))
            for n, event in enumerate(events):
                if n == 2:  # in many small pieces
                    for at in range(0, len(event), 7):
                        writer.write(event[at : at + 7])
                        await writer.drain()
                else:
                    writer.write(event)
                    await writer.drain()
            writer.close()  # the stream ends early

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        until = asyncio.get_running_loop().time() + 60
        async with server:
            crowd = await load_crowd.hold("127.0.0.1", port, "/t/x/events/", 40, 3, 0, until)
        return crowd, requests

    crowd, requests = asyncio.run(scenario())
    figures, heard = read_whole(b"".join(events))
    assert crowd.figures == {
        "held": 3, "refused": 0, "ended": 3, "events": 3 * figures["events"],
        "bytes": 3 * figures["bytes"], "asks": 3 * figures["asks"],
    }  # fmt: skip
    assert sorted(v for v, _ in crowd.heard) == sorted(heard * 3)
    assert all(r.startswith(b"GET /t/x/events/ HTTP/1.0\r\n") for r in requests)
    assert {r.split(b"X-Forwarded-For: ")[1].split(b"\r\n")[0] for r in requests} == {
        b"10.0.0.40", b"10.0.0.41", b"10.0.0.42",
    }  # fmt: skip


def test_a_stream_not_answered_with_200_or_not_opened_is_refused():
    async def scenario():
        async def serve(reader, writer):
            await reader.readuntil(b"\r\n\r\n")
            writer.write(b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\n\r\n")
            await writer.drain()
            await reader.read()  # until the client lets go

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        until = asyncio.get_running_loop().time() + 60
        async with server:
            answered = await load_crowd.hold("127.0.0.1", port, "/", 0, 2, 0, until)
        # (The server is closed now: nothing listens on its port.)
        unopened = await load_crowd.hold("127.0.0.1", port, "/", 0, 1, 0, until)
        return answered.figures, unopened.figures

    answered, unopened = asyncio.run(scenario())
    assert answered == {"held": 0, "refused": 2, "ended": 0, "events": 0, "bytes": 0, "asks": 0}
    assert unopened == {"held": 0, "refused": 1, "ended": 0, "events": 0, "bytes": 0, "asks": 0}
