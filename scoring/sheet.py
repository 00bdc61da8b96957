"""The state of a party, derived from its seats and hands: which hands count,
which one is open, who plays next, and the settlement. Reads loaded rows only."""

from dataclasses import dataclass

from scoring.engine.rules import Rules
from scoring.engine.settlement import (
    settle_chouette,
    settle_partnership,
    settle_party,
    settle_rotation,
)
from scoring.models import Hand, Party
from scoring.tables import next_tables

COUNTED = (Hand.Status.CONFIRMED, Hand.Status.VOID)


@dataclass
class PartyState:
    party: Party
    seats: list  # by position
    lineup: dict  # side -> positions
    rounds: list  # counted hands: per number, the entries of its tables
    open_hands: dict  # table -> Hand still pending or disputed in the open round
    played: dict  # table -> Hand already counted in the open round (partnerships)
    number: int  # the open round's number
    tables: tuple  # NextHand per table of the open round (players are positions)
    settlement: object

    @property
    def finished(self) -> bool:
        return is_finished(self.settlement)

    def table_of(self, position: int) -> int | None:
        """The table (1-based) where a seat plays the open hand, or None if it sits out."""
        for index, table in enumerate(self.tables, start=1):
            if position in table.players:
                return index
        return None


def entry_of(hand: Hand) -> tuple | None:
    """A counted hand as the core's sheet entry: None, or (side, points)."""
    if hand.status == Hand.Status.VOID or hand.winner_id is None or hand.points == 0:
        return None
    return (hand.winner.side, hand.points)


def party_state(party: Party, seats: list, hands: list) -> PartyState:
    """``seats`` ordered by position, ``hands`` by number and table, winners loaded."""
    lineup: dict[int, list[int]] = {}
    for seat in seats:
        lineup.setdefault(seat.side, []).append(seat.position)
    table_count = len(lineup[0]) if party.format == Party.Format.PARTNERS else 1
    by_number: dict[int, dict[int, Hand]] = {}
    for hand in hands:
        by_number.setdefault(hand.number, {})[hand.table] = hand
    rounds, number = [], 1
    while (
        number in by_number
        and len(by_number[number]) == table_count
        and all(h.status in COUNTED for h in by_number[number].values())
    ):
        rounds.append([entry_of(by_number[number][t]) for t in sorted(by_number[number])])
        number += 1
    open_hands = {t: h for t, h in by_number.get(number, {}).items() if h.status not in COUNTED}
    played = {t: h for t, h in by_number.get(number, {}).items() if h.status in COUNTED}
    rules = Rules.from_dict(party.rules)
    settlement = settle(party, rules, lineup, rounds)
    tables = (
        ()
        if is_finished(settlement)
        else next_tables(party.format, party.first_dealer, lineup, rounds)
    )
    return PartyState(party, seats, lineup, rounds, open_hands, played, number, tables, settlement)


def settle(party: Party, rules: Rules, lineup: dict, rounds: list):
    entries = [tables[0] for tables in rounds]
    if party.format == Party.Format.ROTATION:
        return settle_rotation(rules, entries)
    if party.format == Party.Format.CHOUETTE:
        return settle_chouette(rules, entries, box=lineup[0][0], team=lineup[1])
    if party.format == Party.Format.PARTNERS:
        return settle_partnership(rules, rounds, team_size=len(lineup[0])).party
    return settle_party(rules, entries)


def is_finished(settlement) -> bool:
    # A chouette's settlement wraps the two-sided party between box and team.
    return settlement.party.finished if hasattr(settlement, "party") else settlement.finished
