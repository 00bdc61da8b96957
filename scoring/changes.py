"""What each change of scoring moves: the counters (`live.counters`) of the
club's scores, of a club night and of each seat, and the hooks the apps above
register to be told after the commit.

Scoring knows nothing of tournaments (the apps stack the other way), so it keeps
one counter per club: whatever reads a club's scores (a tournament's standings,
its tables' running scores) puts the counter into its cache key. A hand changed
at a club night also moves it; that costs one recomputation, never a stale page.

Each seat has one too, which its phone polls (`selectors.seat_poll`): it moves
after every committed change the seat's page shows."""

import logging

from celery import shared_task
from django.core.cache import cache
from django.db.models import F

from live.counters import after_commit, bump_after_commit, fresh_start, gather_after_commit
from scoring.models import Party, Seat

log = logging.getLogger(__name__)


def club_key(club_id: int) -> str:
    return f"v:club-scores:{club_id}"


#: A seat's counter is forgotten this long after it started; the phone then
#: reloads its page once, and a seat long over leaves nothing in the cache.
SEAT_SECONDS = 24 * 3600


def seat_key(token: str) -> str:
    return f"v:seat:{token}"


def night_key(night_id: int) -> str:
    return f"v:night:{night_id}"


def night_changed(night_id: int | None) -> None:
    """Something the organizer's night monitor shows changed: a party started,
    cancelled or swapped, a hand, a new seat link, the stake, the night closed."""
    if night_id is not None:
        bump_after_commit(night_key(night_id))


#: What the apps above keep from a club's scores (the seasons' ratings) registers
#: here, at start-up, to be told after the commit: scoring cannot import them.
_after_scores_change = []


def after_scores_change(callback) -> None:
    """``callback(club_id)`` runs after the commit of every change to the club's
    scores, in a worker (`tell`); its failure is logged and never undoes the hand."""
    if callback not in _after_scores_change:
        _after_scores_change.append(callback)


def scores_changed(club_id: int) -> None:
    """A hand of one of the club's parties was entered, confirmed or decided."""
    bump_after_commit(club_key(club_id))
    gather_after_commit(_tell_later, ("scores", club_id))


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
    start = fresh_start()
    try:
        if cache.add(key, start, SEAT_SECONDS):
            return start
        return cache.get(key)  # another request started it first
    except Exception:
        log.warning("cache unavailable: seat version not started", exc_info=True)
        return None


def party_changed(party_id: int, tokens=None) -> None:
    """Something the party's seat pages show changed — a hand, the party's status,
    who sits where: the party's count of changes moves in this transaction (a kept
    score of it is then computed again, `scores.party_scores`), and after the
    commit every seat's counter moves, and the phones polling it reload.
    ``tokens``: the seats' tokens, when the caller has read the seats already."""
    Party.objects.filter(pk=party_id).update(changes=F("changes") + 1)
    if tokens is None:
        tokens = Seat.objects.filter(party_id=party_id).values_list("token", flat=True)
    seats_changed(tokens)
    gather_after_commit(_tell_later, ("party", party_id))


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
    """``callback(party_id)`` runs after the commit of every change to the party,
    in a worker (`tell`); its failure is logged and never undoes the change."""
    if callback not in _after_party_change:
        _after_party_change.append(callback)


def seats_changed(tokens) -> None:
    """Moves these seats' counters after the commit: also a link just replaced, so
    the phone still showing it reloads and learns so."""
    for token in tokens:
        bump_after_commit(seat_key(token), SEAT_SECONDS)


#: At most this many are told in one message (`_tell_later`): a worker takes a
#: message back into the queue when it has not finished it within the broker's
#: visibility timeout (120 s), and a transaction of hundreds of parties (the
#: demo, an archive) tells hundreds.
TOLD_AT_ONCE = 10


def tell(kind: str, pk: int) -> None:
    """Runs what registered to be told of a change to a ``party`` or a club's
    ``scores`` (`after_party_change`, `after_scores_change`), each on its own: one
    that fails is logged and the others still run."""
    for callback in {"party": _after_party_change, "scores": _after_scores_change}[kind]:
        try:
            callback(pk)
        except Exception:
            log.exception("after the change of %s %s: %s failed", kind, pk, callback.__name__)


def _tell_later(told: list[tuple[str, int]]) -> None:
    # What is told after a change (a party's kept score, its notices, a club's
    # finals, boards and ratings) took 40 % of an entry's time in `web`, and the
    # phone waits for none of it: a worker does it (`tell_in_worker`), all that a
    # commit tells in one message (each cost `web` 1.3 ms of processor time). Every
    # reader copes with it not done yet (a kept score behind the party's count of
    # changes is computed again). With the broker away it is done here, as before.
    for first in range(0, len(told), TOLD_AT_ONCE):
        some = told[first : first + TOLD_AT_ONCE]
        try:
            tell_in_worker.delay(*some)
        except Exception:  # the broker's errors are the transport's own classes
            log.warning("broker unavailable: %s told in the request", some, exc_info=True)
            _tell_each(some)


@shared_task(ignore_result=True, name="scoring.tasks.tell")
def tell_in_worker(*told) -> None:
    """`tell`, in a worker, after the commit of the request that made the change:
    each of ``told``, (kind, pk) pairs. A message sent as one kind and its pk (the
    way before, still queued when the site was updated) is told as such."""
    _tell_each([told] if told and isinstance(told[0], str) else told)


def _tell_each(told) -> None:
    """Each told on its own: one that fails is logged and the others still are."""
    for kind, pk in told:
        try:
            tell(kind, pk)
        except Exception:
            log.exception("after the change of %s %s: not told", kind, pk)
