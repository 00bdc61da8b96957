"""Background work for seasons. Tasks are thin: they take ids and call services."""

import logging

from celery import shared_task

from seasons import services

log = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def ratings_update(club_id: int) -> int:
    """Brings the club's ratings up to its record. Safe to run twice: what was
    rated already is left as it is."""
    return services.ratings_update(club_id=club_id)


def send_ratings_update(club_id: int) -> None:
    """Sends the update; with the broker away the next change (or a rebuild,
    ``manage.py rebuild_ratings``) catches up, since the update reads the record
    from where it last stopped."""
    try:
        ratings_update.delay(club_id)
    except Exception:  # the broker's errors are the transport's own classes
        log.warning("broker unavailable: ratings of club %s wait", club_id, exc_info=True)
