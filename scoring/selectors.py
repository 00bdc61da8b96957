"""Reads for the party pages: a fixed number of queries, however many hands."""

import logging
from typing import NamedTuple

from django.db.models import Count, Max, QuerySet, Sum
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _lazy

from clubs.models import ClubNight
from scoring import changes, reads
from scoring.engine.games import FORMAT_GAMES
from scoring.models import (
    AuditRecord,
    Hand,
    Party,
    Seat,
    is_seat_token,
    token_digest,
)
from scoring.sheet import PartyState, entry_of, party_state

log = logging.getLogger(__name__)

#: The director's rulings of seed 000 § 14 a hand may carry (`services.RULINGS`).
RULINGS = (
    "knocker_missing_cards",
    "defender_missing_cards",
    "defender_too_many_cards",
    "illegal_knock_accepted",
)


#: A hand's seats (`Hand`'s foreign keys to the party's own seats).
HAND_SEATS = ("dealer", "knocker", "defender", "winner", "entered_by", "confirmed_by")


def state_for(party: Party, seats: list[Seat] | None = None):
    """The party's state and its hands. ``seats``: the party's seats with their
    players, in position order, when the caller has read them already."""
    if seats is None:
        seats = reads.seats(party)
    hands = reads.hands(party)
    # A hand's seats are among the party's, read above with their players: given
    # from there instead of joined again four times for every hand, which made
    # the seat page, the page every phone reloads after each event, twice as costly.
    by_pk = {seat.pk: seat for seat in seats}
    for hand in hands:
        for name in HAND_SEATS:
            seat = by_pk.get(getattr(hand, f"{name}_id"))
            if seat is not None:
                setattr(hand, name, seat)
    return party_state(party, seats, hands), hands


def link_replaced(token: str) -> bool:
    """Whether ``token`` was a seat's link before the organizer replaced it (a new
    link, or another player in the seat): one query, asked only for unknown links
    of a token's shape (anything else never was a link)."""
    if not is_seat_token(token):
        return False
    actions = (AuditRecord.Action.LINK, AuditRecord.Action.SWAP)
    return AuditRecord.objects.filter(
        action__in=actions, before__replaced_link=token_digest(token)
    ).exists()


def seat_by_token(token: str) -> Seat:
    # Anything that cannot be a token is not looked for: bytes the database would
    # choke on (a NUL) never reach it.
    if not is_seat_token(token):
        raise Http404
    seat = reads.seat(token)
    if seat is None:
        raise Http404("No Seat matches the given query.")
    return seat


def seat_and_table(token: str) -> tuple[Seat, list[Seat]]:
    """The seat under ``token`` and every seat of its party in position order,
    with their players and the one party, in one query: the seat page, which every
    phone reloads after each event, read the seat and then its party's seats."""
    if not is_seat_token(token):
        raise Http404
    seats = reads.table(token)
    seat = next((s for s in seats if s.token == token), None)
    if seat is None:
        raise Http404
    for other in seats:
        other.party = seat.party
    return seat, seats


def seat_live_counters(token: str) -> dict[str, str]:
    """The counters a seat's page follows on its live stream (`live.streams`): its
    own. A token that is no seat now (a replaced link) is a 404, so its stream is
    never opened and the seat guard counts it."""
    seat_by_token(token)
    return {"seat": changes.seat_key(token)}


def night_live_counters(night: ClubNight) -> dict[str, str]:
    """The counters the night's page follows on its live stream: the night's own,
    which moves with whatever its tables show (a party started, cancelled or
    swapped, every hand, a new seat link, the stake, the night closed)."""
    return {"night": changes.night_key(night.pk)}


def sheet_rows(state, hands: list[Hand], shown: dict[int, str] | None = None) -> dict:
    """The score sheet as the seed draws it: each hand, who scored what, the running
    totals and boxes per side (the engine's running sheet), and who deals next.
    ``shown``: player id -> the name the reader may see (`clubs.names`), for a
    public page; else the full names."""
    sides = sorted(state.lineup)
    shown = shown or {}
    names = {s.position: shown.get(s.player_id, s.player.name) for s in state.seats}
    lines = state.format.sheet(state.rules, state.lineup, state.rounds)
    start = tuple(0 for _ in sides)
    target = tuple(state.party.target for _ in sides)

    def running_after(number):
        # The totals after round ``number`` (the latest when it is still open).
        line = lines[min(number, len(lines)) - 1] if lines and number else None
        return line.points if line else start

    def cells(entry, running):
        return [
            {
                "points": entry[1] if entry and entry[0] == side else None,
                "running": running[side] if running is not None else None,
            }
            for side in sides
        ]

    rows = []
    per_table = state.format.table_count(state.lineup) > 1
    for hand in hands:
        entry = entry_of(hand) if hand.status == Hand.Status.CONFIRMED else None
        if not per_table:
            rows.append(
                {
                    "hand": hand,
                    "label": str(hand.number),
                    "cells": cells(entry, running_after(hand.number)),
                }
            )
            continue
        # Partnerships write each round's net, not each table's hand (seed 000: the
        # team adds its tables' results): the tables' rows only show what they played.
        label = f"{hand.number}/{hand.table}"
        rows.append({"hand": hand, "label": label, "cells": cells(entry, None)})
        if hand.table == len(state.lineup[0]) and hand.number <= len(lines):
            line = lines[hand.number - 1]
            rows.append(
                {"hand": None, "round": hand.number, "cells": cells(line.entry, line.points)}
            )
    last = lines[-1] if lines else None
    return {
        "headers": [" · ".join(names[p] for p in state.lineup[side]) for side in sides],
        "rows": rows,
        "points": list(last.points if last else start),
        "boxes": list(last.boxes if last else start),
        "needed": list(last.needed if last else target),
    }


def version(state, hands: list[Hand]) -> str:
    """Changes whenever anything on the sheet changes: the pages poll it."""
    stamp = max((h.updated_at for h in hands), default=None)
    return _version(state.party, len(hands), sum(h.version for h in hands), stamp)


def seat_poll(token: str) -> str:
    """What a seat's phone polls every few seconds: a number that moves after every
    committed change its page shows (`changes.party_changed`). A thousand phones
    ask three times a minute, so the answer comes from the cache alone; the
    database is asked only for a seat the cache does not know yet (and refuses a
    token that is no seat), or when the cache is down.

    A page takes this number *before* it reads the party: a change committed in
    between then shows up as one more reload, never as a change the phone misses."""
    if not is_seat_token(token):
        raise Http404
    counter, _ = changes.seat_counter(token)
    if counter is None:
        seat = seat_by_token(token)
        counter = changes.seat_counter_start(token)
        if counter is None:  # no cache: the database's own count of the changes
            return "db-" + party_version(seat.party)
    return str(counter)


def seat_poll_cached(token: str, also: str) -> tuple[str | None, object]:
    """`seat_poll` from the cache alone (None when the cache does not know the
    seat, or ``token`` cannot be a token), and the cache's value under ``also``,
    read in the same trip."""
    counter, other = changes.seat_counter(token if is_seat_token(token) else None, also)
    return (None if counter is None else str(counter)), other


def party_version(party: Party) -> str:
    """The same as `version`, in one query and without loading the hands: what the
    phones poll while the cache is down."""
    counted = party.hands.aggregate(
        count=Count("pk"), versions=Sum("version"), stamp=Max("updated_at")
    )
    return _version(party, counted["count"], counted["versions"] or 0, counted["stamp"])


def _version(party: Party, count: int, versions: int, stamp) -> str:
    # The hands' versions, not only the time: two corrections within the clock's
    # resolution still change what the phones poll.
    stamp = stamp or party.started_at
    return f"{count}-{versions}-{stamp.timestamp():.6f}-{party.status}"


def settlement_view(state) -> dict:
    """The final sheet in the party's format: each column's totals and who pays whom
    (a player, or a team by its players' names)."""
    names = {s.position: s.player.name for s in state.seats}

    def who(positions):
        return " · ".join(names[p] for p in positions)

    outcome = state.outcome
    payments = [(who(p.payer), who(p.payee), p.amount) for p in outcome.payments]
    return {"totals": list(outcome.sides), "payments": payments}


def seat_view(seat: Seat, seats: list[Seat] | None = None) -> dict:
    """Everything a seat's page shows: the sheet, the open hand at its table, who
    plays and deals, whether it may confirm, and the settlement once finished.
    ``seats``: as `state_for` takes them."""
    state, hands = state_for(seat.party, seats)
    table = state.table_of(seat.position)
    open_hand = state.open_hands.get(table) if table else None
    by_position = {s.position: s for s in state.seats}
    names = {s.position: s.player.name for s in state.seats}
    turn = state.tables[table - 1] if table else None
    # Who plays while this seat sits out (rotation, chouette): its table.
    watched = state.tables[0] if table is None and state.tables else None
    sheet = sheet_rows(state, hands)
    reasons = decision_reasons(seat.party, [h for h in hands if h.decided_by_id])
    for row in sheet["rows"]:
        row["reason"] = reasons.get(row["hand"].pk) if row["hand"] else None
    return {
        "state": state,
        "sheet": sheet,
        "open_hand": open_hand,
        "versions": dispute_versions(open_hand, names)
        if open_hand and open_hand.status == Hand.Status.DISPUTED
        else [],
        "played_hand": state.played.get(table) if table else None,
        "can_confirm": open_hand is not None
        and open_hand.status == Hand.Status.PENDING
        and open_hand.entered_by.side != seat.side,
        # In the order of the score cards (by side, then seat), whoever deals.
        "players": [by_position[p] for p in turn.players] if turn else [],  # forehand first
        # The knocker buttons: in the order of the score cards (by side, then seat),
        # whoever deals, so a thumb finds each player in the same place every hand.
        "knocker_choices": sorted((by_position[p] for p in turn.players), key=_seat_order)
        if turn
        else [],
        "dealer": by_position[turn.dealer] if turn else None,
        "forehand": by_position[turn.forehand] if turn else None,
        "playing": sorted((by_position[p] for p in watched.players), key=_seat_order)
        if watched
        else [],
        "version": version(state, hands),
        "forfeit": seat_forfeit(seat, state.seats)
        if seat.party.status == Party.Status.CANCELLED
        else None,
        **(settlement_view(state) if state.finished else {}),
    }


def seat_forfeit(seat: Seat, seats: list[Seat]) -> dict | None:
    """What a cancelled table's forfeit means for ``seat`` (see `services.party_cancel`):
    whether its player is the one who did not come, the other's name, and the
    forfeit value, signed for this seat; ``{"taken_back": True}`` once the forfeit
    was taken back (`party_forfeit_taken_back`: the table is played as a new party).
    None when the party was cancelled for another reason. One query."""
    record = (
        seat.party.audit.filter(action=AuditRecord.Action.CANCEL).order_by("-at", "-pk").first()
    )
    after = (record.after or {}) if record else {}
    if after.get("forfeit_taken_back"):
        return {"taken_back": True}
    forfeit = after.get("forfeit")
    if not forfeit:
        return None
    absent = forfeit["absent"] == seat.player_id
    others = [s.player.name for s in seats if s.player_id != seat.player_id]
    return {
        "absent": absent,
        "opponent": ", ".join(others),
        "points": -forfeit["points"] if absent else forfeit["points"],
    }


def _seat_order(seat: Seat):
    return (seat.side, seat.position)


def decision_reasons(party: Party, decided: list[Hand]) -> dict[int, str]:
    """The organizer's reason for each decided hand (the latest decision), by hand
    id; no query when no hand was decided."""
    if not decided:
        return {}
    records = party.audit.filter(
        hand__in=decided,
        action__in=(
            AuditRecord.Action.CORRECT,
            AuditRecord.Action.RESOLVE,
            AuditRecord.Action.VOID,
        ),
    ).order_by("at", "pk")
    return {record.hand_id: record.reason for record in records}


def party_by_id(party_id: int) -> Party:
    return get_object_or_404(Party.objects.select_related("club"), pk=party_id)


def party_hand(party: Party, hand_id: int) -> Hand:
    return get_object_or_404(party.hands.all(), pk=hand_id)


def party_seat(party: Party, position: int) -> Seat:
    """The party's seat at ``position`` (as the API names seats), with its player."""
    return get_object_or_404(party.seats.select_related("player"), position=position)


def party_audit(party: Party) -> list[AuditRecord]:
    """The party's record, oldest first, with the seat or login behind each step."""
    return list(
        party.audit.select_related("hand", "seat__player", "user__player").order_by("at", "pk")
    )


def dispute_versions(hand: Hand, names: dict) -> list[dict]:
    """The two versions of a disputed hand, side by side, each with who entered it,
    who knocked and who scores, by name (``names``: player names by position): as
    entered first, and as the other side entered it (``hand.counter``)."""
    counter = hand.counter or {}

    def name(seat):
        return names.get(seat.position, "") if seat else ""

    return [
        {
            "key": "entered",
            "who": name(hand.entered_by),
            "ending": hand.get_ending_display(),
            "knocker": name(hand.knocker),
            "knocker_deadwood": hand.knocker_deadwood,
            "defender_deadwood": hand.defender_deadwood,
            "winner": name(hand.winner),
            "points": hand.points,
            "rulings": ruling_texts(hand.details),
        },
        {
            "key": "counter",
            "who": names.get(counter.get("seat"), ""),
            "ending": choice_label(Hand.Ending, counter.get("ending")),
            "knocker": names.get(counter.get("knocker"), ""),
            "knocker_deadwood": counter.get("knocker_deadwood"),
            "defender_deadwood": counter.get("defender_deadwood"),
            "winner": names.get(counter.get("winner"), ""),
            "points": counter.get("points"),
            "rulings": ruling_texts(counter.get("details") or {}),
        },
    ]


_RULING_TEXT = {
    "knocker_missing_cards": _lazy("knocker %(value)s card(s) short (§ 14.11)"),
    "defender_missing_cards": _lazy("defender %(value)s card(s) short (§ 14.12)"),
    "defender_too_many_cards": _lazy("defender had too many cards (§ 14.13)"),
    "illegal_knock_accepted": _lazy("illegal knock accepted (§ 14.7)"),
}


def ruling_texts(details: dict) -> list[str]:
    """The director's rulings of seed 000 § 14 stored with a hand, written out."""
    return [
        str(_RULING_TEXT.get(name, name)) % {"value": details[name]}
        for name in RULINGS
        if details.get(name)
    ]


def choice_label(choices, value) -> str:
    # Records outlive code: a value no longer among the choices is shown as stored.
    return str(dict(choices.choices).get(value, value or ""))


def party_states(party_ids) -> dict[int, tuple]:
    """Many parties' states and hands, each as `state_for` gives one, in three
    queries however many parties (parties, seats with players, hands).

    ``party_ids``: ids, or a query of them (``values("party_id")``), which the
    database then reads as a subquery: no list of thousands of ids is sent."""
    ids = party_ids if isinstance(party_ids, QuerySet) else list(party_ids)
    if not isinstance(ids, QuerySet) and not ids:
        return {}
    # Parties of party formats only: another game's sheet is `services.whole_table_sheet`'s.
    query = Party.objects.select_related("club").filter(pk__in=ids, game__in=FORMAT_GAMES)
    parties = {p.pk: p for p in query}
    seats: dict[int, list] = {pk: [] for pk in parties}
    query = Seat.objects.filter(party_id__in=ids).select_related("player")
    for seat in query.order_by("party_id", "position"):
        if seat.party_id in seats:
            seats[seat.party_id].append(seat)
    by_id = {seat.pk: seat for party_seats in seats.values() for seat in party_seats}
    hands: dict[int, list] = {pk: [] for pk in parties}
    for hand in Hand.objects.filter(party_id__in=ids).order_by("party_id", "number", "table"):
        if hand.party_id not in hands:
            continue
        # The seats are loaded already: no query per hand for who won or knocked.
        for name in ("winner", "knocker", "defender", "dealer", "entered_by"):
            seat_id = getattr(hand, f"{name}_id")
            if seat_id is not None:
                setattr(hand, name, by_id[seat_id])
        hands[hand.party_id].append(hand)
    return {
        pk: (party_state(party, seats[pk], hands[pk]), hands[pk]) for pk, party in parties.items()
    }


# ------------------------------------------------------------------------ many parties, as values


class PartyRow(NamedTuple):
    """What `party_state` reads of a party."""

    pk: int
    format: str
    rules: dict
    first_dealer: int
    status: str


class SeatRow(NamedTuple):
    """What `party_state` and the scores read of a seat."""

    position: int
    side: int
    player_id: int


class HandRow(NamedTuple):
    """What `party_state` reads of a hand: which one, whether it counts, who won
    (the winner's seat, for its side) and how much."""

    number: int
    table: int
    status: str
    points: int
    winner_id: int | None
    winner: SeatRow | None


def party_sheets(
    party_ids, *, cancelled: bool = True, parties: list[PartyRow] | None = None
) -> dict[int, PartyState]:
    """Many parties' states, for their scores only, in three queries however many
    parties: the rows are read as plain values (`PartyRow`, `SeatRow`, `HandRow`),
    never as models. A tournament's standings read every hand it ever had (tens of
    thousands), and making a model of each row took most of their time.

    ``party_ids``: ids, or a query of them (a subquery, as for `party_states`).
    ``cancelled=False`` leaves cancelled parties out. ``parties``: the parties'
    rows, read already with what else the caller reads of them (the kept
    scores, `scores.party_scores`): two queries then, and only these parties."""
    ids = party_ids if isinstance(party_ids, QuerySet) else list(party_ids)
    if not isinstance(ids, QuerySet) and not ids:
        return {}
    if parties is None:
        # Parties of party formats only: a party at one whole table is read by
        # `services.whole_table_sheet.table_results`.
        query = Party.objects.filter(pk__in=ids, game__in=FORMAT_GAMES).order_by()
        parties = [
            PartyRow(*row)
            for row in query.values_list("pk", "format", "rules", "first_dealer", "status")
        ]
    if not cancelled:
        parties = [party for party in parties if party.status != Party.Status.CANCELLED]
    if not parties:
        return {}
    # A list of ids is narrowed to these parties (another game's rows are not
    # read); a query of them stays a subquery.
    ids = ids if isinstance(ids, QuerySet) else [party.pk for party in parties]
    seats: dict[int, list[SeatRow]] = {party.pk: [] for party in parties}
    by_id = {}
    rows = Seat.objects.filter(party_id__in=ids).order_by("party_id", "position")
    for pk, party_id, position, side, player in rows.values_list(
        "pk", "party_id", "position", "side", "player_id"
    ):
        if party_id in seats:
            by_id[pk] = seat = SeatRow(position, side, player)
            seats[party_id].append(seat)
    hands: dict[int, list[HandRow]] = {party.pk: [] for party in parties}
    rows = Hand.objects.filter(party_id__in=ids).order_by("party_id", "number", "table")
    for party_id, number, table, status, points, winner in rows.values_list(
        "party_id", "number", "table", "status", "points", "winner_id"
    ):
        if party_id in hands:
            hands[party_id].append(
                HandRow(number, table, status, points, winner, by_id.get(winner))
            )
    return {party.pk: party_state(party, seats[party.pk], hands[party.pk]) for party in parties}


def night_by_id(night_id: int) -> ClubNight:
    return get_object_or_404(ClubNight.objects.select_related("club"), pk=night_id)
