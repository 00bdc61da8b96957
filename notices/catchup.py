"""The catch-up of notices nobody is sending any more (beat runs it every minute,
`tasks.notices_catch_up`). A worker killed while it sent one leaves it "being
sent": the broker hands its task to another worker, which finds it claimed and
leaves it. A notice whose task was never sent (the broker away) waits for ever.
Both are sent again here; sending claims each first, so a notice is still sent
once if its own task comes back meanwhile."""

import datetime

from django.db.models import Q

from notices.models import Notice

#: A send takes at most a few server timeouts (one a phone): a claim older than
#: this was left by a worker that died.
STUCK = datetime.timedelta(minutes=10)
#: A notice waits at most the longest pause between its tries (`tasks.FIRST_PAUSE`
#: doubled at each of its `tasks.TRIES`: 32 minutes): one waiting longer since it
#: was written or last tried has no task left.
LOST = datetime.timedelta(minutes=45)
#: How often a notice is tried, its worker dying each time, before it is given up.
TRIES = 6


def notices_catch_up(*, now: datetime.datetime, deliver) -> list[int]:
    """The notices left being sent or waiting with no task, each sent again by
    ``deliver(notice_id)``; one already tried as often as a notice is, marked
    failed instead (a notice that kills its worker each time is not tried for
    ever). The ids sent again."""
    stuck = Q(status=Notice.Status.SENDING, tried_at__lt=now - STUCK) | Q(
        status=Notice.Status.SENDING, tried_at__isnull=True, created_at__lt=now - STUCK
    )
    lost = Q(status=Notice.Status.QUEUED) & (
        Q(tried_at__lt=now - LOST) | Q(tried_at__isnull=True, created_at__lt=now - LOST)
    )
    again = []
    for notice in Notice.objects.filter(stuck | lost).only("pk", "status", "attempts"):
        if notice.attempts >= TRIES:
            Notice.objects.filter(pk=notice.pk, status=notice.status).update(
                status=Notice.Status.FAILED, error="not sent: its worker stopped at every try"
            )
            continue
        # Only the state it was found in is changed: a worker that finished it
        # meanwhile wins.
        if Notice.objects.filter(pk=notice.pk, status=notice.status).update(
            status=Notice.Status.QUEUED
        ):
            deliver(notice.pk)
            again.append(notice.pk)
    return again
