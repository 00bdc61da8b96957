"""Bodies of a table's API for a game played at one whole table: a hand's entry
as the game's engine reads it (`Game.hand`), and the seat's view of the party.

Each game's entry body is made from the game's own declaration of it
(`entry_body`): it checks only the shape and the ranges; whether the hand fits
together (a deal of 56 points, one side out, a closer still in) is the engine's
call, answered as 422 ``invalid_entry`` with its words. Unknown fields are refused."""

from functools import cache
from typing import Annotated, Any, Union

import pydantic
from ninja import Field, Schema
from ninja.errors import ValidationError
from pydantic import BeforeValidator, ConfigDict, StrictBool, StringConstraints, create_model

from scoring.api.entry_schemas import Version
from scoring.engine.games import ENTRY_GAMES
from scoring.engine.games.game import entry_body
from web.api_errors import ErrorOut
from web.validators import KeyText


class _Strict(Schema):
    model_config = ConfigDict(extra="forbid")


# A side by its number, 0 first, in seat order: the largest table has seven.
LAST_SIDE = 6
Side = Annotated[int, Field(ge=0, le=LAST_SIDE)]
SideKey = Annotated[str, StringConstraints(pattern=f"^[0-{LAST_SIDE}]$")]
Sides = Annotated[list[Side], Field(min_length=1, max_length=LAST_SIDE + 1)]


def _title(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def _type(spec, game):
    """What ``spec`` (`EntryField`) takes: by side, a list in side order of as many
    as the game's tables seat, or a mapping by the side's number."""
    if spec.kind == "record":
        one = _model(f"{_title(game.key)}{_title(spec.name)}In", spec.fields, game, spec.help)
    elif spec.kind == "cards":
        one = list[Annotated[str, StringConstraints(pattern=spec.pattern)]]
    else:
        number = Annotated[int, Field(ge=spec.least, le=spec.most)]
        one = {"tick": StrictBool, "side": Side, "sides": Sides}.get(spec.kind, number)
    if not spec.per_side:
        return one
    if spec.keyed:
        return dict[SideKey, one]
    sizes = Field(min_length=min(game.table_sizes), max_length=max(game.table_sizes))
    return Annotated[list[one if spec.required else one | None], sizes]


def _model(name: str, specs, game, doc: str) -> type[Schema]:
    fields = {}
    for spec in specs:
        kind, default = _type(spec, game), ... if spec.required else spec.default
        if default is None:
            kind |= None
        fields[spec.name] = (kind, Field(default, description=spec.help or None))
    return create_model(name, __base__=_Strict, __doc__=doc, **fields)


@cache
def entry_in(game) -> type[Schema]:
    """The body of a hand's entry of ``game``, made from its declaration (`entry_body`)."""
    doc = f"{game.name}: a hand's entry as its engine reads it."
    return _model(f"{_title(game.key)}EntryIn", entry_body(game), game, doc)


def entry_of(game, sent: dict) -> dict:
    """The entry ``sent`` for a party of ``game``, checked against the game's body
    (`entry_in`), the values left out filled in; a refusal is the 422 of a body
    that does not fit, naming the fields as the client wrote them."""
    try:
        return entry_in(game).model_validate(sent).model_dump(exclude_none=True)
    except pydantic.ValidationError as error:
        found = [{**e, "loc": ("body", "body", "entry", *e["loc"])} for e in error.errors()]
        raise ValidationError(found) from None


#: A hand's entry, an object checked against the party's game (`entry_of`), and
#: documented as each game's.
GameEntry = Annotated[
    dict[str, Any],
    BeforeValidator(
        lambda value: value,
        json_schema_input_type=Union[tuple(entry_in(game) for game in ENTRY_GAMES.values())],  # noqa: UP007
    ),
]


class GameEntryIn(Schema):
    """Enter hand ``number`` of a game played at one whole table. ``version``: the
    pending entry's ``version`` the phone showed, when this answers another side's
    entry (the same entry confirms it, a different one disputes it). ``key``: the
    same key sent again stores once."""

    model_config = ConfigDict(extra="forbid")

    number: Annotated[int, Field(ge=1, le=32767)]
    entry: GameEntry
    key: KeyText | None = None
    version: Version | None = None

    def entry_of(self, game) -> dict:
        """The entry, checked against the party's ``game`` (`entry_of`)."""
        return entry_of(game, self.entry)


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
