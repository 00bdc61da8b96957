"""The seasons' API answers. Names carry the app's prefix: one OpenAPI document
holds every app's schemas."""

from datetime import date

from ninja import Schema


class RatingOut(Schema):
    player_id: int | None
    name: str
    rating: int
    shown: str
    spread: int
    provisional: bool
    parties: int
    won: int


class SeasonOut(Schema):
    id: int
    name: str
    starts: date
    ends: date
    #: A game's key (of `scoring.engine.games.GAMES`) or ``all``.
    game: str
    counts: str
    scheme: str
    place_points: list[int]
    best_of: int | None
    minimum_events: int
    closed: bool


class SeasonLineOut(Schema):
    place: int | None
    player_id: int | None
    name: str
    total: int
    events: int
    dropped: int
    needed: int


class SeasonTableOut(Schema):
    season: SeasonOut
    lines: list[SeasonLineOut]


class PlayerFigureOut(Schema):
    value: float | None
    rests_on: int


class PlayerRivalOut(Schema):
    name: str
    parties: int
    won: int
    plus_minus: int


class GameRecordOut(Schema):
    """A player's record in another game (seed 003): its rating and small record,
    by figure (``closes``, ``chinchons``, ``average_penalty``, ``canastas_per_party``,
    ``went_out``, ``blue_fourteens``, ``average_place``)."""

    game: str
    rating: int | None
    shown: str | None
    provisional: bool
    parties: int
    won: int
    figures: dict[str, PlayerFigureOut]


class PlayerStatsOut(Schema):
    name: str
    rating: RatingOut | None
    rating_history: list[int]
    parties: int
    won: int
    plus_minus: int
    hands: int
    gin_rate: PlayerFigureOut
    knocks_won: PlayerFigureOut
    undercuts_made: PlayerFigureOut
    undercuts_suffered: PlayerFigureOut
    deadwood_when_knocking: PlayerFigureOut
    laid_off_when_defending: PlayerFigureOut
    boxes_per_party: PlayerFigureOut
    shutouts_made: PlayerFigureOut
    shutouts_suffered: PlayerFigureOut
    best_party: int | None
    head_to_head: list[PlayerRivalOut]
    #: The other games played, each with its own rating (Gin Rummy's is above).
    games: list[GameRecordOut]
