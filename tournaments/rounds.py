"""The rounds of a Swiss or round robin, one transaction each: starting, pairing
the next (sent to the task), closing, undoing, the venue's card draw, the finish;
and the reads of the rounds: the schedule, the clock, why each pair was made."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext, ngettext

from scoring.services.parties import party_cancel
from tournaments.engine.formats import format_of
from tournaments.engine.pairing import tied_groups
from tournaments.models import (
    Entrant,
    Round,
    Tournament,
    TournamentRecord,
)
from tournaments.records import (
    NoTableSchedule,
    TournamentError,
    locked,
    new_seed,
    record,
    tournament_changed,
)
from tournaments.seating import playing_in, table_game, tie_draws, venue_card
from tournaments.standings import (
    Standings,
    StandingsLine,
    tournament_totals,
)
from tournaments.tables import round_tables
from tournaments.tasks import send_pairing


@transaction.atomic
def round_start(*, tournament: Tournament) -> Round:
    """Close registration and pair round 1 by lot (seed 000: "Die Paarungen für
    die erste Runde des Turniers werden gelost"), from a seed stored with the
    round. Only checked-in entrants play. The number of rounds, if not set, comes
    from the format (`TournamentFormat.round_count`): the seed's table for Swiss,
    a full round robin.

    At tables of another game the field must suit the format (`_table_field`):
    a Swiss needs one full table; a round robin a field its schedules cover,
    which is fixed here (kept on round 1 until its lot is drawn) and plays no
    more rounds than its schedule has, whatever number was set before the field
    was known (one table excepted: it plays the rounds set)."""
    tournament = locked(tournament)
    tournament_changed(tournament.pk)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentError(gettext("The tournament has already started."))
    tournament_format = format_of(tournament.format)
    if not tournament_format.plays_rounds:
        raise TournamentError(gettext("A knockout tournament starts with its bracket."))
    count = tournament.entrants.filter(checked_in=True).count()
    if count < 2:
        raise TournamentError(gettext("At least two entrants must be checked in."))
    field = _table_field(tournament, count) if tournament.plays_at_tables else []
    if field:
        count = len(field)
    if tournament.plays_at_tables:
        most = tournament_format.table_rounds_at_most(count, table_game(tournament))
        if tournament.rounds and most is not None:
            tournament.rounds = min(tournament.rounds, most)
    elif tournament.rounds and not tournament_format.pairs_from_standings:
        # A fixed schedule has no round after its last: a number set before the
        # field was known would leave that round waiting for a pairing forever.
        tournament.rounds = min(tournament.rounds, tournament_format.round_count(count))
    if tournament.rounds is None:
        tournament.rounds = schedule_length(tournament, count)
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["rounds", "status"])
    round = Round.objects.create(
        tournament=tournament,
        number=1,
        seed=new_seed(),
        status=Round.Status.PAIRING,
        standings=field,
    )
    _enqueue_pairing(round)
    return round


def _table_field(tournament: Tournament, count: int) -> list[int]:
    """Whether the entrants checked in can start a tournament at tables, or the
    organizer's message. A format that seats from the standings needs one full
    table (``count``, those checked in, at least the table size) and keeps no
    field: ``[]``. A fixed schedule needs exactly a field it covers
    (`TournamentFormat.table_fields`), counted without those withdrawn; its ids,
    the field its schedule is drawn for, are returned. Nothing is written before
    this answers, so a refusal leaves the tournament in registration."""
    game = table_game(tournament)
    tournament_format = format_of(tournament.format)
    fields = tournament_format.table_fields(game)
    if fields is None:
        if count < game.size:
            raise TournamentError(
                gettext("At least %(count)s entrants must be checked in: one full table.")
                % {"count": game.size}
            )
        return []
    field = list(
        tournament.entrants.filter(checked_in=True, withdrawn_after__isnull=True)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    if len(field) < min(fields):
        raise NoTableSchedule(too_few_message(game.size, min(fields), len(field)))
    return field


def too_few_message(size: int, least: int, count: int) -> str:
    """Why a round robin at tables of ``size`` cannot start with ``count`` entrants:
    fewer than ``least``, the smallest field whose tables the game plays."""
    return ngettext(
        "A round robin at tables of %(size)s needs at least %(least)s entrants. "
        "%(count)s is checked in.",
        "A round robin at tables of %(size)s needs at least %(least)s entrants. "
        "%(count)s are checked in.",
        count,
    ) % {"size": size, "least": least, "count": count}


def imperfect_message(size: int, count: int, rounds: int, met) -> str:
    """What a round robin of ``count`` at tables of ``size`` offers where no
    schedule seats every two at one table exactly once: ``rounds`` planned ahead
    in which each meets the most others, and what they make of the pairs
    (``met``, `TournamentFormat.table_meetings`): how many meet more than once,
    how many never."""
    words = ngettext(
        "No schedule seats every two of %(count)s entrants at one table exactly once "
        "at tables of %(size)s: the round robin plays %(rounds)s round planned ahead, "
        "in which each meets the most others.",
        "No schedule seats every two of %(count)s entrants at one table exactly once "
        "at tables of %(size)s: the round robin plays %(rounds)s rounds planned ahead, "
        "in which each meets the most others.",
        rounds,
    ) % {"count": count, "size": size, "rounds": rounds}
    again = ngettext(
        "%(again)s pair meets more than once", "%(again)s pairs meet more than once", met.again
    ) % {"again": met.again}
    never = ngettext(
        "%(count)s pair never sits at one table.",
        "%(count)s pairs never sit at one table.",
        met.never,
    ) % {"count": met.never}
    return f"{words} {again}; {never}"


def _enqueue_pairing(round: Round, fewest_rematches: bool = False) -> None:
    transaction.on_commit(lambda: send_pairing(round.pk, fewest_rematches))


@transaction.atomic
def round_pair_next(*, tournament: Tournament, fewest_rematches: bool = False) -> Round:
    """Pair the waiting round (after a close, an undo, or a round that found no
    pairing without a rematch, with ``fewest_rematches``): the pairing runs as a
    task, and the round shows "being paired" until it is done."""
    tournament = locked(tournament)
    tournament_changed(tournament.pk)
    round = tournament.round_set.order_by("-number").first()
    waiting = (Round.Status.PENDING, Round.Status.STUCK)
    if tournament.status != Tournament.Status.RUNNING or round is None:
        raise TournamentError(gettext("There is no round waiting to be paired."))
    if round.status not in waiting:
        raise TournamentError(gettext("There is no round waiting to be paired."))
    if round.status == Round.Status.STUCK and not fewest_rematches:
        raise TournamentError(
            gettext(
                "No pairing without a rematch exists: end the tournament, or pair "
                "with the fewest rematches."
            )
        )
    round.status = Round.Status.PAIRING
    round.problem = ""
    # Kept with the round, so a catch-up pairs it as the organizer chose.
    round.how = Round.How.FEWEST_REMATCHES if fewest_rematches else ""
    round.save(update_fields=["status", "problem", "how"])
    _enqueue_pairing(round, fewest_rematches)
    return round


@transaction.atomic
def round_close(*, round: Round) -> Round:
    """Close a round once every table is finished. Unless it was the last round,
    the next round waits to be paired with its own seed, and Knock's card draw
    for the tied entrants is made and shown (the organizer may enter the cards
    drawn at the venue instead before pairing)."""
    round = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    if round.status != Round.Status.PLAYING:
        raise TournamentError(gettext("This round is not being played."))
    tournament_changed(round.tournament_id)
    unfinished = [v.table.number for v in round_tables(round) if not v.finished]
    if unfinished:
        raise TournamentError(
            gettext("Not every table is finished yet: table %(tables)s.")
            % {"tables": ", ".join(map(str, sorted(unfinished)))}
        )
    round.status = Round.Status.CLOSED
    round.save(update_fields=["status"])
    tournament = round.tournament
    if round.number < (tournament.rounds or 0):
        following = Round(tournament=tournament, number=round.number + 1, seed=new_seed())
        # Ties are drawn now, so the organizer sees (or replaces) the draw that
        # will order the next pairing. Where the game draws no cards for ties, its
        # game score, parties won and lot order them.
        if format_of(tournament.format).pairs_from_standings and tournament.draws_for_ties:
            totals, _, entrants = tournament_totals(tournament)
            active = playing_in(entrants, following.number)
            following.draws = tie_draws(following.seed, [], {e.pk: totals[e.pk] for e in active})
        following.save()
    return round


@transaction.atomic
def standings_draw_enter(
    *, tournament: Tournament, cards: dict[int, str], user=None, address=None
) -> Round:
    """The cards drawn at the venue for tied entrants (entrant id -> card), which
    order them instead of Knock's draw. Every entrant of a tied group must draw,
    each a different card; the higher card goes first (ace low, ♣ ♦ ♥ ♠). The
    record keeps who drew what, since it decides places and the next pairing."""
    tournament = locked(tournament)
    tournament_changed(tournament.pk)
    _check_drawn_ties(tournament)
    round = tournament.round_set.order_by("-number").first()
    if round is None or round.status not in (Round.Status.PENDING, Round.Status.STUCK):
        raise TournamentError(gettext("Cards can be entered only before a round is paired."))
    totals, _, entrants = tournament_totals(tournament)
    active = {e.pk for e in playing_in(entrants, round.number)}
    drawn = {}
    for pk, text in cards.items():
        if pk not in active:
            raise TournamentError(gettext("Only entrants who play on can draw."))
        drawn[pk] = venue_card(text)
    for group in tied_groups({pk: totals[pk] for pk in active}):
        entered = [pk for pk in group if pk in drawn]
        if entered and len(entered) < len(group):
            raise TournamentError(gettext("Everyone tied on the same points must draw a card."))
        if len({drawn[pk] for pk in entered}) < len(entered):
            raise TournamentError(gettext("Two tied entrants drew the same card: draw again."))
    # The groups not entered now keep their draws, Knock's or the venue's.
    kept = [d for d in round.draws if d["entrant"] not in drawn]
    venue = [{"entrant": pk, "cards": [str(card)], "by": "venue"} for pk, card in drawn.items()]
    round.draws = tie_draws(round.seed, kept + venue, {pk: totals[pk] for pk in active})
    round.save(update_fields=["draws"])
    names = {e.pk: str(e) for e in entrants}
    record(
        tournament,
        TournamentRecord.Action.VENUE_DRAW,
        user=user,
        address=address,
        round=round.number - 1,
        cards=", ".join(f"{names[pk]} {card}" for pk, card in drawn.items()),
    )
    return round


def _check_drawn_ties(tournament: Tournament) -> None:
    """Card draws order the ties of a game that draws for them
    (`Game.draws_for_ties`); at tables of another game the game score, the
    parties won and the lot do."""
    if not tournament.draws_for_ties:
        raise TournamentError(
            gettext(
                "At tables of %(game)s ties are broken by game score and parties won, "
                "then shared: no cards are drawn."
            )
            % {"game": tournament.get_game_display()}
        )


@transaction.atomic
def round_undo(*, round: Round, user=None, address=None) -> Round:
    """Undo the pairing of the latest round while no table has played a hand: its
    tables and parties go, and the round waits to be paired again (from the same
    seed, so round 1's lots come out the same unless entrants changed).

    A forfeit does not stop it: nobody has played a card, so undoing the round
    takes nothing anyone earned at the table; the forfeits go with the round (named
    in the record), and whoever came is paired again. An entrant withdrawn during
    the round is withdrawn after the round before: he played no part of it."""
    round = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    if round.status != Round.Status.PLAYING:
        raise TournamentError(gettext("Only a round being played can be undone."))
    tournament_changed(round.tournament_id)
    if round.tournament.round_set.filter(number__gt=round.number).exists():
        raise TournamentError(gettext("Only the latest round can be undone."))
    tables = list(round.tables.select_related("party"))
    parties = [t.party for t in tables if t.party_id]
    if any(p.hands.exists() for p in parties):
        raise TournamentError(gettext("Hands are recorded: the round cannot be undone."))
    forfeits = [
        str(s.entrant)
        for s in round.seatings.select_related("table", "entrant__player").order_by("table__number")
        if s.table.absent == s.side
    ]
    round.seatings.all().delete()
    round.tables.all().delete()
    for party in parties:
        party_cancel(party=party, user=user, reason=gettext("The round was undone."))
    round.tournament.entrants.filter(withdrawn_after=round.number).update(
        withdrawn_after=round.number - 1
    )
    round.status = Round.Status.PENDING
    round.explanation = []
    round.how = ""
    round.started_at = None
    round.save(update_fields=["status", "explanation", "how", "started_at"])
    record(
        round.tournament,
        TournamentRecord.Action.ROUND_UNDONE,
        user=user,
        address=address,
        round=round.number,
        forfeits_dropped=forfeits,
    )
    return round


@transaction.atomic
def tournament_finish(
    *,
    tournament: Tournament,
    final_draw: bool = False,
    cards: dict[int, str] | None = None,
    user=None,
    address=None,
) -> Tournament:
    """End the tournament: after its last round, or earlier when the organizer so
    decides (say, when no pairing without a rematch is left). A round not yet
    paired is dropped; a round being played must be closed first. The final
    standings share places on equal points, unless the organizer wants one place
    each: then tied entrants draw cards (Knock from a stored seed, or ``cards``
    drawn at the venue, entrant id -> card)."""
    tournament = locked(tournament)
    tournament_changed(tournament.pk)
    if tournament.status != Tournament.Status.RUNNING:
        raise TournamentError(gettext("Only a running tournament can be finished."))
    rounds = tournament.round_set
    if rounds.filter(status__in=[Round.Status.PLAYING, Round.Status.PAIRING]).exists():
        raise TournamentError(gettext("Close the round being played first."))
    if final_draw or cards:
        _check_drawn_ties(tournament)
    dropped = rounds.filter(status__in=[Round.Status.PENDING, Round.Status.STUCK])
    unplayed = sorted(dropped.values_list("number", flat=True))
    dropped.delete()
    tournament.status = Tournament.Status.FINISHED
    if final_draw or cards:
        totals, _, _ = tournament_totals(tournament)
        tournament.final_seed = new_seed()
        venue = [
            {"entrant": pk, "cards": [str(venue_card(text))], "by": "venue"}
            for pk, text in (cards or {}).items()
        ]
        tournament.final_draws = tie_draws(tournament.final_seed, venue, totals)
    tournament.save(update_fields=["status", "final_seed", "final_draws"])
    record(
        tournament,
        TournamentRecord.Action.FINISHED,
        user=user,
        address=address,
        final_draw=bool(final_draw or cards),
        rounds_dropped=unplayed,
    )
    return tournament


def tournament_rounds(tournament: Tournament) -> list[Round]:
    return list(tournament.round_set.order_by("number"))


def tournament_round(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(
        Round.objects.select_related("tournament__club"), tournament=tournament, number=number
    )


def round_for_manage(slug: str, number: int) -> Round:
    return get_object_or_404(
        Round.objects.select_related("tournament__club", "tournament__final_stage"),
        tournament__slug=slug,
        number=number,
    )


def latest_round(tournament: Tournament) -> Round | None:
    return tournament.round_set.order_by("-number").first()


def rounds_planned(tournament: Tournament, entrants: list[Entrant]) -> int:
    """The rounds the tournament will have: as set, or once started as fixed then,
    else from the seed's table for the entrants checked in so far (a round robin:
    everyone once)."""
    if tournament.rounds:
        return tournament.rounds
    count = sum(e.checked_in for e in entrants)
    return schedule_length(tournament, count) if count >= 2 else 0


def schedule_length(tournament: Tournament, count: int) -> int:
    """Rounds for ``count`` entrants: a full round robin, or the seed's table for
    Swiss; at tables of another game, the round robin's schedule (0 for a field
    without one)."""
    tournament_format = format_of(tournament.format)
    if tournament.plays_at_tables:
        return tournament_format.table_round_count(count, table_game(tournament))
    return tournament_format.round_count(count)


def schedule_warning(tournament: Tournament, count: int) -> str:
    """What the organizer should know while entrants check in for a tournament at
    tables whose format has fixed schedules, when the ``count`` checked in have
    none ("" if they have one, or the format takes any field, or nobody is
    checked in yet): the start will refuse too few (`_table_field`), and a field
    without a perfect schedule plays one planned ahead: the organizer is told
    how many pairs it seats together more than once and how many never."""
    if not tournament.plays_at_tables or not count:
        return ""
    game = table_game(tournament)
    fields = format_of(tournament.format).table_fields(game)
    if fields is None or count in fields:
        return ""
    if count < min(fields):
        return too_few_message(game.size, min(fields), count)
    tournament_format = format_of(tournament.format)
    rounds = tournament_format.table_round_count(count, game)
    return imperfect_message(
        game.size, count, rounds, tournament_format.table_meetings(count, game)
    )


def swiss_rounds_warning(tournament: Tournament, count: int | None = None) -> str:
    """What the organizer should know when a Swiss is given more rounds than its
    entrants can play without rematches ("" if nothing): ``count`` entrants can meet
    at most count - 1 opponents (with an odd number one more round, each sitting
    out once: `round_robin`'s length). Without ``count`` (at creation), how many
    entrants the rounds need, beside the seed's table (seed 000: 3 rounds for 5-8
    entrants, 4 for 9-16, 5 for 17-32). The round that cannot be paired later
    offers to end the tournament or pair with the fewest rematches."""
    rounds = tournament.rounds
    tournament_format = format_of(tournament.format)
    if not tournament_format.can_get_stuck or not rounds:
        return ""
    usual = gettext("The usual number is 3 rounds for 5–8 entrants, 4 for 9–16, 5 for 17–32.")
    if count is None:
        needed = tournament_format.entrants_needed(rounds)
        if needed is None:
            return ""
        return (
            gettext(
                "%(rounds)s rounds of Swiss need at least %(needed)s entrants: n entrants "
                "can meet at most n−1 opponents."
            )
            % {"rounds": rounds, "needed": needed}
            + " "
            + usual
        )
    most = tournament_format.rounds_without_rematch(count)
    # Fewer than two checked in (a new tournament's desk): nobody can be paired
    # yet, so there is nothing to warn of; the start refuses such a field itself.
    if count < 2 or rounds <= most:
        return ""
    return (
        ngettext(
            "%(count)s entrants can meet at most %(opponents)s opponent: only %(most)s of "
            "the %(rounds)s rounds can be paired without a rematch. After that you will "
            "be asked to end the tournament or pair with the fewest rematches.",
            "%(count)s entrants can meet at most %(opponents)s opponents: only %(most)s of "
            "the %(rounds)s rounds can be paired without a rematch. After that you will "
            "be asked to end the tournament or pair with the fewest rematches.",
            count - 1,
        )
        % {"count": count, "opponents": count - 1, "most": most, "rounds": rounds}
        + " "
        + usual
    )


@dataclass(frozen=True)
class Clock:
    ends_at: datetime
    minutes_left: int  # rounded up; 0 once time is up

    @property
    def over(self) -> bool:
        return self.minutes_left <= 0


def round_clock(round: Round, now: datetime) -> Clock | None:
    """The round's time limit, when the tournament sets one: when it ends and how
    many minutes are left."""
    minutes = round.tournament.round_minutes
    if not minutes or round.started_at is None or round.status != Round.Status.PLAYING:
        return None
    ends_at = round.started_at + timedelta(minutes=minutes)
    seconds = (ends_at - now).total_seconds()
    return Clock(ends_at, max(0, -int(-seconds // 60)))


def venue_draw_groups(tournament: Tournament, standings: Standings) -> list[list[StandingsLine]]:
    """The tied groups of entrants who play on, when the next round waits to be
    paired: who draws cards at the venue (`services.standings_draw_enter`). None
    where the game draws no cards for ties (`Game.draws_for_ties`)."""
    if not tournament.draws_for_ties:
        return []
    waiting = latest_round(tournament)
    if waiting is None or waiting.status not in (Round.Status.PENDING, Round.Status.STUCK):
        return []
    by_points = defaultdict(list)
    for line in standings.lines:
        if line.entrant.checked_in and not line.withdrawn:
            by_points[line.points].append(line)
    return [group for group in by_points.values() if len(group) > 1]


def round_forfeits(round: Round) -> list[Entrant]:
    """Who did not come in a round, by table: the forfeits an undo drops."""
    query = round.seatings.select_related("table", "entrant__player").order_by("table__number")
    return [s.entrant for s in query if s.table.absent == s.side]
