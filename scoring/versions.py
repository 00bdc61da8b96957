"""Cache versions: counters in the shared cache that change after a write is
committed, so pages cached under the old number are simply never read again.

Scoring knows nothing of tournaments (the apps stack the other way), so it keeps
one counter per club: whatever reads a club's scores (a tournament's standings,
its tables' running scores) puts the counter into its cache key. A hand changed
at a club night also moves it; that costs one recomputation, never a stale page.

Each seat has one too, which its phone polls (`selectors.seat_poll`): it moves
after every committed change the seat's page shows.

The cache may be down (Redis): then a bump is lost, and readers take a failed
read as "do not cache". Cached entries also expire on their own
(`settings.PUBLIC_CACHE_SECONDS`), so a bump lost while the cache was away
cannot keep an old page alive for long."""

import logging
import time
from contextlib import contextmanager
from contextvars import ContextVar

from django.core.cache import cache
from django.db import transaction
from django.db.models import F

from scoring import push
from scoring.models import Party, Seat

log = logging.getLogger(__name__)


def club_key(club_id: int) -> str:
    return f"v:club-scores:{club_id}"


#: A seat's counter is forgotten this long after it started; the phone then
#: reloads its page once, and a seat long over leaves nothing in the cache.
SEAT_SECONDS = 24 * 3600


def seat_key(token: str) -> str:
    return f"v:seat:{token}"


def _start() -> int:
    # A counter starts at the clock's nanoseconds, not at 1: one lost with the
    # cache (Redis restarted, the key evicted) starts again above every number it
    # reached, so a page still open on a phone never matches a new number by chance.
    return time.time_ns()


def bump(key: str, timeout: int | None = None, *, ready=None) -> int | None:
    """Move a counter on, now (callers schedule it after their commit), and tell
    the pages following it (`scoring.push`). Its new number, None when the cache
    is down. ``ready(number)`` runs between the move and the telling: what is kept
    under the new number is then there before any page is woken to read it."""
    try:
        value = cache.incr(key)
    except ValueError:  # never moved, or lost: a new start is a new number
        value = _start()
        _try(cache.add, key, value, timeout)
    except Exception:
        log.warning("cache unavailable: version %s not moved", key, exc_info=True)
        return None
    if ready is not None:
        ready(value)
    push.publish(key, value)
    return value


def bump_after_commit(key: str) -> None:
    """Moves the counter once the surrounding transaction commits, never before: a
    reader who sees the new number must also see the new rows."""
    transaction.on_commit(lambda: bump(key))


def night_key(night_id: int) -> str:
    return f"v:night:{night_id}"


def night_changed(night_id: int | None) -> None:
    """Something the organizer's night monitor shows changed: a party started,
    cancelled or swapped, a hand, a new seat link, the stake, the night closed."""
    if night_id is not None:
        bump_after_commit(night_key(night_id))


def counters(keys: list[str]) -> list[int] | None:
    """The counters under ``keys`` in one trip to the cache; one the cache does not
    know (never moved, or lost) is started now, so that its next move is a new
    number. None when the cache is down: then nothing may be taken as unchanged."""
    try:
        found = cache.get_many(keys)
        for key in keys:
            if found.get(key) is None:
                cache.add(key, _start(), None)
                found[key] = cache.get(key)
    except Exception:
        log.warning("cache unavailable: counters not read", exc_info=True)
        return None
    if any(found.get(key) is None for key in keys):
        return None
    return [found[key] for key in keys]


#: What the apps above keep from a club's scores (the seasons' ratings) registers
#: here, at start-up, to be told after the commit: scoring cannot import them.
_after_scores_change = []


def after_scores_change(callback) -> None:
    """``callback(club_id)`` runs after the commit of every change to the club's
    scores; its failure is logged and never undoes the hand (``robust``)."""
    if callback not in _after_scores_change:
        _after_scores_change.append(callback)


def scores_changed(club_id: int) -> None:
    """A hand of one of the club's parties was entered, confirmed or decided."""
    bump_after_commit(club_key(club_id))
    for callback in _after_scores_change:
        after_commit(callback, club_id)


def after_commit(callback, arg) -> None:
    """``callback(arg)`` after the commit; its failure is logged and never undoes
    the change (``robust``). Inside `scores_changed_once`, once per callback and
    argument when it ends."""
    held = _held.get()
    if held is not None:
        held.setdefault((id(callback), arg), (callback, arg))
        return
    transaction.on_commit(lambda: callback(arg), robust=True)


#: The callbacks that wait for the end of `scores_changed_once`, or None.
_held: ContextVar[dict | None] = ContextVar("held", default=None)


@contextmanager
def scores_changed_once():
    """Within it, what runs after a change (`after_commit`: a club's finals and
    ratings, a party's kept score, a tournament's board) is sent once per club,
    party or tournament when it ends (still after the commit), not after each hand:
    a transaction of hundreds of hands (the demo, an archive) would otherwise run
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


def seat_counter(token: str | None, also: str | None = None) -> tuple[int | None, object]:
    """The seat's counter, or None when the cache does not know it (or is down, or
    there is no ``token``); and the value under the key ``also``, in the same trip."""
    keys = [key for key in (token and seat_key(token), also) if key]
    try:
        found = cache.get_many(keys) if keys else {}
    except Exception:
        log.warning("cache unavailable: seat version not read", exc_info=True)
        return None, None
    return found.get(seat_key(token)) if token else None, found.get(also) if also else None


def seat_counter_start(token: str) -> int | None:
    """Starts the counter of a seat the caller has found in the database (never of
    a mere guess: the cache would fill with them). None when the cache is down."""
    key = seat_key(token)
    start = _start()
    try:
        if cache.add(key, start, SEAT_SECONDS):
            return start
        return cache.get(key)  # another request started it first
    except Exception:
        log.warning("cache unavailable: seat version not started", exc_info=True)
        return None


def party_changed(party_id: int) -> None:
    """Something the party's seat pages show changed — a hand, the party's status,
    who sits where: the party's count of changes moves in this transaction (a kept
    score of it is then computed again, `scores.party_scores`), and after the
    commit every seat's counter moves, and the phones polling it reload."""
    Party.objects.filter(pk=party_id).update(changes=F("changes") + 1)
    seats_changed(Seat.objects.filter(party_id=party_id).values_list("token", flat=True))
    for callback in _after_party_change:
        after_commit(callback, party_id)


#: What is told when a party starts (its players' notices) registers here at
#: start-up: scoring cannot import the apps above it.
_after_party_start = []


def after_party_start(callback) -> None:
    """``callback(party_id)`` runs after the commit of every party started, at a
    club night or a tournament's table; its failure is logged and never undoes
    the start (``robust``)."""
    if callback not in _after_party_start:
        _after_party_start.append(callback)


def party_started(party_id: int) -> None:
    """A party was started: its seats are drawn and their links given."""
    for callback in _after_party_start:
        after_commit(callback, party_id)


#: What is kept from a party's hands (its score, `scores.keep_party_score`)
#: registers here at start-up, to be told after the commit of each change.
_after_party_change = []


def after_party_change(callback) -> None:
    """``callback(party_id)`` runs after the commit of every change to the party;
    its failure is logged and never undoes the change (``robust``)."""
    if callback not in _after_party_change:
        _after_party_change.append(callback)


def seats_changed(tokens) -> None:
    """Moves these seats' counters after the commit: also a link just replaced, so
    the phone still showing it reloads and learns so."""
    tokens = list(tokens)

    def move():
        for token in tokens:
            bump(seat_key(token), SEAT_SECONDS)

    transaction.on_commit(move)


def _try(call, *args):
    try:
        call(*args)
    except Exception:
        log.warning("cache unavailable", exc_info=True)
