"""Self check-in at the door: a player scans the QR code, picks his name from the
entrants not yet checked in, and is checked in (`registration.entrant_check_in_self`).

Only entrants: a guest is typed in by the organizer, who sees him, so a link that
went round cannot fill the tournament with made-up names. The page lists who is
already in, and a phone that checked someone in is remembered in its session,
which the server keeps: it cannot go on to check in the rest of the room. A phone
that kept no session from the page it was shown (a script that drops its cookies)
checks in no one; the organizer sees who came on his phone and can check anyone
out again."""

from django.contrib import messages
from django.db import transaction
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments import records, registration
from tournaments.models import Tournament
from web.client import client_address

#: What a phone's session holds once it was shown the door page: "shown", then
#: the id of the entrant it checked in.
SHOWN = "shown"


def _key(tournament) -> str:
    return f"door-{tournament.pk}"


@require_http_methods(["GET", "POST"])
def door(request, token):
    tournament = registration.tournament_by_door_token(token)
    entrants = registration.tournament_entrants(tournament)
    remembered = request.session.get(_key(tournament))
    me = next((e for e in entrants if str(e.pk) == remembered and e.checked_in), None)
    if request.method == "POST":
        if remembered is None:
            messages.error(
                request,
                _(
                    "This phone kept no cookie from the page. Allow cookies and open "
                    "the link again, or see the organizer at the door."
                ),
            )
            return redirect("seat:door", token=token)
        try:
            entrant = _check_in(request, tournament, me)
        except records.TournamentError as error:
            messages.error(request, str(error))
            return redirect("seat:door", token=token)
        messages.success(
            request, _("Welcome, %(name)s: you are checked in.") % {"name": entrant.player.name}
        )
        return redirect("seat:door", token=token)
    if remembered is None or (me is None and remembered != SHOWN):
        # Shown the page: its check-in counts for this session only. A session whose
        # entrant was checked out again may check in once more.
        request.session[_key(tournament)] = SHOWN
    context = {
        "tournament": tournament,
        "me": me,
        "open": tournament.status == Tournament.Status.REGISTRATION,
        "waiting": [e for e in entrants if not e.checked_in],
        "here": [e for e in entrants if e.checked_in],
    }
    return render(request, "tournaments/seat/door_check_in.html", context)


def _check_in(request, tournament, me):
    """The phone's one check-in, held by the server: in one transaction with the
    tournament's row locked, the phone's session is read again from its store,
    the entrant checked in, and the session written. Two posts of one phone at the
    same moment (a script's) check in one player."""
    with transaction.atomic():
        records.locked(tournament)
        stored = request.session.__class__(request.session.session_key)
        remembered = stored.get(_key(tournament))
        if me is None and remembered not in (None, SHOWN):
            entrants = registration.tournament_entrants(tournament)
            me = next((e for e in entrants if str(e.pk) == remembered and e.checked_in), None)
        if me is not None:
            raise records.TournamentError(
                _(
                    "This phone has already checked in %(name)s: "
                    "anyone else checks in on another phone."
                )
                % {"name": me.player.name}
            )
        entrant = registration.entrant_check_in_self(
            tournament=tournament,
            entrant_id=_int(request.POST.get("entrant")),
            address=client_address(request),
        )
        request.session[_key(tournament)] = str(entrant.pk)
        request.session.save()
    return entrant


def _int(value) -> int:
    # ASCII digits that fit the database's integer; anything else is nobody (0).
    ok = value and value.isascii() and value.isdigit() and len(value) <= 9
    return int(value) if ok else 0
