"""The organizer withdraws an entrant, and takes it back: each asked first, on a
page of its own, saying what it does to his table and to the final."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs.permissions import organizer_required
from tournaments import records, registration, withdrawals
from tournaments.final import forfeits
from tournaments.manage.common import confirm, show_refusal, tournament_url
from web.client import client_address


@require_http_methods(["GET", "POST"])
@login_required
@organizer_required(registration.entrant_for_manage)
def entrant_withdraw(request, entrant):
    in_final = forfeits.final_playing_with(entrant) is not None
    back = _entrant_back(entrant, in_final)
    if request.method == "GET":
        if in_final:
            lines = [
                _(
                    "%(name)s gives the match in the final away: the opponent goes on. "
                    "A game already begun is decided by its party first; if %(name)s is still "
                    "waiting for the next opponent, that match is given away when it is drawn."
                )
                % {"name": entrant},
                _("You can reinstate the player until the opponent's next match has begun."),
            ]
        else:
            lines = [
                _(
                    "%(name)s is not paired again; the results so far stay. A withdrawal "
                    "during a round leaves %(name)s at that round's table."
                )
                % {"name": entrant},
                _("You can reinstate the player until the next round is paired."),
            ]
        return confirm(
            request,
            entrant.tournament,
            refused=_("%(name)s has already withdrawn.") % {"name": entrant}
            if entrant.withdrawn_after is not None
            else "",
            title=_("Withdraw %(name)s?") % {"name": entrant},
            lines=lines,
            button=_("Withdraw %(name)s") % {"name": entrant},
            back=back,
        )
    try:
        withdrawals.entrant_withdraw(
            entrant=entrant, user=request.user, address=client_address(request)
        )
    except records.TournamentError as error:
        show_refusal(request, error)
    else:
        messages.success(
            request,
            _("%(name)s has withdrawn: not paired again, the results so far stay.")
            % {"name": entrant},
        )
    return redirect(back)


def _entrant_back(entrant, in_final: bool) -> str:
    """Where a withdrawal or a reinstatement goes back to: the final's page while
    he is in a final being played, else his line on the desk."""
    if in_final:
        return reverse("manage:final", args=[entrant.tournament.slug])
    return tournament_url(entrant.tournament, f"entrant-{entrant.pk}")


@require_http_methods(["GET", "POST"])
@login_required
@organizer_required(registration.entrant_for_manage)
def entrant_reinstate(request, entrant):
    """Take back a withdrawal until a round has been paired without him (in a
    final, until the match his opponent went on to has begun)."""
    in_final = forfeits.final_playing_with(entrant) is not None
    back = _entrant_back(entrant, in_final)
    if request.method == "GET":
        if in_final:
            line = _("%(name)s plays on in the final: the match given away is played again.")
        else:
            line = _("%(name)s plays on and is paired again from the next pairing.")
        return confirm(
            request,
            entrant.tournament,
            refused=withdrawals.reinstate_refusal(entrant.tournament, entrant),
            title=_("Reinstate %(name)s?") % {"name": entrant},
            lines=[line % {"name": entrant}],
            button=_("Reinstate %(name)s") % {"name": entrant},
            back=back,
        )
    try:
        withdrawals.entrant_reinstate(
            entrant=entrant, user=request.user, address=client_address(request)
        )
    except records.TournamentError as error:
        show_refusal(request, error)
    else:
        messages.success(request, _("%(name)s is reinstated and paired again.") % {"name": entrant})
    return redirect(back)
