"""Background work for the rounds: pairing them. Tasks are thin: they take ids and
call the service. (The final's catch-up is `tournaments.final.tasks`: the rounds,
which send these, stand below the final.)"""

import logging

from celery import shared_task

from tournaments.seating import round_pair, rounds_pair_waiting

log = logging.getLogger(__name__)


# Nobody reads a pairing's result (the round's row says how it went). Without one,
# sending a task does not subscribe to the result store first: with Redis away,
# that subscription retries for 20 s, and the organizer's page would wait as long
# before the round shows "being paired".
@shared_task(ignore_result=True)
def pair_round(round_id: int, fewest_rematches: bool = False) -> str:
    """Pair a round. Safe to run twice: a paired round is left as it is."""
    return round_pair(round_id=round_id, fewest_rematches=fewest_rematches).status


@shared_task(ignore_result=True)
def pair_waiting_rounds() -> int:
    """The catch-up (beat, every 30 s): pairs the rounds whose task was lost."""
    return rounds_pair_waiting()


def send_pairing(round_id: int, fewest_rematches: bool = False) -> None:
    """Sends the pairing task. With the broker away the organizer's action still
    stands: the round shows "being paired", and the catch-up pairs it."""
    try:
        pair_round.delay(round_id, fewest_rematches)
    except Exception:  # the broker's errors are the transport's own classes
        log.warning("broker unavailable: round %s waits for the catch-up", round_id, exc_info=True)
