"""The final stage added, removed, started (the bracket drawn and seeded) and its
start taken back, one transaction each, recorded like the organizer's other actions."""

from __future__ import annotations

from random import Random

from django.db import transaction
from django.utils.translation import gettext

from scoring.models import Hand, Party
from scoring.services.parties import party_cancel
from tournaments import seeding
from tournaments.engine import knockout as engine
from tournaments.engine.formats import format_of
from tournaments.final.advance import advance
from tournaments.final.matches import entrants_by_id, game_start, locked_stage
from tournaments.models import (
    FinalStage,
    Match,
    MatchGame,
    Tournament,
    TournamentRecord,
)
from tournaments.records import TournamentError, locked, new_seed, record, tournament_changed
from tournaments.standings import standings_for


def _check_shape(qualifiers: int | None, best_of: int) -> None:
    if best_of not in engine.BEST_OF:
        raise TournamentError(gettext("A match is the best of 1 or of 3 games."))
    if qualifiers is not None and qualifiers < 2:
        raise TournamentError(gettext("A final needs at least two qualifiers."))


@transaction.atomic
def final_stage_add(
    *,
    tournament: Tournament,
    qualifiers: int,
    best_of: int = 1,
    third_place: bool = False,
    user=None,
    address=None,
) -> FinalStage:
    """Add a knockout final of the ``qualifiers`` best placed to a Swiss or round
    robin, any time before it is finished. At most as many qualifiers as entrants
    (those still playing, once it runs)."""
    tournament = locked(tournament)
    tournament_changed(tournament.pk)
    if FinalStage.objects.filter(tournament=tournament).exists():
        raise TournamentError(gettext("This tournament already has a final."))
    if tournament.plays_at_tables:
        # A final is a bracket of two-player matches: Gin Rummy's.
        raise TournamentError(
            gettext("A tournament of %(game)s has no knockout final: its standings decide.")
            % {"game": tournament.get_game_display()}
        )
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError(
            gettext("The tournament is finished: a final is added before its end.")
        )
    _check_shape(qualifiers, best_of)
    entrants = tournament.entrants.filter(withdrawn_after__isnull=True)
    if tournament.status == Tournament.Status.RUNNING:
        entrants = entrants.filter(checked_in=True)
    if qualifiers > entrants.count():
        raise TournamentError(
            gettext("The tournament has only %(count)s entrants to qualify.")
            % {"count": entrants.count()}
        )
    stage = FinalStage.objects.create(
        tournament=tournament,
        qualifiers=qualifiers,
        best_of=best_of,
        third_place=third_place,
        seed=new_seed(),
    )
    record(
        tournament,
        TournamentRecord.Action.FINAL_ADDED,
        user=user,
        address=address,
        qualifiers=qualifiers,
        best_of=best_of,
        third_place=third_place,
    )
    return stage


@transaction.atomic
def final_stage_remove(*, tournament: Tournament, user=None, address=None) -> None:
    """Take back a final that has not started (a knockout tournament keeps its own)."""
    tournament = locked(tournament)
    tournament_changed(tournament.pk)
    stage = locked_stage(tournament)
    if not format_of(tournament.format).plays_rounds:
        raise TournamentError(gettext("A knockout tournament is its final."))
    if stage.status != FinalStage.Status.PLANNED:
        raise TournamentError(gettext("The final has started: it cannot be removed."))
    stage.delete()
    record(tournament, TournamentRecord.Action.FINAL_REMOVED, user=user, address=address)


def _qualified(tournament: Tournament, qualifiers: int) -> list[int]:
    """The qualifiers from the final standings, best first: ties ordered by the final
    card draw when one was made, else as the standings list them. An entrant who
    withdrew does not qualify; the next placed moves up."""
    lines = [line for line in standings_for(tournament).lines if not line.withdrawn]
    if len(lines) < qualifiers:
        raise TournamentError(
            gettext("Only %(count)s entrants are left to qualify.") % {"count": len(lines)}
        )
    return [line.entrant.pk for line in lines[:qualifiers]]


def _seeded(tournament: Tournament, ids: list[int], seed: int) -> tuple[list[int], str]:
    """A knockout tournament's seeds: by rating when the club has ratings (the
    unrated after the rated; equal ratings by lot), else by lot, from ``seed``."""
    order = sorted(ids)
    Random(seed).shuffle(order)
    ratings = seeding.ratings(tournament, order)
    if not ratings:
        return order, FinalStage.Seeding.LOT
    rated = sorted((pk for pk in order if pk in ratings), key=lambda pk: -ratings[pk])
    return rated + [pk for pk in order if pk not in ratings], FinalStage.Seeding.RATING


@transaction.atomic
def final_stage_start(*, tournament: Tournament, user=None, address=None) -> FinalStage:
    """Draw the bracket and start its first round: after the qualifying rounds are
    finished, seeded from the final standings; a knockout tournament from its
    registration, with every entrant checked in, seeded by rating or lot. Byes go
    to the best seeds and advance at once; every other match starts its first game."""
    tournament = locked(tournament)
    tournament_changed(tournament.pk)
    stage = locked_stage(tournament)
    if stage.status != FinalStage.Status.PLANNED:
        raise TournamentError(gettext("The final has already started."))
    if format_of(tournament.format).plays_rounds:
        if tournament.status != Tournament.Status.FINISHED:
            raise TournamentError(gettext("Finish the qualifying rounds first."))
        stage.seeds = _qualified(tournament, stage.qualifiers)
        stage.seeding = FinalStage.Seeding.STANDINGS
    else:
        if tournament.status != Tournament.Status.REGISTRATION:
            raise TournamentError(gettext("The tournament has already started."))
        ids = list(tournament.entrants.filter(checked_in=True).values_list("pk", flat=True))
        if len(ids) < 2:
            raise TournamentError(gettext("At least two entrants must be checked in."))
        stage.seeds, stage.seeding = _seeded(tournament, ids, stage.seed)
        stage.qualifiers = len(ids)
        tournament.status = Tournament.Status.RUNNING
        tournament.rounds = 0
        tournament.save(update_fields=["status", "rounds"])
    stage.status = FinalStage.Status.PLAYING
    stage.save()
    entrants = entrants_by_id(tournament)
    for slot, (first, second) in enumerate(engine.first_round(stage.seeds)):
        match = Match.objects.create(
            stage=stage,
            round=1,
            slot=slot,
            first_id=first,
            second_id=second,
            winner_id=first if second is None else None,
        )
        if second is not None:
            game_start(stage, match, 1, entrants)
    record(
        tournament,
        TournamentRecord.Action.FINAL_STARTED,
        user=user,
        address=address,
        seeding=stage.seeding,
        seeds=[str(entrants[pk]) for pk in stage.seeds],
    )
    advance(stage)
    return stage


def start_undo_refusal(stage: FinalStage) -> str:
    """Why the final's start cannot be taken back now ("" if it can): one check for
    the question's page and the service."""
    if stage.status == FinalStage.Status.PLANNED:
        return gettext("The final has not started.")
    played = Hand.objects.filter(party__match_game__match__stage=stage).exists()
    if played or stage.matches.filter(absent__isnull=False).exists():
        return gettext("Games of the final have begun: it cannot be undone.")
    return ""


@transaction.atomic
def final_stage_start_undo(*, tournament: Tournament, user=None, address=None) -> FinalStage:
    """Take back the start of the final while no game has a hand and no one has
    forfeited (the wrong qualifiers, a late correction of the standings): the
    bracket and its parties go, and the final waits to be started again. A knockout
    tournament goes back to its registration."""
    tournament = locked(tournament)
    tournament_changed(tournament.pk)
    stage = locked_stage(tournament)
    refusal = start_undo_refusal(stage)
    if refusal:
        raise TournamentError(refusal)
    games = list(MatchGame.objects.filter(match__stage=stage).select_related("party"))
    parties = [g.party for g in games]
    MatchGame.objects.filter(pk__in=[g.pk for g in games]).delete()
    stage.matches.all().delete()
    for party in parties:
        if party.status != Party.Status.CANCELLED:
            party_cancel(party=party, user=user, reason=gettext("The final was undone."))
    stage.status = FinalStage.Status.PLANNED
    stage.seeds = []
    stage.save(update_fields=["status", "seeds"])
    if not format_of(tournament.format).plays_rounds:
        tournament.status = Tournament.Status.REGISTRATION
        tournament.save(update_fields=["status"])
    record(tournament, TournamentRecord.Action.FINAL_UNDONE, user=user, address=address)
    return stage
