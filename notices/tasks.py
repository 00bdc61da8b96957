"""The notices' background work, thin: ids in, the drafts of what happened
written as notices (`services.notices_write`), each notice sent by a task of its
own, tried again with growing pauses and at a limited rate, so that a dead mail
server never holds up a round. Run eagerly (no broker), a notice is tried once:
a failure is recorded, never raised into the request."""

import logging

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from notices import catchup, events, selectors, services
from notices.models import Notice

log = logging.getLogger(__name__)

#: Tries of one notice, the first included, and the first pause (doubled each time).
TRIES = 6
FIRST_PAUSE = 60


@shared_task(bind=True, ignore_result=True, rate_limit=settings.NOTICES_RATE_LIMIT)
def deliver_notice(self, notice_id: int) -> str:
    """Send one notice. Safe to run twice: a notice is claimed before it is sent."""
    last_try = self.request.is_eager or self.request.retries >= TRIES - 1
    status = services.notice_deliver(notice_id=notice_id, last_try=last_try)
    if status == Notice.Status.QUEUED:
        raise self.retry(countdown=FIRST_PAUSE * 2**self.request.retries, max_retries=TRIES)
    return status


def send_notice(notice_id: int) -> None:
    _send(deliver_notice, notice_id)


@shared_task(ignore_result=True)
def notices_party_started(party_id: int) -> int:
    return len(services.notices_write(drafts=events.party_started(party_id), deliver=send_notice))


@shared_task(ignore_result=True)
def notices_party_ended(party_id: int) -> int:
    return len(services.notices_write(drafts=events.party_ended(party_id), deliver=send_notice))


@shared_task(ignore_result=True)
def notices_tournament_changed(tournament_id: int) -> int:
    """A round paired with a bye, a table changed in the round being played, or
    the tournament is over."""
    drafts = (
        events.round_byes(tournament_id)
        + events.table_changes(tournament_id)
        + events.tournament_finished(tournament_id)
    )
    return len(services.notices_write(drafts=drafts, deliver=send_notice))


@shared_task(ignore_result=True)
def notices_catch_up() -> int:
    """The notices left being sent by a worker that died, or waiting with no task
    (the beat runs it every minute)."""
    return len(catchup.notices_catch_up(now=timezone.now(), deliver=send_notice))


@shared_task(ignore_result=True)
def send_digests() -> int:
    """Every club's season digests, for today (the beat runs it weekly)."""
    return services.digests_send(today=timezone.localdate(), deliver=send_notice)


def _send(task, *args) -> None:
    """With the broker away what happened still stands: its notices are not sent."""
    try:
        task.delay(*args)
    except Exception:  # the broker's errors are the transport's own classes
        log.warning("broker unavailable: %s%s not sent", task.name, args, exc_info=True)


# What the apps below call after their commit (registered in notices/apps.py).


def send_party_started(party_id: int) -> None:
    _send(notices_party_started, party_id)


def send_party_changed(party_id: int) -> None:
    """After every hand: only a party just over has something to tell."""
    if selectors.party_finished(party_id):
        _send(notices_party_ended, party_id)


def send_tournament_changed(tournament_id: int) -> None:
    """After every step of a tournament: one playing a round or finished may
    have something to tell."""
    if selectors.tournament_tells(tournament_id):
        _send(notices_tournament_changed, tournament_id)
