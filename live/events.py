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
per part and board in each process, against the version it read before; a stream
that missed that version (a burst of boards is one event) gets the part whole."""

from __future__ import annotations

import asyncio
import difflib
import json
import logging
import time
from dataclasses import dataclass, field
from typing import NamedTuple

from django.core.cache import cache

log = logging.getLogger(__name__)


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
    events: dict[frozenset, bytes] = field(default_factory=dict)


@dataclass
class _Kept:  # per event loop: per process, and per test
    reads: dict[tuple, tuple[float, asyncio.Future]] = field(default_factory=dict)
    last: dict[str, tuple[int, str, str, float]] = field(default_factory=dict)


_kept: dict[asyncio.AbstractEventLoop, _Kept] = {}


async def event(name: str, value: int, carry: Carry, sent: dict[str, str]) -> bytes:
    """The event ("moved") telling a stream that counter ``name`` moved to
    ``value``, with what it carries, encoded. ``sent``: the stream's own record, by
    part, of the version it carried last, which this updates."""
    shown = carry.version.format(value)
    wanted = tuple(sorted(carry.parts.items()))
    kept = _kept.setdefault(asyncio.get_running_loop(), _Kept())
    now = time.monotonic()
    for old in [k for k, (at, _) in kept.reads.items() if now - at > CARRIED_SECONDS]:
        del kept.reads[old]
    found = kept.reads.get((name, value, wanted))
    if found is None:
        future = asyncio.ensure_future(_read(kept, value, shown, wanted))
        found = kept.reads[(name, value, wanted)] = (now, future)
    # Shielded: a stream that ends while it waits must not end the others' read.
    read = await asyncio.shield(found[1])
    as_edits = frozenset(part for part, (start, _) in read.edits.items() if sent.get(part) == start)
    data = read.events.get(as_edits)
    if data is None:
        data = read.events[as_edits] = _encode(name, value, read, as_edits)
    for part in carry.parts:
        if part in read.texts:
            sent[part] = read.shown
        else:  # the page asks for it: what it then holds, this stream does not know
            sent.pop(part, None)
    return data


def _encode(name: str, value: int, read: _Read, as_edits: frozenset) -> bytes:
    data = {"counter": name, "version": value}
    if read.texts:
        data["shown"] = read.shown
        data["parts"] = {p: text for p, text in read.texts.items() if p not in as_edits}
        changes = {p: {"from": read.edits[p][0], "edits": read.edits[p][1]} for p in as_edits}
        if changes:
            data["changes"] = changes
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
