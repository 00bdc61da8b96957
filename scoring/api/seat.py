"""The API of a table: ``/api/tables/<token>…``. No login; the seat token in the
path is the credential, exactly like the seat page ``/table/<token>/``. No cookie
is read, so there is nothing for a cross-site request to borrow and no CSRF check
to make."""

from typing import Annotated

from ninja import Body, Router, Status
from pydantic import Discriminator, Tag

from scoring import selectors
from scoring.api.common import Number, Token
from scoring.api.keepings import kept
from scoring.api.schemas import ChangedOut, ConfirmIn, EntryOut, HandEntryIn, SeatTableOut
from scoring.api.whole_table_schemas import GameChangedOut, GameEntryIn, GameEntryOut, GameTableOut
from scoring.labels import outcome_message
from scoring.services import hands
from scoring.services.keeping import WholeTable
from web.api_errors import SEAT_READ, SEAT_WRITE
from web.client import client_address


def seat_token(request):
    """The seat whose token is in the path (a 404 when no seat has it). A plain
    callable, not a security scheme: the token is part of the address."""
    return selectors.seat_by_token(request.resolver_match.kwargs["token"])


router = Router(auth=seat_token, tags=["seat"])

# A refused entry may be one that changed since the phone showed it: its 409
# carries the entry as it now stands.
GAME_ENTRY_REFUSALS = {**SEAT_WRITE, 409: GameChangedOut}
ANY_ENTRY_REFUSALS = {**SEAT_WRITE, 409: ChangedOut | GameChangedOut}

#: What a seat reads of its table, and what an entry answers, of either kind of
#: table: Gin Rummy's tables of two (`SeatTableOut`) or one whole table.
AnyTableOut = SeatTableOut | GameTableOut
AnyEntryOut = EntryOut | GameEntryOut


def _entry_kind(value) -> str:
    # A hand played at one whole table carries the game's ``entry``; Gin Rummy's
    # its ending and counts, or its cards. (Tags begin with a capital: a refusal
    # names the field, never the tag.)
    return "Whole" if isinstance(value, dict) and "entry" in value else "Tables"


#: A hand as either kind of table sends it; the party says which it must be.
AnyEntryIn = Annotated[
    Annotated[HandEntryIn, Tag("Tables")] | Annotated[GameEntryIn, Tag("Whole")],
    Discriminator(_entry_kind),
]


@router.get("/tables/{token}", response={200: AnyTableOut, **SEAT_READ})
def table_detail(request, token: Token):
    """The seat's view of its party, of any game, and a ``version`` that changes
    whenever anything on the sheet does (poll it). Gin Rummy's (`SeatTableOut`):
    the sheet, the open hand, who deals and plays it, whether this seat may
    confirm, the settlement once over. A game played at one whole table
    (`GameTableOut`): each side's total and place, every hand as entered and
    scored, the hand being played, whether this seat may confirm it and how many
    confirmations it still needs."""
    return kept(request.auth.party).table(request.auth)


@router.post(
    "/tables/{token}/hands", response={200: AnyEntryOut, 201: AnyEntryOut, **ANY_ENTRY_REFUSALS}
)
def table_hand_enter(request, token: Token, entry: Body[AnyEntryIn]):
    """Enter hand ``number`` of any game; its engine scores it. Gin Rummy's by the
    counts or by the cards (`HandEntryIn`), another game's as its ``entry``
    (`GameEntryIn`); a hand of the other kind than the party's is refused (422,
    nothing stored). 201 with the outcome (``entered``: waiting for confirmation,
    ``recorded``, ``noted``: a confirmation counted while more are needed,
    ``confirmed``, ``disputed``); 200 with ``repeated`` when the same ``key`` was
    sent before. An entry the engine refuses is a 422 with its reasons, one per
    line."""
    seat = request.auth
    outcome = hands.hand_enter(
        seat=seat,
        number=entry.number,
        entry=kept(seat.party, entry).entry(entry, seat.party),
        key=entry.key,
        address=client_address(request),
        version=entry.version,
    )
    return Status(200 if outcome.action == "repeated" else 201, _entry(token, outcome))


@router.post(
    "/tables/{token}/hands/{number}/confirm", response={200: AnyEntryOut, **ANY_ENTRY_REFUSALS}
)
def table_hand_confirm(request, token: Token, number: Number, body: ConfirmIn):
    """Confirm another side's pending entry of hand ``number``, of any game, in the
    ``version`` the phone showed (``open_hand.version``): ``noted`` while more
    confirmations are needed, ``confirmed`` with the last."""
    outcome = hands.hand_confirm(
        seat=request.auth,
        number=number,
        version=body.version,
        key=body.key,
        address=client_address(request),
    )
    return _entry(token, outcome)


def _entry(token: str, outcome) -> dict:
    # Read again after the write: the party may have just finished.
    seat = selectors.seat_by_token(token)
    number = outcome.hand.number if outcome.hand else None
    return {
        "outcome": outcome.action,
        "message": outcome_message(outcome.action, number),
        **kept(seat.party).entered(seat, outcome.hand),
    }


# --- A whole table's party; the addresses under /game are aliases -----------------


@router.get("/tables/{token}/game", response={200: GameTableOut, **SEAT_READ})
def game_table_detail(request, token: Token):
    """An alias of ``GET /tables/{token}`` for a party played at one whole table,
    kept for the clients that read it here; a Gin Rummy party is refused."""
    kept(request.auth.party, only=WholeTable)
    return table_detail(request, token)


@router.post(
    "/tables/{token}/game/hands",
    response={200: GameEntryOut, 201: GameEntryOut, **GAME_ENTRY_REFUSALS},
)
def game_hand_enter_api(request, token: Token, body: GameEntryIn):
    """An alias of ``POST /tables/{token}/hands`` for a hand of a game played at
    one whole table."""
    return table_hand_enter(request, token, body)


@router.post(
    "/tables/{token}/game/hands/{number}/confirm",
    response={200: GameEntryOut, **GAME_ENTRY_REFUSALS},
)
def game_hand_confirm_api(request, token: Token, number: Number, body: ConfirmIn):
    """An alias of ``POST /tables/{token}/hands/{number}/confirm`` for a party
    played at one whole table; a Gin Rummy party is refused."""
    kept(request.auth.party, only=WholeTable)
    return table_hand_confirm(request, token, number, body)
