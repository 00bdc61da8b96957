"""Bodies of a table's API for the club's other games (Chinchón, Canasta, Blaue
Vierzehn, Cruzo): a hand's entry as the game's engine reads it (`Game.hand`), and
the seat's view of the party. Apart from Gin Rummy's bodies, which stay as they are.

The request schemas check only the shape and the ranges; whether the hand fits
together (a deal of 56 points, one side out, a closer still in) is the engine's
call, answered as 422 ``invalid_entry`` with its words. Unknown fields are refused."""

from typing import Annotated

from ninja import Field, Schema
from pydantic import ConfigDict, StrictBool, StringConstraints

from scoring.api.entry_schemas import Version
from web.api_errors import ErrorOut
from web.validators import KeyText

# A side by its number, 0 first, in seat order: the largest table has seven.
Side = Annotated[int, Field(ge=0, le=6)]
Penalty = Annotated[int, Field(ge=0, le=96)]
CanastaPoints = Annotated[int, Field(ge=0, le=1280)]
Canastas = Annotated[int, Field(ge=0, le=15)]
TrickPoints = Annotated[int, Field(ge=0, le=56)]
TableCards = Annotated[int, Field(ge=0, le=6)]
SideKey = Annotated[str, StringConstraints(pattern=r"^[0-6]$")]


# A Spanish card: the rank 1-12, then the suit O (oros), C (copas), E (espadas) or B
# (bastos), either case; the engine refuses a card its pack does not hold.
SpanishCard = Annotated[str, StringConstraints(pattern=r"^(1[0-2]|[1-9])[OCEBoceb]$")]


class ChinchonEntryIn(Schema):
    """Chinchón: the side that closed, and either each side's penalty points or
    each side's cards (seven, eight with the card just drawn: the engine finds
    the least penalty and a Chinchón); ``null`` for a player already out in La
    Conga. ``chinchon``: the closer showed seven cards in one run."""

    model_config = ConfigDict(extra="forbid")

    closer: Side
    penalties: list[Penalty | None] | None = Field(None, min_length=2, max_length=4)
    cards: list[list[SpanishCard] | None] | None = Field(None, min_length=2, max_length=4)
    chinchon: StrictBool = False


class CanastaSideIn(Schema):
    """One side's hand of Canasta."""

    model_config = ConfigDict(extra="forbid")

    meld_points: CanastaPoints
    natural_canastas: Canastas = 0
    mixed_canastas: Canastas = 0
    red_threes: Annotated[int, Field(ge=0, le=4)] = 0
    went_out: StrictBool = False
    concealed: StrictBool = False
    hand_points: CanastaPoints = 0
    has_melded: StrictBool = True


class CanastaEntryIn(Schema):
    """Canasta: each side's entries, in side order."""

    model_config = ConfigDict(extra="forbid")

    sides: list[CanastaSideIn] = Field(..., min_length=2, max_length=6)


class BlaueVierzehnEntryIn(Schema):
    """Blaue Vierzehn: each side's points from its tricks; a deal adds up to 56."""

    model_config = ConfigDict(extra="forbid")

    points: list[TrickPoints] = Field(..., min_length=3, max_length=6)


class CruzoEntryIn(Schema):
    """Cruzo: the sides that went out, first out first, and the cards left on the
    table of each side still in (by side number, as text)."""

    model_config = ConfigDict(extra="forbid")

    went_out: list[Side] = Field(..., min_length=1, max_length=7)
    cards_left: dict[SideKey, TableCards] = Field(default_factory=dict)


GameEntry = ChinchonEntryIn | CanastaEntryIn | BlaueVierzehnEntryIn | CruzoEntryIn


class GameEntryIn(Schema):
    """Enter hand ``number`` of another game. ``version``: the pending entry's
    ``version`` the phone showed, when this answers another side's entry (the same
    entry confirms it, a different one disputes it). ``key``: the same key sent
    again stores once."""

    model_config = ConfigDict(extra="forbid")

    number: Annotated[int, Field(ge=1, le=32767)]
    entry: GameEntry
    key: KeyText | None = None
    version: Version | None = None


# --- Responses -------------------------------------------------------------------


class GameSeatOut(Schema):
    position: int
    side: int
    player: str


class GamePartyOut(Schema):
    id: int
    club: str
    label: str
    game: str
    name: str
    status: str
    confirmation_required: bool
    options: dict


class GameSideOut(Schema):
    """A side: its players' names, its total over the confirmed hands, its place,
    whether it is out of play (La Conga) or won, and the game's hint for its next
    hand (Canasta: the first meld's minimum) or ``null``."""

    side: int
    players: list[str]
    total: int
    place: int
    out: bool
    winner: bool
    hint: int | None


class GameHandOut(Schema):
    """A hand as entered: ``scores`` by side as the engine scored the entry,
    ``confirmations``: the positions that confirmed the current ``version`` so far;
    ``counter``: the other entry of a disputed hand."""

    number: int
    status: str
    scores: list[int]
    entry: dict | None
    facts: dict | None
    entered_by: int | None
    confirmations: list[int]
    version: int
    counter: dict | None


class GameTableOut(Schema):
    """The seat's view of a party of another game. ``number``: the hand being
    played (``null`` once over); ``confirmations_needed``: how many more players
    must confirm the open hand; ``version`` changes whenever anything here does."""

    party: GamePartyOut
    seat: GameSeatOut
    lower_wins: bool
    sides: list[GameSideOut]
    hands: list[GameHandOut]
    number: int | None
    open_hand: GameHandOut | None
    can_confirm: bool
    may_enter: bool
    confirmations_needed: int
    over: bool
    winners: list[int]
    version: str


class GameEntryOut(Schema):
    outcome: str
    message: str
    hand: GameHandOut | None
    table: GameTableOut


class GameChangedOut(ErrorOut):
    """409 ``entry_changed``: the entry answered is no longer pending as shown;
    ``hand`` is the entry as it now stands."""

    hand: GameHandOut | None = None
