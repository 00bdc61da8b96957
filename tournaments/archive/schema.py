"""What an archive may hold, field by field: the one schema the API's upload and the
organizer's upload page both read an archive with (`restore.archive_import`).

Only the fields an export writes are taken (any other key is refused, so an archive
cannot name a club, a door link or anything else the import decides); every choice
is one of the models' choices; every number is bounded as its column is; a time is a
time with its zone, between 1900 and 2199. What one part of an archive says about
another (a seating's table, a hand's seat) is checked after this, by
`tournaments.archive.references`.

Read top to bottom as the archive nests: its head, players and club, then the
tournament (rounds, tables, the final) or the night. Its parties, the same for every
game, are `tournaments.archive.parties`; the bounded values all parts are written in,
`tournaments.archive.fields`. An archive of an older version is read into this
shape first (`tournaments.archive.older`)."""

from typing import Annotated, Literal

from pydantic import (
    Discriminator,
    Field,
    IPvAnyAddress,
    StrictBool,
    StringConstraints,
    Tag,
)

from scoring.models import DEFAULT_GAME
from tournaments.archive.export import FORMAT, VERSIONS
from tournaments.archive.fields import (
    MOST_PARTIES,
    MOST_PLAYERS,
    MOST_RECORDS,
    MOST_ROUNDS,
    MOST_TABLES,
    AnyGame,
    Blob,
    Card,
    Day,
    GameOptions,
    Key,
    LongText,
    Moment,
    Name,
    Points,
    Positive,
    Ruleset,
    Seed,
    SlugText,
    Small,
    Strict,
    Target,
    Username,
    of,
)
from tournaments.archive.parties import PartyIn
from tournaments.models import FinalStage, Round, Tournament, TournamentRecord
from web.validators import Text

How = of(Round.How)
TournamentFormat = of(Tournament.Format)
TournamentStatus = of(Tournament.Status)
Seeding = of(FinalStage.Seeding)
FinalStatus = of(FinalStage.Status)
RecordAction = of(TournamentRecord.Action)


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
    # A pairing's lines name no kind. The tags begin with a capital, so a refusal's
    # path leaves them out (`refusals`).
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
    target: Target
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
    # The game, its options and table size (archives before version 3 write them
    # for a game at tables of three to six only): what
    # `tournaments.registration.game_settings` accepts.
    game: AnyGame = DEFAULT_GAME
    game_options: GameOptions = {}
    table_size: Annotated[int, Field(ge=2, le=6)] | None = None
    # An evening planned ahead: every round as planned (empty for any other).
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
    parties: Annotated[list[PartyIn], Field(max_length=MOST_PARTIES)]


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
