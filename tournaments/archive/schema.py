"""What an archive may hold, field by field: the one schema the API's upload and the
organizer's upload page both read an archive with (`restore.archive_import`).

Only the fields an export writes are taken (any other key is refused, so an archive
cannot name a club, a door link or anything else the import decides); every choice
is one of the models' choices; every number is bounded as its column is; a time is a
time with its zone, between 1900 and 2199. What one part of an archive says about
another (a seating's table, a hand's seat) is checked after this, by
`tournaments.archive.references`.

One module of some 730 lines on purpose: it is one document's schema, read top to
bottom as the archive nests (archive, parties, hands, tournament, rounds), and the
two games' models differ in a few fields beside each other; split, each part would
import the others' bounds and choices."""

import datetime
import math
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    IPvAnyAddress,
    JsonValue,
    StrictBool,
    StringConstraints,
    Tag,
)
from pydantic_core import PydanticCustomError

from scoring.engine.games import ENTRY_GAMES, FORMAT_GAMES, GAMES
from scoring.engine.hands import BIG_GIN, GIN, KNOCK, UNDERCUT, VOID
from scoring.engine.rules import RULESETS, SHUTOUT_BONUS, SHUTOUT_DOUBLE
from scoring.models import DEFAULT_GAME, AuditRecord, Hand, Party
from tournaments.archive.export import FORMAT, VERSIONS
from tournaments.models import FinalStage, Round, Tournament, TournamentRecord
from web.validators import FilledText, KeyText, Text

#: The most of each thing one archive may hold: far more than any club plays in a
#: tournament or a night, few enough that an import ends in seconds.
MOST_PLAYERS = 2000
MOST_PARTIES = 2000
MOST_HANDS = 1000
MOST_AUDIT = 5000
MOST_ROUNDS = 99
MOST_TABLES = 5000
MOST_RECORDS = 5000

Key = Annotated[int, Field(ge=1, le=2_147_483_647)]
Small = Annotated[int, Field(ge=0, le=32767)]
Positive = Annotated[int, Field(ge=1, le=32767)]
Seed = Annotated[int, Field(ge=-(2**63), le=2**63 - 1)]
Points = Annotated[int, Field(ge=-1_000_000, le=1_000_000)]
Position = Annotated[int, Field(ge=0, le=5)]
Side = Annotated[int, Field(ge=0, le=2)]
Name = Annotated[FilledText, StringConstraints(strip_whitespace=True, min_length=1, max_length=120)]
Label = Annotated[Text, StringConstraints(max_length=120)]
LongText = Annotated[Text, StringConstraints(max_length=5000)]
# Who decided or did something: the organizer's name as the club's pages show it
# (`export._who`); an archive written before names his login.
Username = Annotated[Text, StringConstraints(min_length=1, max_length=150)]
SlugText = Annotated[str, StringConstraints(max_length=50, pattern=r"^[-a-zA-Z0-9_]+$")]
Card = Annotated[str, StringConstraints(pattern=r"^[A2-9TJQK][CDHS]$")]
Cards = Annotated[list[Card], Field(max_length=11)]
Ruleset = Literal[tuple(RULESETS)]


def _of(choices):
    """One of a model's choices, as the plain text it is stored as."""
    return Literal[tuple(choices.values)]


Ending = _of(Hand.Ending)
#: What the rules engine made of a Gin Rummy hand (`scoring.engine.hands`), "" for
#: another game's: an archive's word for it is stored as it is, so it must be one.
HandKind = Literal["", KNOCK, UNDERCUT, GIN, BIG_GIN, VOID, "no_game"]
HandStatus = _of(Hand.Status)
AuditAction = _of(AuditRecord.Action)
PartyFormat = _of(Party.Format)
PartyStatus = _of(Party.Status)
How = _of(Round.How)
TournamentFormat = _of(Tournament.Format)
TournamentStatus = _of(Tournament.Status)
Seeding = _of(FinalStage.Seeding)
FinalStatus = _of(FinalStage.Status)
RecordAction = _of(TournamentRecord.Action)


def _one_of(games: dict):
    """A game's key, checked against ``games`` when the archive is read, not fixed
    at import: every game registered there is known, a sixth as much as the first."""

    def known(value: str) -> str:
        if value not in games:
            expected = ", ".join(repr(key) for key in games)
            raise PydanticCustomError("literal_error", "one of {expected}", {"expected": expected})
        return value

    return Annotated[str, AfterValidator(known)]


GameKey = _one_of(ENTRY_GAMES)
AnyGame = _one_of(GAMES)
FormatGame = _one_of(FORMAT_GAMES)


def _in_our_time(value):
    # Years far off overflow when moved to another zone, and no club played then.
    if not 1900 <= value.year <= 2199:
        raise PydanticCustomError("out_of_time", "a time between 1900 and 2199")
    return value


# The document says so by the year a time or a date is written with.
OUR_TIME = {"pattern": "^(?:19|2[01])[0-9]{2}-"}
Moment = Annotated[AwareDatetime, AfterValidator(_in_our_time), Field(json_schema_extra=OUR_TIME)]
Day = Annotated[datetime.date, AfterValidator(_in_our_time), Field(json_schema_extra=OUR_TIME)]


def _plain(value, depth=0):
    """Free data (an audit record's before and after, a record's details) holds no
    number past what JSON carries, no control character, and nests shallowly."""
    if depth > 6:
        raise PydanticCustomError("too_deep", "nested too deeply")
    if isinstance(value, float) and not math.isfinite(value):
        raise PydanticCustomError("finite_number", "not a finite number")
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53:
        raise PydanticCustomError("too_large", "too large")
    if isinstance(value, str) and len(value) > 5000:
        raise PydanticCustomError("too_long", "too long")
    if isinstance(value, dict | list) and len(value) > 200:
        raise PydanticCustomError("too_long", "too long")
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    for item in items:
        _plain(item, depth + 1)
    return value


Blob = Annotated[JsonValue, AfterValidator(_plain)]


class Strict(BaseModel):
    # Plain pydantic: ninja's Schema adds a wrapper for reading Django rows, which
    # an archive never is.
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


# ------------------------------------------------------------------------------ parties


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
    target: Annotated[int, Field(ge=1, le=10000)] = 100
    shutout: Literal[SHUTOUT_BONUS, SHUTOUT_DOUBLE] = SHUTOUT_BONUS
    shutout_bonus: Annotated[int, Field(ge=0, le=1000)] = 100
    layoff_on_gin: StrictBool = False
    ace_high: StrictBool = False
    round_the_corner: StrictBool = False
    oklahoma: StrictBool = False
    oklahoma_ace_gin_only: StrictBool = True


class DetailsIn(Strict):
    """A hand's details: the cards as tapped, the up-card and the director's rulings."""

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


Deadwood = Annotated[int, Field(ge=0, le=250)]


class CounterIn(Strict):
    """The other side's version of a disputed hand."""

    seat: Position
    ending: Ending
    knocker: Position | None = None
    knocker_deadwood: Deadwood | None = None
    defender_deadwood: Deadwood | None = None
    details: DetailsIn = Field(default_factory=DetailsIn)
    kind: HandKind = ""
    points: Small = 0
    winner: Position | None = None
    defender: Position | None = None


class SeatIn(Strict):
    player: Key
    side: Side
    position: Position
    # The link it had: never taken over (the import makes every link new).
    token: Annotated[str, StringConstraints(max_length=64)] = ""


class HandIn(Strict):
    number: Positive
    table: Annotated[int, Field(ge=1, le=3)]
    status: HandStatus
    ending: Ending
    dealer: Position | None
    knocker: Position | None
    defender: Position | None
    knocker_deadwood: Deadwood | None
    defender_deadwood: Deadwood | None
    details: DetailsIn
    kind: HandKind
    points: Small
    winner: Position | None
    counter: CounterIn | None
    entered_by: Position | None
    confirmed_by: Position | None
    decided_by: Username | None
    version: Annotated[int, Field(ge=1, le=1_000_000)] = 1
    created_at: Moment
    updated_at: Moment


class HandSnapshot(Strict):
    """A hand as an audit record keeps it before and after a change
    (`scoring.services.hands`)."""

    number: Positive
    table: Annotated[int, Field(ge=1, le=3)]
    status: HandStatus
    ending: Ending
    knocker: Position | None
    knocker_deadwood: Deadwood | None
    defender_deadwood: Deadwood | None
    details: DetailsIn
    kind: HandKind
    points: Small
    winner: Position | None
    version: Annotated[int, Field(ge=1, le=1_000_000)]


class StartSnapshot(Strict):
    """A party's start: who drew which card, the seed, the rules."""

    draws: Annotated[dict[Name, Card], Field(max_length=6)]
    seed: Seed | None
    rules: RulesIn


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


Snapshot = HandSnapshot | StartSnapshot | StatusSnapshot | SeatSnapshot


class AuditIn(Strict):
    action: AuditAction
    hand: tuple[Positive, Annotated[int, Field(ge=1, le=3)]] | None
    seat: Position | None
    user: Username | None
    address: IPvAnyAddress | None
    before: Snapshot | None
    after: Snapshot | None
    reason: LongText
    key: KeyText | None
    at: Moment


class PartyIn(Strict):
    key: Key
    label: Label
    format: PartyFormat
    rules: RulesIn
    target: Annotated[int, Field(ge=1, le=10000)]
    status: PartyStatus
    first_dealer: Position
    confirmation_required: StrictBool
    started_at: Moment
    finished_at: Moment | None
    seats: Annotated[list[SeatIn], Field(min_length=2, max_length=6)]
    hands: Annotated[list[HandIn], Field(max_length=MOST_HANDS)]
    audit: Annotated[list[AuditIn], Field(max_length=MOST_AUDIT)]
    # Archives write it for the other games only; a Gin Rummy party may name it.
    game: FormatGame = DEFAULT_GAME


# ------------------------------------------------------------------- the other games
#
# A party of another game (`scoring.services.hands`) keeps its options where Gin
# Rummy keeps its rules, and each hand as the table entered it: the entry, what the
# game's engine scored (a number per side, and its facts), who confirmed it. The
# entry's shape is the engine's to judge (`tournaments.archive.references` asks it);
# here it is any JSON object of bounded size.

#: The most players at a table of any game (Cruzo is played by up to seven).
MOST_SEATS = max(max(game.table_sizes) for game in GAMES.values())


GamePosition = Annotated[int, Field(ge=0, le=MOST_SEATS - 1)]
OptionName = Annotated[str, StringConstraints(pattern=r"^[a-z_]{1,40}$")]
#: A game's options as `settle_options` settles them: names and plain values.
GameOptions = Annotated[
    dict[OptionName, StrictBool | Annotated[int, Field(ge=-10000, le=10000)] | None],
    Field(max_length=20),
]
FreeName = Annotated[str, StringConstraints(max_length=40)]
Entry = Annotated[dict[FreeName, Blob], Field(max_length=40)]
Facts = Annotated[dict[FreeName, Blob], Field(max_length=40)]
Scores = Annotated[list[Points], Field(min_length=1, max_length=MOST_SEATS)]
Confirmations = Annotated[list[GamePosition], Field(max_length=MOST_SEATS)]


class GameDetailsIn(Strict):
    """A hand of another game as entered (``entry``) and what the engine found
    in it besides the scores (``facts``: who closed, who went out first …)."""

    entry: Entry
    facts: Facts


class GameCounterIn(Strict):
    """The other version of a disputed hand of another game: the seat that sent
    it, its entry, scores and facts."""

    seat: GamePosition
    entry: Entry
    scores: Scores
    facts: Facts


class GameSeatIn(Strict):
    player: Key
    side: GamePosition
    position: GamePosition
    token: Annotated[str, StringConstraints(max_length=64)] = ""


class GameHandIn(Strict):
    number: Positive
    table: Literal[1]
    status: HandStatus
    ending: Literal[Hand.Ending.SCORED.value]
    details: GameDetailsIn
    scores: Scores
    confirmations: Confirmations
    counter: GameCounterIn | None
    entered_by: GamePosition
    confirmed_by: GamePosition | None
    decided_by: Username | None
    version: Annotated[int, Field(ge=1, le=1_000_000)]
    created_at: Moment
    updated_at: Moment


class GameHandSnapshot(Strict):
    """A hand of another game as an audit record keeps it before and after a
    change (`scoring.services.hands`)."""

    number: Positive
    status: HandStatus
    entry: Entry | None
    scores: Scores | None
    facts: Facts | None
    confirmations: Confirmations
    version: Annotated[int, Field(ge=1, le=1_000_000)]
    counter: GameCounterIn | None


class GameStartSnapshot(Strict):
    """A party of another game's start: the game, its options, who sits where and
    with whom (`scoring.services.parties`)."""

    game: GameKey
    options: GameOptions
    seats: Annotated[list[Name], Field(max_length=MOST_SEATS)]
    sides: Annotated[
        list[Annotated[list[GamePosition], Field(max_length=MOST_SEATS)]],
        Field(max_length=MOST_SEATS),
    ]


class GameSeatSnapshot(SeatSnapshot):
    position: GamePosition | None = None


GameSnapshot = GameHandSnapshot | GameStartSnapshot | StatusSnapshot | GameSeatSnapshot


class GameAuditIn(AuditIn):
    seat: GamePosition | None
    before: GameSnapshot | None
    after: GameSnapshot | None


class GamePartyIn(Strict):
    """A party of another game (Chinchón, Canasta, Blaue Vierzehn, Cruzo)."""

    key: Key
    label: Label
    game: GameKey
    format: PartyFormat
    rules: GameOptions
    target: Annotated[int, Field(ge=1, le=10000)]
    status: PartyStatus
    first_dealer: GamePosition
    confirmation_required: StrictBool
    started_at: Moment
    finished_at: Moment | None
    seats: Annotated[list[GameSeatIn], Field(min_length=2, max_length=MOST_SEATS)]
    hands: Annotated[list[GameHandIn], Field(max_length=MOST_HANDS)]
    audit: Annotated[list[GameAuditIn], Field(max_length=MOST_AUDIT)]


def _party_kind(value) -> str:
    # Written without a game (archives of version 1, and every Gin Rummy party):
    # Gin Rummy. The tags begin with a capital, so a refusal's path leaves them out.
    game = value.get("game") if isinstance(value, dict) else getattr(value, "game", None)
    return "GinRummy" if game is None or game in FORMAT_GAMES else "OtherGame"


AnyParty = Annotated[
    Annotated[PartyIn, Tag("GinRummy")] | Annotated[GamePartyIn, Tag("OtherGame")],
    Discriminator(_party_kind),
]


class PlayerIn(Strict):
    key: Key
    name: Name
    # A member or a guest of the club (who organizes it is its owner's decision,
    # never an archive's), or none: a tournament's walk-in. Archives made before
    # roles were kept name members only.
    role: Literal["member", "guest"] | None = "member"


class ClubIn(Strict):
    """The club the archive came from: named only; the archive lands in the
    importer's club."""

    slug: SlugText
    name: Name
    city: Annotated[Text, StringConstraints(max_length=120)] = ""
    founded: Annotated[int, Field(ge=1000, le=2199)] | None = None


# ---------------------------------------------------------------------------- tournament


class DrawIn(Strict):
    entrant: Key
    cards: Annotated[list[Card], Field(min_length=1, max_length=52)]
    by: Literal["knock", "venue"]
    points: Points | None = None


class LineIn(Strict):
    """One line of a round's explanation (`tournaments.engine.explain.Line`)."""

    first: Key
    second: Key | None
    how: How
    skipped: Annotated[
        list[tuple[Key, Literal["played", "kept_apart", "strands", "had_bye"]]],
        Field(max_length=1000),
    ] = []
    rematch: StrictBool = False


class TableLineIn(Strict):
    """Why one table of a round at tables is as it is (`tournaments.seating`,
    `tournaments.engine.tables.TableLine`)."""

    kind: Literal["table"]
    number: Positive
    seats: Annotated[list[Key], Field(min_length=1, max_length=6)]
    places: Annotated[list[Annotated[int, Field(ge=1, le=MOST_PLAYERS)]], Field(max_length=6)]
    # Which of those places the standings shared (archives made before lack it).
    shared: Annotated[list[StrictBool], Field(max_length=6)] = []
    repeats: Small
    met_before: Annotated[list[tuple[Key, Key, Positive]], Field(max_length=15)]
    cut_repeats: Small
    moved_away: Annotated[list[Key], Field(max_length=6)]
    moved_in: Annotated[list[Key], Field(max_length=6)]


class ByeLineIn(Strict):
    """An entrant who sits out a round at tables: the lowest placed without a bye
    ("bye"), left alone at a round robin's table by a withdrawal
    ("schedule_bye"), or as the schedule or the evening's plan sits them out
    ("planned_bye")."""

    kind: Literal["bye", "schedule_bye", "planned_bye"]
    entrant: Key


class ScheduleLineIn(Strict):
    """A round robin's table at tables, as its schedule seats it, with those who
    withdrew from it (`tournaments.seating`)."""

    kind: Literal["schedule"]
    number: Positive
    seats: Annotated[list[Key], Field(min_length=1, max_length=6)]
    absent: Annotated[list[Key], Field(max_length=6)]


class PlannedLineIn(Strict):
    """A table of an evening planned ahead, as planned (`tournaments.seating`)."""

    kind: Literal["planned"]
    number: Positive
    seats: Annotated[list[Key], Field(min_length=1, max_length=6)]


class PlannedRoundIn(Strict):
    """One round of an evening planned ahead (`Tournament.plan`): its tables of
    entrants in seat order, and who sits out."""

    tables: Annotated[
        list[Annotated[list[Key], Field(min_length=1, max_length=6)]],
        Field(max_length=MOST_PLAYERS),
    ]
    byes: Annotated[list[Key], Field(max_length=MOST_PLAYERS)]


def _line_kind(value) -> str:
    # A Gin Rummy round's lines name no kind. Tags begin with a capital (see
    # `_party_kind`).
    kind = value.get("kind") if isinstance(value, dict) else getattr(value, "kind", None)
    if not isinstance(kind, str):  # no word (an object, a list): the pair line refuses it
        return "PairLine"
    return {
        "table": "TableLine",
        "bye": "ByeLine",
        "schedule_bye": "ByeLine",
        "planned_bye": "ByeLine",
        "schedule": "ScheduleLine",
        "planned": "PlannedLine",
    }.get(kind, "PairLine")


AnyLine = Annotated[
    Annotated[LineIn, Tag("PairLine")]
    | Annotated[TableLineIn, Tag("TableLine")]
    | Annotated[ByeLineIn, Tag("ByeLine")]
    | Annotated[ScheduleLineIn, Tag("ScheduleLine")]
    | Annotated[PlannedLineIn, Tag("PlannedLine")],
    Discriminator(_line_kind),
]


class ArchivedTournament(Strict):
    name: Name
    slug: SlugText
    format: TournamentFormat
    ruleset: Ruleset
    target: Annotated[int, Field(ge=1, le=10000)]
    rounds: Annotated[int, Field(ge=1, le=MOST_ROUNDS)] | None
    bye_value: Annotated[int, Field(ge=-10000, le=10000)]
    forfeit_value: Annotated[int, Field(ge=0, le=10000)]
    confirmation_required: StrictBool
    public_pairings: StrictBool
    public_standings: StrictBool
    public_results: StrictBool
    round_minutes: Annotated[int, Field(ge=1, le=1440)] | None
    status: TournamentStatus
    final_seed: Seed | None
    final_draws: Annotated[list[DrawIn], Field(max_length=MOST_PLAYERS)]
    date: Day
    created_at: Moment
    # Another game, at tables of three to six (archives write these three for the
    # other games only): what `tournaments.registration.game_settings` accepts.
    game: AnyGame = DEFAULT_GAME
    game_options: GameOptions = {}
    table_size: Annotated[int, Field(ge=2, le=6)] | None = None
    # An evening planned ahead: every round as planned (archives write it for
    # such a tournament only).
    plan: Annotated[list[PlannedRoundIn], Field(max_length=MOST_ROUNDS)] = []


class EntrantIn(Strict):
    key: Key
    player: Key
    checked_in: StrictBool
    joined_round: Annotated[int, Field(ge=1, le=MOST_ROUNDS + 1)]
    withdrawn_after: Annotated[int, Field(ge=0, le=MOST_ROUNDS)] | None


class RoundIn(Strict):
    number: Annotated[int, Field(ge=1, le=MOST_ROUNDS)]
    status: Round.Status
    how: How | Literal[""]
    seed: Seed
    standings: Annotated[list[Key], Field(max_length=MOST_PLAYERS)]
    points: Annotated[
        dict[Annotated[str, StringConstraints(pattern=r"^[1-9][0-9]{0,9}$")], Points],
        Field(max_length=MOST_PLAYERS),
    ]
    draws: Annotated[list[DrawIn], Field(max_length=MOST_PLAYERS)]
    explanation: Annotated[list[AnyLine], Field(max_length=MOST_PLAYERS)]
    problem: LongText
    started_at: Moment | None


class TableIn(Strict):
    round: Annotated[int, Field(ge=1, le=MOST_ROUNDS)]
    number: Positive
    bye: StrictBool
    absent: Literal[0, 1] | None
    party: Key | None


class SeatingIn(Strict):
    table: tuple[Annotated[int, Field(ge=1, le=MOST_ROUNDS)], Positive]
    entrant: Key
    # The seat at a table of another game (0 to 5); 0 or 1 at Gin Rummy's.
    side: Literal[0, 1, 2, 3, 4, 5]


class GameIn(Strict):
    number: Annotated[int, Field(ge=1, le=3)]
    party: Key


class MatchIn(Strict):
    round: Annotated[int, Field(ge=1, le=12)]
    slot: Annotated[int, Field(ge=0, le=2048)]
    third_place: StrictBool
    first: Key | None
    second: Key | None
    winner: Key | None
    absent: Literal[0, 1] | None
    games: Annotated[list[GameIn], Field(max_length=3)]


class FinalIn(Strict):
    qualifiers: Annotated[int, Field(ge=2, le=256)] | None
    best_of: Literal[1, 3]
    third_place: StrictBool
    seeds: Annotated[list[Key], Field(max_length=256)]
    seeding: Seeding
    seed: Seed
    status: FinalStatus
    matches: Annotated[list[MatchIn], Field(max_length=512)]


class RecordIn(Strict):
    action: RecordAction
    user: Username | None
    address: IPvAnyAddress | None
    details: dict[Annotated[str, StringConstraints(max_length=40)], Blob]
    at: Moment


class ArchiveHead(Strict):
    format: Literal[FORMAT]
    version: Literal[VERSIONS]
    club: ClubIn
    players: Annotated[list[PlayerIn], Field(max_length=MOST_PLAYERS)]
    parties: Annotated[list[AnyParty], Field(max_length=MOST_PARTIES)]


class TournamentArchive(ArchiveHead):
    """A tournament as `export.tournament_export` writes it."""

    kind: Literal["tournament"]
    tournament: ArchivedTournament
    entrants: Annotated[list[EntrantIn], Field(max_length=MOST_PLAYERS)]
    keep_apart: Annotated[list[tuple[Key, Key]], Field(max_length=MOST_PLAYERS)]
    rounds: Annotated[list[RoundIn], Field(max_length=MOST_ROUNDS)]
    tables: Annotated[list[TableIn], Field(max_length=MOST_TABLES)]
    seatings: Annotated[list[SeatingIn], Field(max_length=2 * MOST_TABLES)]
    final: FinalIn | None = None
    # Archives made before the tournament kept a record have none.
    records: Annotated[list[RecordIn], Field(max_length=MOST_RECORDS)] = []


class ArchivedNight(Strict):
    name: Name
    date: Day
    ruleset: Ruleset
    confirmation_required: StrictBool


class NightArchive(ArchiveHead):
    """A club night as `export.night_export` writes it."""

    kind: Literal["night"]
    night: ArchivedNight


Archive = Annotated[TournamentArchive | NightArchive, Field(discriminator="kind")]
