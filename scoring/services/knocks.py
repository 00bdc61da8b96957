"""A hand of the party formats' games as a table tells it: how it ended, who
knocked and both deadwood counts (`Result`), typed or read from the cards shown
(`result_from_cards`), and what the rules engine makes of it (`score_result`).
Kept by `scoring.services.keeping.FormatTables`; entered, confirmed and decided
through the one lifecycle of `scoring.services.hands`."""

from dataclasses import asdict, dataclass, field

from django.utils.translation import gettext

from scoring import errors
from scoring.engine.cards import parse_card, parse_cards
from scoring.engine.deal import NextHand
from scoring.engine.hands import check_entry, score_hand
from scoring.engine.rules import Rules
from scoring.engine.settlement import PartyOver
from scoring.engine.showdown import ShowdownError, showdown
from scoring.models import Hand, Party, Seat
from scoring.selectors import RULINGS, state_for
from scoring.services.parties import check_not_cancelled

DEADWOOD = ("knocker_deadwood", "defender_deadwood")


@dataclass(frozen=True)
class Result:
    """What a table says about a hand: how it ended and the deadwood counts.

    ``knocker`` is a seat position; ``details`` holds the cards, the up-card and
    the director's rulings (seed 000 § 14) when given.
    """

    ending: str
    knocker: int | None = None
    knocker_deadwood: int | None = None
    defender_deadwood: int | None = None
    details: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, entry) -> "Result":
        """An entry as the API or a kept record sends it; anything else is refused
        in words a player understands."""
        if not isinstance(entry, dict) or not isinstance(entry.get("details", {}), dict):
            raise errors.EntryError(gettext("The entry is not a hand of this game."))
        given = {name: entry.get(name) for name in ("knocker", *DEADWOOD)}
        if not isinstance(entry.get("ending"), str) or any(
            value is not None and (isinstance(value, bool) or not isinstance(value, int))
            for value in given.values()
        ):
            raise errors.EntryError(gettext("The entry is not a hand of this game."))
        return cls(entry["ending"], **given, details=dict(entry.get("details") or {}))


def result_from_cards(
    rules: Rules,
    *,
    knocker: int,
    knocker_cards,
    defender_cards,
    up_card=None,
    melds=None,
    rulings: dict | None = None,
) -> Result:
    """The result of a hand from the cards shown: the knocker's ten (eleven: big gin,
    or a knock with the discard still in hand) and the defender's ten. The defender
    lays off onto the knocker's melds unless the knocker has gin (seed 000 § 10,
    seed 002 "Gin"), or ``layoff_on_gin`` allows it.

    ``melds``: the melds the knocker declared, when the players say he laid his cards
    down otherwise than the best way; each must be a meld of his cards, none sharing
    a card. ``rulings``: the director's rulings of seed 000 § 14 (keys of `RULINGS`),
    which change how many cards each player shows and whether the defender may lay
    off; they go into the details, where `hand_enter` scores them. The counts always
    come from the cards, never from the table."""
    rulings = {name: value for name, value in (rulings or {}).items() if value}
    unknown = sorted(set(rulings) - set(RULINGS))
    if unknown:
        raise errors.EntryError(
            gettext("There is no ruling called %(name)r.") % {"name": unknown[0]}
        )
    knocker_cards, defender_cards = parse_cards(knocker_cards), parse_cards(defender_cards)
    try:
        shown = showdown(
            rules,
            knocker_cards=knocker_cards,
            defender_cards=defender_cards,
            melds=None if melds is None else [parse_cards(meld) for meld in melds],
            knocker_missing_cards=rulings.get("knocker_missing_cards", 0),
            defender_missing_cards=rulings.get("defender_missing_cards", 0),
            defender_too_many_cards=bool(rulings.get("defender_too_many_cards")),
        )
    except ShowdownError as error:
        raise errors.EntryError(errors.explain(error)) from error
    details = {
        "knocker_cards": [str(c) for c in knocker_cards],
        "defender_cards": [str(c) for c in defender_cards],
        **shown.details(),
        **rulings,
    }
    if up_card is not None:
        details["up_card"] = str(parse_card(up_card))
    return Result(shown.ending, knocker, shown.points, shown.defender_points, details)


def score_result(party: Party, table, result: Result, *, names=None, number=None) -> dict:
    """What the rules engine makes of a result: winner position, points, kind.
    ``names`` (by position) and ``number`` let a refusal name the players."""
    if result.ending == Hand.Ending.NO_GAME:
        return {"kind": "no_game", "points": 0, "winner": None, "defender": None}
    if result.knocker not in table.players:
        raise errors.NotYourHand(not_at_table(table, result.knocker, names or {}, number))
    (defender,) = set(table.players) - {result.knocker}
    rules = Rules.from_dict(party.rules)
    rulings = {k: result.details[k] for k in RULINGS if result.details.get(k)}
    up_card = result.details.get("up_card")
    up_card = parse_card(up_card) if up_card else None
    # What the cards could not have made is refused before anything is scored.
    check_entry(
        rules,
        ending=result.ending,
        knocker_points=result.knocker_deadwood,
        defender_points=result.defender_deadwood,
        up_card=up_card,
        knocker_missing_cards=rulings.get("knocker_missing_cards", 0),
        defender_missing_cards=rulings.get("defender_missing_cards", 0),
        defender_too_many_cards=bool(rulings.get("defender_too_many_cards")),
    )
    limit = rules.knock_limit_for(up_card.value) if rules.oklahoma else None
    score = score_hand(
        rules,
        knocker_points=result.knocker_deadwood,
        defender_points=result.defender_deadwood,
        gin=result.ending == Hand.Ending.GIN,
        big_gin=result.ending == Hand.Ending.BIG_GIN,
        knock_limit=limit,
        **rulings,
    )
    winner = {"knocker": result.knocker, "defender": defender}.get(score.winner)
    return {"kind": score.kind, "points": score.points, "winner": winner, "defender": defender}


def not_at_table(table, knocker, names: dict, number) -> str:
    """Names the players, never their seat numbers: "Hand 3: Ada sat out that hand"."""
    a, b = (names.get(p, "?") for p in table.players)
    values = {"n": number, "name": names.get(knocker), "a": a, "b": b}
    if values["name"]:
        return (
            gettext(
                "Hand %(n)s: %(name)s sat out that hand: the knocker must be one of the "
                "two players at the table, %(a)s or %(b)s."
            )
            % values
        )
    return (
        gettext(
            "Hand %(n)s: the knocker must be one of the two players at the table, %(a)s or %(b)s."
        )
        % values
    )


def hand_preview(*, seat: Seat, result: Result) -> dict:
    """What `hand_enter` would score for this seat's table, without storing anything:
    the card picker shows it before the tap that enters the hand. Scored by the same
    code as the entry, so the preview and the sheet cannot disagree.

    Returns the winner and defender positions, points, kind, and the players' names
    by position; raises as `hand_enter` does for an impossible result."""
    state, _ = state_for(seat.party)
    check_not_cancelled(state.party)
    if state.finished:
        raise PartyOver(gettext("The party is over: no more hands can be entered."))
    table = state.table_of(seat.position)
    if table is None:
        raise errors.NotYourHand(
            gettext("You sit out this hand: the players at the table enter it.")
        )
    names = {s.position: s.player.name for s in state.seats}
    scored = score_result(
        state.party, state.tables[table - 1], result, names=names, number=state.number
    )
    return {**scored, "names": names}


def table_of_hand(state, hand: Hand):
    """The two players of a recorded hand: its knocker and defender, or for a
    no-game the table the format put together for that hand."""
    if hand.knocker_id and hand.defender_id:
        return NextHand(dealer=hand.defender.position, forehand=hand.knocker.position)
    if hand.number == state.number:
        return state.tables[hand.table - 1]
    raise errors.EntryError(gettext("This hand's players are not recorded; void it instead."))
