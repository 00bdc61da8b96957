"""The organizer's final stage: add a knockout to the tournament, start it once the
qualifying rounds are finished, watch the bracket as the matches are played, and
record (or take back) a player who did not come to his match.

As the rounds' pages: for the tournament's club's organizers only, every change a
POST answered by a redirect, every change to results asked first on a page of its
own (`views._confirm`)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clubs.permissions import organizer_required
from clubs.submissions import AlreadySent, key_of, submit_once, to_first
from live import counters, streams
from scoring import changes
from scoring.forms import first_error
from tournaments import records, registration, rounds, withdrawals
from tournaments.engine.formats import format_of
from tournaments.final import bracket, forfeits, setup
from tournaments.manage.common import POLL_MS, confirm, show_refusal, tournament_url
from tournaments.manage.forms import FinalStageForm
from tournaments.models import FinalStage, Tournament
from web.client import client_address


def _final_url(tournament, anchor=""):
    url = reverse("manage:final", args=[tournament.slug])
    return f"{url}#{anchor}" if anchor else url


def _stage(tournament):
    stage = bracket.final_stage_of(tournament)
    if stage is None:
        raise Http404
    return stage


@require_POST
@login_required
@organizer_required(registration.tournament_by_slug)
def final_stage_add(request, tournament):
    form = FinalStageForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect(tournament_url(tournament, "final"))
    try:
        stage = submit_once(
            user=request.user,
            key=key_of(request),
            make=lambda: setup.final_stage_add(
                tournament=tournament,
                user=request.user,
                address=client_address(request),
                **form.cleaned_data,
            ),
            location=lambda made: tournament_url(tournament, "final"),
        )
    except AlreadySent as sent:
        return to_first(request, sent)
    except records.TournamentError as error:
        show_refusal(request, error)
    else:
        messages.success(
            request,
            _("The best %(count)s play a knockout final once the tournament is finished.")
            % {"count": stage.qualifiers},
        )
    return redirect(tournament_url(tournament, "final"))


@require_http_methods(["GET", "POST"])
@login_required
@organizer_required(registration.tournament_by_slug)
def final_stage_start(request, tournament):
    stage = _stage(tournament)
    if request.method == "GET":
        plays_rounds = format_of(tournament.format).plays_rounds
        refused = ""
        if stage.status != FinalStage.Status.PLANNED:
            refused = _("The final has already started.")
        elif plays_rounds and tournament.status != Tournament.Status.FINISHED:
            refused = _("Finish the tournament first: its final standings seed the final.")
        if plays_rounds:
            seeded = _(
                "The best %(count)s of the final standings are seeded 1 to %(count)s: "
                "the first plays the last, the best seeds get the byes."
            ) % {"count": stage.qualifiers}
        else:
            seeded = _(
                "Every entrant checked in plays, seeded by rating (by lot where the club "
                "has no ratings); the best seeds get the byes."
            )
        return confirm(
            request,
            tournament,
            title=_("Start the final?"),
            lines=[
                seeded,
                _("The first matches' tables are made at once: print their table cards."),
            ],
            button=_("Start the final"),
            back=tournament_url(tournament, "final"),
            refused=refused,
        )
    try:
        setup.final_stage_start(
            tournament=tournament, user=request.user, address=client_address(request)
        )
    except records.TournamentError as error:
        show_refusal(request, error)
        return redirect(tournament_url(tournament, "final"))
    messages.success(request, _("The final has started: print the matches' table cards."))
    return redirect(_final_url(tournament))


def _bracket_context(request, tournament, stage) -> dict:
    rounds = bracket.bracket(stage, public=False)
    # Who withdrew, and why each cannot be reinstated ("" if he can): Reinstate is
    # offered where it can be done, on his line and on the match he gave away.
    seeded = {e.pk: e for r in rounds for m in r.matches for e in (m.first, m.second) if e}
    withdrawn = [
        (e, withdrawals.reinstate_refusal(tournament, e))
        for e in seeded.values()
        if e.withdrawn_after is not None
    ]
    return {
        "tournament": tournament,
        "club": tournament.club,
        "stage": stage,
        "bracket": rounds,
        "manage": True,
        "withdrawn": withdrawn,
        "reinstatable": {e.pk for e, refusal in withdrawn if not refusal},
    }


@require_GET
@login_required
@organizer_required(registration.tournament_by_slug)
def final_detail(request, tournament):
    """The bracket as it is played: each match's players, games won, its table cards
    and score sheet, and the no-show; it follows the tables by itself."""
    stage = _stage(tournament)
    if stage.status == FinalStage.Status.PLANNED:
        # Nothing drawn yet: the desk says when it starts, and starts it.
        return redirect(tournament_url(tournament, "final"))
    context = _bracket_context(request, tournament, stage)
    if stage.status == FinalStage.Status.FINISHED:
        context["places"] = bracket.places(tournament, public=False)
    # Who can withdraw (`bracket.still_in`: none once the final is decided).
    context["still_in"] = bracket.still_in(stage, context["bracket"])
    # The start can be taken back until a game has a hand (the service checks
    # the hands): offered while every match of the first round is still open.
    first = context["bracket"][0].matches if context["bracket"] else []
    context["undoable"] = stage.status == FinalStage.Status.PLAYING and all(
        m.status in ("playing", "bye") and m.wins == (0, 0) for m in first
    )
    context.update(
        {
            "rounds": rounds.tournament_rounds(tournament),
            "version": _bracket_version(tournament) or "",
            "poll_ms": POLL_MS,
        }
    )
    return render(request, "tournaments/manage/final_detail.html", context)


def _bracket_version(tournament) -> str | None:
    # The organizer's page is always current: the counters themselves, not the
    # public board's version that moves on at most every few seconds.
    keys = [changes.club_key(tournament.club_id), records.tournament_key(tournament.pk)]
    numbers = counters.counters(keys)
    if numbers is None:
        return None
    return f"{numbers[0]}-{numbers[1]}-{get_language()}"


@require_GET
@login_required
@organizer_required(registration.tournament_by_slug)
def final_bracket(request, tournament):
    """The bracket alone, for the final's page to ask (static/js/live.js): 204
    while the version the page has is current."""
    stage = _stage(tournament)
    version = _bracket_version(tournament)
    if version is not None and request.GET.get("v") == version:
        return HttpResponse(status=204)
    response = render(
        request,
        "tournaments/_bracket.html",
        _bracket_context(request, tournament, stage),
    )
    response["X-Board-Version"] = version or ""
    return response


@require_GET
@login_required
@organizer_required(registration.tournament_by_slug)
def final_events(request, tournament):
    """The final page's live stream: an event after each hand and each step."""
    return streams.stream(request, records.live_counters(tournament))


@require_http_methods(["GET", "POST"])
@login_required
@organizer_required(bracket.match_for_manage)
def match_forfeit(request, match):
    tournament = match.stage.tournament
    sides = [e for e in (match.first, match.second) if e is not None]
    chosen = request.POST.get("absent") if request.method == "POST" else request.GET.get("absent")
    absent = next((e for e in sides if str(e.pk) == chosen), None)
    back = _final_url(tournament, f"match-{match.pk}")
    if absent is None or len(sides) < 2:
        messages.error(request, _("Choose the player who did not come."))
        return redirect(back)
    present = next(e for e in sides if e.pk != absent.pk)
    if request.method == "GET":
        return confirm(
            request,
            tournament,
            title=_("%(name)s did not come to the match?") % {"name": absent},
            lines=[
                _("%(present)s wins the match and goes through; its party is cancelled.")
                % {"present": present},
                _("You can take it back until the next match of %(present)s has a hand.")
                % {"present": present},
            ],
            button=_("Record the no-show"),
            back=back,
            hidden={"absent": absent.pk},
        )
    try:
        forfeits.match_forfeit(
            match=match, absent=absent, user=request.user, address=client_address(request)
        )
    except records.TournamentError as error:
        show_refusal(request, error)
    else:
        messages.success(
            request,
            _("%(absent)s did not come: %(present)s goes through.")
            % {"absent": absent, "present": present},
        )
    return redirect(back)


@require_http_methods(["GET", "POST"])
@login_required
@organizer_required(bracket.match_for_manage)
def match_forfeit_undo(request, match):
    tournament = match.stage.tournament
    back = _final_url(tournament, f"match-{match.pk}")
    if request.method == "GET":
        refused = "" if match.absent is not None else _("This match has no no-show to take back.")
        return confirm(
            request,
            tournament,
            title=_("Take back the no-show?"),
            lines=[
                _(
                    "The match is played after all: its party starts again with new "
                    "seat links, so print its table cards again."
                )
            ],
            button=_("Take back the no-show"),
            back=back,
            refused=refused,
        )
    try:
        forfeits.match_forfeit_undo(match=match, user=request.user, address=client_address(request))
    except records.TournamentError as error:
        show_refusal(request, error)
    else:
        messages.success(request, _("The no-show is taken back: the match is played."))
    return redirect(back)


@require_http_methods(["GET", "POST"])
@login_required
@organizer_required(registration.tournament_by_slug)
def final_stage_remove(request, tournament):
    """Take back a final added by mistake, while it has not started."""
    stage = _stage(tournament)
    back = tournament_url(tournament, "final")
    if request.method == "GET":
        refused = ""
        if not format_of(tournament.format).plays_rounds:
            refused = _("A knockout tournament is its final.")
        elif stage.status != FinalStage.Status.PLANNED:
            refused = _("The final has started: it cannot be removed.")
        return confirm(
            request,
            tournament,
            title=_("Remove the final?"),
            lines=[_("The tournament ends with its last round; its standings are final.")],
            button=_("Remove the final"),
            back=back,
            refused=refused,
        )
    try:
        setup.final_stage_remove(
            tournament=tournament, user=request.user, address=client_address(request)
        )
    except records.TournamentError as error:
        show_refusal(request, error)
    else:
        messages.success(request, _("The final is removed."))
    return redirect(back)


@require_http_methods(["GET", "POST"])
@login_required
@organizer_required(registration.tournament_by_slug)
def final_stage_start_undo(request, tournament):
    """Take back the final's start (the wrong qualifiers, a standings corrected
    late) while no game has a hand and no one has been recorded absent."""
    stage = _stage(tournament)
    if request.method == "GET":
        refused = setup.start_undo_refusal(stage)
        return confirm(
            request,
            tournament,
            title=_("Undo the start of the final?"),
            lines=[
                _(
                    "The bracket and its tables go, and their table cards no longer "
                    "work; the final waits to be started again."
                )
            ],
            button=_("Undo the start"),
            back=_final_url(tournament),
            refused=refused,
        )
    try:
        setup.final_stage_start_undo(
            tournament=tournament, user=request.user, address=client_address(request)
        )
    except records.TournamentError as error:
        show_refusal(request, error)
        return redirect(_final_url(tournament))
    messages.success(request, _("The start of the final is undone: start it again when ready."))
    return redirect(tournament_url(tournament, "final"))
