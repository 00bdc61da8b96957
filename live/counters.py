"""Counters in the shared cache that move after a write is committed, so that a
page cached under the old number is simply never read again, and the pages
following a counter are told (`live.streams`). What moves which counter is each
app's to say (`scoring.changes`).

The cache may be down (Redis): then a move is lost, and readers take a failed
read as "do not cache". Cached entries also expire on their own
(`settings.PUBLIC_CACHE_SECONDS`), so a move lost while the cache was away
cannot keep an old page alive for long."""

import logging
import time
from contextlib import contextmanager
from contextvars import ContextVar

from django.core.cache import cache
from django.db import transaction

from live import streams

log = logging.getLogger(__name__)


def fresh_start() -> int:
    # A counter starts at the clock's nanoseconds, not at 1: one lost with the
    # cache (Redis restarted, the key evicted) starts again above every number it
    # reached, so a page still open on a phone never matches a new number by chance.
    return time.time_ns()


def bump(key: str, timeout: int | None = None, *, ready=None) -> int | None:
    """Move a counter on, now (callers schedule it after their commit), and tell
    the pages following it (`live.streams`). Its new number, None when the cache
    is down. ``ready(number)`` runs between the move and the telling: what is kept
    under the new number is then there before any page is woken to read it."""
    try:
        value = cache.incr(key)
    except ValueError:  # never moved, or lost: a new start is a new number
        value = fresh_start()
        _try(cache.add, key, value, timeout)
    except Exception:
        log.warning("cache unavailable: version %s not moved", key, exc_info=True)
        return None
    if ready is not None:
        ready(value)
    streams.publish(key, value)
    return value


def bump_after_commit(key: str) -> None:
    """Moves the counter once the surrounding transaction commits, never before: a
    reader who sees the new number must also see the new rows."""
    transaction.on_commit(lambda: bump(key))


def counters(keys: list[str]) -> list[int] | None:
    """The counters under ``keys`` in one trip to the cache; one the cache does not
    know (never moved, or lost) is started now, so that its next move is a new
    number. None when the cache is down: then nothing may be taken as unchanged."""
    try:
        found = cache.get_many(keys)
        for key in keys:
            if found.get(key) is None:
                cache.add(key, fresh_start(), None)
                found[key] = cache.get(key)
    except Exception:
        log.warning("cache unavailable: counters not read", exc_info=True)
        return None
    if any(found.get(key) is None for key in keys):
        return None
    return [found[key] for key in keys]


def after_commit(callback, arg) -> None:
    """``callback(arg)`` after the commit; its failure is logged and never undoes
    the change (``robust``). Inside `once_each`, once per callback and
    argument when it ends."""
    held = _held.get()
    if held is not None:
        held.setdefault((id(callback), arg), (callback, arg))
        return
    transaction.on_commit(lambda: callback(arg), robust=True)


#: The callbacks that wait for the end of `once_each`, or None.
_held: ContextVar[dict | None] = ContextVar("held", default=None)


@contextmanager
def once_each():
    """Within it, what runs after a change (`after_commit`: a club's finals and
    ratings, a party's kept score, a tournament's board) is sent once per callback
    and argument when it ends (still after the commit), not after each change: a
    transaction of hundreds of hands (the demo, an archive) would otherwise run
    them hundreds of times for one result."""
    if _held.get() is not None:  # already inside one: the outer one sends
        yield
        return
    held = {}
    token = _held.set(held)
    try:
        yield
    finally:
        _held.reset(token)
    for callback, arg in held.values():
        after_commit(callback, arg)


def _try(call, *args):
    try:
        call(*args)
    except Exception:
        log.warning("cache unavailable", exc_info=True)
