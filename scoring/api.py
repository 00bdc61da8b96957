"""The JSON API for parties and score sheets, mounted under /api/.

Two kinds of caller, as on the pages:

- a seat: ``/api/tables/<token>…``. No login; the seat token in the path is the
  credential, exactly like the seat page ``/table/<token>/``. No cookie is read, so
  there is nothing for a cross-site request to borrow and no CSRF check to make.
- an organizer: ``/api/parties/<id>…``. Django's session login (ninja's
  ``django_auth``, which checks the CSRF token on unsafe methods), and the user must
  organize the party's club.

Errors are answered as ``{"detail": …, "code": …}`` by the handlers in
``config/api.py``; `ERRORS` below says which status and code each of the scoring
errors gets:

- 409: the entry is fine in itself but the party's state refuses it now: a stale
  hand number, a disputed hand, an over party, or a seat that may not do this at
  this moment (``not_your_hand``: confirming its own side's entry, sitting out the
  hand, naming a knocker who is not at its table). Not 403, because the seat's link
  is valid: a client that treats 403 as "this link was revoked" would be misled.
- 422: what the request says is impossible: the body's shape, a card that does not
  exist or is named twice, a knock over the limit, gin with deadwood.
"""

from typing import Annotated

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext
from ninja import Path, Router, Status
from ninja.responses import codes_4xx
from ninja.security import django_auth

from clubs.selectors import is_organizer
from config.client import client_address
from scoring import errors, selectors, services
from scoring.engine.cards import InvalidCard, parse_card
from scoring.engine.hands import IllegalKnock, ImpossibleClaim
from scoring.engine.melds import IllegalMeld, WrongHandSize
from scoring.engine.rules import Rules
from scoring.engine.settlement import PartyOver
from scoring.models import Hand
from scoring.schemas import (
    AuditOut,
    ConfirmIn,
    DecideIn,
    DecideOut,
    EntryOut,
    ErrorOut,
    HandEntryIn,
    PartyDetailOut,
    ResultIn,
    TableOut,
)

router = Router(tags=["parties"])

# Row ids as the database stores them: a larger number is a 422, not an overflow.
Id = Annotated[int, Path(..., ge=1, le=2_147_483_647)]
Number = Annotated[int, Path(..., ge=1, le=32767)]
Token = Annotated[str, Path(..., max_length=64)]


#: Exception → (HTTP status, code); the most specific class wins.
ERRORS = {
    errors.StaleEntry: (409, "stale_entry"),
    errors.HandBlocked: (409, "hand_disputed"),
    errors.NotYourHand: (409, "not_your_hand"),
    errors.WrongDecision: (409, "wrong_action"),
    PartyOver: (409, "party_over"),
    InvalidCard: (422, "invalid_card"),
    WrongHandSize: (422, "wrong_hand_size"),
    IllegalMeld: (422, "illegal_meld"),
    IllegalKnock: (422, "illegal_knock"),
    ImpossibleClaim: (422, "impossible_claim"),
    errors.EntryError: (422, "invalid_entry"),
    # The core signals every other impossible value with a plain ValueError.
    ValueError: (422, "invalid_entry"),
}

ERROR_RESPONSES = {codes_4xx: ErrorOut}


# --- Seats -----------------------------------------------------------------------


@router.get("/tables/{token}", response={200: TableOut, **ERROR_RESPONSES})
def table_detail(request, token: Token):
    """The seat's view of its party: the sheet, the open hand, who deals and plays
    it, whether this seat may confirm, the settlement once over, and a ``version``
    that changes whenever anything on the sheet does (poll it)."""
    seat = selectors.seat_by_token(token)
    return _table(seat, selectors.seat_view(seat))


@router.post("/tables/{token}/hands", response={200: EntryOut, 201: EntryOut, **ERROR_RESPONSES})
def table_hand_enter(request, token: Token, entry: HandEntryIn):
    """Enter hand ``number``: by the counts or by the cards; the rules engine scores
    it. 201 with the outcome (``entered``, ``recorded``, ``confirmed``,
    ``disputed``); 200 with ``repeated`` when the same ``key`` was sent before."""
    seat = selectors.seat_by_token(token)
    outcome = services.hand_enter(
        seat=seat,
        number=entry.number,
        result=_result(entry, seat.party.rules),
        key=_key(seat, entry.key),
        address=client_address(request),
    )
    return Status(200 if outcome.action == "repeated" else 201, _entry(token, outcome))


@router.post("/tables/{token}/hands/{number}/confirm", response={200: EntryOut, **ERROR_RESPONSES})
def table_hand_confirm(request, token: Token, number: Number, body: ConfirmIn):
    """Confirm the other side's pending entry of hand ``number``."""
    seat = selectors.seat_by_token(token)
    outcome = services.hand_confirm(
        seat=seat,
        number=number,
        key=_key(seat, body.key),
        address=client_address(request),
    )
    return _entry(token, outcome)


def _key(seat, key: str | None) -> str | None:
    # Keys are unique across all parties in the audit record, and API clients
    # choose their own ("hand-1"): scoped to the seat, two tables cannot replay
    # each other's entries.
    return f"{seat.pk}:{key}" if key else None


def _entry(token: str, outcome) -> dict:
    # Read again after the write: the party may have just finished.
    seat = selectors.seat_by_token(token)
    view = selectors.seat_view(seat)
    seats = _Seats(view["state"].seats)
    number = outcome.hand.number if outcome.hand else None
    return {
        "outcome": outcome.action,
        "message": _outcome_message(outcome.action, number),
        "hand": seats.hand(outcome.hand) if outcome.hand else None,
        "table": _table(seat, view),
    }


def _outcome_message(action: str, number: int | None) -> str:
    messages = {
        "entered": gettext("Hand %(number)s is entered; the other side confirms it."),
        "recorded": gettext("Hand %(number)s is recorded."),
        "confirmed": gettext("Hand %(number)s is confirmed."),
        "disputed": gettext(
            "Hand %(number)s is disputed: the two entries differ, and the organizer decides."
        ),
        "repeated": gettext("Hand %(number)s had already arrived; it is stored once."),
    }
    return messages[action] % {"number": number}


# --- Organizers ------------------------------------------------------------------


@router.get(
    "/parties/{party_id}", auth=django_auth, response={200: PartyDetailOut, **ERROR_RESPONSES}
)
def party_detail(request, party_id: Id):
    """The whole party for its organizer: seats with their links, the sheet, and
    every hand with who entered, confirmed or decided it."""
    return _party_detail(request, _organized_party(request, party_id))


@router.get(
    "/parties/{party_id}/audit",
    auth=django_auth,
    response={200: list[AuditOut], **ERROR_RESPONSES},
)
def party_audit(request, party_id: Id):
    """Every entry, confirmation, dispute, correction and void, oldest first."""
    party = _organized_party(request, party_id)
    return [_audit(record) for record in selectors.party_audit(party)]


@router.post(
    "/parties/{party_id}/hands/{hand_id}/decide",
    auth=django_auth,
    response={200: DecideOut, **ERROR_RESPONSES},
)
def party_hand_decide(request, party_id: Id, hand_id: Id, decision: DecideIn):
    """Correct, resolve or void a hand, with a reason that goes into the record."""
    party = _organized_party(request, party_id)
    hand = selectors.party_hand(party, hand_id)
    result = None if decision.result is None else _result(decision.result, party.rules)
    hand = services.hand_decide(
        hand=hand,
        user=request.auth,
        result=result,
        reason=decision.reason,
        address=client_address(request),
        # A correction of a disputed hand must look at both versions: resolve it.
        disputed={"resolve": True, "correct": False}.get(decision.action),
    )
    detail = _party_detail(request, selectors.party_by_id(party_id))
    decided = next(h for h in detail["hands"] if h["id"] == hand.pk)
    return {"action": decision.action, "hand": decided, "party": detail}


def _organized_party(request, party_id: int):
    party = selectors.party_by_id(party_id)
    if not is_organizer(user=request.auth, club=party.club):
        raise PermissionDenied(
            gettext("Only an organizer of %(club)s may see or change this party.")
            % {"club": party.club.name}
        )
    return party


# --- From a request to a result ----------------------------------------------------


def _result(entry: ResultIn, rules: dict) -> services.Result:
    """The table's result as the services take it; with cards, the engine finds
    the ending and the deadwood."""
    rulings = entry.rulings.given()
    if entry.by_cards:
        return services.result_from_cards(
            Rules.from_dict(rules),
            knocker=entry.knocker,
            knocker_cards=entry.knocker_cards,
            defender_cards=entry.defender_cards,
            up_card=entry.up_card,
            melds=entry.melds,
            rulings=rulings,
        )
    if entry.ending == Hand.Ending.NO_GAME:
        return services.Result(Hand.Ending.NO_GAME)
    details = dict(rulings)
    if entry.up_card:
        details["up_card"] = str(parse_card(entry.up_card))
    knocker_deadwood = entry.knocker_deadwood
    if knocker_deadwood is None:  # gin and big gin: the schema asks for it on a knock
        knocker_deadwood = 0
    return services.Result(
        entry.ending,
        knocker=entry.knocker,
        knocker_deadwood=knocker_deadwood,
        defender_deadwood=entry.defender_deadwood,
        details=details,
    )


# --- From rows to bodies ---------------------------------------------------------


class _Seats:
    """The party's seats, loaded once: hands refer to them by id or position
    without a query per hand."""

    def __init__(self, seats):
        self.by_id = {seat.pk: seat for seat in seats}
        self.by_position = {seat.position: seat for seat in seats}

    @staticmethod
    def ref(seat) -> dict | None:
        if seat is None:
            return None
        return {"position": seat.position, "side": seat.side, "player": seat.player.name}

    def of(self, seat_id) -> dict | None:
        return self.ref(self.by_id.get(seat_id))

    def at(self, position) -> dict | None:
        return self.ref(self.by_position.get(position))

    def hand(self, hand: Hand) -> dict:
        return {
            "id": hand.pk,
            "number": hand.number,
            "table": hand.table,
            "status": hand.status,
            "ending": hand.ending,
            "kind": hand.kind,
            "points": hand.points,
            "dealer": self.of(hand.dealer_id),
            "knocker": self.of(hand.knocker_id),
            "defender": self.of(hand.defender_id),
            "winner": self.of(hand.winner_id),
            "knocker_deadwood": hand.knocker_deadwood,
            "defender_deadwood": hand.defender_deadwood,
            "details": hand.details,
            "entered_by": self.of(hand.entered_by_id),
            "confirmed_by": self.of(hand.confirmed_by_id),
            "decided": hand.decided_by_id is not None,
            "counter": self.counter(hand.counter),
        }

    def counter(self, counter: dict | None) -> dict | None:
        if not counter:
            return None
        return {
            "entered_by": self.at(counter.get("seat")),
            "ending": counter["ending"],
            "knocker": self.at(counter.get("knocker")),
            "knocker_deadwood": counter.get("knocker_deadwood"),
            "defender_deadwood": counter.get("defender_deadwood"),
            "kind": counter.get("kind", ""),
            "points": counter.get("points", 0),
            "winner": self.at(counter.get("winner")),
            "details": counter.get("details") or {},
        }


def _party(party) -> dict:
    return {
        "id": party.pk,
        "club": party.club.name,
        "label": party.label,
        "format": party.format,
        "target": party.target,
        "status": party.status,
        "confirmation_required": party.confirmation_required,
        "rules": party.rules,
    }


def _sheet(sheet: dict, seats: _Seats) -> dict:
    rows = []
    rounds = []
    for row in sheet["rows"]:
        hand = row["hand"]
        running = [cell["running"] for cell in row["cells"]]
        if hand is None:  # a partnership round's net, written in the team's column
            written = [(side, c["points"]) for side, c in enumerate(row["cells"]) if c["points"]]
            side, points = written[0] if written else (None, 0)
            rounds.append(
                {"round": row["round"], "winner_side": side, "points": points, "running": running}
            )
            continue
        winner = seats.by_id.get(hand.winner_id)
        rows.append(
            {
                "number": hand.number,
                "table": hand.table,
                "status": hand.status,
                "kind": hand.kind,
                "winner_side": winner.side if winner else None,
                "points": hand.points,
                "running": None if None in running else running,
            }
        )
    return {
        "sides": sheet["headers"],
        "rows": rows,
        "rounds": rounds,
        "points": sheet["points"],
        "boxes": sheet["boxes"],
        "needed": sheet["needed"],
    }


def _settlement(state, names: list[str]) -> dict | None:
    if not state.finished:
        return None
    view = selectors.settlement_view(state)
    # A chouette wraps the two-sided party between box and team; a rotation has
    # no single winner, only payments.
    core = getattr(state.settlement, "party", state.settlement)
    return {
        "sides": [
            {
                "side": side,
                "name": names[side],
                "points": total.points,
                "boxes": total.boxes,
                "box_bonus": total.box_bonus,
                "game_bonus": total.game_bonus,
                "shutout_bonus": total.shutout_bonus,
                "total": total.total,
            }
            for side, total in enumerate(view["totals"])
        ],
        "winner_side": getattr(core, "winner", None),
        "margin": getattr(core, "margin", None),
        "payments": [
            {"payer": payer, "payee": payee, "amount": amount}
            for payer, payee, amount in view["payments"]
        ],
    }


def _table(seat, view: dict) -> dict:
    state = view["state"]
    seats = _Seats(state.seats)
    open_hand = view["open_hand"]
    return {
        "party": _party(seat.party),
        "seat": seats.ref(seats.by_id[seat.pk]),
        "number": None if state.finished else state.number,
        "dealer": seats.ref(view["dealer"]),
        "players": [seats.ref(player) for player in view["players"]],
        "open_hand": seats.hand(open_hand) if open_hand else None,
        "can_confirm": view["can_confirm"],
        "sheet": _sheet(view["sheet"], seats),
        "settlement": _settlement(state, view["sheet"]["headers"]),
        "version": view["version"],
    }


def _party_detail(request, party) -> dict:
    state, hands = selectors.state_for(party)
    sheet = selectors.sheet_rows(state, hands)
    seats = _Seats(state.seats)
    return {
        "party": _party(party),
        "seats": [
            {
                **seats.ref(seat),
                "token": seat.token,
                "link": request.build_absolute_uri(seat.get_absolute_url()),
            }
            for seat in state.seats
        ],
        "number": None if state.finished else state.number,
        "sheet": _sheet(sheet, seats),
        "hands": [seats.hand(hand) for hand in hands],
        "settlement": _settlement(state, sheet["headers"]),
        "version": selectors.version(state, hands),
    }


def _audit(record) -> dict:
    return {
        "id": record.pk,
        "at": record.at,
        "action": record.action,
        "hand_id": record.hand_id,
        "hand_number": record.hand.number if record.hand else None,
        "seat": _Seats.ref(record.seat),
        "user": record.user.get_username() if record.user else None,
        "address": record.address,
        "before": record.before,
        "after": record.after,
        "reason": record.reason,
    }
