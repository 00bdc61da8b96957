"""Background work for the final. Tasks are thin: they take ids and call services."""

from celery import shared_task

from tournaments.final.advance import finals_advance_waiting


@shared_task(ignore_result=True)
def advance_finals() -> int:
    """The finals' catch-up (beat, every 30 s): decides what ended parties decided
    when the advance after their commit did not run."""
    return finals_advance_waiting()
