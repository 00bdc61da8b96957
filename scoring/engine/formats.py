"""The party formats: two players, three in rotation, chouette, and partnerships of
two or three per team. Everything that differs between them is here, behind one
interface (`PartyFormat`); the rest of the code asks `FORMATS[key]`.

Players are seat positions, numbered in card-draw order (best card first, see
`scoring.engine.deal.order_by_draw`). A party's ``lineup`` maps each side (a column
of the sheet) to its positions in draw order. Its ``rounds`` hold, for each counted
hand, one entry per table (``None`` or ``(side, points)``, see
`scoring.engine.settlement`): one table, or one per partnership table.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from scoring.engine.deal import (
    NextHand,
    chouette_turns,
    dealer_for_hand,
    partnership_tables,
    rotation_turns,
)
from scoring.engine.rules import Rules
from scoring.engine.settlement import (
    SideTotal,
    partnership_round,
    partnership_rules,
    score_sheet,
    settle_chouette,
    settle_partnership,
    settle_party,
    settle_rotation,
)


class WrongPlayerCount(ValueError):
    """A format started with a number of players it is not played by."""

    def __init__(self, sizes: tuple[int, ...], count: int):
        super().__init__(f"This format is played by {' or '.join(map(str, sizes))}, not {count}.")
        self.sizes = sizes
        self.count = count


@dataclass(frozen=True, slots=True)
class Seating:
    """Where the players drawn sit: ``sides[i]`` is the side of position ``i``, and
    ``first_dealer`` the side (two players) or team (partnerships) that deals first."""

    sides: tuple[int, ...]
    first_dealer: int


@dataclass(frozen=True, slots=True)
class Payment:
    """``payer`` pays ``payee`` ``amount``; each is a side's positions (one player, or
    a team)."""

    payer: tuple[Hashable, ...]
    payee: tuple[Hashable, ...]
    amount: int


@dataclass(frozen=True, slots=True)
class PartyOutcome:
    """What a party comes to, in any format.

    ``sides``: each side's column (`SideTotal`; bonuses once finished). ``winner``
    and ``margin``: the winning side and what the loser pays, for formats with two
    sides (``None`` for a rotation, and ``winner`` ``None`` while running or tied).
    ``payments``: who pays whom once finished. ``plus_minus``: each position's
    result, the sum of what it was paid minus what it paid (0 for all while the
    party runs); a partner wins or pays his team's margin.
    """

    finished: bool
    sides: tuple[SideTotal, ...]
    winner: int | None
    margin: int | None
    payments: tuple[Payment, ...]
    plus_minus: dict[Hashable, int]


@dataclass(frozen=True, slots=True)
class SheetLine:
    """The sheet after one counted round: its entry in the side columns, the
    running points and boxes per side, and the points each side still needs."""

    entry: object
    points: tuple[int, ...]
    boxes: tuple[int, ...]
    needed: tuple[int, ...]


class PartyFormat:
    """One party format. Subclasses say how many play, how they sit, who plays
    the next hand, and how the party is settled; the common outcome follows."""

    key: str = ""
    sizes: tuple[int, ...] = ()

    def check_count(self, count: int) -> None:
        """Raises `WrongPlayerCount` unless ``count`` players play this format."""
        if count not in self.sizes:
            raise WrongPlayerCount(self.sizes, count)

    def seating(self, count: int) -> Seating:
        """The sides of ``count`` players in draw order, and who deals first (seed
        000: the lower card deals; two players: position 0, the higher card, is
        forehand, so side 1 deals)."""
        self.check_count(count)
        return Seating((0, 1), first_dealer=1)

    def rules(self, rules: Rules, count: int) -> Rules:
        """The rules the party stores when it starts."""
        return rules

    def table_count(self, lineup: dict) -> int:
        """How many tables play each round."""
        return 1

    def next_tables(self, first_dealer: int, lineup: dict, rounds: Sequence) -> tuple:
        """The table(s) of the next hand, as `NextHand`s of positions."""
        raise NotImplementedError

    def settle(self, rules: Rules, lineup: dict, rounds: Sequence):
        """The engine's settlement of the rounds so far (the format's own type)."""
        raise NotImplementedError

    def column_entries(self, rounds: Sequence) -> list:
        """What each counted round writes in the side columns."""
        return [tables[0] for tables in rounds]

    def outcome(self, rules: Rules, lineup: dict, rounds: Sequence) -> PartyOutcome:
        return self._outcome(self.settle(rules, lineup, rounds), lineup)

    def _outcome(self, settlement, lineup: dict) -> PartyOutcome:
        raise NotImplementedError

    def sheet(self, rules: Rules, lineup: dict, rounds: Sequence) -> list[SheetLine]:
        """The running sheet, one line per counted round (seed 000, "Beispiel einer
        Abrechnung"), from `scoring.engine.settlement.score_sheet`."""
        rows = score_sheet(rules, self.column_entries(rounds), sides=len(lineup))
        return [SheetLine(row.entry, row.points, row.boxes, row.needed) for row in rows]


def _two_sided(settlement, lineup: dict) -> PartyOutcome:
    """Two sides, the loser paying the margin; each player of a side wins or pays it."""
    plus_minus = {p: 0 for positions in lineup.values() for p in positions}
    payments = ()
    if settlement.winner is not None:
        winner, loser = tuple(lineup[settlement.winner]), tuple(lineup[1 - settlement.winner])
        payments = (Payment(loser, winner, settlement.margin),)
        for p in winner:
            plus_minus[p] = settlement.margin
        for p in loser:
            plus_minus[p] = -settlement.margin
    return PartyOutcome(
        settlement.finished,
        settlement.sides,
        settlement.winner,
        settlement.margin,
        payments,
        plus_minus,
    )


def _by_payments(finished, totals, winner, margin, payments, lineup) -> PartyOutcome:
    """Each player's plus/minus is the sum of his payments."""
    plus_minus = {p: 0 for positions in lineup.values() for p in positions}
    for payer, payee, amount in payments:
        plus_minus[payer] -= amount
        plus_minus[payee] += amount
    listed = tuple(Payment((payer,), (payee,), amount) for payer, payee, amount in payments)
    return PartyOutcome(finished, tuple(totals), winner, margin, listed, plus_minus)


class TwoPlayers(PartyFormat):
    """Two players, one against one (seed 000)."""

    key = "two"
    sizes = (2,)

    def next_tables(self, first_dealer, lineup, rounds):
        dealer = dealer_for_hand(first_dealer, self.column_entries(rounds))
        return (NextHand(dealer=lineup[dealer][0], forehand=lineup[1 - dealer][0]),)

    def settle(self, rules, lineup, rounds):
        return settle_party(rules, self.column_entries(rounds))

    def _outcome(self, settlement, lineup):
        return _two_sided(settlement, lineup)


class Rotation(PartyFormat):
    """Three players in rotation, each his own column; the loser of a hand sits out
    (seed 000, "zu dritt" 1). The first hand: position 0 forehand, 1 deals, 2 out."""

    key = "rotation"
    sizes = (3,)

    def seating(self, count):
        self.check_count(count)
        return Seating((0, 1, 2), first_dealer=1)

    def next_tables(self, first_dealer, lineup, rounds):
        return (rotation_turns(self.column_entries(rounds), (0, 1))[-1],)

    def settle(self, rules, lineup, rounds):
        return settle_rotation(rules, self.column_entries(rounds))

    def _outcome(self, settlement, lineup):
        return _by_payments(
            settlement.finished, settlement.players, None, None, settlement.payments, lineup
        )


class Chouette(PartyFormat):
    """One player, the box (the best card, side 0), against a team of two to five
    who keep one column, the partner at the table playing until he loses a hand
    (seed 000 "zu dritt" 2, seed 002 "Chouette")."""

    key = "chouette"
    sizes = (3, 4, 5, 6)

    def seating(self, count):
        self.check_count(count)
        return Seating((0,) + (1,) * (count - 1), first_dealer=1)

    def next_tables(self, first_dealer, lineup, rounds):
        entries = self.column_entries(rounds)
        return (chouette_turns(entries, box=lineup[0][0], team=lineup[1])[-1],)

    def settle(self, rules, lineup, rounds):
        entries = self.column_entries(rounds)
        return settle_chouette(rules, entries, box=lineup[0][0], team=lineup[1])

    def _outcome(self, settlement, lineup):
        party = settlement.party
        return _by_payments(
            party.finished, party.sides, party.winner, party.margin, settlement.payments, lineup
        )


class Partnerships(PartyFormat):
    """Two teams of two or three, one table per pair, each round's net written in
    the team column (seed 000, "Sind vier Spieler beteiligt…", "zu sechst"). The
    better half of the draw is team 0; the low team (side 1) deals the first round."""

    key = "partners"
    sizes = (4, 6)

    def seating(self, count):
        self.check_count(count)
        return Seating((0,) * (count // 2) + (1,) * (count // 2), first_dealer=1)

    def rules(self, rules, count):
        return partnership_rules(rules, count // 2)

    def table_count(self, lineup):
        return len(lineup[0])

    def column_entries(self, rounds):
        return [partnership_round(tables) for tables in rounds]

    def next_tables(self, first_dealer, lineup, rounds):
        dealing = dealer_for_hand(first_dealer, self.column_entries(rounds))
        return partnership_tables((lineup[0], lineup[1]), len(rounds) + 1, dealing)

    def settle(self, rules, lineup, rounds):
        return settle_partnership(rules, rounds, team_size=len(lineup[0])).party

    def _outcome(self, settlement, lineup):
        return _two_sided(settlement, lineup)


FORMATS: dict[str, PartyFormat] = {
    f.key: f for f in (TwoPlayers(), Rotation(), Chouette(), Partnerships())
}
