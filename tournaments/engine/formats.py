"""The tournament formats: Swiss system, round robin, the evening planned ahead
(a mixer) and knockout. Everything that differs
between them is here, behind one interface (`TournamentFormat`); the rest of the
code asks `format_of(tournament.format)`.

A format answers: how many rounds a field plays, how a round is made (the first
from the lot, the next from the standings and the games so far), who may enter
late, whether a round can get stuck on rematches, what the standings are for,
and how each pair of a round is explained; and for the other games, played at
tables of three to six, whether it seats them at all, for which fields, and (a
fixed schedule) each round's tables. Entrants are any hashable ids, as in
`tournaments.engine.pairing`; randomness comes in as an ``rng``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from tournaments.engine.explain import LOT, SCHEDULE, Line, explain_plain, explain_swiss
from tournaments.engine.mixer import (
    MOST_ROUNDS,
    Meetings,
    PlannedRound,
    evening,
    meetings,
    plan_evening,
    rounds_to_meet_everyone,
)
from tournaments.engine.pairing import (
    Pairing,
    first_round_lots,
    round_robin,
    swiss_pairings,
    swiss_pairings_fewest_rematches,
    swiss_round_count,
)
from tournaments.engine.schedules import (
    NoSchedule,
    TableGame,
    schedule_fields,
    table_schedule,
    turned,
)

Entrant = Hashable

# How a round was paired, as kept with the round (the values of `Round.How`).
BY_LOT = LOT
SWISS_RULE = "swiss"
FEWEST_REMATCHES = "fewest"
BY_SCHEDULE = SCHEDULE
PLANNED = "planned"


class ScheduleComplete(ValueError):
    """A round asked for after a fixed schedule has been played out."""

    def __init__(self, rounds: int):
        super().__init__(f"The schedule has only {rounds} rounds.")
        self.rounds = rounds


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """One round as a format makes it.

    ``pairs``: ``(first, second)`` in board order. ``byes``: who sits out, in
    order (a Swiss round has at most one; a round robin may have several when
    opponents withdrew). ``lines``: why each pair was made (`explain.Line`).
    ``how``: how the round was paired (`BY_LOT`, `SWISS_RULE`, `FEWEST_REMATCHES`,
    `BY_SCHEDULE`). ``order``: the entrants in the order the round was paired from,
    kept with the round, or ``None`` when the round keeps none of its own.
    """

    pairs: list[tuple[Entrant, Entrant]]
    byes: list[Entrant]
    lines: list[Line]
    how: str
    order: list[Entrant] | None = field(default=None)


@dataclass(frozen=True, slots=True)
class TablePlan:
    """One round at tables of three to six as a fixed schedule makes it.

    ``tables``: the tables that play, in order, each a tuple of entrants in seat
    order (the first seat deals first). ``absent``: for each of those tables, the
    entrants the schedule put there who no longer play (withdrawn): the table
    plays short. ``byes``: entrants whose scheduled table was left with too few to
    play the game; they sit out. ``order``: the entrants in the order the
    schedule is drawn on (kept with round 1), or ``None``. ``out``: those of
    ``byes`` the schedule itself sits out (a smaller table the game is not
    played at), not left alone by a withdrawal.
    """

    tables: list[tuple]
    absent: list[tuple]
    byes: list[Entrant]
    how: str
    order: list[Entrant] | None = field(default=None)
    out: list[Entrant] = field(default_factory=list)


class TournamentFormat:
    """One tournament format. Subclasses say how many rounds a field plays and how
    each round is paired; the flags say what the desk allows."""

    key: str = ""
    # Whether a player entered while the tournament runs is paired from the next round.
    takes_late_entrants: bool = False
    # Whether a round may find no pairing without a rematch (and wait for the
    # organizer to end the tournament or pair with the fewest rematches).
    can_get_stuck: bool = False
    # Whether the standings decide the next round's pairing, so that ties are
    # drawn (seed 000's card draw) when a round closes; otherwise the standings
    # are only the result.
    pairs_from_standings: bool = False
    # Whether the format plays rounds at tables at all; a knockout plays only its
    # bracket (a final stage made with the tournament).
    plays_rounds: bool = True
    # Whether a tournament of another game (tables of three to six, points by
    # place) can be played in this format; a knockout's matches are of two.
    seats_tables: bool = False
    # Whether the whole evening is planned ahead and kept (`plan`): shown before
    # play, re-planned for the rounds not played when the field changes.
    plans_ahead: bool = False
    # Whether the format is played only at tables of three to six (not two).
    only_at_tables: bool = False

    def round_count(self, entrants: int) -> int:
        """The rounds ``entrants`` play when the organizer sets no number."""
        raise NotImplementedError

    def table_fields(self, game: TableGame) -> tuple[int, ...] | None:
        """The numbers of entrants this format can play at ``game``'s tables, or
        ``None`` for any field of one full table or more."""
        return None

    def table_round_count(self, entrants: int, game: TableGame) -> int:
        """The rounds ``entrants`` play at ``game``'s tables when the organizer
        sets no number."""
        return self.round_count(entrants)

    def table_meetings(self, entrants: int, game: TableGame) -> Meetings | None:
        """What a fixed schedule of ``entrants`` at ``game``'s tables makes of the
        pairs (`mixer.Meetings`), or ``None`` when the format fixes none."""
        return None

    def table_rounds_at_most(self, entrants: int, game: TableGame) -> int | None:
        """The most rounds ``entrants`` can play at ``game``'s tables, or ``None``
        when there is no such limit."""
        return None

    def first_tables(
        self,
        entrants: Iterable[Entrant],
        game: TableGame,
        rng: Any,
        *,
        playing: Iterable[Entrant] | None = None,
    ) -> TablePlan:
        """Round 1 at ``game``'s tables from a fixed schedule drawn for the field
        ``entrants`` (only a format that does not seat from the standings,
        `pairs_from_standings`); ``playing``: those of them who play the round
        (all when ``None``)."""
        raise NotImplementedError

    def next_tables(
        self,
        number: int,
        entrants: Sequence[Entrant],
        *,
        first_order: Sequence[Entrant],
        game: TableGame,
    ) -> TablePlan:
        """Round ``number`` (2 or later) at ``game``'s tables from the fixed
        schedule drawn on ``first_order``, for ``entrants``, those who play it."""
        raise NotImplementedError

    def rounds_without_rematch(self, entrants: int) -> int:
        """The most rounds ``entrants`` can play without anyone meeting twice: each
        meets at most n − 1 others, and with an odd number each sits out once (the
        length of a full round robin)."""
        return len(round_robin(range(entrants))) if entrants >= 2 else 0

    def entrants_needed(self, rounds: int) -> int | None:
        """How many entrants ``rounds`` rounds need to be paired without a rematch,
        when that is more than the seed's table gives those rounds to; ``None``
        when the number of rounds is no cause for a warning."""
        return None

    def first_round(self, entrants: Iterable[Entrant], rng: Any) -> RoundPlan:
        """Round 1 for the entrants checked in (seed 000: drawn by lot)."""
        raise NotImplementedError

    def next_round(
        self,
        number: int,
        entrants: Sequence[Entrant],
        *,
        first_order: Sequence[Entrant] = (),
        ranking: Sequence[Entrant] = (),
        played: Iterable[Iterable[Entrant]] = (),
        kept_apart: Iterable[Iterable[Entrant]] = (),
        byes: Iterable[Entrant] = (),
        fewest_rematches: bool = False,
    ) -> RoundPlan:
        """Round ``number`` (2 or later) for ``entrants``, those who play it.

        ``first_order``: the order round 1 kept (`RoundPlan.order`). ``ranking``:
        the entrants in standings order, ties broken (only read when
        `pairs_from_standings`). ``played``: pairs that met; ``kept_apart``: pairs
        that must not meet; ``byes``: entrants who sat out before. May raise
        `pairing.NoPairing` (when `can_get_stuck`) or `ScheduleComplete`."""
        raise NotImplementedError


class SwissSystem(TournamentFormat):
    """Swiss system (seed 000): round 1 by lot, then the leader plays the
    best-placed entrant he has not met (`pairing.swiss_pairings`); 3 rounds for
    5–8 entrants, 4 for 9–16, 5 for 17–32 (`pairing.swiss_round_count`). Late
    entrants join the next round at 0; a round may find no pairing without a
    rematch."""

    key = "swiss"
    takes_late_entrants = True
    can_get_stuck = True
    pairs_from_standings = True
    # At tables: seated from the standings with the fewest repeat meetings
    # (`tables.seat_tables`), for any field of one full table or more.
    seats_tables = True

    def round_count(self, entrants):
        return swiss_round_count(entrants)

    def entrants_needed(self, rounds):
        # n entrants meet at most n − 1 opponents; an odd field one round more; and
        # nobody plays a round with fewer than two (one round is two entrants' game).
        needed = max(2, rounds if rounds % 2 else rounds + 1)
        return None if rounds <= swiss_round_count(needed) else needed

    def first_round(self, entrants, rng):
        entrants = list(entrants)
        pairing = first_round_lots(entrants, rng)
        return _plan(pairing, explain_plain(pairing, LOT), BY_LOT, order=entrants)

    def next_round(
        self,
        number,
        entrants,
        *,
        first_order=(),
        ranking=(),
        played=(),
        kept_apart=(),
        byes=(),
        fewest_rematches=False,
    ):
        ranking, byes = list(ranking), list(byes)
        played, kept_apart = list(played), list(kept_apart)
        if fewest_rematches:
            pairing = swiss_pairings_fewest_rematches(ranking, played + kept_apart, byes)
            how = FEWEST_REMATCHES
        else:
            pairing = swiss_pairings(ranking, played + kept_apart, byes)
            how = SWISS_RULE
        lines = explain_swiss(ranking, pairing, played, byes, kept_apart)
        return _plan(pairing, lines, how, order=ranking)


class RoundRobin(TournamentFormat):
    """Round robin: everyone meets everyone once, by the circle method
    (`pairing.round_robin`) over the order drawn by lot in round 1: n − 1 rounds
    for an even field, n for an odd one, where each round one sits out. The
    schedule is fixed at the start, so it takes no late entrants and never gets
    stuck; an entrant whose opponent withdrew sits out that round, like the odd
    one out.

    At tables of three to six (another game than Gin Rummy) every two entrants
    sit at one table exactly once, by the schedules of `schedules.table_schedule`,
    over the order drawn by lot in round 1 and kept: one table, the affine plane
    of order 3, 4 or 5 (k + 1 rounds), or that plane one entrant short. Any other
    field of at least the smallest of those plays the evening planned ahead in
    which each could meet every other, with the fewest repeat meetings found
    (`robin_tables`; the organizer is told how many pairs meet more than once
    and how many never, `robin_meetings`). The schedule's length is the most rounds,
    except at one table, which plays the rounds the organizer set (one when
    none), the same table each round with the seats turned by one. A
    withdrawal leaves a seat empty: that table plays short where the game is
    played by the players left, else those left sit out the round with a bye
    (`table_points.bye_points`), like the odd one out; the schedule does not
    change, so nobody meets anyone twice."""

    key = "round_robin"
    seats_tables = True

    def round_count(self, entrants):
        return len(round_robin(range(entrants)))

    def table_fields(self, game):
        return schedule_fields(game)

    def table_round_count(self, entrants, game):
        if entrants < min(schedule_fields(game)):
            return 0
        return len(robin_tables(entrants, game))

    def table_meetings(self, entrants, game):
        return robin_meetings(entrants, game)

    def table_rounds_at_most(self, entrants, game):
        schedule = robin_tables(entrants, game)
        return None if len(schedule[0].tables) == 1 and not schedule[0].byes else len(schedule)

    def first_tables(self, entrants, game, rng, *, playing=None):
        order = sorted(entrants)
        rng.shuffle(order)
        return self._tables(1, order, order if playing is None else playing, game, keep=True)

    def next_tables(self, number, entrants, *, first_order, game):
        return self._tables(number, list(first_order), entrants, game, keep=False)

    def _tables(self, number: int, order: list, entrants: Iterable, game, keep: bool) -> TablePlan:
        schedule = robin_tables(len(order), game)
        out: tuple = ()
        if len(schedule[0].tables) == 1 and not schedule[0].byes:
            # One table plays again every round the organizer set.
            tables = [turned(schedule[0].tables[0], number - 1)]
        elif number > len(schedule):
            raise ScheduleComplete(len(schedule))
        else:
            tables, out = schedule[number - 1].tables, schedule[number - 1].byes
        playing = set(entrants)
        seated, absent = [], []
        # Who the schedule sits out (a smaller table the game is not played at).
        planned_out = [order[point] for point in out if order[point] in playing]
        byes = list(planned_out)
        for table in tables:
            here = tuple(order[point] for point in table if order[point] in playing)
            if len(here) in game.played_by:
                seated.append(here)
                absent.append(tuple(order[point] for point in table if order[point] not in playing))
            else:
                byes.extend(here)
        return TablePlan(seated, absent, byes, BY_SCHEDULE, order if keep else None, planned_out)

    def first_round(self, entrants, rng):
        order = sorted(entrants)
        rng.shuffle(order)
        return self._scheduled(1, order, order, keep=True)

    def next_round(self, number, entrants, *, first_order=(), **_ignored):
        return self._scheduled(number, list(first_order), entrants, keep=False)

    def _scheduled(self, number: int, order: list, entrants: Iterable, keep: bool) -> RoundPlan:
        schedule = round_robin(order)
        if number > len(schedule):
            raise ScheduleComplete(len(schedule))
        playing = set(entrants)
        pairs = [p for p in schedule[number - 1] if set(p) <= playing]
        seated = {e for p in pairs for e in p}
        out = [e for e in order if e in playing and e not in seated]
        lines = explain_plain(Pairing(pairs=pairs, bye=None), SCHEDULE)
        lines += [Line(e, None, SCHEDULE) for e in out]
        return RoundPlan(pairs, out, lines, BY_SCHEDULE, order if keep else None)


class Planned(TournamentFormat):
    """A mixer evening planned ahead (issue 47): the organizer sets the rounds
    (when none, those in which each could meet every other,
    `mixer.rounds_to_meet_everyone`; at most `mixer.MOST_ROUNDS`); round 1's
    pairing draws the order by lot and plans every round with the fewest repeat
    meetings (`mixer.plan_evening`), kept with the tournament and shown before
    play. A late entrant or a withdrawal re-plans the rounds not yet played,
    counting the meetings of those played. Tables of the smaller size only where
    the game is played by that many, else some sit out a round (a bye), those who
    sat out least. Played only at tables of three to six; the standings are the
    game's usual ones (points by place)."""

    key = "planned"
    takes_late_entrants = True
    seats_tables = True
    plans_ahead = True
    only_at_tables = True

    def round_count(self, entrants):
        return 0

    def rounds_without_rematch(self, entrants):
        return 0

    def table_round_count(self, entrants, game):
        return rounds_to_meet_everyone(entrants, game) if entrants else 0

    def table_rounds_at_most(self, entrants, game):
        return MOST_ROUNDS

    def plan(
        self,
        order: Sequence[Entrant],
        game: TableGame,
        rounds: int,
        *,
        played: Sequence[Iterable[Sequence[Entrant]]] = (),
        sat_out: Iterable[Entrant] = (),
        before: Sequence[Iterable[Sequence[Entrant]]] = (),
    ) -> list[PlannedRound]:
        """The ``rounds`` rounds after those ``played`` for ``order`` (the entrants
        who play them, in the order drawn), with the fewest repeat meetings
        counting those played, starting from the tables planned ``before``
        (`mixer.plan_evening`)."""
        return plan_evening(order, game, rounds, played=played, sat_out=sat_out, before=before)

    def first_round(self, entrants, rng):
        raise ScheduleComplete(0)

    def next_round(self, number, entrants, **_ignored):
        raise ScheduleComplete(0)


@cache
def robin_tables(count: int, game: TableGame) -> tuple[PlannedRound, ...]:
    """A round robin's tables for ``count`` entrants at ``game``'s tables, as
    points ``0 … count − 1``: the schedule in which every two meet exactly once
    where the field has one (`schedules.table_schedule`); else, where the field
    has one full table the game plays, the evening planned ahead in which each
    could meet every other (`mixer.rounds_to_meet_everyone`), with the fewest
    repeat meetings found (`mixer.evening`): some pairs meet more than once, some
    never (`robin_meetings`). Fewer than the smallest field raise `NoSchedule`.
    Kept once made: the plan takes up to seconds, and the same arguments give
    the same tables."""
    fields = schedule_fields(game)
    if count in fields:
        return tuple(PlannedRound(tuple(tables)) for tables in table_schedule(count, game))
    if count < min(fields):
        raise NoSchedule(count, game.size, fields)
    return tuple(evening(count, game, rounds_to_meet_everyone(count, game)))


def robin_meetings(count: int, game: TableGame) -> Meetings:
    """What a round robin of ``count`` at ``game``'s tables makes of its pairs
    (`robin_tables`): repeat meetings, pairs meeting more than once, pairs never
    meeting; all nought where the field has a perfect schedule."""
    return meetings((round_.tables for round_ in robin_tables(count, game)), range(count))


class Knockout(TournamentFormat):
    """A knockout tournament: no qualifying rounds; every entrant checked in at the
    start plays the bracket (`tournaments.engine.knockout`), seeded by rating or by
    lot."""

    key = "knockout"
    plays_rounds = False

    def round_count(self, entrants):
        return 0

    def rounds_without_rematch(self, entrants):
        return 0

    def first_round(self, entrants, rng):
        raise ScheduleComplete(0)

    def next_round(self, number, entrants, **_ignored):
        raise ScheduleComplete(0)


def _plan(pairing: Pairing, lines: list[Line], how: str, order: list) -> RoundPlan:
    byes = [] if pairing.bye is None else [pairing.bye]
    return RoundPlan(list(pairing.pairs), byes, lines, how, order)


FORMATS: dict[str, TournamentFormat] = {
    f.key: f for f in (SwissSystem(), RoundRobin(), Planned(), Knockout())
}

# What a new tournament is played as unless the organizer chooses otherwise.
DEFAULT_FORMAT = SwissSystem.key


def format_of(value: str) -> TournamentFormat:
    """The format stored as ``value`` on a tournament; `KeyError` for an unknown one."""
    return FORMATS[value]
