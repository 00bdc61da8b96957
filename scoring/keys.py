"""Idempotency keys: a key means one request.

A phone (or an API client) sends each submission with a key of its own making, so
that a submission sent again after a lost answer is stored once. The key is bound
to the seat that sent it and to what it carried (`fingerprint`): sent again with
the same hand and entry it is a repeat; with another hand or entry it is refused,
never answered for the first one."""

import hashlib
import json
import logging

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from scoring import errors
from scoring.models import AuditRecord, Seat

logger = logging.getLogger(__name__)


def fingerprint(action: str, number: int, **sent) -> str:
    """What a submission says, hashed: the form it came from, the hand's number and
    the entry (or the version a confirmation names). Bound to the submission's key,
    so the key stands for this request and no other."""
    body = json.dumps({"action": action, "number": number, **sent}, sort_keys=True, default=str)
    return hashlib.sha256(body.encode()).hexdigest()


def replayed(seat: Seat, key: str | None, fingerprint: str, number: int) -> AuditRecord | None:
    """The record a seat's earlier submission with this key wrote: keys belong to
    the seat that sent them, so another table's key never answers for this one.
    The same key with another hand or entry is refused (`errors.KeyReused`): it
    would otherwise be answered for the first one, and the new entry lost. A
    record from before keys were bound to what they carried (no fingerprint)
    answers only for its own hand's ``number``."""
    if not key:
        return None
    record = AuditRecord.objects.filter(seat=seat, key=key).select_related("hand").first()
    if record is None:
        return None
    recorded = record.hand.number if record.hand else None
    if (record.fingerprint and record.fingerprint != fingerprint) or (
        not record.fingerprint and recorded != number
    ):
        raise errors.KeyReused(
            gettext(
                "This submission's key was already used for another entry (hand %(n)s): "
                "nothing new was stored. Check the sheet and enter the hand again."
            )
            % {"n": recorded}
        )
    return record


def stored_once(seat: Seat, key, sent: str, number: int, write, repeated):
    """Runs ``write`` in one transaction. Its key collides only when the same
    submission was stored by a request that ran at the same moment (the party lock
    serialises the rest): then ``repeated(record)`` answers for it. Anything else is
    a hand the state did not foresee: the player is told to look at the sheet
    again, and the operators get the whole story."""
    try:
        with transaction.atomic():
            return write()
    except IntegrityError:
        replay = replayed(seat, key, sent, number)
        if replay is not None:
            return repeated(replay)
        logger.exception("Hand %s of party %s collided", number, seat.party_id)
        raise errors.StaleEntry(
            gettext("This hand was just recorded: the sheet below is up to date.")
        ) from None
