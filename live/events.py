"""What a live stream's event carries besides the counter's new number (`push`):
cache entries that whoever moved the counter kept under its new number before
the move (the public board's parts, `tournaments.public.parts`). The process
holding the streams reads them once for all its streams and encodes each event
once.

A part is carried whole the first time a stream carries it; after that, as the
lines that changed since the version the same stream carried last (`edits`),
which the page applies to the text it holds (static/js/live.js, `patched` here).
A championship's round of 500 tables is 106 KiB and changes by a few tables a
board; carried whole to 200 spectators every 1.5 s it made 25 MB a second, which
every spectator's phone had to receive and read. The edits are worked out once
per part and board in each process, against the version it read before. A stream
that carried another version — it missed one (a burst of boards is one event), or
it resumes a broken stream from its `Last-Event-ID` (`live.streams`) — gets the
edits from the version it carried, worked out once per process for every stream
that carried it too, against that version's text as the builder kept it in the
cache: that is the history a resumed stream is caught up from, as long as the
builder's kept parts last (`PUBLIC_CACHE_SECONDS`). A version no longer kept, or
edits as long as half the part, and the part goes whole."""

from __future__ import annotations

import asyncio
import difflib
import functools
import json
import logging
import time
from dataclasses import dataclass, field
from typing import NamedTuple

from django.core.cache import caches

log = logging.getLogger(__name__)


class _Shared:
    """The cache as this process's streams read it: one client, and one pool of
    connections to Redis, for all of them. Django's ``cache`` is one per context
    (asgiref's Local): each stream, each opening and each read in a thread of its
    own (``asyncio.to_thread`` copies the context) made a new client and a new
    connection, and a crowd of 5,000 opening in ten seconds kept `live` busy
    connecting to Redis (py-spy: three quarters of its time)."""

    _found = None

    def __getattr__(self, name):
        if _Shared._found is None:
            _Shared._found = caches.create_connection("default")
        return getattr(_Shared._found, name)


cache = _Shared()


class Carry(NamedTuple):
    """What the events of one counter carry: ``parts`` ({the page's name for it:
    its cache name}) read under ``f"{name}:{version}"``, the version being
    ``version`` (a form with ``{}``) filled in with the counter's new number."""

    version: str
    parts: dict[str, str]


#: A carried event read for one stream is kept this long for the others of the
#: process that are told the same number (they are told within a second).
CARRIED_SECONDS = 30
#: The last text of a part is kept this long to carry the next one as edits (a
#: board moves every few seconds while hands come in).
LAST_SECONDS = 900
#: Edits as long as this share of the whole text or longer save too little: the
#: part is carried whole.
EDITS_AT_MOST = 0.5


@dataclass
class _Read:
    """One counter's number, read for the process's streams: each part's text
    under ``shown`` (the version), and the edits from the version read before."""

    shown: str
    texts: dict[str, str]
    edits: dict[str, tuple[str, list]]  # part → (the version they start from, edits)
    # by the parts carried as edits (and the id line before them)
    events: dict[frozenset | tuple, bytes] = field(default_factory=dict)


@dataclass
class _Kept:  # per event loop: per process, and per test
    reads: dict[tuple, tuple[float, asyncio.Future]] = field(default_factory=dict)
    last: dict[str, tuple[int, str, str, float]] = field(default_factory=dict)
    # (cache name, from, to) → the edits between two kept versions, or None
    since: dict[tuple, tuple[float, asyncio.Future]] = field(default_factory=dict)


_kept: dict[asyncio.AbstractEventLoop, _Kept] = {}


async def event(
    name: str, value: int, carry: Carry, sent: dict[str, str], ident: bytes = b""
) -> bytes:
    """The event ("moved") telling a stream that counter ``name`` moved to
    ``value``, with what it carries, encoded, after its id line ``ident``. ``sent``:
    the stream's own record, by part, of the version it carried last, which this
    updates. The bytes are shared by every stream of the process told the same."""
    shown = carry.version.format(value)
    wanted = tuple(sorted(carry.parts.items()))
    kept = _kept.setdefault(asyncio.get_running_loop(), _Kept())
    read = await _shared(kept.reads, (name, value, wanted), _read, kept, value, shown, wanted)
    changes = {}
    for part, key in wanted:
        start = sent.get(part)
        if part not in read.texts or start is None or start == read.shown:
            continue
        if part in read.edits and read.edits[part][0] == start:
            changes[part] = read.edits[part]
            continue
        text = read.texts[part]
        found = await _shared(kept.since, (key, start, shown), _since, key, start, text)
        if found is not None:
            changes[part] = (start, found)
    as_edits = frozenset((part, start) for part, (start, _) in changes.items())
    # One write per event and stream: the id and the event joined once, not a
    # copy of the event for each stream nor two writes.
    data = read.events.get((as_edits, ident))
    if data is None:
        data = read.events.get(as_edits)
        if data is None:
            data = read.events[as_edits] = _encode(name, value, read, changes)
        data = read.events[as_edits, ident] = ident + data
    for part in carry.parts:
        if part in read.texts:
            sent[part] = read.shown
        else:  # the page asks for it: what it then holds, this stream does not know
            sent.pop(part, None)
    return data


async def _shared(found: dict, key: tuple, work, *args):
    """What ``work(*args)`` makes, made once for every stream of the process that asks
    for ``key`` within `CARRIED_SECONDS`."""
    now = time.monotonic()
    made = found.get(key)
    if made is not None and now - made[0] <= CARRIED_SECONDS and made[1].done():
        return made[1].result()  # (every stream but the first: no future of its own)
    if made is None or now - made[0] > CARRIED_SECONDS:
        for old in [k for k, (at, _) in found.items() if now - at > CARRIED_SECONDS]:
            del found[old]
        made = found[key] = (now, asyncio.ensure_future(work(*args)))
    # A future of each stream's own, told when the read is made: a stream that
    # ends while it waits must not end the others' read. (Not `asyncio.shield`:
    # a shield given up takes its callback back from the read's list, one scan
    # of every stream waiting; 5,000 streams closing together while a read was
    # under way kept `live`'s loop busy for seconds.)
    waiter = asyncio.get_running_loop().create_future()
    made[1].add_done_callback(functools.partial(_pass_on, waiter))
    return await waiter


def _pass_on(waiter: asyncio.Future, made: asyncio.Future) -> None:
    if waiter.done():  # (the stream ended meanwhile)
        return
    if made.cancelled():
        waiter.cancel()
    elif made.exception() is not None:
        waiter.set_exception(made.exception())
    else:
        waiter.set_result(made.result())


async def _since(key: str, start: str, text: str) -> list | None:
    """The edits from the part's text under the version ``start`` (as the builder
    kept it) to ``text``; None when that version is no longer kept, or the edits
    would save too little."""
    try:
        old = await asyncio.to_thread(cache.get, f"{key}:{start}")
    except Exception:
        log.warning("push: the cache is away, %s carried whole", key, exc_info=True)
        return None
    if not isinstance(old, str):
        return None
    found = await asyncio.to_thread(edits, old, text)
    return found if len(json.dumps(found)) < EDITS_AT_MOST * len(text) else None


def _encode(name: str, value: int, read: _Read, changes: dict) -> bytes:
    data = {"counter": name, "version": value}
    if read.texts:
        data["shown"] = read.shown
        data["parts"] = {p: text for p, text in read.texts.items() if p not in changes}
        if changes:
            data["changes"] = {p: {"from": start, "edits": e} for p, (start, e) in changes.items()}
    return f"event: moved\ndata: {json.dumps(data)}\n\n".encode()


async def _read(kept: _Kept, value: int, shown: str, wanted: tuple) -> _Read:
    keys = {part: f"{key}:{shown}" for part, key in wanted}
    try:
        # Django's cache is synchronous: read in a thread, never on the loop.
        found = await asyncio.to_thread(cache.get_many, list(keys.values()))
    except Exception:  # the cache away: the page asks, as with nothing carried
        log.warning("push: the cache is away, version %s carried nothing", shown, exc_info=True)
        found = {}
    texts = {part: found[key] for part, key in keys.items() if isinstance(found.get(key), str)}
    read = _Read(shown, texts, {})
    now = time.monotonic()
    for old in [k for k, (*_, at) in kept.last.items() if now - at > LAST_SECONDS]:
        del kept.last[old]
    for part, key in wanted:
        if part not in texts:
            continue
        before = kept.last.get(key)
        if before is None or before[0] < value:
            kept.last[key] = (value, shown, texts[part], now)
        if before is not None and before[0] < value and before[1] != shown:
            # Worked out in a thread, like the read: the loop goes on meanwhile.
            found = await asyncio.to_thread(edits, before[2], texts[part])
            if len(json.dumps(found)) < EDITS_AT_MOST * len(texts[part]):
                read.edits[part] = (before[1], found)
    return read


def edits(old: str, new: str) -> list[list]:
    """How ``new`` is made from ``old``, line by line: ``[start, end, lines]``, the
    lines ``start`` to ``end`` of ``old`` (counted from 0, the end not included)
    replaced by ``lines``, in order."""
    a, b = old.split("\n"), new.split("\n")
    matcher = difflib.SequenceMatcher(None, a, b)
    return [[i1, i2, b[j1:j2]] for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


def patched(old: str, found: list[list]) -> str:
    """``old`` with ``edits`` applied, as the page applies them (static/js/live.js)."""
    lines, made, at = old.split("\n"), [], 0
    for start, end, new in found:
        made += lines[at:start]
        made += new
        at = end
    return "\n".join(made + lines[at:])
