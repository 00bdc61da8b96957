"""Bodies of the JSON API for parties and score sheets.

Request schemas only validate: the shape, the ranges, and which fields belong
together. Whether a hand is possible (a legal knock, real cards, gin without
deadwood) is the rules engine's call, so its messages are the ones players see.
Unknown fields are refused, so a misspelt field is an error rather than a value
silently left out of a hand.
"""

from datetime import date, datetime
from typing import Annotated, Literal

from django.utils.translation import gettext
from ninja import Field, Schema
from pydantic import ConfigDict, StrictBool, StringConstraints, model_validator
from pydantic_core import PydanticCustomError

from config.api_errors import ErrorOut
from config.validators import KeyText, Text
from scoring import entries

# A hand holds at most eleven cards: ten, and the card just drawn.
CardText = Annotated[Text, StringConstraints(strip_whitespace=True, min_length=1, max_length=8)]
Cards = Annotated[list[CardText], Field(max_length=11)]
Ending = Literal["knock", "gin", "big_gin", "no_game"]


def _refuse(message: str) -> PydanticCustomError:
    # A custom error keeps the sentence as it is: pydantic prefixes a plain
    # ValueError's message with "Value error, ".
    return PydanticCustomError("invalid_entry", message)


class Rulings(Schema):
    """The director's rulings of seed 000 § 14, named as in ``services.RULINGS``."""

    model_config = ConfigDict(extra="forbid")

    knocker_missing_cards: int = Field(0, ge=0, le=9)
    defender_missing_cards: int = Field(0, ge=0, le=9)
    defender_too_many_cards: bool = False
    illegal_knock_accepted: bool = False

    def given(self) -> dict:
        return {name: value for name, value in self.model_dump().items() if value}


class ResultIn(Schema):
    """What the table says about a hand, in one of two ways:

    - the counts: ``ending``, ``knocker`` (a seat position) and the deadwood after
      lay-offs (the knocker's may be left out for gin and big gin);
    - the cards: ``knocker`` and both hands, ``knocker_cards`` (10, or 11 with the
      card just drawn) and ``defender_cards`` (10; the rulings for missing or extra
      cards change these numbers); the engine finds the melds, the lay-offs and the
      ending. ``melds`` declares the melds the knocker actually put down, when the
      players say he did not lay them out the best way.

    ``up_card`` is the first card turned up (Oklahoma sets the knock limit from it).
    """

    model_config = ConfigDict(extra="forbid")

    ending: Ending | None = None
    knocker: int | None = Field(None, ge=0, le=5)
    # The most the cards can hold is the engine's call, with the players' message.
    knocker_deadwood: int | None = Field(None, ge=0, le=999)
    defender_deadwood: int | None = Field(None, ge=0, le=999)
    knocker_cards: Cards | None = None
    defender_cards: Cards | None = None
    melds: Annotated[list[Cards], Field(max_length=4)] | None = None
    up_card: CardText | None = None
    rulings: Rulings = Field(default_factory=Rulings)

    @property
    def by_cards(self) -> bool:
        return self.knocker_cards is not None or self.defender_cards is not None

    @model_validator(mode="after")
    def _complete(self):
        if self.by_cards:
            self._check_cards()
        elif self.melds is not None:
            raise _refuse(gettext("Declared melds go with the cards: send both hands too."))
        else:
            self._check_counts()
        return self

    def _check_cards(self):
        # How many cards each hand shows, and whether they fit together, depends on
        # the rulings: the services check that and say so in the players' words.
        if (self.ending, self.knocker_deadwood, self.defender_deadwood) != (None, None, None):
            raise _refuse(
                gettext("Give either the cards or the ending and deadwood counts, not both.")
            )
        if self.knocker is None or self.knocker_cards is None or self.defender_cards is None:
            raise _refuse(
                gettext("A hand entered by its cards needs the knocker and both players' cards.")
            )

    def _check_counts(self):
        problem = entries.counts_problem(
            ending=self.ending,
            knocker=self.knocker,
            knocker_deadwood=self.knocker_deadwood,
            defender_deadwood=self.defender_deadwood,
            rulings=self.rulings.given(),
        )
        if problem:
            raise _refuse(problem)


# A hand's version (`HandOut.version`), as the database counts it.
Version = Annotated[int, Field(ge=1, le=2_147_483_647)]


class HandEntryIn(ResultIn):
    """A seat's entry of hand ``number``. ``key`` makes a retried submission count
    once: send the same key again (from the same seat) with the same body and the
    first outcome is repeated; a key means one request, so the same key with
    another hand or entry is refused (409 ``key_reused``, nothing stored): use a
    new key for each new entry. An entry equal to the side's pending one is
    ``repeated`` whatever its key, and its version stays. ``version``: when
    answering the other side's pending entry, the version of it that the phone
    showed; if it changed since, 409 ``entry_changed`` with the new entry."""

    number: int = Field(..., ge=1, le=32767)
    key: KeyText | None = None
    version: Version | None = None


class ConfirmIn(Schema):
    """A confirmation names the entry it approves: ``version`` is the pending
    entry's ``version`` as the phone showed it. If the entry changed since, the
    answer is 409 ``entry_changed`` with the new entry in ``hand``: show it, and
    confirm that version if it is right."""

    model_config = ConfigDict(extra="forbid")

    version: Version
    key: KeyText | None = None


class DecideIn(Schema):
    """The organizer's decision on a hand: ``correct`` a recorded or pending hand
    (with the right ``result``), ``resolve`` a disputed one (with the right
    ``result``, or by accepting one of its two versions: ``version`` ``"entered"``,
    as entered first, or ``"counter"``, the other side's), or ``void`` it (dealt
    again by the same dealer). The reason is kept in the party's record."""

    model_config = ConfigDict(extra="forbid")

    action: Literal["correct", "resolve", "void"]
    reason: Text = Field(..., max_length=2000)
    result: ResultIn | None = None
    version: Literal["entered", "counter"] | None = None

    @model_validator(mode="after")
    def _result_fits_action(self):
        if self.action == "void" and (self.result, self.version) != (None, None):
            raise _refuse(gettext("A void hand has no result: leave the result out."))
        if self.version is not None and self.action != "resolve":
            raise _refuse(gettext("Only a disputed hand has two versions to choose from."))
        if self.version is not None and self.result is not None:
            raise _refuse(gettext("Give either the right result or the version to accept."))
        if self.action != "void" and self.result is None and self.version is None:
            raise _refuse(gettext("Give the right result of the hand."))
        return self


# --- Responses -------------------------------------------------------------------


class SeatOut(Schema):
    position: int
    side: int
    player: str


class SeatLinkOut(SeatOut):
    token: str
    link: str


class PartyOut(Schema):
    id: int
    club: str
    label: str
    format: str
    target: int
    status: str
    confirmation_required: bool
    rules: dict


class CounterOut(Schema):
    """The other side's version of a disputed hand."""

    entered_by: SeatOut | None
    ending: str
    knocker: SeatOut | None
    knocker_deadwood: int | None
    defender_deadwood: int | None
    kind: str
    points: int
    winner: SeatOut | None
    details: dict


class HandOut(Schema):
    id: int
    number: int
    table: int
    status: str
    ending: str
    kind: str
    points: int
    dealer: SeatOut | None
    knocker: SeatOut | None
    defender: SeatOut | None
    winner: SeatOut | None
    knocker_deadwood: int | None
    defender_deadwood: int | None
    details: dict
    entered_by: SeatOut | None
    confirmed_by: SeatOut | None
    decided: bool
    counter: CounterOut | None
    # Raised by every change to the hand: a confirmation names it.
    version: int


class ChangedOut(ErrorOut):
    """409 ``entry_changed``: the entry answered is no longer pending as shown;
    ``hand`` is the entry as it now stands."""

    hand: HandOut | None = None


class RowOut(Schema):
    number: int
    table: int
    status: str
    kind: str
    winner_side: int | None
    points: int
    # None for a partnership table's hand: the round's net is what is written.
    running: list[int] | None


class PartnershipRoundOut(Schema):
    """A partnership round: the net of its tables, written in one team's column."""

    round: int
    winner_side: int | None
    points: int
    running: list[int]


class SheetOut(Schema):
    sides: list[str]
    rows: list[RowOut]
    rounds: list[PartnershipRoundOut]
    points: list[int]
    boxes: list[int]
    needed: list[int]


class SideTotalOut(Schema):
    side: int
    name: str
    points: int
    boxes: int
    box_bonus: int
    game_bonus: int
    shutout_bonus: int
    total: int


class PaymentOut(Schema):
    payer: str
    payee: str
    amount: int


class SettlementOut(Schema):
    sides: list[SideTotalOut]
    winner_side: int | None
    margin: int | None
    payments: list[PaymentOut]


class SeatTableOut(Schema):
    """What a seat sees of its table."""

    party: PartyOut
    seat: SeatOut
    number: int | None
    dealer: SeatOut | None
    players: list[SeatOut]
    open_hand: HandOut | None
    can_confirm: bool
    sheet: SheetOut
    settlement: SettlementOut | None
    version: str


class EntryOut(Schema):
    outcome: Literal["entered", "recorded", "confirmed", "disputed", "repeated"]
    message: str
    hand: HandOut | None
    table: SeatTableOut


class PartyDetailOut(Schema):
    party: PartyOut
    seats: list[SeatLinkOut]
    number: int | None
    sheet: SheetOut
    hands: list[HandOut]
    settlement: SettlementOut | None
    version: str


class DecideOut(Schema):
    action: str
    hand: HandOut
    party: PartyDetailOut


class AuditOut(Schema):
    id: int
    at: datetime
    action: str
    hand_id: int | None
    hand_number: int | None
    seat: SeatOut | None
    user: str | None
    address: str | None
    before: dict | None
    after: dict | None
    reason: str


# --- The organizer's nights and parties ---------------------------------------------


class NightIn(Schema):
    model_config = ConfigDict(extra="forbid")

    name: Annotated[Text, StringConstraints(strip_whitespace=True, min_length=1, max_length=120)]
    date: date
    ruleset: Annotated[Text, StringConstraints(max_length=40)] = "classic"
    confirmation_required: bool = True


class NightOut(Schema):
    id: int
    club: str
    name: str
    date: date
    ruleset: str
    confirmation_required: bool
    # When the night was closed (its results final), or None while it is open.
    closed_at: datetime | None


class PartyStartIn(Schema):
    model_config = ConfigDict(extra="forbid")

    format: Literal["two", "rotation", "chouette", "partners"] = "two"
    players: Annotated[list[Annotated[int, Field(ge=1, le=2_147_483_647)]], Field(max_length=6)]
    label: Annotated[Text, StringConstraints(max_length=120)] = ""
    # A player already at a running party of the night is refused (409
    # already_seated) unless the organizer means it.
    anyway: StrictBool = False


# --- The night's housekeeping ---------------------------------------------------------


class CancelIn(Schema):
    """Why the party is cancelled: kept in its record. Left out or blank, the
    answer says a reason is needed."""

    model_config = ConfigDict(extra="forbid")

    # As long as the party page's form takes.
    reason: Text = Field("", max_length=500)


class SwapIn(Schema):
    """Who takes the seat: a player id of the club (``/api/manage/clubs/{slug}/players``)."""

    model_config = ConfigDict(extra="forbid")

    player: int = Field(..., ge=1, le=2_147_483_647)
