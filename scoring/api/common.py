"""What the API's two callers share: the error table, the path types, the
result a request describes, and the bodies built from rows.

Errors are answered as ``{"detail": …, "code": …}`` by the handlers in
``config/api.py``; `ERRORS` below says which status and code each of the scoring
errors gets:

- 409: the entry is fine in itself but the party's state refuses it now: a stale
  hand number, a disputed hand, an over party, or a seat that may not do this at
  this moment (``not_your_hand``: confirming its own side's entry, sitting out the
  hand, naming a knocker who is not at its table). Not 403, because the seat's link
  is valid: a client that treats 403 as "this link was revoked" would be misled.
  Also ``key_reused``: the idempotency key was already sent by this seat with
  another hand or entry (a key means one request); nothing was stored.
- 422: what the request says is impossible: the body's shape, a card that does not
  exist or is named twice, a knock over the limit, gin with deadwood, more deadwood
  than ten cards hold, big gin under rules without it, Oklahoma without the up-card.
"""

from typing import Annotated

from django.utils.translation import gettext
from ninja import Path

from clubs.templatetags.organizers import organizer_name
from scoring import entries, errors
from scoring.api.schemas import ResultIn
from scoring.engine.cards import InvalidCard
from scoring.engine.hands import (
    IllegalKnock,
    ImpossibleClaim,
    ImpossibleDeadwood,
    MissingUpCard,
    UnknownEnding,
)
from scoring.engine.melds import IllegalMeld, WrongHandSize
from scoring.engine.rules import Rules
from scoring.engine.settlement import PartyOver
from scoring.models import Hand
from scoring.services.knocks import Result, result_from_cards

# Row ids as the database stores them: a larger number is a 422, not an overflow.
Id = Annotated[int, Path(..., ge=1, le=2_147_483_647)]
Number = Annotated[int, Path(..., ge=1, le=32767)]
Token = Annotated[str, Path(..., max_length=64)]


#: Exception → (HTTP status, code); the most specific class wins.
ERRORS = {
    errors.EntryChanged: (409, "entry_changed"),
    errors.KeyReused: (409, "key_reused"),
    errors.StaleEntry: (409, "stale_entry"),
    errors.HandBlocked: (409, "hand_disputed"),
    errors.NotYourHand: (409, "not_your_hand"),
    errors.AlreadySeated: (409, "already_seated"),
    errors.WrongDecision: (409, "wrong_action"),
    errors.PartyCancelled: (409, "party_cancelled"),
    errors.NightClosed: (409, "night_closed"),
    errors.ResultFinal: (409, "result_final"),
    PartyOver: (409, "party_over"),
    InvalidCard: (422, "invalid_card"),
    WrongHandSize: (422, "wrong_hand_size"),
    IllegalMeld: (422, "illegal_meld"),
    IllegalKnock: (422, "illegal_knock"),
    ImpossibleClaim: (422, "impossible_claim"),
    ImpossibleDeadwood: (422, "impossible_deadwood"),
    UnknownEnding: (422, "unknown_ending"),
    MissingUpCard: (422, "missing_up_card"),
    errors.EntryError: (422, "invalid_entry"),
    # The core signals every other impossible value with a plain ValueError.
    ValueError: (422, "invalid_entry"),
}


# --- From a request to a result ----------------------------------------------------


def result_of(entry: ResultIn, party) -> Result:
    """The table's result as the services take it; with cards, the engine finds
    the ending and the deadwood. A knocker named by his player id is the
    party's seat of that player."""
    rulings = entry.rulings.given()
    knocker = entry.knocker
    if entry.knocker_player is not None:
        knocker = _seat_of(party, entry.knocker_player)
    if entry.by_cards:
        return result_from_cards(
            Rules.from_dict(party.rules),
            knocker=knocker,
            knocker_cards=entry.knocker_cards,
            defender_cards=entry.defender_cards,
            up_card=entry.up_card,
            melds=entry.melds,
            rulings=rulings,
        )
    return entries.result_from_counts(
        ending=entry.ending,
        knocker=knocker,
        knocker_deadwood=entry.knocker_deadwood,
        defender_deadwood=entry.defender_deadwood,
        up_card=entry.up_card,
        rulings=rulings,
    )


def _seat_of(party, player_id: int) -> int:
    """The position of ``player_id``'s seat at the party. Whether he plays this
    hand is the services' call (409 ``not_your_hand``), as for a seat named."""
    seats = party.seats.filter(player_id=player_id)
    position = seats.values_list("position", flat=True).first()
    if position is None:
        raise errors.EntryError(
            gettext("Player %(id)s has no seat at this party.") % {"id": player_id}
        )
    return position


# --- From rows to bodies ---------------------------------------------------------


class Seats:
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

    @classmethod
    def with_player(cls, seat) -> dict:
        return {**cls.ref(seat), "player_id": seat.player_id}

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
            "version": hand.version,
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


def party_body(party) -> dict:
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


def audit_body(record) -> dict:
    return {
        "id": record.pk,
        "at": record.at,
        "action": record.action,
        "hand_id": record.hand_id,
        "hand_number": record.hand.number if record.hand else None,
        "seat": Seats.ref(record.seat),
        # The organizer by name, as the pages name him: a login made at sign-up is
        # its owner's e-mail address, and every organizer of the club reads this.
        "user": organizer_name(record.user) if record.user else None,
        "address": record.address,
        "before": record.before,
        "after": record.after,
        "reason": record.reason,
    }
