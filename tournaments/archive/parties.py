"""What an archive holds of a party, one schema for every game: the party
(`PartyIn`) with its game and its rules or options, its seats (`SeatIn`), its hands
(`HandIn`) and its audit record (`AuditIn`).

Every hand carries what its game scored (each side's ``scores`` and the engine's
``facts``) and the confirmations so far. What the table entered stays as the
party's keeping keeps it (`scoring.services.keeping`): a game of party formats
(Gin Rummy) in the hand's columns — ending, dealer, knocker, defender, the
deadwoods, and the rules engine's kind, points and winner — with the cards and
the director's rulings in ``details``; every other game as its own entry,
``details["entry"]``, the columns left empty. So a few parts are read as the
party's keeping writes them (`Kept`), asked of the keeping, never of the game by
name: the party's rules or options, a hand's details, the other version of a
disputed hand, the snapshots of the audit record, which endings and tables a
hand may have, whether its columns hold anything, and whether its scores must be
given (the party formats' are read from the columns when an archive written
before version 3 gives none)."""

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    Field,
    IPvAnyAddress,
    StrictBool,
    StringConstraints,
    TypeAdapter,
    ValidationInfo,
    WrapValidator,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from scoring.engine.formats import FORMATS
from scoring.engine.games import ENTRY_GAMES, GAMES
from scoring.engine.hands import BIG_GIN, GIN, KNOCK, UNDERCUT, VOID
from scoring.engine.rules import SHUTOUT_BONUS, SHUTOUT_DOUBLE
from scoring.models import AuditRecord, Hand, Party
from scoring.services.keeping import FormatTables, WholeTable, keeping_for
from tournaments.archive.fields import (
    MOST_AUDIT,
    MOST_HANDS,
    MOST_SEATS,
    AnyGame,
    Blob,
    Card,
    Cards,
    FreeName,
    FreeObject,
    GameOptions,
    Key,
    Label,
    LongText,
    Moment,
    Name,
    Points,
    Position,
    Positive,
    Seed,
    Small,
    Strict,
    Target,
    Username,
    Version,
    of,
    one_of,
)
from web.validators import KeyText, Text

#: What the rules engine made of a hand of the party formats
#: (`scoring.engine.hands`), "" for another game's: an archive's word for it is
#: stored as it is, so it must be one.
HandKind = Literal["", KNOCK, UNDERCUT, GIN, BIG_GIN, VOID, "no_game"]
Ending = of(Hand.Ending)
HandStatus = of(Hand.Status)
AuditAction = of(AuditRecord.Action)
PartyFormat = of(Party.Format)
PartyStatus = of(Party.Status)


def tables_in_round(party_format, players: int) -> int:
    """How many tables a party of this format and number of players plays at in
    each round."""
    lineup: dict[int, list[int]] = {}
    for position, side in enumerate(party_format.seating(players).sides):
        lineup.setdefault(side, []).append(position)
    return party_format.table_count(lineup)


#: The most tables a party plays at in one round (partnerships of six).
MOST_TABLES = max(tables_in_round(f, n) for f in FORMATS.values() for n in f.sizes)
TableNumber = Annotated[int, Field(ge=1, le=MOST_TABLES)]
Deadwood = Annotated[int, Field(ge=0, le=250)]
Scores = Annotated[list[Points], Field(min_length=1, max_length=MOST_SEATS)]
Confirmations = Annotated[list[Position], Field(max_length=MOST_SEATS)]

#: The name under which `PartyIn` hands its keeping (`Kept`) to its parts.
KEPT = "kept"


def _as_kept(part: str):
    """A part read as the party's keeping writes it (``Kept.<part>``), once the
    party knows its game; before that (a game the archive may not name, refused
    for its own field), as the free data it is."""

    def read(value, handler, info: ValidationInfo):
        kept = (info.context or {}).get(KEPT)
        if kept is None:
            return handler(value)
        return getattr(kept, part).validate_python(value, context=info.context)

    return WrapValidator(read)


# --------------------------------------------------------- the party formats' parts


class RulesIn(Strict):
    """`scoring.engine.rules.Rules`, bounded so that the rules accept every value."""

    name: Annotated[Text, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]
    knock_limit: Annotated[int, Field(ge=0, le=10)] = 10
    gin_bonus: Annotated[int, Field(ge=0, le=1000)] = 20
    big_gin_bonus: Annotated[int, Field(ge=0, le=1000)] | None = None
    undercut_bonus: Annotated[int, Field(ge=0, le=1000)] = 10
    undercut_on_tie: StrictBool = True
    box_bonus: Annotated[int, Field(ge=0, le=1000)] = 20
    game_bonus: Annotated[int, Field(ge=0, le=1000)] = 100
    target: Target = 100
    shutout: Literal[SHUTOUT_BONUS, SHUTOUT_DOUBLE] = SHUTOUT_BONUS
    shutout_bonus: Annotated[int, Field(ge=0, le=1000)] = 100
    layoff_on_gin: StrictBool = False
    ace_high: StrictBool = False
    round_the_corner: StrictBool = False
    oklahoma: StrictBool = False
    oklahoma_ace_gin_only: StrictBool = True


class CardsIn(Strict):
    """A hand's details at the party formats: the cards as tapped, the up-card and
    the director's rulings."""

    knocker_melds: Annotated[list[Cards], Field(max_length=4)] | None = None
    knocker_deadwood_cards: Cards | None = None
    laid_off: Cards | None = None
    defender_melds: Annotated[list[Cards], Field(max_length=4)] | None = None
    defender_deadwood_cards: Cards | None = None
    discard: Card | None = None
    declared: StrictBool | None = None
    up_card: Card | None = None
    knocker_missing_cards: Annotated[int, Field(ge=0, le=11)] | None = None
    defender_missing_cards: Annotated[int, Field(ge=0, le=11)] | None = None
    defender_too_many_cards: Annotated[int, Field(ge=0, le=11)] | None = None
    illegal_knock_accepted: StrictBool | None = None

    def stored(self) -> dict:
        return self.model_dump(exclude_none=True)


class KnockCounterIn(Strict):
    """The other side's version of a disputed hand at the party formats."""

    seat: Position
    ending: Ending
    knocker: Position | None = None
    knocker_deadwood: Deadwood | None = None
    defender_deadwood: Deadwood | None = None
    details: CardsIn = Field(default_factory=CardsIn)
    kind: HandKind = ""
    points: Small = 0
    winner: Position | None = None
    defender: Position | None = None

    def stored(self) -> dict:
        return self.model_dump() | {"details": self.details.stored()}


class KnockSnapshot(Strict):
    """A hand at the party formats as an audit record keeps it before and after a
    change (`FormatTables.snapshot`)."""

    number: Positive
    table: TableNumber
    status: HandStatus
    ending: Ending
    knocker: Position | None
    knocker_deadwood: Deadwood | None
    defender_deadwood: Deadwood | None
    details: CardsIn
    kind: HandKind
    points: Small
    winner: Position | None
    version: Version
    # A dispute's other version; records made before it was kept have none.
    counter: KnockCounterIn | None = None


class DrawStartSnapshot(Strict):
    """A party of a format's start: who drew which card, the seed, the rules."""

    draws: Annotated[dict[Name, Card], Field(max_length=MOST_SEATS)]
    seed: Seed | None
    rules: RulesIn


# -------------------------------------------------------------- the entries' parts


class EntryDetailsIn(Strict):
    """A hand of a game without formats: the entry as the table sent it."""

    entry: FreeObject

    def stored(self) -> dict:
        return self.model_dump()


class EntryCounterIn(Strict):
    """The other version of a disputed hand of a game without formats: the seat
    that sent it, its entry, scores and facts."""

    seat: Position
    entry: FreeObject
    scores: Scores
    facts: FreeObject

    def stored(self) -> dict:
        return self.model_dump()


class EntrySnapshot(Strict):
    """A hand of a game without formats as an audit record keeps it before and
    after a change (`WholeTable.snapshot`)."""

    number: Positive
    status: HandStatus
    entry: FreeObject | None
    scores: Scores | None
    facts: FreeObject | None
    confirmations: Confirmations
    version: Version
    counter: EntryCounterIn | None


class SeatedStartSnapshot(Strict):
    """A party of a game without formats' start: the game, its options, who sits
    where and with whom (`scoring.services.parties`)."""

    game: one_of(ENTRY_GAMES)
    options: GameOptions
    seats: Annotated[list[Name], Field(max_length=MOST_SEATS)]
    sides: Annotated[
        list[Annotated[list[Position], Field(max_length=MOST_SEATS)]],
        Field(max_length=MOST_SEATS),
    ]


# -------------------------------------------------------------- every game's parts


class PartyForfeit(Strict):
    absent: Key
    points: Annotated[int, Field(ge=0, le=10000)]


class StatusSnapshot(Strict):
    """A party's status before and after it was cancelled."""

    status: PartyStatus
    forfeit: PartyForfeit | None = None


Digest = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]


class SeatSnapshot(Strict):
    """A seat before and after its player was swapped, or its link replaced."""

    player: Name | None = None
    position: Position | None = None
    replaced_link: Digest | None = None


@dataclass(frozen=True)
class Kept:
    """How a party's keeping writes what differs between the keepings (see the
    module's docstring): each part's reader, the endings a hand may have, the
    tables of a round, whether the columns hold the entry, and whether each hand
    must give its scores."""

    rules: TypeAdapter
    details: TypeAdapter
    counter: TypeAdapter
    snapshot: TypeAdapter
    endings: tuple[str, ...]
    tables: int
    columns: bool
    scores_given: bool


KEPT_BY = {
    FormatTables: Kept(
        # Kept as the party keeps them: a whole `Rules`, as a dict.
        rules=TypeAdapter(Annotated[RulesIn, AfterValidator(RulesIn.model_dump)]),
        details=TypeAdapter(CardsIn),
        counter=TypeAdapter(KnockCounterIn),
        snapshot=TypeAdapter(KnockSnapshot | DrawStartSnapshot | StatusSnapshot | SeatSnapshot),
        endings=tuple(e for e in Hand.Ending.values if e != Hand.Ending.SCORED),
        tables=MOST_TABLES,
        columns=True,
        scores_given=False,
    ),
    WholeTable: Kept(
        rules=TypeAdapter(GameOptions),
        details=TypeAdapter(EntryDetailsIn),
        counter=TypeAdapter(EntryCounterIn),
        snapshot=TypeAdapter(EntrySnapshot | SeatedStartSnapshot | StatusSnapshot | SeatSnapshot),
        endings=(Hand.Ending.SCORED.value,),
        tables=1,
        columns=False,
        scores_given=True,
    ),
}


def kept_for(game: str) -> Kept:
    """How an archive holds a party of ``game``: as its keeping keeps it."""
    return KEPT_BY[keeping_for(Party(game=game))]


def _kept(info: ValidationInfo) -> Kept | None:
    return (info.context or {}).get(KEPT)


#: The columns of a hand of the party formats, and what they hold when empty.
COLUMNS = {
    "dealer": None,
    "knocker": None,
    "defender": None,
    "knocker_deadwood": None,
    "defender_deadwood": None,
    "kind": "",
    "points": 0,
    "winner": None,
}


class SeatIn(Strict):
    player: Key
    side: Position
    position: Position
    # The link it had: never taken over (the import makes every link new).
    token: Annotated[str, StringConstraints(max_length=64)] = ""


class HandIn(Strict):
    """One hand of any game (see the module's docstring)."""

    number: Positive
    table: TableNumber
    status: HandStatus
    ending: Ending
    details: Annotated[FreeObject, _as_kept("details")]
    # The columns of the party formats (`COLUMNS`): empty at another game.
    dealer: Position | None = None
    knocker: Position | None = None
    defender: Position | None = None
    knocker_deadwood: Deadwood | None = None
    defender_deadwood: Deadwood | None = None
    kind: HandKind = ""
    points: Small = 0
    winner: Position | None = None
    # What the game scored. Archives written before version 3 give none for the
    # party formats: the import reads them from the columns.
    scores: Scores | None = Field(default=None, validate_default=True)
    facts: FreeObject | None = Field(default=None, validate_default=True)
    confirmations: Confirmations = []
    counter: Annotated[FreeObject, _as_kept("counter")] | None
    entered_by: Position | None
    confirmed_by: Position | None
    decided_by: Username | None
    version: Version = 1
    created_at: Moment
    updated_at: Moment

    @field_validator("ending")
    @classmethod
    def _an_ending_of_its_game(cls, value, info: ValidationInfo):
        kept = _kept(info)
        if kept is not None and value not in kept.endings:
            expected = ", ".join(repr(ending) for ending in kept.endings)
            raise PydanticCustomError("literal_error", "one of {expected}", {"expected": expected})
        return value

    @field_validator("table")
    @classmethod
    def _a_table_of_its_party(cls, value, info: ValidationInfo):
        kept = _kept(info)
        if kept is not None and value > kept.tables:
            raise PydanticCustomError("less_than_equal", "at most {le}", {"le": kept.tables})
        return value

    @field_validator(*COLUMNS)
    @classmethod
    def _columns_of_its_game(cls, value, info: ValidationInfo):
        kept = _kept(info)
        if kept is not None and not kept.columns and value != COLUMNS[info.field_name]:
            raise PydanticCustomError("extra_forbidden", "not kept for a hand of this game")
        return value

    @field_validator("scores", "facts")
    @classmethod
    def _scored(cls, value, info: ValidationInfo):
        kept = _kept(info)
        if kept is not None and kept.scores_given and value is None:
            raise PydanticCustomError("missing", "missing")
        return value


class AuditIn(Strict):
    action: AuditAction
    hand: tuple[Positive, TableNumber] | None
    seat: Position | None
    user: Username | None
    address: IPvAnyAddress | None
    before: Annotated[FreeObject, _as_kept("snapshot")] | None
    after: Annotated[FreeObject, _as_kept("snapshot")] | None
    reason: LongText
    key: KeyText | None
    at: Moment


class PartyIn(Strict):
    """A party of any game, read as its keeping writes it (`Kept`)."""

    key: Key
    label: Label
    game: AnyGame
    format: PartyFormat
    # The rules of a party of a format (`RulesIn`); another game's options.
    rules: Annotated[dict[FreeName, Blob], _as_kept("rules")]
    target: Target
    status: PartyStatus
    first_dealer: Position
    confirmation_required: StrictBool
    started_at: Moment
    finished_at: Moment | None
    seats: Annotated[list[SeatIn], Field(min_length=2, max_length=MOST_SEATS)]
    hands: Annotated[list[HandIn], Field(max_length=MOST_HANDS)]
    audit: Annotated[list[AuditIn], Field(max_length=MOST_AUDIT)]

    @model_validator(mode="wrap")
    @classmethod
    def _as_its_game_keeps_it(cls, data, handler, info: ValidationInfo):
        # Read once more, the party's keeping in the context, as soon as the game
        # is one the archive may name; else as any party, the game refused.
        game = data.get("game") if isinstance(data, dict) else None
        if _kept(info) is None and isinstance(game, str) and game in GAMES:
            return _PARTY.validate_python(data, context={KEPT: kept_for(game)})
        return handler(data)


_PARTY = TypeAdapter(PartyIn)
