"""An entrant who leaves and comes back: withdrawing, reinstating, and why he
cannot be reinstated now.

The final stage stands above the rounds and is built on them: what it does when
an entrant withdraws or comes back registers here at start-up (tournaments.apps),
as `scoring.guards` does for the apps above scoring."""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction
from django.utils.translation import gettext

from tournaments.models import (
    Entrant,
    Round,
    Tournament,
    TournamentRecord,
)
from tournaments.planned import plan_refresh
from tournaments.records import TournamentError, locked, record, tournament_changed

_leaving: list[Callable[..., object]] = []
_returning: list[Callable[..., object]] = []
_refusals: list[Callable[[Entrant], str | None]] = []


def when_withdrawn(hook: Callable[..., object]) -> None:
    """``hook(entrant=, user=, address=)`` runs in the withdrawal's transaction,
    once it is recorded (the final: he gives his match away)."""
    if hook not in _leaving:
        _leaving.append(hook)


def when_reinstated(hook: Callable[..., object]) -> None:
    """``hook(entrant=, user=, address=)`` runs in the reinstatement's transaction,
    once it is recorded (the final: the match he gave away is played again)."""
    if hook not in _returning:
        _returning.append(hook)


def reinstate_check(check: Callable[[Entrant], str | None]) -> None:
    """``check(entrant)`` answers for a withdrawn entrant still seeded where it
    plays: why he cannot come back ("" if he can); ``None`` when he is not its to
    answer for, and the rounds decide."""
    if check not in _refusals:
        _refusals.append(check)


@transaction.atomic
def entrant_withdraw(*, entrant: Entrant, user=None, address=None) -> Entrant:
    """Withdraw an entrant: not paired again, his results stay. Withdrawn during a
    round, he is still at that round's table (play it, or enter a forfeit)."""
    tournament = locked(entrant.tournament)
    tournament_changed(tournament.pk)
    entrant = Entrant.objects.get(pk=entrant.pk)
    if entrant.withdrawn_after is not None:
        raise TournamentError(gettext("%(name)s has already withdrawn.") % {"name": entrant})
    paired = tournament.round_set.filter(
        status__in=[Round.Status.PLAYING, Round.Status.CLOSED]
    ).order_by("-number")
    last = paired.first()
    entrant.withdrawn_after = last.number if last else 0
    entrant.save(update_fields=["withdrawn_after"])
    record(
        tournament,
        TournamentRecord.Action.WITHDRAWN,
        user=user,
        address=address,
        entrant=str(entrant),
        after=entrant.withdrawn_after,
    )
    for hook in _leaving:  # still in a knockout final, he gives his match away
        hook(entrant=entrant, user=user, address=address)
    plan_refresh(tournament)  # an evening planned ahead: the rounds left without him
    return entrant


@transaction.atomic
def entrant_reinstate(*, entrant: Entrant, user=None, address=None) -> Entrant:
    """Take back a withdrawal: the entrant plays on, paired from the next pairing,
    until a round has been paired without him. From then on he would come back
    having missed a round nobody can give him, so he stays withdrawn. In a final
    being played, the match he gave away is played again, until the match it sent
    his opponent into has begun."""
    tournament = locked(entrant.tournament)
    tournament_changed(tournament.pk)
    entrant = Entrant.objects.select_related("player").get(pk=entrant.pk)
    refusal = reinstate_refusal(tournament, entrant)
    if refusal:
        raise TournamentError(refusal)
    after = entrant.withdrawn_after
    entrant.withdrawn_after = None
    entrant.save(update_fields=["withdrawn_after"])
    record(
        tournament,
        TournamentRecord.Action.REINSTATED,
        user=user,
        address=address,
        entrant=str(entrant),
        was_withdrawn_after=after,
    )
    for hook in _returning:  # in a final, the match he gave away is played again
        hook(entrant=entrant, user=user, address=address)
    plan_refresh(tournament)  # an evening planned ahead: the rounds left with him again
    return entrant


def reinstate_refusal(tournament: Tournament, entrant: Entrant) -> str:
    """Why a withdrawn entrant cannot be reinstated now ("" if he can): once a round
    has been paired without him he would come back having missed a round nobody
    can give him (`entrant_reinstate`); in a final being played, once the match he
    gave away cannot be taken back (the final's `reinstate_check`, which alone
    answers for those it seeded). Up to four queries."""
    if entrant.withdrawn_after is not None:
        for check in _refusals:
            answer = check(entrant)
            if answer is not None:
                return answer
    if tournament.status == Tournament.Status.FINISHED:
        return gettext("The tournament is finished.")
    if entrant.withdrawn_after is None:
        return gettext("%(name)s has not withdrawn.") % {"name": entrant}
    rounds = tournament.round_set.filter(number__gte=entrant.joined_round)
    pairing = rounds.filter(status=Round.Status.PAIRING).first()
    if pairing is not None:
        return gettext("Round %(number)s is being paired: try again when it is done.") % {
            "number": pairing.number
        }
    missed = (
        rounds.filter(status__in=[Round.Status.PLAYING, Round.Status.CLOSED])
        .exclude(seatings__entrant=entrant)
        .order_by("number")
        .first()
    )
    if missed is not None:
        return gettext(
            "Round %(number)s was paired without %(name)s, who can no longer be reinstated."
        ) % {"number": missed.number, "name": entrant}
    return ""
