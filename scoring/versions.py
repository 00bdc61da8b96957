"""Cache versions: counters in the shared cache that change after a write is
committed, so pages cached under the old number are simply never read again.

Scoring knows nothing of tournaments (the apps stack the other way), so it keeps
one counter per club: whatever reads a club's scores (a tournament's standings,
its tables' running scores) puts the counter into its cache key. A hand changed
at a club night also moves it; that costs one recomputation, never a stale page.

The cache may be down (Redis): then a bump is lost and a read says ``None``, which
callers take as "do not cache". Cached entries also expire on their own
(`settings.PUBLIC_CACHE_SECONDS`), so a bump lost while the cache was away
cannot keep an old page alive for long."""

import logging

from django.core.cache import cache
from django.db import transaction

log = logging.getLogger(__name__)


def club_key(club_id: int) -> str:
    return f"v:club-scores:{club_id}"


def bump(key: str) -> None:
    """Move a counter on, now (callers schedule it after their commit)."""
    try:
        if not cache.add(key, 1, None):
            cache.incr(key)
    except ValueError:  # evicted between add and incr: a new counter will do
        _try(cache.set, key, 1, None)
    except Exception:
        log.warning("cache unavailable: version %s not moved", key, exc_info=True)


def bump_after_commit(key: str) -> None:
    """Moves the counter once the surrounding transaction commits, never before: a
    reader who sees the new number must also see the new rows."""
    transaction.on_commit(lambda: bump(key))


def read(*keys: str) -> tuple | None:
    """The counters' current values (0 for one never moved), or None when the
    cache does not answer."""
    try:
        found = cache.get_many(keys)
    except Exception:
        log.warning("cache unavailable: versions not read", exc_info=True)
        return None
    return tuple(found.get(key, 0) for key in keys)


def scores_changed(club_id: int) -> None:
    """A hand of one of the club's parties was entered, confirmed or decided."""
    bump_after_commit(club_key(club_id))


def _try(call, *args):
    try:
        call(*args)
    except Exception:
        log.warning("cache unavailable", exc_info=True)
