"""Background work of scoring. Tasks are thin: they take ids and call services."""

from celery import shared_task

from scoring import changes


@shared_task(ignore_result=True)
def tell(kind: str, pk: int) -> None:
    """Tells what registered for a change to a party or a club's scores
    (`changes.tell`), after the commit of the request that made it."""
    changes.tell(kind, pk)
