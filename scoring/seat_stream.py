"""A seat's live stream opened by `live` from the cache, without the database.

Every phone opens its seat's stream again after each change it is told of (its
page reloads), and a crowd on the public pages left `live` no database
connection for them: answered 503 under the crowd. The first opening of a seat's
stream goes through Django (the seat guard, the view's 404 for a token that is no
seat); once it handed the stream over, a mark that the token is a seat is kept,
and the next openings are served by `live` itself from that mark
(`live.streams.open_directly`). The mark is forgotten when the token stops
being a seat: its link replaced, its seat deleted; the next opening then asks
the database again, and finds no seat. (A stream of a link just replaced tells
of nothing: its counter no longer moves, and the page's own reload finds no
seat.)"""

import logging

from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, pre_save
from django.http import HttpResponse

from live import streams
from scoring import changes
from scoring.models import Seat, is_seat_token

log = logging.getLogger(__name__)


def _mark_key(token: str) -> str:
    return f"stream-seat:{token}"


def _passed(token: str) -> None:
    """Django handed the seat's stream over: the token is a seat (the view found it,
    `selectors.seat_live_counters`)."""
    try:
        cache.set(_mark_key(token), 1, changes.SEAT_SECONDS)
    except Exception:  # the cache away: the next opening reads the database again
        log.warning("cache unavailable: seat stream not marked", exc_info=True)


def _stream_directly(request, token: str) -> HttpResponse | None:
    """The seat's stream opened by `live` from the mark alone; None when the cache
    does not hold it (Django then opens it, or answers 404)."""
    if not is_seat_token(token):
        return None
    try:
        marked = cache.get(_mark_key(token))
    except Exception:  # the cache away: the view answers
        return None
    if marked is None:
        return None
    response = streams.stream(request, {"seat": changes.seat_key(token)})
    # As the seat guard's middleware marks every seat page (web/security.py).
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


# The path of `table_events` (scoring/seat/urls.py).
streams.open_directly(r"/table/(?P<token>[^/]+)/events/", _stream_directly, _passed)


def _forget(token: str) -> None:
    def forget():
        try:
            cache.delete(_mark_key(token))
        except Exception:
            log.warning("cache unavailable: seat stream mark not forgotten", exc_info=True)

    # Now, and again after the commit: a stream opened meanwhile still found the
    # seat in the database, and marked it again.
    forget()
    transaction.on_commit(forget, robust=True)


def _token_replaced(sender, instance: Seat, update_fields=None, **kwargs) -> None:
    if instance.pk is None or (update_fields is not None and "token" not in update_fields):
        return
    before = Seat.objects.filter(pk=instance.pk).values_list("token", flat=True).first()
    if before is not None and before != instance.token:
        _forget(before)


def _seat_deleted(sender, instance: Seat, **kwargs) -> None:
    _forget(instance.token)


pre_save.connect(_token_replaced, sender=Seat, dispatch_uid="seat-stream-token-replaced")
post_delete.connect(_seat_deleted, sender=Seat, dispatch_uid="seat-stream-seat-deleted")
