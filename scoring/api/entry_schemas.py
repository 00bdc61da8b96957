"""Bodies of the JSON API that a table sends: a hand's result (by numbers or by the
cards, with the director's rulings), an entry, a confirmation and the organizer's
decision, each documented as the few shapes its fields really take. Apart from
`scoring.api.schemas` (the rest of the bodies) so each stays one purpose.

Request schemas only validate: the shape, the ranges, and which fields belong
together. Whether a hand is possible is the rules engine's call, so its messages
are the ones players see. Unknown fields are refused."""

from typing import Annotated, Literal

from django.utils.translation import gettext
from ninja import Field, Schema
from pydantic import ConfigDict, StrictInt, StringConstraints, WithJsonSchema, model_validator
from pydantic_core import PydanticCustomError

from scoring import entries
from web.validators import FilledText, KeyText, Text

# A card as `scoring.engine.cards.parse_card` reads it: the rank (A 2-9 T J Q K or
# 10, either case), then the suit (CDHS in either case, or a suit symbol). The
# document gives the form; the engine refuses any other text in the players' words
# (422 ``invalid_card``), so the validation itself stays as loose as before.
CARD_PATTERN = "^(?:[AaTtJjQqKk2-9]|10)[CcDdHhSs\u2663\u2666\u2665\u2660\u2667\u2662\u2661\u2664]$"
CardText = Annotated[
    Text,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=8),
    WithJsonSchema({"type": "string", "pattern": CARD_PATTERN, "minLength": 2, "maxLength": 3}),
]
# A hand holds at most eleven cards: ten, and the card just drawn; each card once.
Cards = Annotated[list[CardText], Field(max_length=11, json_schema_extra={"uniqueItems": True})]
Ending = Literal["knock", "gin", "big_gin", "no_game"]


def _plain(field: dict) -> dict:
    """A field's schema without its ``null`` (an optional field is left out)."""
    kinds = [kind for kind in field.get("anyOf", [field]) if kind.get("type") != "null"]
    return {key: value for key, value in kinds[0].items() if key not in ("title", "default")}


def _shapes(core_schema, handler) -> tuple[dict, dict, dict, list]:
    """A body's schema emptied of its fields, for the caller to list the few ways
    they belong together under ``oneOf``: the schema, the object it names, its
    fields and which were required."""
    schema = handler(core_schema)
    target = handler.resolve_ref_schema(schema)
    fields = target.pop("properties")
    required = target.pop("required", [])
    target.pop("additionalProperties", None)
    return schema, target, fields, required


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


_KNOCKER = {"type": "integer", "minimum": 0, "maximum": 5}
_CARDS_SHOWN = 98  # `scoring.engine.hands.most_deadwood(10)`
_ELEVEN_CARDS = 106  # most_deadwood(11): the defender holds one too many


def _deadwood(most: int) -> dict:
    return {"type": "integer", "minimum": 0, "maximum": most}


def _result_variants(cards: dict, melds: dict, rulings: dict) -> list[dict]:
    """`ResultIn`'s ways of saying a hand, as the document gives them: what
    `entries.counts_problem`, `scoring.engine.hands.check_deadwood` and the knock
    limit refuse whatever the party. The knock limit is the classic 10 (a party's
    rules may set it lower, Oklahoma's up-card too); big gin is only known to rules
    with its bonus; with rulings, the most deadwood depends on the cards they leave.
    Those, like a card named in both hands or too few and too many cards at once for
    the defender, only the server can check (422). ``rulings``: `Rulings`' schema;
    the branches without it leave each player his ten cards."""
    up_card = {"up_card": cards["items"]}
    return [
        {
            "title": "No game",
            # A ruling needs a knock or gin.
            "properties": {"ending": {"type": "string", "const": "no_game"}, **up_card},
            "required": ["ending"],
        },
        {
            "title": "Knock",
            "properties": {
                "ending": {"type": "string", "const": "knock"},
                "knocker": _KNOCKER,
                "knocker_deadwood": _deadwood(10),
                "defender_deadwood": _deadwood(_CARDS_SHOWN),
                **up_card,
            },
            "required": ["ending", "knocker", "knocker_deadwood", "defender_deadwood"],
        },
        {
            "title": "Knock, with the director's rulings",
            "description": "The deadwood may not exceed what the cards the rulings leave "
            "can hold; over the knock limit only if the knock is accepted or the knocker "
            "is short.",
            "properties": {
                "ending": {"type": "string", "const": "knock"},
                "knocker": _KNOCKER,
                "knocker_deadwood": _deadwood(_CARDS_SHOWN),
                "defender_deadwood": _deadwood(_ELEVEN_CARDS),
                **up_card,
                "rulings": rulings,
            },
            "required": ["ending", "knocker", "knocker_deadwood", "defender_deadwood", "rulings"],
        },
        {
            "title": "Gin or big gin",
            "properties": {
                "ending": {"type": "string", "enum": ["gin", "big_gin"]},
                "knocker": _KNOCKER,
                "knocker_deadwood": _deadwood(0),
                "defender_deadwood": _deadwood(_CARDS_SHOWN),
                **up_card,
            },
            "required": ["ending", "knocker", "defender_deadwood"],
        },
        {
            "title": "Gin or big gin, with the director's rulings",
            "description": "A knocker short of cards has no gin; the defender's deadwood "
            "may not exceed what his cards can hold.",
            "properties": {
                "ending": {"type": "string", "enum": ["gin", "big_gin"]},
                "knocker": _KNOCKER,
                "knocker_deadwood": _deadwood(0),
                "defender_deadwood": _deadwood(_ELEVEN_CARDS),
                **up_card,
                "rulings": rulings,
            },
            "required": ["ending", "knocker", "defender_deadwood", "rulings"],
        },
        {
            "title": "By the cards",
            "description": "Ten cards each, the knocker's eleven with the card just drawn. "
            "The engine finds the melds, the lay-offs and the ending; a card in both hands "
            "and a knock over the limit are its call.",
            "properties": {
                "knocker": _KNOCKER,
                "knocker_cards": {**cards, "minItems": 10, "maxItems": 11},
                "defender_cards": {**cards, "minItems": 10, "maxItems": 10},
                "melds": melds,
                **up_card,
            },
            "required": ["knocker", "knocker_cards", "defender_cards"],
        },
        {
            "title": "By the cards, with the director's rulings",
            "description": "The rulings for missing or extra cards change how many each "
            "hand holds.",
            "properties": {
                "knocker": _KNOCKER,
                "knocker_cards": {**cards, "minItems": 1},
                "defender_cards": {**cards, "minItems": 1},
                "melds": melds,
                **up_card,
                "rulings": rulings,
            },
            "required": ["knocker", "knocker_cards", "defender_cards", "rulings"],
        },
    ]


def _by_player(variant: dict, knocker_player: dict) -> dict:
    """The same way of saying a hand with the knocker named by his player id
    (``knocker_player``) instead of his seat (``knocker``)."""

    def name(field):
        return "knocker_player" if field == "knocker" else field

    return {
        **variant,
        "title": f"{variant['title']}, the knocker by player id",
        "properties": {
            name(field): knocker_player if field == "knocker" else value
            for field, value in variant["properties"].items()
        },
        "required": [name(field) for field in variant["required"]],
    }


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
    Either way the knocker may be named by his player id (``knocker_player``, as
    the table's ``seats`` list it) instead of his seat: the seats are drawn by lot.
    """

    model_config = ConfigDict(extra="forbid")

    ending: Ending | None = None
    # Numbers as JSON writes them: ``true`` (which Python counts as 1), "7" or 7.0
    # are no count a player gave.
    knocker: StrictInt | None = Field(None, ge=0, le=5)
    knocker_player: StrictInt | None = Field(None, ge=1, le=2_147_483_647)
    # The most the cards can hold is the engine's call, with the players' message.
    knocker_deadwood: StrictInt | None = Field(None, ge=0, le=999)
    defender_deadwood: StrictInt | None = Field(None, ge=0, le=999)
    knocker_cards: Cards | None = None
    defender_cards: Cards | None = None
    melds: Annotated[list[Cards], Field(max_length=4)] | None = None
    up_card: CardText | None = None
    rulings: Rulings = Field(default_factory=Rulings)

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema, handler):
        # The fields belong together in a few ways only (`_complete`): the document
        # lists them, each closed, with the fields a subclass adds in every one.
        schema, target, fields, required = _shapes(core_schema, handler)
        own = {name: fields[name] for name in fields if name not in ResultIn.model_fields}
        cards = _plain(fields["knocker_cards"])
        melds = _plain(fields["melds"])
        knocker_player = _plain(fields["knocker_player"])
        variants = []
        for variant in _result_variants(cards, melds, fields["rulings"]):
            variants.append(variant)
            if "knocker" in variant["properties"]:
                variants.append(_by_player(variant, knocker_player))
        target["anyOf"] = [
            {
                **variant,
                # A title of its own: a client generator names its classes by it.
                "title": f"{variant['title']} ({cls.__name__})",
                "type": "object",
                "properties": {**variant["properties"], **own},
                "required": variant["required"] + [name for name in required if name in own],
                "additionalProperties": False,
            }
            for variant in variants
        ]
        return schema

    @property
    def by_cards(self) -> bool:
        return self.knocker_cards is not None or self.defender_cards is not None

    @property
    def named_knocker(self) -> int | None:
        """The knocker as named: his seat, or his player id (`knocker_player`)."""
        return self.knocker if self.knocker_player is None else self.knocker_player

    @model_validator(mode="after")
    def _complete(self):
        if self.knocker is not None and self.knocker_player is not None:
            raise _refuse(
                gettext("Name the knocker once: by the seat (knocker) or by the player id.")
            )
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
        if self.named_knocker is None or self.knocker_cards is None or self.defender_cards is None:
            raise _refuse(
                gettext("A hand entered by its cards needs the knocker and both players' cards.")
            )

    def _check_counts(self):
        problem = entries.counts_problem(
            ending=self.ending,
            knocker=self.named_knocker,
            knocker_deadwood=self.knocker_deadwood,
            defender_deadwood=self.defender_deadwood,
            rulings=self.rulings.given(),
        )
        if problem:
            raise _refuse(problem)


# A hand's version (`HandOut.version`), as the database counts it.
Version = Annotated[StrictInt, Field(ge=1, le=2_147_483_647)]


class HandEntryIn(ResultIn):
    """A seat's entry of hand ``number``. ``key`` makes a retried submission count
    once: send the same key again (from the same seat) with the same body and the
    first outcome is repeated; a key means one request, so the same key with
    another hand or entry is refused (409 ``key_reused``, nothing stored): use a
    new key for each new entry. An entry equal to the side's pending one is
    ``repeated`` whatever its key, and its version stays. ``version``: when
    answering the other side's pending entry, the version of it that the phone
    showed; if it changed since, 409 ``entry_changed`` with the new entry."""

    number: StrictInt = Field(..., ge=1, le=32767)
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
    # A blank reason the service refuses.
    reason: FilledText = Field(..., max_length=2000)
    result: ResultIn | None = None
    version: Literal["entered", "counter"] | None = None

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema, handler):
        # Which fields go with which action (`_result_fits_action`), as the document's
        # three ways of deciding.
        schema, target, fields, _ = _shapes(core_schema, handler)
        reason = fields["reason"]
        variants = [
            ("Void", {"action": {"type": "string", "const": "void"}}),
            (
                "Correct or resolve with the right result",
                {
                    "action": {"type": "string", "enum": ["correct", "resolve"]},
                    "result": _plain(fields["result"]),
                },
            ),
            (
                "Resolve by accepting a version",
                {
                    "action": {"type": "string", "const": "resolve"},
                    "version": _plain(fields["version"]),
                },
            ),
        ]
        target["oneOf"] = [
            {
                "title": f"{title} ({cls.__name__})",
                "type": "object",
                "properties": {**properties, "reason": reason},
                "required": [*properties, "reason"],
                "additionalProperties": False,
            }
            for title, properties in variants
        ]
        return schema

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
