"""Reads for the organizer's pages of the club's other games (Chinchón, Canasta,
Blaue Vierzehn, Cruzo): a table on the night's page, a party's page, and what a
party gives the night's results. The totals, places and margins come from the
game's engine through `scoring.services.whole_table_sheet`; nothing here knows a game's
rules. Like `scoring.manage.selectors`, a fixed number of queries however many
parties or hands."""

from django.utils.translation import gettext as _

from scoring.engine.games import GAMES
from scoring.manage.table_states import table_state
from scoring.models import Hand, Party, Seat
from scoring.option_fields import option_words
from scoring.selectors import choice_label
from scoring.services.whole_table_sheet import (
    GameSheet,
    game_sheet,
    sheet_of,
)


def _names(seats) -> str:
    return " · ".join(seat.player.name for seat in seats)


def options_text(party: Party) -> str:
    """The options the party was started with, in the club's words."""
    known = GAMES[party.game].options
    parts = []
    for option, value in (party.rules or {}).items():
        label, _help, choices = (
            option_words(party.game, option) if option in known else (option, "", None)
        )
        if choices is not None:
            parts.append(str(choices.get(value, value)))
        elif value is not None:
            parts.append(f"{label}: {value}")
    return " · ".join(parts)


def table_row(party: Party, seats: list[Seat], hands: list[Hand]) -> dict:
    """A table of another game on the night's page, in the shape of Gin Rummy's
    (`scoring.manage.selectors.night_glance`): its state, since when, the hand it
    waits on, each side's total, and once over who won."""
    sheet = sheet_of(party, seats, hands)
    open_hands = [h for h in hands if h.status in (Hand.Status.PENDING, Hand.Status.DISPUTED)]
    over = party.status == Party.Status.FINISHED
    state, hand, since = table_state(party, over, open_hands, hands)
    return {
        "party": party,
        "seats": seats,
        "state": state,
        "since": since,
        "hand": hand,
        "number": 1 + max((h.number for h in hands), default=0) if hand is None else hand.number,
        "points": [
            (_names(side), total) for side, total in zip(sheet.sides, sheet.totals, strict=True)
        ],
        "payments": [],
        "winners": _winners(sheet) if state == "finished" else "",
    }


def _winners(sheet: GameSheet) -> str:
    return ", ".join(_names(sheet.sides[side]) for side in sorted(sheet.outcome.winners))


def party_page(party: Party) -> dict:
    """The party page of another game: the sheet (sides, every hand with each side's
    points, the totals), who confirmed each hand, places and margins once over, and
    each disputed hand's two entries side by side, scored."""
    sheet = game_sheet(party)
    names = [_names(side) for side in sheet.sides]
    by_position = {seat.position: seat for side in sheet.sides for seat in side}
    rows = []
    for hand in sheet.hands:
        row = {
            "hand": hand,
            "scores": hand.scores or [],
            "confirmers": _confirmers(hand, by_position),
            "versions": [],
            "compare": [],
        }
        if hand.status == Hand.Status.DISPUTED:
            counter = hand.counter or {}
            other = counter.get("scores") or []
            row["versions"] = [
                {"key": "entered", "who": hand.entered_by.player.name if hand.entered_by else ""},
                {"key": "counter", "who": _seat_name(by_position, counter.get("seat"))},
            ]
            row["compare"] = [
                {
                    "name": name,
                    "entered": _at(hand.scores, side),
                    "counter": _at(other, side),
                    "differs": _at(hand.scores, side) != _at(other, side),
                }
                for side, name in enumerate(names)
            ]
        rows.append(row)
    over = party.status == Party.Status.FINISHED
    return {
        "sheet": sheet,
        "names": names,
        "rows": rows,
        "options": options_text(party),
        "standings": [
            {"name": names[side], "total": total, "place": place, "margin": margin}
            for side, (total, place, margin) in enumerate(
                zip(sheet.totals, sheet.places, sheet.margins, strict=True)
            )
        ]
        if over
        else [],
        "winners": _winners(sheet) if over else "",
        "out": {names[side] for side in sheet.outcome.out},
    }


def _confirmers(hand: Hand, by_position: dict) -> list[str]:
    """Who confirmed the hand, in the order they did (``Hand.confirmations``: at a
    table of three or more, every one of them, not only the last, ``confirmed_by``);
    while it waits, those so far. None once the organizer decided it unconfirmed."""
    if hand.confirmed_by_id is None and hand.status != Hand.Status.PENDING:
        return []
    names = [_seat_name(by_position, position) for position in hand.confirmations]
    if not names and hand.confirmed_by_id is not None:
        names = [hand.confirmed_by.player.name]
    return names


def _at(scores, side):
    return scores[side] if scores and side < len(scores) else None


def in_game_terms(entries: list[dict], sheet: GameSheet) -> list[dict]:
    """The party's audit log (``entries``, `scoring.manage.selectors.audit_log`'s),
    a hand of the game and its start written in the game's terms: each side's
    points, who sits where."""
    party = sheet.party
    names = [_names(side) for side in sheet.sides]
    for entry in entries:
        record = entry["record"]
        for when in ("before", "after"):
            snapshot = getattr(record, when)
            if isinstance(snapshot, dict) and ("scores" in snapshot or "game" in snapshot):
                entry[when] = _described(snapshot, names, party)
    return entries


def _described(snapshot: dict, names: list[str], party: Party) -> str:
    if "game" in snapshot:
        seated = ", ".join(str(name) for name in snapshot.get("seats") or [])
        return _("%(game)s · seats: %(seats)s") % {
            "game": party.get_game_display(),
            "seats": seated,
        }
    parts = [
        _("Hand %(number)s") % {"number": snapshot.get("number")},
        choice_label(Hand.Status, snapshot.get("status")),
    ]
    scores = snapshot.get("scores") or []
    parts += [f"{name} {points}" for name, points in zip(names, scores, strict=False)]
    return " · ".join(part for part in parts if part)


def _seat_name(by_position: dict, position) -> str:
    seat = by_position.get(position)
    return seat.player.name if seat else ""
