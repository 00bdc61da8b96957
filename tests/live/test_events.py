"""The lines a carried part changed by (live/events.py): applied to the text
the page holds, they make the new text exactly, whatever the two texts; and which
stream gets them, which the whole part."""

import asyncio
import json
import threading
import uuid

from asgiref.sync import async_to_sync
from django.core.cache import cache
from hypothesis import given
from hypothesis import strategies as st

from live import events
from live.events import Carry, edits, event, patched

# Lines of a rendered part: few distinct ones, so that the texts share most lines
# (as two boards do), and some empty, as a template's blank lines.
line = st.sampled_from(["", "<tr>", "</tr>", "<td>1</td>", "<td>18</td>", "  <td>Ana</td>"])
text = st.lists(line, max_size=40).map("\n".join)


@given(text, text)
def test_the_edits_make_the_new_text_from_the_old(old, new):
    assert patched(old, edits(old, new)) == new


@given(text)
def test_an_unchanged_text_has_no_edits(old):
    assert edits(old, old) == []


def test_a_changed_line_is_carried_alone():
    old = "\n".join(f"<td>{n}</td>" for n in range(500))
    new = old.replace("<td>250</td>", "<td>18</td>")
    assert edits(old, new) == [[250, 251, ["<td>18</td>"]]]


def test_a_stream_gets_the_lines_changed_since_the_version_it_carried_else_the_whole():
    """Read through `event` as the stream reads it: the first carry whole, the next
    as changes from the version that stream got; a stream that missed a version (a
    burst of boards is one event, or it resumed a broken stream) gets the changes
    from the version it carried, as kept in the cache, and the whole part once that
    version is no longer kept."""
    rows = [f"<td>{n}</td>" for n in range(200)]
    texts = {1: "\n".join(rows), 2: "\n".join(rows).replace("<td>7<", "<td>18<")}
    texts[3] = texts[2].replace("<td>9<", "<td>21<")
    texts[4] = texts[3].replace("<td>11<", "<td>5<")
    name = f"tables-part:{uuid.uuid4().hex}"  # the process keeps what it read by name
    cache.set_many({f"{name}:{n}": text for n, text in texts.items()})
    carry = Carry("{}", {"tables": name})

    async def told():
        steady, late, later = {}, {}, {}
        first = decoded(await event("board", 1, carry, steady))
        second = decoded(await event("board", 2, carry, steady))
        await event("board", 1, carry, late)  # this one hears 1, then 3 only
        await event("board", 2, carry, later)  # and this one 2, then 4 only
        third_steady = decoded(await event("board", 3, carry, steady))
        third_late = decoded(await event("board", 3, carry, late))
        cache.delete(f"{name}:2")  # no longer kept
        fourth_later = decoded(await event("board", 4, carry, later))
        return first, second, third_steady, third_late, fourth_later

    first, second, third_steady, third_late, fourth_later = async_to_sync(told)()
    assert first["parts"] == {"tables": texts[1]}
    assert (second["parts"], second["changes"]["tables"]["from"]) == ({}, "1")
    assert patched(texts[1], second["changes"]["tables"]["edits"]) == texts[2]
    assert patched(texts[2], third_steady["changes"]["tables"]["edits"]) == texts[3]
    assert (third_late["parts"], third_late["changes"]["tables"]["from"]) == ({}, "1")
    assert patched(texts[1], third_late["changes"]["tables"]["edits"]) == texts[3]
    assert fourth_later["parts"] == {"tables": texts[4]} and "changes" not in fourth_later


def test_a_part_changed_throughout_is_carried_whole():
    old = "\n".join(f"<td>{n}</td>" for n in range(100))
    new = "\n".join(f"<td>{n} hands</td>" for n in range(100))
    name = f"screen-part:{uuid.uuid4().hex}"
    cache.set_many({f"{name}:1": old, f"{name}:2": new})
    carry = Carry("{}", {"screen": name})

    async def told():
        sent = {}
        await event("board", 1, carry, sent)
        return decoded(await event("board", 2, carry, sent))

    assert async_to_sync(told)()["parts"] == {"screen": new}


def decoded(raw: bytes) -> dict:
    kind, data = raw.decode().strip().split("\n")
    assert kind == "event: moved"
    return json.loads(data.removeprefix("data: "))


def test_a_stream_that_ends_while_the_read_is_under_way_ends_no_other_s(monkeypatch):
    """Every stream of the process told the same number waits for one read; one
    that ends (its client gone) meanwhile takes nothing from the others, and each
    gets its event after its own id line, the same bytes."""
    name = f"tables-part:{uuid.uuid4().hex}"
    cache.set(f"{name}:1", "<td>1</td>")
    started, release = threading.Event(), threading.Event()

    class Slow:
        def get_many(self, keys):
            started.set()
            release.wait(10)
            return cache.get_many(keys)

    monkeypatch.setattr(events, "cache", Slow())
    carry = Carry("{}", {"tables": name})

    async def told():
        waiting = [
            asyncio.ensure_future(event("board", 1, carry, {}, b"id: board=1\n")) for _ in range(50)
        ]
        await asyncio.get_running_loop().run_in_executor(None, started.wait, 10)
        waiting[0].cancel()
        release.set()
        got = await asyncio.gather(*waiting[1:])
        return waiting[0].cancelled(), got

    cancelled, got = async_to_sync(told)()

    assert cancelled
    assert len(got) == 49 and all(raw is got[0] for raw in got)
    ident, rest = got[0].split(b"\n", 1)
    assert ident == b"id: board=1"
    assert decoded(rest)["parts"] == {"tables": "<td>1</td>"}
