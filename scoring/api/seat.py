"""The API of a table: ``/api/tables/<token>…``. No login; the seat token in the
path is the credential, exactly like the seat page ``/table/<token>/``. No cookie
is read, so there is nothing for a cross-site request to borrow and no CSRF check
to make."""

from ninja import Router, Status

from config.api_errors import SEAT_READ, SEAT_WRITE
from config.client import client_address
from scoring import selectors
from scoring.api.common import (
    Number,
    Seats,
    Token,
    result_of,
    table_body,
)
from scoring.api.schemas import ChangedOut, ConfirmIn, EntryOut, HandEntryIn, SeatTableOut
from scoring.labels import outcome_message
from scoring.services import hands


def seat_token(request):
    """The seat whose token is in the path (a 404 when no seat has it). A plain
    callable, not a security scheme: the token is part of the address."""
    return selectors.seat_by_token(request.resolver_match.kwargs["token"])


router = Router(auth=seat_token, tags=["seat"])

# A refused entry may be one that changed since the phone showed it: its 409
# carries the entry as it now stands.
ENTRY_REFUSALS = {**SEAT_WRITE, 409: ChangedOut}


@router.get("/tables/{token}", response={200: SeatTableOut, **SEAT_READ})
def table_detail(request, token: Token):
    """The seat's view of its party: the sheet, the open hand, who deals and plays
    it, whether this seat may confirm, the settlement once over, and a ``version``
    that changes whenever anything on the sheet does (poll it)."""
    seat = request.auth
    return table_body(seat, selectors.seat_view(seat))


@router.post("/tables/{token}/hands", response={200: EntryOut, 201: EntryOut, **ENTRY_REFUSALS})
def table_hand_enter(request, token: Token, entry: HandEntryIn):
    """Enter hand ``number``: by the counts or by the cards; the rules engine scores
    it. 201 with the outcome (``entered``, ``recorded``, ``confirmed``,
    ``disputed``); 200 with ``repeated`` when the same ``key`` was sent before."""
    seat = request.auth
    outcome = hands.hand_enter(
        seat=seat,
        number=entry.number,
        result=result_of(entry, seat.party.rules),
        key=entry.key,
        address=client_address(request),
        version=entry.version,
    )
    return Status(200 if outcome.action == "repeated" else 201, _entry(token, outcome))


@router.post("/tables/{token}/hands/{number}/confirm", response={200: EntryOut, **ENTRY_REFUSALS})
def table_hand_confirm(request, token: Token, number: Number, body: ConfirmIn):
    """Confirm the other side's pending entry of hand ``number``, in the ``version``
    the phone showed (``open_hand.version``)."""
    seat = request.auth
    outcome = hands.hand_confirm(
        seat=seat,
        number=number,
        version=body.version,
        key=body.key,
        address=client_address(request),
    )
    return _entry(token, outcome)


def _entry(token: str, outcome) -> dict:
    # Read again after the write: the party may have just finished.
    seat = selectors.seat_by_token(token)
    view = selectors.seat_view(seat)
    seats = Seats(view["state"].seats)
    number = outcome.hand.number if outcome.hand else None
    return {
        "outcome": outcome.action,
        "message": outcome_message(outcome.action, number),
        "hand": seats.hand(outcome.hand) if outcome.hand else None,
        "table": table_body(seat, view),
    }
