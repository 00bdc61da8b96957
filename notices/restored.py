"""What a restore of the database (clubs/backups.py) does to the notices: none is
sent twice. A notice the backup holds as sent stays sent. One the backup holds as
waiting or being sent may have gone out after the backup was made, and nothing
the restored rows hold can tell; it is marked failed with the reason, so that
neither a task still in the broker nor the catch-up sends it again, and the
organizer's list of notices shows what was perhaps never sent."""

from notices.models import Notice

#: The reason shown on the organizer's list of notices.
REASON = "not sent: the database was restored from a backup made before it was known to be sent"


def notices_restored(alias: str) -> int:
    """The notices left waiting or being sent in the restored database ``alias``,
    marked failed: how many."""
    return (
        Notice.objects.using(alias)
        .filter(status__in=[Notice.Status.QUEUED, Notice.Status.SENDING])
        .update(status=Notice.Status.FAILED, error=REASON)
    )
