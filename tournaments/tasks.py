"""Background work for the rounds and the public board: pairing a round, storing
the board (`tournaments.stored_board`). Tasks are thin: they take ids and call the
service. (The final's catch-up is `tournaments.final.tasks`: the rounds, which
send these, stand below the final.)"""

import logging

from celery import shared_task
from django.conf import settings

from tournaments import stored_board
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


@shared_task(ignore_result=True)
def store_board(tournament_id: int) -> str:
    """Build and store the tournament's public board (`stored_board.board_store`).
    Safe to run twice: a board that shows every change asked for stays. A change
    asked for during the build is built once more, a refresh later. Another
    builder at work: with a worker, asked again a refresh later, in case that one
    died holding its lock; run eagerly, the builder in this process asks again itself."""
    outcome = stored_board.board_store(tournament_id=tournament_id)
    if outcome == stored_board.AGAIN:
        send_board(tournament_id, moved=False)
    elif outcome == stored_board.BUSY and not store_board.app.conf.task_always_eager:
        send_board(tournament_id, moved=False, at_least=max(settings.PUBLIC_REFRESH_SECONDS, 1))
    return outcome


def send_board(tournament_id: int, *, moved: bool = True, at_least: float = 0) -> None:
    """After the commit of a change to the board's inputs (``moved``): sends the
    build, with the countdown that keeps builds a refresh apart, unless one is
    already due. With the broker away the change still stands: the next one sends
    the build, and the stored board expires meanwhile."""
    wait = stored_board.board_wanted(tournament_id, moved=moved, at_least=at_least)
    if wait is None:
        return
    try:
        store_board.apply_async((tournament_id,), countdown=wait)
    except Exception:  # the broker's errors are the transport's own classes
        log.warning("broker unavailable: board %s not built", tournament_id, exc_info=True)
        stored_board.board_not_due(tournament_id)


def boards_after_scores(club_id: int) -> None:
    """After the commit of a hand at the club: the boards it may move are built."""
    for tournament_id in stored_board.boards_moved_by_scores(club_id):
        send_board(tournament_id)
