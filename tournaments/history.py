"""What the rounds so far hold, as plain rows: every table and who sat where, and
the parties' outcomes, read in a fixed number of queries however many entrants
and rounds (`tournament_history`); and each table's result as the standings
engine reads it. The standings (`tournaments.standings`), the kept results
(`tournaments.kept`) and the pairing read it.

Parties come in through scoring's one read of their results only
(`scoring.results.party_results`: Gin Rummy's kept, settled again only where a
party changed), whatever the game."""

from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import dataclass
from typing import NamedTuple

from scoring.results import Result, party_results
from tournaments.engine.standings import Bye, Forfeit, Played
from tournaments.engine.table_points import AtTable, TableBye
from tournaments.models import Round, Seating, Table, Tournament
from web.rows import plain_rows


class TableRow(NamedTuple):
    """A table of the history, as plain values with its round's number and status."""

    pk: int
    round_id: int
    round_number: int
    round_status: str
    number: int
    bye: bool
    absent: int | None
    party_id: int | None


class SeatingRow(NamedTuple):
    table_id: int
    entrant_id: int
    side: int
    pk: int


@dataclass
class History:
    """What the rounds so far hold: every table, who sat where, the results."""

    tables: list[TableRow]
    seated: dict[int, list[SeatingRow]]  # table id -> seatings by side
    # The parties' results by id (cancelled ones left out): whether finished, and
    # each player's plus/minus (at another game, his margin) and place.
    outcomes: dict[int, Result]

    def pairs(self, before: int | None = None) -> list[tuple[int, int]]:
        """Entrant id pairs that met (forfeits included: they were paired)."""
        return [
            (seats[0].entrant_id, seats[1].entrant_id)
            for table in self.tables
            if not table.bye and (before is None or table.round_number < before)
            for seats in [self.seated[table.pk]]
        ]

    def meetings(self, before: int | None = None) -> list[tuple[int, int]]:
        """Every two entrants who sat at one table (a table of two is its pair); a
        pair that met twice is listed twice."""
        return [
            pair
            for table in self.tables
            if not table.bye and (before is None or table.round_number < before)
            for pair in itertools.combinations(
                [seat.entrant_id for seat in self.seated[table.pk]], 2
            )
        ]

    def table_results(self, entrant_player: dict[int, int], closed_only: bool = True) -> list:
        """The results of a tournament at tables as its standings engine reads them
        (`table_points`): each finished party's places and margins, and the byes."""
        return [
            result
            for table in self.tables
            if not (closed_only and table.round_status != Round.Status.CLOSED)
            for result in [self.table_result(table, entrant_player)]
            if result is not None
        ]

    def table_result(self, table: TableRow, entrant_player: dict[int, int]):
        """One table's result at tables of another game (`table_points`), or None
        while its party is not over."""
        ids = [seat.entrant_id for seat in self.seated[table.pk]]
        if table.bye:
            return TableBye(ids[0])
        outcome = self.outcomes.get(table.party_id)
        if outcome is None or not outcome.finished:
            return None
        players = [entrant_player[pk] for pk in ids]
        places, margins = outcome.places, outcome.plus_minus
        return AtTable(
            tuple(ids), tuple(places[p] for p in players), tuple(margins[p] for p in players)
        )

    def byes(self, before: int | None = None) -> list[int]:
        return [
            self.seated[table.pk][0].entrant_id
            for table in self.tables
            if table.bye and (before is None or table.round_number < before)
        ]

    def results(self, entrant_player: dict[int, int], closed_only: bool = True) -> list:
        """The results of the closed rounds as the standings engine reads them
        (``closed_only=False``: the finished tables of the rounds after them too)."""
        closed, later = self.results_split(entrant_player)
        return closed if closed_only else closed + later

    def results_split(self, entrant_player: dict[int, int]) -> tuple[list, list]:
        """The results of the closed rounds, and those of the finished tables of the
        rounds after them: the provisional standings add the second to the first,
        each read once."""
        closed, later = [], []
        for table in self.tables:
            result = self.result(table, entrant_player)
            if result is not None:
                (closed if table.round_status == Round.Status.CLOSED else later).append(result)
        return closed, later

    def result(self, table: TableRow, entrant_player: dict[int, int]):
        """One table's result as the standings engine reads it (`Played`, `Bye`,
        `Forfeit`), or None while its party is not over."""
        seats = self.seated[table.pk]
        if table.bye:
            return Bye(seats[0].entrant_id)
        first, second = seats[0].entrant_id, seats[1].entrant_id
        if table.absent is not None:
            present, absent = (second, first) if table.absent == 0 else (first, second)
            return Forfeit(present=present, absent=absent)
        outcome = self.outcomes.get(table.party_id)
        if outcome is None or not outcome.finished:
            return None
        margin = outcome.plus_minus[entrant_player[first]]
        winner = None if margin == 0 else first if margin > 0 else second
        return Played(first, second, winner, abs(margin))


def tournament_history(tournament: Tournament, *, with_outcomes: bool = True, only=None) -> History:
    """Every table of every round with its seatings (two queries), and the parties'
    outcomes (`party_results`, a few more; Gin Rummy's only ``with_outcomes``,
    another game's always). Rows are read as plain values, never as models: a big
    tournament's history is tens of thousands of rows. ``only``: these tables'
    ids, the rest left out (`tournaments.kept`)."""
    tables = Table.objects.filter(round__tournament=tournament).order_by("round__number", "number")
    seatings = Seating.objects.filter(round__tournament=tournament).order_by("table_id", "side")
    if only is not None:
        tables, seatings = tables.filter(pk__in=only), seatings.filter(table_id__in=only)
    rows = [
        TableRow(pk, round_id, round_number, status, number, bool(bye), absent, party)
        for pk, round_id, round_number, status, number, bye, absent, party in plain_rows(
            tables.values_list(
                "pk",
                "round_id",
                "round__number",
                "round__status",
                "number",
                "bye",
                "absent",
                "party_id",
            )
        )
    ]
    seated: dict[int, list[SeatingRow]] = defaultdict(list)
    for row in plain_rows(seatings.values_list("table_id", "entrant_id", "side", "pk")):
        seated[row[0]].append(SeatingRow(*row))
    outcomes = {}
    # The ids as a subquery: no list of thousands of ids is sent.
    parties = tables.filter(party__isnull=False).values("party_id")
    # At tables, read whatever ``with_outcomes`` says: it spares Gin Rummy's
    # outcomes to a reader that reads them with the cancelled ones (the board).
    if tournament.plays_at_tables or with_outcomes:
        outcomes = party_results(parties, cancelled=False, game=tournament.game)
    return History(rows, seated, outcomes)


class Counts(NamedTuple):
    """Each entrant's games (parties, forfeits and byes), won and byes, by entrant id."""

    games: dict[int, int]
    won: dict[int, int]
    byes: dict[int, int]


def gin_counts(results) -> Counts:
    """Games, won and byes from Gin Rummy's results: a forfeit is a game won by
    the entrant who came; a party that ended equal is won by nobody."""
    games, won, byes = defaultdict(int), defaultdict(int), defaultdict(int)
    for result in results:
        for entrant in _entrants_of(result):
            games[entrant] += 1
        if isinstance(result, Bye):
            byes[result.entrant] += 1
        elif isinstance(result, Forfeit):
            won[result.present] += 1
        elif result.winner is not None:
            won[result.winner] += 1
    return Counts(games, won, byes)


def _entrants_of(result) -> tuple:
    if isinstance(result, Played):
        return (result.first, result.second)
    if isinstance(result, Forfeit):
        return (result.present, result.absent)
    return (result.entrant,)
