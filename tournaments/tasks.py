"""Background work for tournaments. Tasks are thin: they take ids and call services."""

from celery import shared_task

from tournaments import services


@shared_task
def pair_round(round_id: int, fewest_rematches: bool = False) -> str:
    """Pair a round. Safe to run twice: a paired round is left as it is."""
    return services.round_pair(round_id=round_id, fewest_rematches=fewest_rematches).status
