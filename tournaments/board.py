"""What the public sees of a tournament — standings, the round in play with each
table's running score, every round's results, the crosstable — as plain data,
built in a fixed number of queries. A task builds it after each change and keeps
it in the shared cache (`tournaments.stored_board`); the parts of the pages
rendered from it are cached under the stored board's version (`cached`)."""

from __future__ import annotations

import datetime
import logging
from collections import defaultdict
from dataclasses import dataclass, field

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, Max, Sum

from clubs.names import shown_names
from scoring.results import party_results
from tournaments.engine.formats import format_of
from tournaments.engine.table_points import bye_points
from tournaments.history import tournament_history
from tournaments.models import Round, Seating, Table, Tournament
from tournaments.outcomes import seat_scores
from tournaments.standings import (
    draw_groups,
    final_order,
    kept_standings,
    round_places,
)
from web.rows import plain_rows

log = logging.getLogger(__name__)


# The board's rows are plain slotted classes, not frozen ones: a championship's
# board makes some 26,000 of them a build, and a frozen class's each took three
# times as long to make. Nothing changes them after the build.
@dataclass(slots=True)
class Line:
    """One line of the public standings."""

    place: int
    shared: bool
    entrant: int
    player: int
    name: str
    played: int
    won: int
    points: int
    byes: int
    withdrawn: bool
    draw: str
    withdrawn_after: int | None = None  # the last round he was paired in
    reached: str = ""  # after the final: how far he came in it (`standings.FinalLine`)
    # At tables of another game: the game score, the tiebreak after the points.
    score: int = 0


@dataclass(slots=True)
class Side:
    entrant: int
    name: str
    points: int | None  # running hand points (in play), or the result (+/-) once over
    # In the standings the round was paired from (`round_places`): the
    # place in brackets beside the name, as in the organizer's explanation.
    paired_place: int | None = None
    # At a table of another game (`outcomes.seat_scores`): the side's running
    # total, and once over the place at the table and the tournament points earned
    # (a bye's too).
    total: int | None = None
    table_place: int | None = None
    earned: int | None = None


@dataclass(slots=True)
class TableLine:
    number: int
    sides: tuple[Side, ...]
    bye: bool
    absent: int | None  # the side that did not come (a forfeit)
    party: int | None
    hands: int
    finished: bool
    pending: bool
    disputed: bool

    # The two sides of a table of two by name: a template's ``sides.0`` costs a
    # failed attribute lookup and a dir() of the tuple first, 4,000 of them in a
    # championship's screen.
    @property
    def first(self) -> Side:
        return self.sides[0]

    @property
    def second(self) -> Side | None:
        """(None at a bye.)"""
        return self.sides[1] if len(self.sides) > 1 else None


@dataclass(slots=True)
class RoundLine:
    number: int
    status: str
    started_at: datetime.datetime | None
    deadline: datetime.datetime | None
    tables: tuple[TableLine, ...]


@dataclass(slots=True)
class Cell:
    """A crosstable cell: the opponent's place and the result, a bye or a forfeit."""

    kind: str  # "played", "playing", "bye", "forfeit_won", "forfeit_lost"
    opponent: int | None
    points: int | None
    # At a table of another game: the others' places (whom he met there), his place
    # at the table once the party is over; ``points`` are the tournament points.
    others: tuple[int | None, ...] = ()
    table_place: int | None = None


@dataclass
class Board:
    standings: list[Line]
    after_round: int
    provisional: bool
    rounds: list[RoundLine]
    at_tables: bool = False  # a game at tables: the crosstable names everyone at one
    # Tie by tie, the card draw that orders the standings (`DrawGroup`):
    # only while no round is played, when every draw shown still decides a place.
    draws: list = field(default_factory=list)

    def crosstable(self) -> dict[int, list[Cell | None]]:
        """Per entrant, one cell per round (`_crosstable`). Made when a page asks,
        from the rounds and the standings: only the crosstable page reads it, and a
        championship's 10,000 cells were a tenth of every build."""
        return _crosstable(self.rounds, self.places(), self.at_tables)

    def places(self) -> dict[int, int]:
        """Each entrant's place in the standings now (entrant id -> place): how the
        crosstable and the API name a table's players. Looked up when asked, so a
        closed round's tables, kept between builds (`_closed`), never hold one."""
        return {line.entrant: line.place for line in self.standings}

    @property
    def current(self) -> RoundLine | None:
        """The latest round, while it is paired and played."""
        if self.rounds and self.rounds[-1].status == Round.Status.PLAYING:
            return self.rounds[-1]
        return None


# --------------------------------------------------------------------------- building


#: The tables of each closed round as this process last built them, with what they
#: were built from (`_built_from`), by tournament, round and whose eyes the names
#: are for. A championship's closed rounds are thousands of tables that seldom move
#: again; reading and building them anew took half of every board. Read again only
#: when what they were built from has moved, so a kept round is never older than
#: the rows. At most `KEEP_ROUNDS` are kept in a process.
_closed: dict[tuple[int, int, bool], tuple[tuple, tuple[TableLine, ...]]] = {}
KEEP_ROUNDS = 400


def build_board(tournament: Tournament, *, public: bool = True) -> Board:
    """The board from the database, in a fixed number of queries whatever the size;
    a closed round's tables built by this process before are read again only when
    they have moved since (`_closed`). Once the final is decided, the standings are
    in its order (`standings.final_order`), as everywhere. The names as ``public``
    or the organizers see them (`clubs.names`)."""
    entrants = list(tournament.entrants.select_related("player").order_by("player__name", "pk"))
    names = shown_names(tournament.club_id, [e.player for e in entrants], public=public)
    rounds = list(tournament.round_set.order_by("number"))
    player_of = {e.pk: e.player_id for e in entrants}
    paired = {r.pk: round_places(r) for r in rounds}
    built_from = _built_from(tournament, rounds, paired, names, player_of)
    kept = {}
    for r in rounds:
        found = _closed.get((tournament.pk, r.pk, public))
        if r.status == Round.Status.CLOSED and found is not None and found[0] == built_from[r.pk]:
            kept[r.pk] = found[1]
    fresh = [r.pk for r in rounds if r.pk not in kept]
    read = Table.objects.filter(round_id__in=fresh)
    history = tournament_history(
        tournament, with_outcomes=False, only=read.values("pk") if kept else None
    )
    if tournament.plays_at_tables:
        # Another game's parties were read with the history (cancelled ones left out).
        scores = history.outcomes
    else:
        parties = read.filter(party__isnull=False).values("party_id")
        scores = party_results(parties, game=tournament.game)
    # A cancelled party counts nowhere, as in the organizer's standings.
    history.outcomes = {pk: s for pk, s in scores.items() if not s.cancelled}
    standings = kept_standings(tournament, entrants, rounds, live=True, history=history)
    by_id = {e.pk: e for e in entrants}
    qualifying = standings.lines if format_of(tournament.format).plays_rounds else []
    final = final_order(tournament, qualifying, by_id)
    if final is None:
        ordered = [(line.place, line.shared, "", line) for line in standings.lines]
    else:
        line_of = {line.entrant.pk: line for line in standings.lines}
        ordered = [(f.place, f.shared, f.reached, line_of[f.entrant.pk]) for f in final]
    lines = [
        Line(
            place=at,
            shared=shared,
            entrant=line.entrant.pk,
            player=line.entrant.player_id,
            name=names[line.entrant.player_id],
            # Parties at a table (a forfeit is one), won, and byes: counted once, by
            # the standings, as the organizer's standings count them.
            played=line.parties,
            won=line.won,
            points=line.points,
            byes=line.byes,
            withdrawn=line.withdrawn,
            draw=line.draw,
            withdrawn_after=line.entrant.withdrawn_after,
            reached=reached,
            score=line.score,
        )
        for at, shared, reached, line in ordered
    ]
    tables_of = defaultdict(list)
    for table in history.tables:
        seats = history.seated[table.pk]
        score = scores.get(table.party_id)
        at_table = _at_table(table, seats, score, player_of, tournament)
        sides = tuple(
            Side(
                entrant=s.entrant_id,
                name=names[player_of[s.entrant_id]],
                points=_side_points(table, s, score, player_of, tournament),
                paired_place=paired[table.round_id].get(s.entrant_id),
                **extra,
            )
            for s, extra in zip(seats, at_table, strict=True)
        )
        tables_of[table.round_id].append(
            TableLine(
                number=table.number,
                sides=sides,
                bye=table.bye,
                absent=table.absent,
                party=table.party_id,
                hands=score.hands if score else 0,
                finished=table.bye or table.absent is not None or bool(score and score.finished),
                pending=bool(score and score.pending),
                disputed=bool(score and score.disputed),
            )
        )
    for r in rounds:
        if r.pk in kept:
            tables_of[r.pk] = kept[r.pk]
        elif r.status == Round.Status.CLOSED:
            if len(_closed) >= KEEP_ROUNDS:
                _closed.clear()
            _closed[tournament.pk, r.pk, public] = (built_from[r.pk], tuple(tables_of[r.pk]))
    round_lines = [
        RoundLine(
            number=r.number,
            status=r.status,
            started_at=r.started_at,
            deadline=_deadline(r, tournament),
            tables=tuple(tables_of[r.pk]),
        )
        for r in rounds
    ]
    provisional = any(r.status == Round.Status.PLAYING for r in rounds)
    points = {line.entrant.pk: line.points for line in standings.lines}
    return Board(
        standings=lines,
        after_round=standings.after_round,
        provisional=provisional,
        rounds=round_lines,
        at_tables=tournament.plays_at_tables,
        draws=[]
        if provisional
        else draw_groups(
            standings.draws, by_id, points, {pk: names[e.player_id] for pk, e in by_id.items()}
        ),
    )


def _built_from(tournament, rounds, paired, names, player_of) -> dict[int, tuple]:
    """By round, everything its tables' lines are built from, in two queries that
    read no seat: each table's row and its party's count of changes (every change
    of a party moves it: a hand, a correction, its status, who sits where), the
    seatings' count and ids (a swap makes new ones), the places it was paired
    from, the tournament's values and the names. Closed rounds' rows seldom move,
    so this costs a few milliseconds where building them cost a hundred."""
    tables = defaultdict(list)
    for row in plain_rows(
        Table.objects.filter(round__tournament=tournament)
        .order_by("round_id", "number")
        .values_list(
            "round_id",
            "pk",
            "number",
            "bye",
            "absent",
            "party_id",
            "party__changes",
            "party__started_at",
        )
    ):
        tables[row[0]].append(row[1:])
    seatings = {
        round_id: rest
        for round_id, *rest in plain_rows(
            Seating.objects.filter(round__tournament=tournament)
            .values_list("round_id")
            .order_by()
            .annotate(Count("pk"), Sum("pk"), Max("pk"))
        )
    }
    values = (
        # (With the times made: a test's rolled-back rows leave their ids to the next.)
        tournament.created_at,
        tournament.plays_at_tables,
        tournament.table_size,
        tournament.bye_value,
        tournament.forfeit_value,
    )
    return {
        r.pk: (tuple(tables[r.pk]), seatings.get(r.pk), paired[r.pk], values, names, player_of)
        for r in rounds
    }


def _at_table(table, seats, score, player_of, tournament) -> list[dict]:
    """What a table of another game shows of each seat beside its points: the
    total, the place at the table and the tournament points (`seat_scores`)."""
    if not tournament.plays_at_tables:
        return [{} for _ in seats]
    if table.bye:
        return [{"earned": bye_points(tournament.table_size)} for _ in seats]
    found = seat_scores([player_of[s.entrant_id] for s in seats], score)
    return [
        {"total": seat.total, "table_place": seat.place, "earned": seat.earned} for seat in found
    ]


def _side_points(table, seating, score, player_of, tournament) -> int | None:
    if table.bye:
        # At tables of another game a bye scores tournament points (``earned``).
        return None if tournament.plays_at_tables else tournament.bye_value
    if table.absent is not None:
        value = tournament.forfeit_value
        return -value if seating.side == table.absent else value
    if score is None or score.cancelled:
        return None
    player = player_of[seating.entrant_id]
    if score.finished:
        return score.plus_minus.get(player, 0)
    return score.points.get(player, 0)


def _deadline(round: Round, tournament: Tournament):
    if round.started_at is None or not tournament.round_minutes:
        return None
    return round.started_at + datetime.timedelta(minutes=tournament.round_minutes)


def _crosstable(
    rounds: list[RoundLine], places: dict[int, int], at_tables: bool = False
) -> dict[int, list[Cell | None]]:
    """Per entrant (``places``: entrant id -> place in the standings now), one cell
    per round: whom he met (by place) and what it came to; ``at_tables`` (another
    game): everyone at his table, his place there and the tournament points it gave."""
    cells: dict[int, list[Cell | None]] = {pk: [None] * len(rounds) for pk in places}
    for index, round in enumerate(rounds):
        for table in round.tables:
            if table.bye:
                first = table.sides[0]
                points = first.points if first.earned is None else first.earned
                cells[first.entrant][index] = Cell("bye", None, points)
                continue
            if at_tables:
                for me in table.sides:
                    others = tuple(places.get(s.entrant) for s in table.sides if s is not me)
                    kind = "played" if table.finished else "playing"
                    cells[me.entrant][index] = Cell(kind, None, me.earned, others, me.table_place)
                continue
            for side, other in ((0, 1), (1, 0)):
                me, them = table.sides[side], table.sides[other]
                if table.absent is not None:
                    kind = "forfeit_lost" if table.absent == side else "forfeit_won"
                else:
                    kind = "played" if table.finished else "playing"
                points = me.points if kind != "playing" else None
                cells[me.entrant][index] = Cell(kind, places.get(them.entrant), points)
    return cells


# --------------------------------------------------------------------------- the parts' cache


def cached(name: str, version: str | None, build):
    """``build()``'s value under ``name`` and ``version``: from the cache when it
    holds it, else built and stored. Without a version (no cache), built."""
    if version is None:
        return build()
    key = f"{name}:{version}"
    try:
        value = cache.get(key)
    except Exception:
        log.warning("cache unavailable: %s built uncached", name, exc_info=True)
        return build()
    if value is None:
        value = build()
        try:
            cache.set(key, value, settings.PUBLIC_CACHE_SECONDS)
        except Exception:
            log.warning("cache unavailable: %s not kept", name, exc_info=True)
    return value
