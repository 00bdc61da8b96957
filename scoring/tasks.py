"""Background work for scoring. Tasks are thin: they take ids and call services."""

import logging

from celery import shared_task

from scoring import scores

log = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def party_score_keep(party_id: int) -> None:
    """Settles the party's score from its hands and keeps it. Safe to run twice,
    or late: it keeps what the committed hands give, with their count."""
    scores.keep_party_score(party_id)


def send_party_score(party_id: int) -> None:
    """After the commit of a change to a party: its score is kept by the worker,
    off the phones' path. At a championship, keeping it in the request was a fifth
    of every entry and confirmation: four more trips to the database, each waiting
    its turn on busy cores. A kept score is a saving, never a need (until it is
    kept, a reader settles the party from its hands), so with the broker away the
    change still stands."""
    try:
        party_score_keep.delay(party_id)
    except Exception:  # the broker's errors are the transport's own classes
        log.warning("broker unavailable: score of party %s not kept", party_id, exc_info=True)
