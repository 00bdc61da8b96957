"""The state of a party, derived from its seats and hands: which hands count,
which one is open, who plays next, and the outcome. Reads loaded rows only; what
differs by format is the engine's (`scoring.engine.formats`)."""

from dataclasses import dataclass

from scoring.engine.formats import FORMATS, PartyFormat, PartyOutcome
from scoring.engine.rules import Rules
from scoring.models import Hand, Party

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
    outcome: PartyOutcome

    @property
    def finished(self) -> bool:
        return self.outcome.finished

    @property
    def format(self) -> PartyFormat:
        return FORMATS[self.party.format]

    @property
    def rules(self) -> Rules:
        return Rules.from_dict(self.party.rules)

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
    party_format = FORMATS[party.format]
    lineup: dict[int, list[int]] = {}
    for seat in seats:
        lineup.setdefault(seat.side, []).append(seat.position)
    table_count = party_format.table_count(lineup)
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
    outcome = party_format.outcome(Rules.from_dict(party.rules), lineup, rounds)
    tables = (
        () if outcome.finished else party_format.next_tables(party.first_dealer, lineup, rounds)
    )
    return PartyState(party, seats, lineup, rounds, open_hands, played, number, tables, outcome)
