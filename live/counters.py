"""Counters in the shared cache that move after a write is committed, so that a
page cached under the old number is simply never read again, and the pages
following a counter are told (`live.streams`). What moves which counter is each
app's to say (`scoring.changes`).

The cache may be down (Redis): then a move is lost, and readers take a failed
read as "do not cache". Cached entries also expire on their own
(`settings.PUBLIC_CACHE_SECONDS`), so a move lost while the cache was away
cannot keep an old page alive for long.

What one transaction moves and tells after its commit is done together, by one
callback (`_Commit`): every counter in one trip to Redis (`move`), and what is
told in a worker in one message (`gather_after_commit`). A hand's entry moves
the club's, the night's and each seat's counter: one by one, each was an EXISTS,
an INCRBY and a PUBLISH, and each message to the broker 1.3 ms of processor
time in `web`."""

import logging
import time
from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache
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


def bump_after_commit(key: str, timeout: int | None = None) -> None:
    """Moves the counter once the surrounding transaction commits, never before: a
    reader who sees the new number must also see the new rows. ``timeout``: the
    seconds a counter newly started is kept (None: until evicted)."""
    commit = _this_commit()
    if commit is None:  # no transaction: committed already
        bump(key, timeout)
    else:
        commit.moves.append((key, timeout))


def move(moves: list[tuple[str, int | None]]) -> list[int | None]:
    """Moves each counter (key, timeout) on now, in order, as `bump` does one, and
    tells the pages following it: with Redis as the cache and the streams' channel
    on the same server, in one trip (`_MOVE`). Their new numbers (None for each
    when the cache is down)."""
    client = _one_trip()
    if client is None:
        return [bump(key, timeout) for key, timeout in moves]
    args = [streams.channel()]
    for key, timeout in moves:
        seconds = cache.get_backend_timeout(timeout)
        args += [fresh_start(), "" if seconds is None else seconds, key]
    keys = [cache.make_and_validate_key(key) for key, _ in moves]
    try:
        numbers = _script(client)(keys=keys, args=args, client=client)
    except Exception:
        names = " ".join(key for key, _ in moves)
        log.warning("cache unavailable: versions %s not moved", names, exc_info=True)
        return [None] * len(moves)
    for (key, _), number in zip(moves, numbers, strict=True):
        if number is None:  # (as `bump`, for a key that holds no number)
            log.warning("cache: version %s not moved, it holds no number", key)
    return [None if number is None else int(number) for number in numbers]


#: Per key: INCR when it is there, else SET it to the fresh start given (with its
#: timeout, if any); then PUBLISH "number key" on the streams' channel, as `bump`
#: and `streams.publish` do. The number is read back as a string (GET): Lua keeps
#: numbers as doubles, and the clock's nanoseconds have more digits than they hold.
#: KEYS: the cache's keys; ARGV: the channel, then per key its fresh start, its
#: timeout ("" for none) and its name as the streams know it.
_MOVE = """
local numbers = {}
for i, key in ipairs(KEYS) do
  local start, seconds, name = ARGV[3 * i - 1], ARGV[3 * i], ARGV[3 * i + 1]
  local number = false
  if redis.call("EXISTS", key) == 1 then
    local moved = redis.pcall("INCR", key)
    if type(moved) ~= "table" or not moved.err then
      number = redis.call("GET", key)
    end
  else
    if seconds == "" then
      redis.call("SET", key, start)
    else
      redis.call("SET", key, start, "EX", seconds)
    end
    number = start
  end
  if number then
    redis.call("PUBLISH", ARGV[1], number .. " " .. name)
  end
  numbers[i] = number
end
return numbers
"""

_scripts: list = []


def _script(client):
    if not _scripts:
        _scripts.append(client.register_script(_MOVE))
    return _scripts[0]


def _one_trip():
    """The cache's Redis client when every move can go in one trip: the cache is
    Redis, and the streams hear what is published there. Else None: each counter
    is moved as `bump` does (the embedded default: the process's own memory)."""
    if not settings.REDIS_URL:
        return None  # the streams are told in this process's memory
    backend = caches["default"]
    if not isinstance(backend, RedisCache):
        return None
    server = backend._cache._servers[0]  # the one written to
    if not _heard_on(server):
        return None
    return backend._cache.get_client(write=True)


_servers: dict[tuple[str, str], bool] = {}


def _heard_on(url: str) -> bool:
    """Whether what is published on the channel through the Redis at ``url`` (the
    cache's: `move` publishes where it moves) reaches the streams:
    the same server as ``REDIS_URL``'s, whatever its database (publish/subscribe
    knows none)."""
    asked = (url, settings.REDIS_URL)
    if asked not in _servers:
        from redis.connection import parse_url  # optional: only with a REDIS_URL

        def server(found: str) -> dict:
            return {k: v for k, v in parse_url(found).items() if k != "db"}

        _servers[asked] = bool(settings.REDIS_URL) and server(url) == server(settings.REDIS_URL)
    return _servers[asked]


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
        held.setdefault((after_commit, id(callback), arg), (after_commit, callback, arg))
        return
    transaction.on_commit(lambda: callback(arg), robust=True)


def gather_after_commit(callback, item) -> None:
    """``callback(items)`` once after the commit, with every item given for it in
    the transaction, each once, in order (what is told in one message to a
    worker); its failure is logged and never undoes the change. Inside
    `once_each`, when it ends."""
    held = _held.get()
    if held is not None:
        key = (gather_after_commit, id(callback), item)
        held.setdefault(key, (gather_after_commit, callback, item))
        return
    commit = _this_commit()
    if commit is None:  # no transaction: committed already
        _call(callback, [item])
        return
    commit.gathered.setdefault(id(callback), (callback, {}))[1][item] = None


class _Commit:
    """What is done after a transaction's commit, together: its counters moved in
    one trip (`move`), then each gathering callback called once. One per savepoint
    that registers something, as Django keeps its callbacks: a savepoint rolled
    back takes its own along."""

    __slots__ = ("done", "gathered", "moves")

    def __init__(self):
        self.done = False
        self.moves: list[tuple[str, int | None]] = []
        self.gathered: dict[int, tuple] = {}  # by id(callback): (callback, {item: None})

    def run(self) -> None:
        self.done = True
        if self.moves:
            try:
                move(self.moves)
            except Exception:
                log.exception("after the commit: counters not moved")
        for callback, items in self.gathered.values():
            _call(callback, list(items))


def _this_commit() -> _Commit | None:
    """The transaction's `_Commit` where what comes now joins (one is made when the
    last callback waiting for the commit is not one), or None outside a
    transaction. Joining only the last keeps every callback's order."""
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        return None
    waiting = connection.run_on_commit
    if waiting:
        sids, last, _ = waiting[-1]
        found = getattr(last, "__self__", None)
        if type(found) is _Commit and not found.done and sids == set(connection.savepoint_ids):
            return found
    commit = _Commit()
    transaction.on_commit(commit.run, robust=True)
    return commit


def _call(callback, arg) -> None:
    try:
        callback(arg)
    except Exception:
        log.exception("after the commit: %s failed", getattr(callback, "__name__", callback))


#: The callbacks that wait for the end of `once_each`, or None.
_held: ContextVar[dict | None] = ContextVar("held", default=None)


@contextmanager
def once_each():
    """Within it, what runs after a change (`after_commit`, `gather_after_commit`:
    a club's finals and ratings, a party's kept score, a tournament's board) is
    sent once per callback and argument when it ends (still after the commit), not
    after each change: a transaction of hundreds of hands (the demo, an archive)
    would otherwise run them hundreds of times for one result."""
    if _held.get() is not None:  # already inside one: the outer one sends
        yield
        return
    held = {}
    token = _held.set(held)
    try:
        yield
    finally:
        _held.reset(token)
    for register, callback, arg in held.values():
        register(callback, arg)


def _try(call, *args):
    try:
        call(*args)
    except Exception:
        log.warning("cache unavailable", exc_info=True)
