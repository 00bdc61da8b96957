"""Live push: a page keeps one open stream (Server-Sent Events) and is told when
one of the counters it shows moves (`scoring.changes`, after the commit); it
then fetches what changed exactly as its poll does. An event holds a name the
page chose ("seat", "scores", "board") and the counter's new number, nothing
else: no token, no score, nothing a stranger could use.

An event may also carry what the page would then fetch (`carried`): cache entries
that whoever moved the counter kept under its new number before the move (the
public board's parts, `tournaments.public.parts`), whole or as the lines changed
since the stream carried them last, so a page that only listens costs the web
processes nothing; what is not in the cache the page fetches as before.

Server-Sent Events rather than WebSockets: the pages only listen, so one plain
GET that stays open is enough. It passes the proxy like any answer, the
browser's EventSource reconnects by itself, and Django's own async streaming
serves it under an ASGI server (uvicorn) without Channels or a second protocol.

Delivery from the process that committed to the processes holding the streams:
- with ``REDIS_URL``, Redis publish/subscribe: every bump is published on one
  channel; each serving process keeps one subscription and hands each message to
  its own open streams. A stream never touches the database, nor Redis but
  through the cache for what its events carry.
- without it (the embedded default), the process that committed is the one that
  serves: the bump is handed straight to its streams, in memory.

Each event that tells of a move has an id naming the number of each counter the
page was told last (``board=123``; the hello's, the numbers it found), marked
with what the stream carries (``@`` and `carried_mark`). A stream
that ends, by its time or cut, is opened again by the browser with that id
(``Last-Event-ID``): the new stream resumes from it, tells at once of every counter
that moved since, carrying the edits from the version the page holds (or the part
whole, `live.events`), and its hello says so (``resumed``), so the page asks
nothing on reopening.

A stream lasts `STREAM_SECONDS`, then the browser opens a new one (and the seat
guard and the page's checks run again). Where no stream can be held (a WSGI
server: gunicorn's sync workers, runserver, the tests' live server), the answer
is a stream of one event, "poll", and the page polls for good, as it does while
nothing arrives at all (a proxy that buffers). A stream refused otherwise (a
proxy's 502 or 503 while `live` restarts) is asked for again after a wait that
grows to a minute (static/js/push.js)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import json
import logging
import random
import re
import threading
import weakref
import zlib
from collections.abc import Callable

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpResponse
from django.utils import translation

from live import events
from live.events import Carry

log = logging.getLogger(__name__)

#: A ping this often keeps proxies (Caddy, nginx: 60 s) from closing an idle
#: stream, and lets the page see that the stream still speaks.
PING_SECONDS = 15
#: A stream ends after about this long (a tenth more or less); the browser
#: reconnects after RETRY_MS and up to RETRY_SPREAD_MS more. Both are spread so
#: that streams opened together, or cut together by a worker's death, do not all
#: come back in the same second: a thousand pages at once took every database
#: connection of their checks, and many were answered 503.
STREAM_SECONDS = 600
RETRY_MS = 3000
RETRY_SPREAD_MS = 5000
#: A stream the browser gave up (the proxy's 502 or 503 while `live` restarts: an
#: EventSource does not retry an answer that is not a stream) is opened again by
#: the page after one to two times this many seconds, the wait doubling with each
#: failure up to a minute (static/js/push.js). Told to the page in the first event.
REOPEN_SECONDS = 1


# --------------------------------------------------------------------------- this process's streams


class Listener:
    """One open stream: the counters it follows, and the latest number of each
    that moved since the stream last wrote (a burst of bumps is one event).

    Waited on through one bare future and a timer (`wait`), not an asyncio.Event
    under `asyncio.wait_for`: those cost a task, a coroutine and a queue of
    waiters for every wait, about 1.5 KiB of each open stream."""

    __slots__ = ("__weakref__", "loop", "moved", "names", "waiter")

    def __init__(self, keys: dict[str, str]):
        self.names = {key: name for name, key in keys.items()}
        self.loop = asyncio.get_running_loop()
        self.moved: dict[str, int] = {}
        self.waiter: asyncio.Future | None = None

    def note(self, key: str, value: int) -> None:  # on the listener's own loop
        self.moved[key] = value
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(True)

    async def wait(self, seconds: float) -> bool:
        """Whether a counter moved (now or within ``seconds``)."""
        if self.moved:
            return True
        waiter = self.waiter = self.loop.create_future()
        timer = self.loop.call_later(seconds, _expire, waiter)
        try:
            return await waiter
        finally:
            timer.cancel()
            self.waiter = None


def _expire(waiter: asyncio.Future) -> None:
    if not waiter.done():
        waiter.set_result(False)


class Hub:
    """The open streams of this process, by counter key. Bumps come from any
    thread (a sync view, a task); each is handed to the stream's own loop."""

    def __init__(self):
        self._lock = threading.Lock()
        self._by_key: dict[str, weakref.WeakSet[Listener]] = {}

    def add(self, listener: Listener) -> None:
        with self._lock:
            for key in listener.names:
                self._by_key.setdefault(key, weakref.WeakSet()).add(listener)

    def remove(self, listener: Listener) -> None:
        with self._lock:
            for key in listener.names:
                found = self._by_key.get(key)
                if found is not None:
                    found.discard(listener)
                    if not found:
                        del self._by_key[key]

    def deliver(self, key: str, value: int) -> None:
        with self._lock:
            listeners = list(self._by_key.get(key, ()))
        try:
            here = asyncio.get_running_loop()
        except RuntimeError:  # a sync view's thread, a task
            here = None
        for listener in listeners:
            if listener.loop is here:
                # From the Redis subscription, on the streams' own loop: told at
                # once. Handing each over "threadsafe" wakes the loop through its
                # pipe once per stream: py-spy found a fifth of the loop's time
                # there with 2,500 streams a process.
                listener.note(key, value)
                continue
            # A closed loop (RuntimeError): the stream is gone.
            with contextlib.suppress(RuntimeError):
                listener.loop.call_soon_threadsafe(listener.note, key, value)

    def count(self) -> int:
        with self._lock:
            return len({id(x) for found in self._by_key.values() for x in found})


hub = Hub()


# --------------------------------------------------------------------------- publishing


def channel() -> str:
    """The Redis channel: one per site (the cache's key prefix), so two sites on
    one Redis, or the tests, never hear each other."""
    prefix = settings.CACHES["default"].get("KEY_PREFIX", "")
    return f"{prefix}:push"


_publishers: dict[str, object] = {}


def _publisher(url: str):
    if url not in _publishers:
        import redis  # optional: only with a REDIS_URL; imported when first used

        _publishers[url] = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
    return _publishers[url]


def publish(key: str, value: int) -> None:
    """Tells every stream following ``key`` that it moved to ``value``. Called by
    `live.counters.bump`, after the commit. A failure is logged, never raised: a hand is
    stored whether or not anybody hears of it at once (the pages fall back to
    polling)."""
    if not settings.REDIS_URL:
        hub.deliver(key, value)
        return
    try:
        _publisher(settings.REDIS_URL).publish(channel(), f"{value} {key}")
    except Exception:
        log.warning("push unavailable: %s not published", key, exc_info=True)


# --------------------------------------------------------------------------- subscribing (Redis)


class Relay:
    """This process's one subscription (per event loop): started by the first
    stream, kept for the next ones. ``ready`` is set while it is subscribed."""

    def __init__(self, url: str, name: str):
        self.ready = asyncio.Event()
        self.task = asyncio.get_running_loop().create_task(self._run(url, name))

    async def _run(self, url: str, name: str) -> None:
        """Hands every published bump to this process's streams; after a lost
        connection (Redis restarted) it subscribes again."""
        import redis.asyncio as aioredis  # optional: only with a REDIS_URL

        while True:
            client = aioredis.Redis.from_url(url, socket_connect_timeout=1)
            try:
                async with client.pubsub(ignore_subscribe_messages=True) as pubsub:
                    await pubsub.subscribe(name)
                    self.ready.set()
                    async for message in pubsub.listen():
                        value, _, key = message["data"].decode().partition(" ")
                        hub.deliver(key, int(value))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("push: Redis subscription lost, subscribing again", exc_info=True)
            finally:
                self.ready.clear()
                await client.aclose()
            await asyncio.sleep(1)


_relays: dict[asyncio.AbstractEventLoop, Relay] = {}


def _relay() -> Relay | None:
    if not settings.REDIS_URL:
        return None
    loop = asyncio.get_running_loop()
    relay = _relays.get(loop)
    if relay is None or relay.task.done():
        relay = _relays[loop] = Relay(settings.REDIS_URL, channel())
    return relay


async def relay_stop() -> None:
    """Ends this event loop's subscription (a server's or a test's loop ending)."""
    relay = _relays.pop(asyncio.get_running_loop(), None)
    if relay is not None:
        relay.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await relay.task


# --------------------------------------------------------------------------- the answer

#: How a view hands the stream to `asgi` below: the counters, in a header that
#: never leaves the process.
MARK = "X-Knock-Stream"


def stream(
    request, counters: dict[str, str], settle: float = 0, carry: dict[str, Carry] | None = None
) -> HttpResponse:
    """The event stream of a page that shows ``counters`` (the name the page
    knows → the counter's cache key). ``settle``: for a counter that moves more
    often than what the page shows, the seconds after which a change is surely
    shown, told to the page in the first event (static/js/push.js then asks at
    most that often). 0 for every page today: the public tournament pages follow
    the stored board's counter, which moves only after a board is stored.
    ``carry``: by the page's name of a counter, what its events carry.

    The view has done its checks (the seat guard, the login, the 404s) when it
    calls this; the stream itself is served by `asgi`, after Django has finished
    with the request."""
    if not isinstance(request, ASGIRequest):
        # A sync server would hold a whole worker per stream. It says so in the
        # stream's own words, one event and the end, and the page polls for good:
        # the status of an answer that is not a stream (a 204 as much as a proxy's
        # 503) is hidden from the page, which would only try again and again.
        return HttpResponse(_event("poll", {}), content_type="text/event-stream; charset=utf-8")
    response = HttpResponse()
    carried = {name: found._asdict() for name, found in (carry or {}).items() if found.parts}
    # The browser sends the header when it reconnects by itself; a page that opens
    # a new stream itself names the id in the address (static/js/push.js).
    ident = request.headers.get("Last-Event-ID") or request.GET.get("last-event-id", "")
    mark = carried_mark(carried)
    told = last_told(ident, counters, mark)
    handed = {"counters": counters, "settle": settle, "carry": carried, "told": told, "mark": mark}
    response[MARK] = json.dumps(handed)
    return response


def carried_mark(carried: dict) -> str:
    """What a stream's events carry, in a few characters for its ids: the parts'
    cache names hold the page's language, the standings' sort and page. A stream
    reopened to carry other parts (the language changed meanwhile) does not resume
    from an id of the old ones: their changed lines would not fit the text held."""
    if not carried:
        return ""
    return f"{zlib.crc32(json.dumps(carried, sort_keys=True).encode()):08x}"


def last_told(ident: str, counters: dict[str, str], mark: str = "") -> dict[str, int]:
    """By counter name, the numbers an event's id (`told_id`) says the page was
    told; nothing unless it names every counter of the stream and what it carries
    (an id of another page's stream, or none: the page is told nothing it missed,
    and asks)."""
    ident, _, its_mark = ident.partition("@")
    if its_mark != mark:
        return {}
    items = ident.split(",")
    if len(items) != len(counters):
        return {}
    told = {}
    for item in items:
        name, _, number = item.partition("=")
        # (A counter's number is the clock's nanoseconds at most: 19 digits.)
        if name in counters and number.isascii() and number.isdigit() and len(number) < 21:
            told[name] = int(number)
    return told if told.keys() == counters.keys() else {}


def told_id(told: dict[str, int], mark: str) -> bytes:
    """The id line of an event: what the page was told of each counter (and the
    mark of what the stream carries, `carried_mark`)."""
    ident = ",".join(f"{name}={told[name]}" for name in sorted(told))
    return f"id: {ident}@{mark}\n".encode() if mark else f"id: {ident}\n".encode()


#: The streams opened without Django (`open_directly`): a path's pattern, its
#: opener, and what is told when Django opened one (or None).
_openers: list[tuple[re.Pattern, Callable, Callable | None]] = []


def open_directly(pattern: str, opener: Callable, passed: Callable | None = None) -> None:
    """Streams on a path that matches ``pattern`` are opened by
    ``opener(request, **groups)`` without Django's middleware, in the process's
    small pool of threads: it returns what `stream` returns, or None, and then
    Django answers as for any stream (its checks, a 404). For a page anyone may
    see whose opening reads only the cache (the public tournament pages):
    Django under ASGI starts a thread for each request and runs every middleware
    in it, and a crowd of 5,000 opening their pages in ten seconds kept so many
    threads busy that a `live` worker's loop missed gunicorn's heartbeat for 30 s
    and was killed, with all its streams.

    ``passed(**groups)``, when given, is called (in the pool too) after Django
    handed a stream over on such a path: the view's checks passed, and what lets
    the opener serve the next ones without them may be kept (a seat's stream,
    `scoring.seat_stream`)."""
    if all(known is not opener for _, known, _ in _openers):
        _openers.append((re.compile(pattern), opener, passed))


async def _opened(scope) -> list | None:
    """What `_serve` needs of a stream opened directly (`_served`), or None."""
    for pattern, opener, _ in _openers:
        found = pattern.fullmatch(scope["path"])
        if found is not None and scope["method"] == "GET":
            request = ASGIRequest(scope, io.BytesIO())
            # In the pool's thread's own context, not a copy of the request's: what
            # asgiref keeps per context (Django's cache client, with its connection
            # to Redis) is then made once per thread, not once per opening.
            work = functools.partial(_open, opener, request, found.groupdict())
            try:
                response = await asyncio.get_running_loop().run_in_executor(None, work)
            except Exception:  # Django answers (and logs) it
                log.warning("a stream not opened directly: %s", scope["path"], exc_info=True)
                return None
            if response is None:
                return None
            given = [(k.encode(), v.encode()) for k, v in response.items()]
            return _served(given, response[MARK].encode())
    return None


async def _passed(scope) -> None:
    """Tells the opener of the path (`open_directly`'s ``passed``) that Django
    handed a stream over on it."""
    for pattern, _, passed in _openers:
        found = pattern.fullmatch(scope["path"])
        if found is not None and passed is not None:
            work = functools.partial(passed, **found.groupdict())
            try:
                await asyncio.get_running_loop().run_in_executor(None, work)
            except Exception:  # the next opening goes through Django again
                log.warning("a stream's opening not kept: %s", scope["path"], exc_info=True)
            return


def _open(opener, request, groups):
    # The page's language, as Django's LocaleMiddleware would find it: the parts a
    # stream carries are kept per language.
    with translation.override(translation.get_language_from_request(request)):
        return opener(request, **groups)


def asgi(app):
    """Wraps Django's ASGI application: a path ending in ``/events/`` is answered
    by Django first (its middleware, the view's checks), unless it is opened
    directly (`open_directly`); when the view handed over a stream, it is served
    here, in plain asyncio. Django under ASGI keeps a thread for each request its
    sync middleware touched until the answer ends: a stream left inside Django
    would hold one thread for as long as the page is open."""

    async def application(scope, receive, send):
        if scope["type"] != "http" or not scope["path"].endswith("/events/"):
            return await app(scope, receive, send)
        served = await _opened(scope)
        if served is None:
            served = []

            async def hold(message):
                if message["type"] == "http.response.start":
                    for name, value in message.get("headers", []):
                        if name.lower() == MARK.lower().encode():
                            served[:] = _served(message["headers"], value)
                            return
                if served:
                    return  # the view's empty body
                await send(message)

            # Django answers in a task of its own: what it leaves in the context (the
            # request's locals, a database connection's wrapper: 5 KiB) goes with that
            # task, not with the stream, which lasts ten minutes.
            await asyncio.ensure_future(app(scope, receive, hold))
            del hold
            if served:
                await _passed(scope)
        if served:
            await _serve(served, receive, send)

    return application


#: The views' hand-overs, decoded once for all the streams that get the same one (a
#: room of phones on one page): each stream keeps what it was handed for as long as
#: it lasts, and never changes it.
_hand_overs: dict[bytes, dict] = {}


def _decoded(value: bytes) -> dict:
    found = _hand_overs.get(value)
    if found is None:
        if len(_hand_overs) >= 1000:  # (at most this many kinds of page at once)
            _hand_overs.clear()
        found = json.loads(value)
        found["carry"] = {name: Carry(**carry) for name, carry in found["carry"].items()}
        _hand_overs[value] = found
    return found


def _served(given: list[tuple[bytes, bytes]], value: bytes) -> list:
    """The stream's first message (the view's headers, not the hand-over's mark,
    as an event stream's) and what the view handed over (``value``, `_decoded`)."""
    dropped = (MARK.lower().encode(), b"content-type", b"content-length", b"cache-control")
    headers = [(k, v) for k, v in given if k.lower() not in dropped]
    headers += [
        (b"content-type", b"text/event-stream; charset=utf-8"),
        (b"cache-control", b"no-cache, no-store"),
        # nginx and others buffer an answer unless told not to (Caddy: docker/Caddyfile).
        (b"x-accel-buffering", b"no"),
    ]
    return [{"type": "http.response.start", "status": 200, "headers": headers}, _decoded(value)]


async def _serve(served: list, receive, send) -> None:
    # ``served`` is emptied: the callers' frames last as long as the stream, and a
    # stream keeps only what it tells (not the view's answer, nor its headers once
    # sent), and the decoded hand-over it shares with other streams.
    start, handed = served
    served.clear()
    await send(start)
    del start
    counters, settle, carry = handed["counters"], handed["settle"], handed["carry"]
    told, mark = dict(handed["told"]), handed["mark"]
    del handed
    # The events are written in this task; one more waits for the client to go
    # and then ends this one: a task and a future fewer for each open stream than
    # two tasks under `asyncio.wait`.
    this = asyncio.current_task()
    gone = asyncio.ensure_future(_gone(receive, this))
    told_events = _events(counters, settle, carry, told, mark)
    try:
        async for chunk in told_events:
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})
    except OSError:
        pass  # a client gone mid-write: as a disconnect
    except asyncio.CancelledError:
        if not gone.done() or this.cancelling() > 1:
            raise  # cancelled from outside (the server stopping): so be it
        this.uncancel()  # the client went
    finally:
        gone.cancel()
        await told_events.aclose()
        if gone.done() and not gone.cancelled():
            gone.exception()  # (a receive that failed: the stream is over anyway)


async def _gone(receive, stream: asyncio.Task) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
    stream.cancel()


async def _versions(counters: dict[str, str]) -> dict[str, str]:
    """By the page's name of each counter, its number now, as the page shows it; a
    counter the cache does not know, or a cache that is down, is left out (the
    page then asks)."""
    try:
        # Through the process's one client (`events.cache`), in the loop's pool of
        # threads: not a thread and a client of its own for each stream.
        found = await asyncio.to_thread(events.cache.get_many, list(counters.values()))
    except Exception:
        log.warning("cache unavailable: the hello carries no versions", exc_info=True)
        return {}
    return {name: str(found[key]) for name, key in counters.items() if key in found}


def _event(kind: str, data: dict) -> bytes:
    return f"event: {kind}\ndata: {json.dumps(data)}\n\n".encode()


async def _events(
    counters: dict[str, str],
    settle: float,
    carry: dict[str, Carry],
    told: dict[str, int],
    mark: str = "",
):
    """``told``: by counter name, the number the page was told last (from its
    ``Last-Event-ID``), or nothing for a page that has not been told."""
    listener = Listener(counters)
    # By part, the version this stream carried last: for a resumed stream, the one
    # the page was told last.
    sent = {
        part: found.version.format(told[name])
        for name, found in carry.items()
        if name in told
        for part in found.parts
    }
    hub.add(listener)
    relay = _relay()
    try:
        yield f"retry: {RETRY_MS + random.randrange(RETRY_SPREAD_MS)}\n".encode()
        loop = asyncio.get_running_loop()
        end = loop.time() + STREAM_SECONDS * random.uniform(0.9, 1.1)
        greeted = False
        while (left := end - loop.time()) > 0:
            # Only a stream that can hear speaks: while the subscription is down
            # (Redis away) the page hears nothing and polls; the comment keeps
            # proxies from closing the stream meanwhile.
            if relay is not None and not relay.ready.is_set():
                greeted = False
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(relay.ready.wait(), min(PING_SECONDS, left))
                if not relay.ready.is_set():
                    yield b": waiting\n\n"
                continue
            if not greeted:
                # The page asks once on hello: whatever moved before is caught up.
                # The hello says where its counters stand now, read only once the
                # stream hears every later move: a page drawn at these numbers has
                # missed nothing and need not ask (a room of phones opening their
                # pages at once would otherwise ask twice each).
                greeted = True
                hello = {"ping": PING_SECONDS, "settle": settle, "reopen": REOPEN_SECONDS}
                hello["versions"] = versions = await _versions(counters)
                now = {name: int(found) for name, found in versions.items()}
                if told and now.keys() == counters.keys():
                    # Resumed (or heard again after Redis was away): the page asks
                    # nothing; what moved since it was told comes next, as events.
                    hello["resumed"] = True
                    yield told_id(told, mark)  # (a stream the page opened anew had none)
                    yield _event("hello", hello)
                    for name, number in sorted(now.items()):
                        if number > told[name]:
                            listener.note(counters[name], number)
                else:
                    # The page asks now, unless it was drawn at these numbers: it
                    # then holds them at least.
                    if now.keys() == counters.keys():
                        told = now
                        yield told_id(told, mark)
                    yield _event("hello", hello)
            if not await listener.wait(min(PING_SECONDS, left)):
                yield _event("ping", {})
                continue
            moved, listener.moved = listener.moved, {}
            for key, value in moved.items():
                name = listener.names[key]
                if value <= told.get(name, -1):
                    continue  # told already (by the hello, or resuming)
                ident = b""
                if told.keys() == counters.keys():
                    told[name] = value
                    ident = told_id(told, mark)
                if name in carry:
                    yield await events.event(name, value, carry[name], sent, ident)
                else:
                    yield ident + _event("moved", {"counter": name, "version": value})
    finally:
        hub.remove(listener)
