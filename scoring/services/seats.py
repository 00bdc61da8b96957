"""A seat's secret link: the token printed on the table card, and a new one when
the old one went round."""

import secrets

from django.db import transaction

from scoring import changes
from scoring.models import AuditRecord, Seat, token_digest


def new_token() -> str:
    """An unguessable seat link: 256 bits from the operating system's generator."""
    return secrets.token_urlsafe(32)


@transaction.atomic
def seat_link_reissue(*, seat: Seat, user, address=None) -> Seat:
    """Revokes a seat's link and issues a new one (a lost or shared phone)."""
    seat = Seat.objects.select_for_update().get(pk=seat.pk)
    old_token = seat.token
    seat.token = new_token()
    seat.save(update_fields=["token"])
    changes.seats_changed([old_token])
    changes.night_changed(seat.party.night_id)  # the night's monitor links each seat
    AuditRecord.objects.create(
        party_id=seat.party_id,
        action=AuditRecord.Action.LINK,
        seat=seat,
        user=user,
        address=address,
        before={"replaced_link": token_digest(old_token)},
    )
    return seat
