"""The standings kept as results come in, not recomputed from every table (issue
29): each seat's share of its entrant's line (`KeptResult`: the party's plus/minus
or the points of the place, the game, the win, the bye, the forfeit) is worked out
once its table has moved, and the standings add the kept rows up in the database,
one query however many rounds. A board of a thousand entrants read five thousand
tables, ten thousand seatings and five thousand parties to recompute what one
party had changed.

The board's builder keeps the seats whose table moved before each build, after
the commit of the change and off the phones' path (`stored_board.board_store`).
What a seat was worked out from is kept with it (its entrant, the party and its
count of changes, `Party.changes`, the no-show): a seat whose table has moved on
since, or that was never kept, is found by one query and worked out when the
standings are read, so a keeping that failed or has not run yet never shows. A
round's status and the tournament's bye and forfeit values are read with the
sums, never kept: closing a round or changing a value moves no row. What the sums
give always equals the standings recomputed from the history
(`standings.standings_from`; a property test and `make load`'s data check
compare the two)."""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import asdict, dataclass, fields

from django.db import DatabaseError, transaction
from django.db.models import F, Q, Sum
from django.db.models.functions import Coalesce

from tournaments.engine.standings import Forfeit, plus_minus
from tournaments.engine.table_points import table_totals
from tournaments.history import History, gin_counts, tournament_history
from tournaments.models import Entrant, KeptResult, Round, Seating, Table, Tournament
from web.rows import plain_rows

log = logging.getLogger(__name__)

NO_ONE_ABSENT = -1

# A seat whose kept result is missing or was worked out from another state of its
# table. (Coalesce: a table without a party or a no-show is kept as 0 and -1, so
# that every comparison is between numbers, never with NULL.)
_STALE = (
    Q(kept__isnull=True)
    | ~Q(kept__entrant=F("entrant_id"))
    | ~Q(kept__party=Coalesce(F("table__party_id"), 0))
    | ~Q(kept__changes=Coalesce(F("table__party__changes"), 0))
    | ~Q(kept__absent=Coalesce(F("table__absent"), NO_ONE_ABSENT))
)


@dataclass(slots=True)
class Sums:
    """What an entrant's kept results add up to, before the tournament's values
    for a bye and a forfeit are applied."""

    points: int = 0
    score: int = 0
    won: int = 0
    games: int = 0
    byes: int = 0
    forfeits: int = 0

    def add(self, other: Sums) -> None:
        for name in _SUMMED:
            setattr(self, name, getattr(self, name) + getattr(other, name))


#: The kept columns that add up: `KeptResult`'s fields of the same names.
_SUMMED = tuple(f.name for f in fields(Sums))


# --------------------------------------------------------------------------- keeping


def keep_results(tournament: Tournament) -> int:
    """Works out and keeps every seat of the tournament whose table moved since it
    was kept: the board's builder does, before each build, off the phones' path
    (`stored_board.board_store`). Returns how many seats were kept. One that cannot
    write now (the database busy) leaves them to be worked out when read: a kept
    result is a saving, never a need."""
    rows = worked_out(tournament, _stale_tables(tournament))
    if not rows:
        return 0
    try:
        with transaction.atomic():
            KeptResult.objects.bulk_create(
                sorted(rows, key=lambda row: row.seating_id),
                batch_size=500,
                update_conflicts=True,
                unique_fields=["seating"],
                update_fields=["entrant", "party", "changes", "absent", *_SUMMED],
            )
    except DatabaseError:
        log.warning("kept results of tournament %s not written", tournament.pk, exc_info=True)
        return 0
    return len(rows)


def _stale_tables(tournament: Tournament) -> list[int]:
    seatings = Seating.objects.filter(round__tournament=tournament).filter(_STALE)
    return sorted(set(seatings.values_list("table_id", flat=True)))


def worked_out(tournament: Tournament, table_ids: list[int]) -> list[KeptResult]:
    """The kept results of these tables' seats, worked out from their parties now.
    What each was worked out from is read before the parties: a change committed
    in between leaves an older stamp, and the seat is worked out again next time."""
    if not table_ids:
        return []
    stamps = {
        pk: (party or 0, changes or 0, NO_ONE_ABSENT if absent is None else absent)
        for pk, party, changes, absent in plain_rows(
            Table.objects.filter(pk__in=table_ids).values_list(
                "pk", "party_id", "party__changes", "absent"
            )
        )
    }
    history = tournament_history(tournament, only=table_ids)
    seated = [seat.entrant_id for seats in history.seated.values() for seat in seats]
    players = dict(Entrant.objects.filter(pk__in=seated).values_list("pk", "player_id"))
    return [
        KeptResult(
            seating_id=seat.pk,
            entrant=seat.entrant_id,
            **dict(zip(("party", "changes", "absent"), stamps[table.pk], strict=True)),
            **asdict(share),
        )
        for table, seat, share in _worked(tournament, history, history.tables, players)
    ]


def _worked(tournament, history: History, tables, players):
    """Each seat of ``tables`` with its share of its table's result (`_shares`)."""
    for table in tables:
        seats = history.seated[table.pk]
        shares = _shares(tournament, history, table, players, [s.entrant_id for s in seats])
        for seat in seats:
            yield table, seat, shares[seat.entrant_id]


def _shares(tournament, history, table, players, ids) -> dict[int, Sums]:
    """Each seat's share of one table's result, by the rules the recomputed
    standings follow: `table_points.table_totals` at tables of another game, else
    `engine.standings.plus_minus` and `history.gin_counts`."""
    shares = {pk: Sums() for pk in ids}
    if tournament.plays_at_tables:
        result = history.table_result(table, players)
        if result is not None:
            for pk, total in table_totals(ids, [result], bye_points=0).items():
                shares[pk] = Sums(total.points, total.score, total.won, total.games, total.byes)
        return shares
    result = history.result(table, players)
    if result is None:
        return shares
    # A bye and a forfeit score 0 here: their values are applied when read.
    points = plus_minus(ids, [result])
    counts = gin_counts([result])
    for pk in ids:
        shares[pk] = Sums(
            points=points[pk],
            won=counts.won.get(pk, 0),
            games=counts.games.get(pk, 0),
            byes=counts.byes.get(pk, 0),
        )
    if isinstance(result, Forfeit):
        shares[result.present].forfeits, shares[result.absent].forfeits = 1, -1
    return shares


# --------------------------------------------------------------------------- reading


def kept_sums(
    tournament: Tournament, players: dict[int, int], history: History | None = None
) -> tuple[dict[int, Sums], dict[int, Sums]]:
    """Each entrant's sums after the closed rounds, and those of the finished tables
    of the rounds after them (entrant id -> `Sums`; an entrant with no kept result
    is missing; ``players``: entrant id -> player id). Seats kept from an older
    state of their table are worked out now, from ``history`` when the caller has
    read it (the board) and it holds them, and left out of the database's sums: two
    queries while nothing is stale, six more when some are and no history holds them."""
    stale = _stale_tables(tournament)
    closed: dict[int, Sums] = defaultdict(Sums)
    later: dict[int, Sums] = defaultdict(Sums)
    kept = KeptResult.objects.filter(seating__round__tournament=tournament)
    if stale:
        kept = kept.exclude(seating__table_id__in=stale)
    found = (
        kept.values_list("entrant", "seating__round__status")
        .order_by()
        .annotate(*[Sum(name) for name in _SUMMED])
    )
    for entrant, status, *values in plain_rows(found):
        (closed if status == Round.Status.CLOSED else later)[entrant].add(Sums(*values))
    if stale:
        moved = set(stale)
        # The caller's history may hold only some rounds (the board reads only those
        # it builds again): a stale table outside it is read here.
        if history is None or not moved <= {table.pk for table in history.tables}:
            history = tournament_history(tournament, only=stale)
        tables = [table for table in history.tables if table.pk in moved]
        for table, seat, share in _worked(tournament, history, tables, players):
            done = closed if table.round_status == Round.Status.CLOSED else later
            done[seat.entrant_id].add(share)
    return closed, later
