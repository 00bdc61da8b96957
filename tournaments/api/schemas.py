"""Bodies of the tournaments' part of the API."""

import datetime
from typing import Annotated, Literal

from ninja import Field, Schema
from pydantic import BaseModel, ConfigDict, StrictBool, StrictInt, StringConstraints

from scoring.engine.games import GAMES
from scoring.models import DEFAULT_GAME
from tournaments.registration import LIMITS
from web.validators import FilledText, Text

Id = Annotated[int, Field(ge=1, le=2_147_483_647)]
Name = Annotated[FilledText, StringConstraints(strip_whitespace=True, min_length=1, max_length=120)]
#: What a tournament's tables play: Gin Rummy (two at a table), or another game of
#: `scoring.engine.games.GAMES` at tables of three to six.
CardGame = Literal[tuple(GAMES)]


class TournamentOut(Schema):
    slug: str
    name: str
    club: str
    date: datetime.date
    format: str
    status: str
    rounds: int | None
    # A game of party formats (Gin Rummy, two at a table), or another played at
    # tables of ``table_size`` (3 to 6) with its ``options``; the standings then
    # count tournament points by place.
    game: str = DEFAULT_GAME
    table_size: int | None = None
    options: dict[str, int | bool | None] = {}
    public_pairings: bool
    public_standings: bool
    public_results: bool


class LineOut(Schema):
    place: int
    shared: bool
    entrant: int
    name: str
    played: int
    won: int
    points: int
    byes: int
    withdrawn: bool
    withdrawn_after: int | None = None  # the last round he was paired in
    reached: str = ""  # after the final: "champion", "final", "third-place", …, or ""
    # At tables of another game ``points`` are tournament points by place and this
    # the game score that breaks their ties (the sum of the margins); 0 for Gin Rummy.
    score: int = 0


class StandingsOut(Schema):
    after_round: int
    provisional: bool
    lines: list[LineOut]


class SideOut(Schema):
    """One player at a table (two for Gin Rummy, three to six for another game).
    ``points``: the running points, then the result (Gin Rummy's plus/minus,
    another game's margin). At another game's table also ``total`` (the table's
    score, as it runs), and once the party is over ``table_place`` (1 = first,
    equal places shared) and ``earned`` (the tournament points it gave)."""

    entrant: int
    name: str
    place: int | None
    points: int | None
    total: int | None = None
    table_place: int | None = None
    earned: int | None = None


class TournamentTableOut(Schema):
    """A table of a round: who plays whom, and how far they are. ``id`` is what
    the organizer's forfeit and its undo take
    (``/api/manage/tournaments/{slug}/tables/{table_id}/forfeit``); null only for
    the moment a round paired anew takes to reach the public answers."""

    id: int | None
    number: int
    sides: list[SideOut]
    bye: bool
    absent: int | None
    party: int | None
    hands: int
    finished: bool
    pending: bool
    disputed: bool


class TournamentRoundOut(Schema):
    number: int
    status: str
    started_at: datetime.datetime | None
    deadline: datetime.datetime | None


class RoundDetailOut(TournamentRoundOut):
    tables: list[TournamentTableOut]


class PlannedTableOut(Schema):
    number: int
    entrants: list[int]
    names: list[str]


class PlannedRoundOut(Schema):
    number: int
    # Whether the round has been paired (its tables are then those played).
    paired: bool
    tables: list[PlannedTableOut]
    byes: list[int]


class PlanOut(Schema):
    """An evening planned ahead: every round's tables (entrant ids in seat order,
    the first deals first) and who sits out; ``repeats``: the repeat meetings
    (each pair's rounds at one table less one, over the pairs that meet more than
    once); ``pairs_again`` and ``pairs_never``: pairs meeting more than once and
    never; ``least``: no schedule of these tables can repeat fewer.
    ``plans_ahead``: false, with no rounds, while nothing is planned (a format
    that plans nothing ahead, or before round 1 is paired)."""

    plans_ahead: bool
    rounds: list[PlannedRoundOut]
    repeats: int
    pairs_again: int
    pairs_never: int
    least: int


class TournamentHandOut(Schema):
    """A hand of a tournament's party, as the public sees it: every game's
    ``scores`` (each side's points, in side order) and ``facts`` (what the game
    made of it, `Game.hand`). ``ending``, ``kind``, ``points``, ``winner``,
    ``knocker`` and the deadwood counts are a knock's, kept by games of party
    formats; a hand of another game ends ``scored``, its entry scored whole."""

    number: int
    table: int
    status: str
    scores: list[int] | None
    facts: dict
    ending: str
    kind: str
    points: int
    winner: str | None
    knocker: str | None
    knocker_deadwood: int | None
    defender_deadwood: int | None


class PartySideOut(Schema):
    """A side's column: its players, the ``points`` of its hands, its ``boxes``
    (None where the game keeps none) and its ``total``."""

    players: list[str]
    points: int
    boxes: int | None
    total: int


class TournamentPartyOut(Schema):
    id: int
    game: str
    label: str
    status: str
    target: int
    sides: list[PartySideOut]
    hands: list[TournamentHandOut]


# --- The organizer's ---------------------------------------------------------------


def _within(name: str, default):
    """A number of a new tournament, within its one limit (`registration.LIMITS`)."""
    return Field(default, ge=LIMITS[name].low, le=LIMITS[name].high)


class TournamentIn(Schema):
    model_config = ConfigDict(extra="forbid")

    name: Name
    format: Literal["swiss", "round_robin", "planned", "knockout"] = "swiss"
    date: datetime.date | None = None
    ruleset: Annotated[Text, StringConstraints(max_length=40)] = "classic"
    target: int = _within("target", 100)
    rounds: int | None = _within("rounds", None)
    bye_value: int = _within("bye_value", 0)
    forfeit_value: int = _within("forfeit_value", 100)
    confirmation_required: bool = True
    public_pairings: bool = True
    public_standings: bool = True
    public_results: bool = True
    round_minutes: int | None = _within("round_minutes", None)
    # Another game than Gin Rummy is played in the Swiss system, as a round
    # robin or planned ahead ("planned", a mixer: every round fixed when round 1
    # is paired, read at /tournaments/{slug}/plan) at tables of ``table_size``
    # (3 to 6, as many as the game takes) with its ``options`` by name (its
    # defaults for those left out); a combination that does not go together (a
    # knockout, or Gin Rummy planned ahead) is refused, 422 ``invalid_game``. A
    # round robin needs one table the game plays: the start answers a smaller
    # field with 409 ``no_schedule``.
    game: CardGame = DEFAULT_GAME
    table_size: int | None = Field(None, ge=2, le=6)
    options: dict[str, StrictInt | StrictBool | None] | None = None


class EntrantsIn(Schema):
    model_config = ConfigDict(extra="forbid")

    players: list[Id] = Field(default_factory=list, max_length=2000)
    guests: list[Name] = Field(default_factory=list, max_length=2000)


class EntrantOut(Schema):
    id: int
    player: int
    name: str
    checked_in: bool
    joined_round: int
    withdrawn_after: int | None


class CheckInIn(Schema):
    model_config = ConfigDict(extra="forbid")

    checked_in: bool = True


class PairIn(Schema):
    model_config = ConfigDict(extra="forbid")

    fewest_rematches: bool = False


class ForfeitIn(Schema):
    model_config = ConfigDict(extra="forbid")

    absent: Id


class FinishIn(Schema):
    model_config = ConfigDict(extra="forbid")

    final_draw: bool = False


class ManagedRoundOut(TournamentRoundOut):
    problem: str
    tables: list[TournamentTableOut]


class ManagedTournamentOut(TournamentOut):
    entrants: list[EntrantOut]
    rounds_played: list[ManagedRoundOut]


class ImportedOut(Schema):
    kind: str
    slug: str | None
    id: int


class ArchiveClubOut(Schema):
    slug: str
    name: str
    city: str
    founded: int | None


class ArchiveOut(BaseModel):
    """An archive (`tournaments.archive`): what it is and whose, named here; the
    rest (players, parties with every hand and audit record, …) is read back by
    `POST /api/manage/clubs/{slug}/archive` as it was given."""

    # A plain pydantic model: ninja's Schema reads only the fields it names, and
    # would drop the rest of the archive.
    model_config = ConfigDict(extra="allow")

    format: str
    version: int
    club: ArchiveClubOut


class TournamentArchiveOut(ArchiveOut):
    kind: Literal["tournament"]
    tournament: dict


class NightArchiveOut(ArchiveOut):
    kind: Literal["night"]
    night: dict


class MatchSideOut(Schema):
    """One side of a knockout match: the entrant, his seed, the games he won."""

    entrant: int
    name: str
    seed: int | None
    wins: int


class MatchOut(Schema):
    """A match of the bracket; ``id`` is null (and the sides too) while it waits
    for the matches before it. ``status``: "waiting", "bye", "playing", "forfeit"
    or "decided"; ``absent``: the side that did not play it, and ``withdrew``: because
    he had withdrawn (else he did not come). ``party``: the game being played (the
    organizer's answers only)."""

    id: int | None
    round: int
    slot: int
    third_place: bool
    status: str
    first: MatchSideOut | None
    second: MatchSideOut | None
    winner: int | None
    absent: int | None
    withdrew: bool = False
    party: int | None = None


class BracketRoundOut(Schema):
    number: int
    key: str
    name: str
    matches: list[MatchOut]


class BracketOut(Schema):
    """A tournament's knockout final. ``seeding``: "standings", "rating" or "lot";
    ``status``: "planned", "playing" or "finished"."""

    qualifiers: int | None
    best_of: int
    third_place: bool
    seeding: str
    status: str
    rounds: list[BracketRoundOut]


class FinalStageIn(Schema):
    model_config = ConfigDict(extra="forbid")

    qualifiers: int = Field(ge=2, le=256)
    best_of: Literal[1, 3] = 1
    third_place: bool = False


class MatchForfeitIn(Schema):
    model_config = ConfigDict(extra="forbid")

    absent: Id
