"""Self check-in at the door: a player scans the QR code, picks his name from the
entrants not yet checked in, and is checked in (`registration.entrant_check_in_self`).

Only entrants: a guest is typed in by the organizer, who sees him, so a link that
went round cannot fill the tournament with made-up names. The page lists who is
already in, and a phone that checked someone in is remembered (a signed cookie):
it cannot go on to check in the rest of the room; the organizer sees who came on
his phone and can check anyone out again."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments import records, registration
from tournaments.models import Tournament
from web.client import client_address

#: How long a phone remembers whom it checked in: the tournament's day.
REMEMBERED_SECONDS = 24 * 60 * 60


def _cookie(tournament) -> str:
    return f"knock-door-{tournament.pk}"


@require_http_methods(["GET", "POST"])
def door(request, token):
    tournament = registration.tournament_by_door_token(token)
    entrants = registration.tournament_entrants(tournament)
    remembered = request.get_signed_cookie(_cookie(tournament), default=None, salt="door")
    me = next((e for e in entrants if str(e.pk) == remembered and e.checked_in), None)
    if request.method == "POST":
        if me is not None:
            messages.error(
                request,
                _(
                    "This phone has already checked in %(name)s: "
                    "anyone else checks in on another phone."
                )
                % {"name": me.player.name},
            )
            return redirect("seat:door", token=token)
        try:
            entrant = registration.entrant_check_in_self(
                tournament=tournament,
                entrant_id=_int(request.POST.get("entrant")),
                address=client_address(request),
            )
        except records.TournamentError as error:
            messages.error(request, str(error))
            return redirect("seat:door", token=token)
        messages.success(
            request, _("Welcome, %(name)s: you are checked in.") % {"name": entrant.player.name}
        )
        response = redirect("seat:door", token=token)
        response.set_signed_cookie(
            _cookie(tournament),
            str(entrant.pk),
            salt="door",
            max_age=REMEMBERED_SECONDS,
            httponly=True,
            samesite="Lax",
            secure=request.is_secure(),
        )
        return response
    context = {
        "tournament": tournament,
        "me": me,
        "open": tournament.status == Tournament.Status.REGISTRATION,
        "waiting": [e for e in entrants if not e.checked_in],
        "here": [e for e in entrants if e.checked_in],
    }
    return render(request, "tournaments/seat/door_check_in.html", context)


def _int(value) -> int:
    # ASCII digits that fit the database's integer; anything else is nobody (0).
    ok = value and value.isascii() and value.isdigit() and len(value) <= 9
    return int(value) if ok else 0
