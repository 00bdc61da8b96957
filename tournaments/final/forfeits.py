"""No-shows and withdrawals in the final: a match forfeited and taken back, an
entrant who withdraws giving his match away and, reinstated, playing it again
(registered with `tournaments.withdrawals` at start-up)."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext

from scoring.models import Hand, Party
from scoring.services.parties import party_cancel, party_forfeit_taken_back
from tournaments.engine import knockout as engine
from tournaments.engine.formats import format_of
from tournaments.final.advance import advance
from tournaments.final.matches import entrants_by_id, game_start, round_key, round_label
from tournaments.models import (
    Entrant,
    FinalStage,
    Match,
    Tournament,
    TournamentRecord,
)
from tournaments.records import TournamentError, record, tournament_changed


def _locked_match(match: Match) -> tuple[FinalStage, Match]:
    stage = FinalStage.objects.select_for_update(of=("self",)).select_related("tournament__club")
    stage = stage.get(pk=match.stage_id)
    match = Match.objects.select_related("first__player", "second__player").get(pk=match.pk)
    return stage, match


@transaction.atomic
def match_forfeit(*, match: Match, absent: Entrant, user=None, address=None) -> Match:
    """A no-show: the other side wins the match. The game being played is cancelled;
    once it has hands, its party decides (as at a round's table). Games already
    finished stay in the record."""
    stage, match = _locked_match(match)
    tournament_changed(stage.tournament_id)
    if match.winner_id is not None:
        raise TournamentError(gettext("This match is decided."))
    if absent.pk not in (match.first_id, match.second_id) or match.second_id is None:
        raise TournamentError(gettext("%(name)s does not play this match.") % {"name": absent})
    games = list(match.games.select_related("party").order_by("number"))
    running = [g for g in games if g.party.status == Party.Status.RUNNING]
    if any(Hand.objects.filter(party=g.party).exists() for g in running):
        raise TournamentError(
            gettext("Hands have been played in this game: its party decides the result.")
        )
    side = 0 if absent.pk == match.first_id else 1
    match.absent = side
    match.winner_id = (match.second_id, match.first_id)[side]
    match.save(update_fields=["absent", "winner"])
    for game in running:
        party = game.party
        game.delete()
        party_cancel(
            party=party,
            user=user,
            reason=gettext("No-show: the match is a forfeit."),
            forfeit={"absent": absent.player_id, "points": 0},
        )
    record(
        stage.tournament,
        TournamentRecord.Action.MATCH_FORFEIT,
        user=user,
        address=address,
        match=round_label(round_key(stage, match.round, match.third_place)),
        absent=str(absent),
        # Which match, and the game it stopped: taken back, that game's seat links
        # say so (`match_forfeit_undo`).
        match_id=match.pk,
        parties=[game.party_id for game in running],
    )
    advance(stage)
    return match


def entrant_leaves_final(*, entrant: Entrant, user=None, address=None) -> Match | None:
    """An entrant withdrawn while the final is played forfeits the match he is in
    (`match_forfeit`); one who waits for his next opponent forfeits that match as
    soon as it is drawn (`_next_matches`). In a game that has hands he stays, as at
    a round's table: its party decides the game, and the match ends with it if it
    is not decided by then (`_next_game`). Returns the match forfeited, if any.
    Registered with `withdrawals.when_withdrawn`."""
    stage = FinalStage.objects.filter(
        tournament_id=entrant.tournament_id, status=FinalStage.Status.PLAYING
    ).first()
    if stage is None:
        return None
    match = (
        stage.matches.filter(winner__isnull=True, second__isnull=False)
        .filter(Q(first=entrant) | Q(second=entrant))
        .first()
    )
    if match is None:
        return None
    running = match.games.filter(party__status=Party.Status.RUNNING).values("party_id")
    if Hand.objects.filter(party__in=running).exists():
        return None
    return match_forfeit(match=match, absent=entrant, user=user, address=address)


def final_playing_with(entrant: Entrant) -> FinalStage | None:
    """The final that seeded him and can still change for him, if any: being
    played (a withdrawal gives his match away, a reinstatement takes that back), or
    decided by the match his withdrawal gave away, while that can be taken back
    (the final itself, or the match for third place: no match follows them)."""
    stage = FinalStage.objects.filter(
        tournament_id=entrant.tournament_id,
        status__in=[FinalStage.Status.PLAYING, FinalStage.Status.FINISHED],
    ).first()
    if stage is None or entrant.pk not in stage.seeds:
        return None
    if stage.status == FinalStage.Status.PLAYING:
        return stage
    match = _given_away(stage, entrant)
    return stage if match is not None and not _forfeit_stands(stage, match) else None


def _given_away(stage: FinalStage, entrant: Entrant) -> Match | None:
    """The last match of the final he did not play (a no-show or his withdrawal)."""
    absent = Q(first=entrant, absent=0) | Q(second=entrant, absent=1)
    return stage.matches.filter(absent).order_by("-round", "-third_place").first()


def reinstate_refusal_in_final(entrant: Entrant) -> str | None:
    """Why a withdrawn entrant cannot come back into the final ("" if he can;
    ``None`` when no final being played seeded him): the match he gave away can be
    taken back only while the one it sent his opponent into has not begun
    (`match_forfeit_undo`). Registered with `withdrawals.reinstate_check`."""
    stage = final_playing_with(entrant)
    if stage is None:
        return None
    match = _given_away(stage, entrant)
    if match is not None and _forfeit_stands(stage, match):
        return gettext(
            "%(name)s's match in the final went to the opponent, whose next match has "
            "begun: %(name)s can no longer be reinstated."
        ) % {"name": entrant}
    return ""


def entrant_returns_to_final(*, entrant: Entrant, user=None, address=None) -> None:
    """A withdrawal taken back in the final being played: the match it gave away is
    played again (`match_forfeit_undo`); one who had not been drawn again simply
    plays on. Registered with `withdrawals.when_reinstated`."""
    stage = final_playing_with(entrant)
    if stage is None:
        return
    match = _given_away(stage, entrant)
    if match is not None:
        match_forfeit_undo(match=match, user=user, address=address)


def _forfeit_stands(stage: FinalStage, match: Match) -> bool:
    """A forfeit stands once a match it sent someone into is decided or has a hand:
    taking it back would leave that player where he could not have got."""
    following = _following(stage, match)
    parties = [g.party_id for m in following for g in m.games.all()]
    return any(m.winner_id for m in following) or Hand.objects.filter(party__in=parties).exists()


def _following(stage: FinalStage, match: Match) -> list[Match]:
    """The matches this match's result put someone into: the next round's, and the
    third-place match after a semi-final."""
    rounds = engine.round_count(len(stage.seeds))
    if match.third_place:
        return []
    found = list(
        stage.matches.filter(
            round=match.round + 1, slot=engine.next_match(match.slot)[0], third_place=False
        )
    )
    if match.round == rounds - 1:
        found += list(stage.matches.filter(third_place=True))
    return found


@transaction.atomic
def match_forfeit_undo(*, match: Match, user=None, address=None) -> Match:
    """Take back a no-show: the match is played again from the game it stopped at,
    as long as no match it sent someone into has a hand (those matches go); the
    old game's seat links say so (`party_forfeit_taken_back`).

    A forfeit that a withdrawal gave away is not taken back here: a tournament
    director does not have a player who left play on while the desk still lists
    him as withdrawn, nor take his withdrawal back behind the desk's back. It is
    refused with a message; reinstating him (`withdrawals.entrant_reinstate`)
    takes the withdrawal and this forfeit back together."""
    stage, match = _locked_match(match)
    tournament_changed(stage.tournament_id)
    if match.absent is None:
        raise TournamentError(gettext("This match has no forfeit to take back."))
    absent = (match.first, match.second)[match.absent]
    if absent.withdrawn_after is not None:
        raise TournamentError(
            gettext(
                "%(name)s did not miss the match but withdrew from the tournament. "
                "Reinstate %(name)s to play it again."
            )
            % {"name": absent}
        )
    if _forfeit_stands(stage, match):
        raise TournamentError(gettext("The next match has begun: the forfeit stands."))
    following = _following(stage, match)
    parties = [g.party for m in following for g in m.games.select_related("party")]
    for m in following:
        m.games.all().delete()
        m.delete()
    for party in parties:
        if party.status != Party.Status.CANCELLED:
            party_cancel(party=party, user=user, reason=gettext("A forfeit was taken back."))
    forfeit = (
        stage.tournament.records.filter(
            action=TournamentRecord.Action.MATCH_FORFEIT, details__match_id=match.pk
        )
        .order_by("-at", "-pk")
        .first()
    )
    stopped = Party.objects.filter(pk__in=forfeit.details.get("parties", []) if forfeit else [])
    for party in stopped:
        party_forfeit_taken_back(party=party, user=user, address=address)
    match.absent = None
    match.winner_id = None
    match.save(update_fields=["absent", "winner"])
    number = match.games.count() + 1
    game_start(stage, match, number, entrants_by_id(stage.tournament))
    record(
        stage.tournament,
        TournamentRecord.Action.MATCH_UNFORFEIT,
        user=user,
        address=address,
        match=round_label(round_key(stage, match.round, match.third_place)),
        absent=str(absent),
    )
    if stage.status == FinalStage.Status.FINISHED:
        stage.status = FinalStage.Status.PLAYING
        stage.save(update_fields=["status"])
        tournament = stage.tournament
        if not format_of(tournament.format).plays_rounds:
            tournament.status = Tournament.Status.RUNNING
            tournament.save(update_fields=["status"])
    return match
