"""The bounded values an archive is written in, shared by its parts
(`tournaments.archive.parties`, `tournaments.archive.schema`): ids, counts and
points bounded as their columns are, names and texts, cards, the models' choices,
a game's key, times with their zone, and free data (an audit record's before and
after, a hand's entry) of bounded size and depth."""

import datetime
import math
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    StrictBool,
    StringConstraints,
)
from pydantic_core import PydanticCustomError

from scoring.engine.games import GAMES
from scoring.engine.rules import RULESETS
from web.validators import FilledText, Text

#: The most of each thing one archive may hold: far more than any club plays in a
#: tournament or a night, few enough that an import ends in seconds.
MOST_PLAYERS = 2000
MOST_PARTIES = 2000
MOST_HANDS = 1000
MOST_AUDIT = 5000
MOST_ROUNDS = 99
MOST_TABLES = 5000
MOST_RECORDS = 5000
#: The most players at a table of any game (Cruzo is played by up to seven).
MOST_SEATS = max(max(game.table_sizes) for game in GAMES.values())

Key = Annotated[int, Field(ge=1, le=2_147_483_647)]
Small = Annotated[int, Field(ge=0, le=32767)]
Positive = Annotated[int, Field(ge=1, le=32767)]
Seed = Annotated[int, Field(ge=-(2**63), le=2**63 - 1)]
Points = Annotated[int, Field(ge=-1_000_000, le=1_000_000)]
#: A seat at a party's table, by its position (0 first); a party's own check keeps
#: it below the party's number of seats (`tournaments.archive.references`).
Position = Annotated[int, Field(ge=0, le=MOST_SEATS - 1)]
Name = Annotated[FilledText, StringConstraints(strip_whitespace=True, min_length=1, max_length=120)]
Label = Annotated[Text, StringConstraints(max_length=120)]
LongText = Annotated[Text, StringConstraints(max_length=5000)]
# Who decided or did something: the organizer's name as the club's pages show it
# (`export._who`); an archive written before names their login.
Username = Annotated[Text, StringConstraints(min_length=1, max_length=150)]
SlugText = Annotated[str, StringConstraints(max_length=50, pattern=r"^[-a-zA-Z0-9_]+$")]
Card = Annotated[str, StringConstraints(pattern=r"^[A2-9TJQK][CDHS]$")]
Cards = Annotated[list[Card], Field(max_length=11)]
Ruleset = Literal[tuple(RULESETS)]
Target = Annotated[int, Field(ge=1, le=10000)]
Version = Annotated[int, Field(ge=1, le=1_000_000)]


def of(choices):
    """One of a model's choices, as the plain text it is stored as."""
    return Literal[tuple(choices.values)]


def one_of(games: dict):
    """A game's key, checked against ``games`` when the archive is read, not fixed
    at import: every game registered there is known, a sixth as much as the first."""

    def known(value: str) -> str:
        if value not in games:
            expected = ", ".join(repr(key) for key in games)
            raise PydanticCustomError("literal_error", "one of {expected}", {"expected": expected})
        return value

    return Annotated[str, AfterValidator(known)]


AnyGame = one_of(GAMES)


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
FreeName = Annotated[str, StringConstraints(max_length=40)]
#: Free data by name: a hand's entry, the engine's facts, a record's details.
FreeObject = Annotated[dict[FreeName, Blob], Field(max_length=40)]
OptionName = Annotated[str, StringConstraints(pattern=r"^[a-z_]{1,40}$")]
#: A game's options as `settle_options` settles them: names and plain values.
GameOptions = Annotated[
    dict[OptionName, StrictBool | Annotated[int, Field(ge=-10000, le=10000)] | None],
    Field(max_length=20),
]


class Strict(BaseModel):
    # Plain pydantic: ninja's Schema adds a wrapper for reading Django rows, which
    # an archive never is.
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
