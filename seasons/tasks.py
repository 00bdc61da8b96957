"""Background work for seasons. Tasks are thin: they take ids and call services."""

import logging

from celery import shared_task
from django.core.cache import cache

from seasons import links, services

log = logging.getLogger(__name__)

#: An update waits this long after the change that sent it, and no other is sent
#: meanwhile: at a championship a hand is confirmed somewhere every moment, and
#: one update reads the record from where the last stopped, so it rates a whole
#: busy spell at once (without it the worker ran an update per hand).
WAIT_SECONDS = 2
#: How long an update counts as on its way: a task lost with the broker or a
#: killed worker holds the next ones back this long at most.
DUE_SECONDS = 60


def _due_key(club_id: int) -> str:
    return f"ratings-due:{club_id}"


@shared_task(ignore_result=True)
def ratings_update(club_id: int) -> int:
    """Brings the club's ratings up to its record. Safe to run twice: what was
    rated already is left as it is."""
    # From here on a change sends a new update: this one may read before it.
    _not_due(club_id)
    return services.ratings_update(club_id=club_id)


def send_ratings_update(club_id: int) -> None:
    """Sends the update unless one is on its way (which will read this change
    too); without the cache, sends it anyway. With the broker away the next change
    (or a rebuild, ``manage.py rebuild_ratings``) catches up, since the update
    reads the record from where it last stopped."""
    try:
        if not cache.add(_due_key(club_id), True, DUE_SECONDS):
            return
    except Exception:
        log.warning("cache unavailable: ratings update of club %s sent", club_id, exc_info=True)
    try:
        ratings_update.apply_async((club_id,), countdown=WAIT_SECONDS)
    except Exception:  # the broker's errors are the transport's own classes
        log.warning("broker unavailable: ratings of club %s wait", club_id, exc_info=True)
        _not_due(club_id)


def _not_due(club_id: int) -> None:
    try:
        cache.delete(_due_key(club_id))
    except Exception:
        log.warning("cache unavailable: ratings of club %s not marked", club_id, exc_info=True)


@shared_task(ignore_result=True)
def player_link_mail(membership_id: int) -> bool:
    """A new member's personal link, to his address."""
    return links.player_link_mail(membership_id=membership_id)


@shared_task(ignore_result=True)
def player_links_mail_again(email: str) -> int:
    """The personal links of the players with this address, asked for again."""
    return links.player_links_mail_again(email=email)


def send_player_link(membership_id: int) -> None:
    _send(player_link_mail, membership_id)


def send_player_links_again(email: str) -> None:
    _send(player_links_mail_again, email)


def _send(task, *args) -> None:
    """With the broker away the mail is not sent (the player can ask again)."""
    try:
        task.delay(*args)
    except Exception:  # the broker's errors are the transport's own classes
        log.warning("broker unavailable: %s not sent", task.name, exc_info=True)
