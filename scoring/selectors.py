"""Reads for the party pages: a fixed number of queries, however many hands."""

from django.db.models import Count, Max
from django.shortcuts import get_object_or_404

from scoring.engine.settlement import partnership_round
from scoring.models import AuditRecord, Hand, Party, Seat
from scoring.sheet import entry_of, party_state


def state_for(party: Party):
    seats = list(party.seats.select_related("player").order_by("position"))
    hands = list(
        party.hands.select_related("winner", "knocker", "entered_by", "dealer").order_by(
            "number", "table"
        )
    )
    return party_state(party, seats, hands), hands


def seat_by_token(token: str) -> Seat:
    return get_object_or_404(Seat.objects.select_related("party", "player"), token=token)


def sheet_rows(state, hands: list[Hand]) -> dict:
    """The score sheet as the seed draws it: each hand, who scored what, the running
    totals and boxes per side, and who deals next."""
    sides = sorted(state.lineup)
    names = {s.position: s.player.name for s in state.seats}
    running = dict.fromkeys(sides, 0)
    boxes = dict.fromkeys(sides, 0)
    partnership = state.party.format == Party.Format.PARTNERS
    last_table = len(state.lineup[0]) if partnership else 1

    def write(entry):
        if entry is not None:
            running[entry[0]] += entry[1]
            boxes[entry[0]] += 1

    def cells(entry, *, totals=True):
        return [
            {
                "points": entry[1] if entry and entry[0] == side else None,
                "running": running[side] if totals else None,
            }
            for side in sides
        ]

    rows = []
    for hand in hands:
        entry = entry_of(hand) if hand.status == Hand.Status.CONFIRMED else None
        if not partnership:
            write(entry)
            rows.append({"hand": hand, "label": str(hand.number), "cells": cells(entry)})
            continue
        # Partnerships write each round's net, not each table's hand (seed 000: the
        # team adds its tables' results): the tables' rows only show what they played.
        label = f"{hand.number}/{hand.table}"
        rows.append({"hand": hand, "label": label, "cells": cells(entry, totals=False)})
        if hand.table == last_table and hand.number <= len(state.rounds):
            net = partnership_round(state.rounds[hand.number - 1])
            write(net)
            rows.append({"hand": None, "round": hand.number, "cells": cells(net)})
    return {
        "headers": [" · ".join(names[p] for p in state.lineup[side]) for side in sides],
        "rows": rows,
        "points": [running[side] for side in sides],
        "boxes": [boxes[side] for side in sides],
        "needed": [max(state.party.target - running[side], 0) for side in sides],
    }


def version(state, hands: list[Hand]) -> str:
    """Changes whenever anything on the sheet changes: the pages poll it."""
    stamp = max((h.updated_at for h in hands), default=None)
    return _version(state.party, len(hands), stamp)


def party_version(party: Party) -> str:
    """The same as `version`, in one query and without loading the hands: every
    phone at every table asks for it every few seconds."""
    counted = party.hands.aggregate(count=Count("pk"), stamp=Max("updated_at"))
    return _version(party, counted["count"], counted["stamp"])


def _version(party: Party, count: int, stamp) -> str:
    stamp = stamp or party.started_at
    return f"{count}-{stamp.timestamp():.6f}-{party.status}"


def settlement_view(state) -> dict:
    """The final sheet in the party's format: each column's totals and who pays whom."""
    settlement = state.settlement
    names = {s.position: s.player.name for s in state.seats}
    side_names = {
        side: " · ".join(names[p] for p in positions) for side, positions in state.lineup.items()
    }
    if hasattr(settlement, "players"):  # rotation: positions are sides
        totals, raw = settlement.players, settlement.payments
        payments = [(names[a], names[b], amount) for a, b, amount in raw]
    elif hasattr(settlement, "box"):  # chouette: the box settles with every partner
        totals = settlement.party.sides
        payments = [(names[a], names[b], amount) for a, b, amount in settlement.payments]
    else:
        totals, payments = settlement.sides, []
        if settlement.winner is not None:
            loser = 1 - settlement.winner
            payments = [(side_names[loser], side_names[settlement.winner], settlement.margin)]
    return {"totals": list(totals), "payments": payments}


def seat_view(seat: Seat) -> dict:
    """Everything a seat's page shows: the sheet, the open hand at its table, who
    plays and deals, whether it may confirm, and the settlement once finished."""
    state, hands = state_for(seat.party)
    table = state.table_of(seat.position)
    open_hand = state.open_hands.get(table) if table else None
    by_position = {s.position: s for s in state.seats}
    turn = state.tables[table - 1] if table else None
    return {
        "state": state,
        "sheet": sheet_rows(state, hands),
        "open_hand": open_hand,
        "played_hand": state.played.get(table) if table else None,
        "can_confirm": open_hand is not None
        and open_hand.status == Hand.Status.PENDING
        and open_hand.entered_by.side != seat.side,
        "players": [by_position[p] for p in turn.players] if turn else [],
        "dealer": by_position[turn.dealer] if turn else None,
        "version": version(state, hands),
        **(settlement_view(state) if state.finished else {}),
    }


def party_by_id(party_id: int) -> Party:
    return get_object_or_404(Party.objects.select_related("club"), pk=party_id)


def party_hand(party: Party, hand_id: int) -> Hand:
    return get_object_or_404(party.hands.all(), pk=hand_id)


def party_audit(party: Party) -> list[AuditRecord]:
    """The party's record, oldest first, with the seat or login behind each step."""
    return list(party.audit.select_related("hand", "seat__player", "user").order_by("at", "pk"))
