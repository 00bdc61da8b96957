"""Bodies of the JSON API for parties and score sheets.

Request schemas only validate: the shape, the ranges, and which fields belong
together. Whether a hand is possible (a legal knock, real cards, gin without
deadwood) is the rules engine's call, so its messages are the ones players see.
Unknown fields are refused, so a misspelt field is an error rather than a value
silently left out of a hand.
"""

from datetime import date, datetime
from decimal import Decimal
from typing import Annotated, Literal

from django.utils.translation import gettext
from ninja import Field, Schema
from pydantic import (
    ConfigDict,
    StrictBool,
    StrictInt,
    StringConstraints,
    WithJsonSchema,
    model_validator,
)
from pydantic_core import PydanticCustomError

from scoring.api.entry_schemas import (  # noqa: F401  (the bodies' one address)
    CardText,
    ConfirmIn,
    DecideIn,
    HandEntryIn,
    ResultIn,
    Rulings,
    Version,
    _refuse,
    _shapes,
)
from scoring.engine.formats import FORMATS
from scoring.engine.games import ENTRY_GAMES, FORMAT_GAMES, GAMES
from scoring.models import DEFAULT_GAME
from web.api_errors import ErrorOut
from web.validators import FilledText, Text

# --- Responses -------------------------------------------------------------------


class SeatOut(Schema):
    position: int
    side: int
    player: str


class SeatPlayerOut(SeatOut):
    """A seat with its player's id: a hand's knocker may be named by either."""

    player_id: int


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
    """What a seat sees of its table. ``seats``: every seat of the party, with its
    player's id. ``players``, ``dealer`` and ``open_hand``: the hand being played
    at this seat's table; while this seat sits it out (``sits_out``, rotation and
    chouette), the hand played without it, which it follows but may not enter or
    confirm."""

    party: PartyOut
    seat: SeatOut
    seats: list[SeatPlayerOut]
    number: int | None
    sits_out: bool
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

    name: Annotated[
        FilledText, StringConstraints(strip_whitespace=True, min_length=1, max_length=120)
    ]
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
    # What a point is worth (`NightStakeOut`); None: not played for money.
    stake: Decimal | None
    # The club's currency (ISO 4217), which every amount of the night is in.
    currency: str


class NightPlayerOut(Schema):
    """A player of the club (his id as ``/api/manage/clubs/{slug}/players`` gives it)."""

    id: int
    name: str


class NightLineOut(Schema):
    """One player's night: the parties he finished and won, at which games, his
    plus/minus over them and, with a stake, its amount. ``place``: by the
    plus/minus, equal plus/minus sharing a place (``shared``)."""

    place: int
    shared: bool
    player: NightPlayerOut
    games: list[str]
    played: int
    won: int
    plus_minus: int
    amount: Decimal | None


class NightResultsOut(Schema):
    """The night's results, as its results page and results.csv give them: every
    player with a finished party, best first. ``running``: parties not over yet,
    not counted. A night is final once closed (``night.closed_at``)."""

    night: NightOut
    stake: Decimal | None
    currency: str
    running: int
    lines: list[NightLineOut]


class NightPaymentOut(Schema):
    """One payment: ``payer`` pays ``payee`` ``amount`` (``points`` at the stake)."""

    payer: NightPlayerOut
    payee: NightPlayerOut
    points: int
    amount: Decimal


class NightPaymentsOut(Schema):
    """The fewest payments that settle every finished party of the night at once, at
    its stake, as its results page lists them; none without a stake."""

    stake: Decimal | None
    currency: str
    running: int
    payments: list[NightPaymentOut]


class NightStakeOut(Schema):
    """What a point is worth at the night, in the club's ``currency``; null: not
    played for money."""

    stake: Decimal | None
    currency: str


#: An amount per point, as a number or as text (exact): what `nights.night_set_stake` takes.
Stake = Annotated[
    Decimal,
    Field(ge=0, lt=100000, decimal_places=2),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "number", "minimum": 0, "exclusiveMaximum": 100000},
                {"type": "string", "pattern": r"^[0-9]{1,5}(\.[0-9]{1,2})?$"},
            ]
        }
    ),
]


class NightStakeIn(Schema):
    """What a point is worth at the night: an amount of 0 or more in cents at most
    (``"0.05"``, or 0.05); null or 0: not played for money. A closed night's stake
    is final (409 ``night_closed``)."""

    model_config = ConfigDict(extra="forbid")

    stake: Stake | None


#: The games a party plays: the keys of `scoring.engine.games.GAMES`.
GameKey = Literal[tuple(GAMES)]


class PartyStartIn(Schema):
    """Gin Rummy in one of its formats (the players draw for their seats), or another
    game (``game``) with its options (``options``, the game's defaults for those
    left out), the players in seat order, the first dealing first."""

    model_config = ConfigDict(extra="forbid")

    game: GameKey = DEFAULT_GAME
    format: Literal[tuple(FORMATS)] = next(iter(FORMATS))  # type: ignore[valid-type]
    # Seven at most: Cruzo's largest table.
    players: Annotated[list[Annotated[int, Field(ge=1, le=2_147_483_647)]], Field(max_length=7)]
    options: dict[str, StrictInt | StrictBool | None] | None = None
    label: Annotated[Text, StringConstraints(max_length=120)] = ""
    # A player already at a running party of the night is refused (409
    # already_seated) unless the organizer means it.
    anyway: StrictBool = False

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema, handler):
        # How many players each format or game seats (`scoring.engine.formats`,
        # `Game.table_sizes`), each once (`parties.party_start`,
        # `party_start`), and each game's options. Whether the players are the
        # club's members, and which options go together (three partnerships need
        # six at Canasta), only the server knows (422).
        schema, target, fields, _ = _shapes(core_schema, handler)
        players = {**fields["players"], "uniqueItems": True}
        gin = {name: field for name, field in fields.items() if name != "options"}
        gin["game"] = {"type": "string", "enum": sorted(FORMAT_GAMES)}
        # Each format's table sizes as runs (partnerships: four, or six); the
        # format a body leaves out is the field's default.
        variants = [
            (key, low, high)
            for key, party_format in FORMATS.items()
            for low, high in _runs(sorted(party_format.sizes))
        ]
        left_out = fields["format"].get("default")
        target["oneOf"] = [
            {
                "title": f"{format}, {low}"
                + ("" if low == high else f" to {high}")
                + f" players ({cls.__name__})",
                "type": "object",
                "properties": {
                    **gin,
                    "format": {"type": "string", "const": format},
                    "players": {**players, "minItems": low, "maxItems": high},
                },
                # Left out, the format is a game of two.
                "required": ["players"] if format == left_out else ["format", "players"],
                "additionalProperties": False,
            }
            for format, low, high in variants
        ]
        # Another game: its key, the players in seat order (as many as the game
        # seats: the server says which, 422), and its options by name (each game's
        # in the organizers' guide; left untyped here: a nested object in a variant is one that
        # client generators cannot name, and the server checks each option, 422).
        others = {name: field for name, field in fields.items() if name != "format"}
        target["oneOf"].append(
            {
                "title": f"another game ({cls.__name__})",
                "type": "object",
                "properties": {
                    **others,
                    "game": {"type": "string", "enum": sorted(ENTRY_GAMES)},
                    "players": {
                        **players,
                        "minItems": min(min(g.table_sizes) for g in ENTRY_GAMES.values()),
                        "maxItems": max(max(g.table_sizes) for g in ENTRY_GAMES.values()),
                    },
                    "options": {"description": "The game's options by name; null: its defaults."},
                },
                "required": ["game", "players"],
                "additionalProperties": False,
            }
        )
        return schema


class GameHandForOrganizerOut(Schema):
    """A hand of another game: each side's points (the engine's), the entry as sent
    and, when disputed, the other entry with its points."""

    id: int
    number: int
    status: str
    scores: list[int] | None
    entry: dict | None
    entered_by: SeatOut | None
    counter: dict | None


class GamePartyForOrganizerOut(Schema):
    """A party of another game for its organizer: seats with their links, the
    sides (seat positions), each side's total over the confirmed hands, every
    hand, and once over the winning sides, each side's place and margin (what it
    wins or pays at the stake per point)."""

    party: PartyOut
    game: str
    options: dict
    seats: list[SeatLinkOut]
    sides: list[list[int]]
    totals: list[int]
    lower_wins: bool
    hands: list[GameHandForOrganizerOut]
    over: bool
    winners: list[int]
    places: list[int]
    margins: list[int]


class GameDecideIn(Schema):
    """The organizer's decision on a hand of another game, with the reason, kept in
    the record: ``resolve`` a disputed hand (the default) with the right ``entry``
    as the players enter it (the game's fields) or one of its two entries as it
    stands (``version``); ``correct`` a confirmed or waiting hand with the right
    ``entry``; ``void`` a hand (no entry: it counts nothing, the next is dealt)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"required": ["reason"]})

    action: Literal["resolve", "correct", "void"] = "resolve"
    entry: dict | None = None
    version: Literal["entered", "counter"] | None = None
    reason: FilledText = Field("", max_length=500)

    @model_validator(mode="after")
    def _entry_fits_action(self):
        if self.action == "void" and (self.entry, self.version) != (None, None):
            raise PydanticCustomError(
                "invalid_entry", gettext("A void hand has no entry: leave the entry out.")
            )
        if self.version is not None and self.action != "resolve":
            raise PydanticCustomError(
                "invalid_entry", gettext("Only a disputed hand has two versions to choose from.")
            )
        return self


class GameDecideOut(Schema):
    hand: GameHandForOrganizerOut
    party: GamePartyForOrganizerOut


# --- The night's housekeeping ---------------------------------------------------------


class CancelIn(Schema):
    """Why the party is cancelled: kept in its record. Left out or blank, the
    answer says a reason is needed."""

    # As long as the party page's form takes. The service refuses it left out or
    # blank, in its own words: the document asks for it, with a visible character.
    model_config = ConfigDict(extra="forbid", json_schema_extra={"required": ["reason"]})

    reason: FilledText = Field("", max_length=500)


class SwapIn(Schema):
    """Who takes the seat: a player id of the club (``/api/manage/clubs/{slug}/players``)."""

    model_config = ConfigDict(extra="forbid")

    player: int = Field(..., ge=1, le=2_147_483_647)


def _runs(sizes: list[int]) -> list[tuple[int, int]]:
    """Sorted table sizes as runs of consecutive numbers: [3, 4, 5, 6] is (3, 6),
    [4, 6] is (4, 4) and (6, 6)."""
    runs: list[list[int]] = []
    for size in sizes:
        if runs and runs[-1][1] == size - 1:
            runs[-1][1] = size
        else:
            runs.append([size, size])
    return [(low, high) for low, high in runs]
