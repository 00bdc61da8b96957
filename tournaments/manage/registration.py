"""The organizer's tournament before its rounds: create (or import from an archive),
the tournament's page, register members and guests, late entrants, the pairs kept
apart, and the check-in at the door (the list, ticked in bulk, the door link).

Every page is for the organizers of the tournament's club only; anyone else, another
club's organizer too, gets a 404 (`clubs.permissions.require_organizer`): he learns
nothing about this club's tournaments. Every change is a POST answered by a redirect."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clubs import selectors as club_selectors
from clubs.permissions import organizer_required
from clubs.submissions import AlreadySent, key_of, submit_once, to_first
from scoring import qr
from scoring.forms import first_error
from tournaments import records, registration, rounds
from tournaments.archive import restore
from tournaments.engine.formats import format_of
from tournaments.manage.common import POLL_MS, confirm, show_refusal, tournament_url
from tournaments.manage.forms import (
    ArchiveForm,
    FinalStageForm,
    GuestsForm,
    MembersForm,
    PairForm,
    TournamentForm,
)
from tournaments.models import Tournament
from web.client import client_address


@login_required
@organizer_required(club_selectors.club_by_slug)
def tournament_create(request, club):
    form = TournamentForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        try:
            tournament = submit_once(
                user=request.user,
                key=key_of(request),
                make=lambda: registration.tournament_create(club=club, **form.cleaned_data),
                location=tournament_url,
            )
        except AlreadySent as sent:
            return to_first(request, sent)
        except records.TournamentError as error:
            form.add_error(None, str(error))
        else:
            messages.success(
                request,
                _("Tournament “%(name)s” created: register the entrants.")
                % {"name": tournament.name},
            )
            warning = rounds.swiss_rounds_warning(tournament)
            if warning:
                messages.warning(request, warning)
            return redirect(tournament_url(tournament))
    tournaments = registration.club_tournaments(club)
    context = {"club": club, "form": form, "tournaments": tournaments}
    # A form sent with what is wrong is shown again with why, as a 400.
    status = 400 if request.method == "POST" else 200
    return render(request, "tournaments/manage/tournament_create.html", context, status=status)


@login_required
@organizer_required(club_selectors.club_by_slug)
def archive_import(request, club):
    """Bring back a tournament (or a club night) from its JSON archive into this
    club, then show it. A file that is not a whole archive is refused with what is
    wrong, and nothing of it is kept."""
    posted = request.method == "POST"
    form = ArchiveForm(request.POST, request.FILES) if posted else ArchiveForm()
    if posted and form.is_valid():
        try:
            made = submit_once(
                user=request.user,
                key=key_of(request),
                make=lambda: restore.archive_import(
                    data=form.cleaned_data["file"],
                    club=club,
                    user=request.user,
                    address=client_address(request),
                ),
                location=_imported_url,
            )
        except AlreadySent as sent:
            return to_first(request, sent)
        except restore.ArchiveError as error:
            form.add_error("file", str(error))
        else:
            if isinstance(made, Tournament):
                text = _("Tournament “%(name)s” imported.")
            else:
                text = _("Club night “%(name)s” imported.")
            messages.success(request, text % {"name": made.name})
            return redirect(_imported_url(made))
    status = 400 if posted else 200
    context = {"club": club, "form": form}
    return render(request, "tournaments/manage/archive_import.html", context, status=status)


def _imported_url(made) -> str:
    if isinstance(made, Tournament):
        return tournament_url(made)
    return reverse("manage:night-detail", args=[made.pk])


@require_GET
@login_required
@organizer_required(registration.tournament_by_slug)
def tournament_detail(request, tournament):
    """The tournament's desk: entrants and check-in, registration, pairs kept apart,
    the rounds, and the next step."""
    entrants = registration.tournament_entrants(tournament)
    played = rounds.tournament_rounds(tournament)
    registering = tournament.status == Tournament.Status.REGISTRATION
    late = (
        tournament.status == Tournament.Status.RUNNING
        and format_of(tournament.format).takes_late_entrants
    )
    active = [e for e in entrants if e.withdrawn_after is None]
    context = {
        "tournament": tournament,
        "club": tournament.club,
        "entrants": entrants,
        "checked_in": sum(e.checked_in for e in entrants),
        "rounds_warning": (
            rounds.swiss_rounds_warning(tournament, sum(e.checked_in for e in entrants))
            # A round robin at tables starts only with a field it has a schedule for.
            or rounds.schedule_warning(
                tournament, sum(e.checked_in and e.withdrawn_after is None for e in entrants)
            )
        )
        if registering
        else "",
        "planned": rounds.rounds_planned(tournament, entrants),
        "rounds": played,
        "latest": played[-1] if played else None,
        "registering": registering,
        "late": late,
        "members_form": MembersForm(players=registration.members_not_entered(tournament))
        if registering or late
        else None,
        "guests_form": GuestsForm(initial={"check_in": _on_the_day(tournament)}, late=late)
        if registering or late
        else None,
        "count": registration.check_in_count(entrants),
        "plays_rounds": format_of(tournament.format).plays_rounds,
        "poll_ms": POLL_MS,
        "can_start": sum(e.checked_in for e in entrants) >= 2,
        "apart_form": PairForm(entrants=active, auto_id="apart-%s")
        if tournament.status != Tournament.Status.FINISHED
        else None,
        "apart": registration.keep_apart_pairs(tournament),
        "records": [(r, records.record_text(r)) for r in records.tournament_records(tournament)],
    }
    # The final stage, if one is added (one query); a knockout is added before
    # the tournament finishes, to a format that plays qualifying rounds.
    stage = getattr(tournament, "final_stage", None)
    context["stage"] = stage
    plays_rounds = format_of(tournament.format).plays_rounds
    # (A knockout tournament's is started from the check-in, as round 1 would be.)
    context["final_startable"] = (
        stage is not None
        and stage.status == "planned"
        and tournament.status == Tournament.Status.FINISHED
    )
    context["final_form"] = (
        FinalStageForm()
        if stage is None
        and tournament.status != Tournament.Status.FINISHED
        and plays_rounds
        # A final is a bracket of two-player matches: its standings decide a
        # tournament at tables (`final_stage_add` refuses it).
        and not tournament.plays_at_tables
        else None
    )
    return render(request, "tournaments/manage/tournament_detail.html", context)


def _register(request, tournament, entered) -> None:
    if not entered:
        messages.info(request, _("They had already entered."))
    elif tournament.status == Tournament.Status.RUNNING:
        messages.success(
            request,
            _("Late entrants, starting at 0 and paired from the next round: %(names)s.")
            % {"names": ", ".join(str(e.player) for e in entered)},
        )
    else:
        messages.success(
            request,
            _("Entered: %(names)s.") % {"names": ", ".join(str(e.player) for e in entered)},
        )


@require_POST
@login_required
@organizer_required(registration.tournament_by_slug)
def entrant_register(request, tournament):
    form = MembersForm(request.POST, players=registration.members_not_entered(tournament))
    if not form.is_valid():
        messages.error(request, first_error(form))
    else:
        try:
            entered = registration.entrant_register(
                tournament=tournament, players=list(form.cleaned_data["players"])
            )
        except records.TournamentError as error:
            show_refusal(request, error)
        else:
            _register(request, tournament, entered)
    return redirect(tournament_url(tournament, "entrants"))


@require_POST
@login_required
@organizer_required(registration.tournament_by_slug)
def entrant_register_guests(request, tournament):
    """Guests from a pasted list. A name that looks like someone already there
    (ignoring case and spacing) is not entered silently: the page asks whether to
    enter it anyway or to skip it, with the paste kept."""
    form = GuestsForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
    else:
        try:
            entered = registration.entrant_register_guests(
                tournament=tournament,
                names=form.cleaned_data["names"],
                check_in=form.cleaned_data["check_in"],
                duplicates=form.cleaned_data["duplicates"] or "ask",
                user=request.user,
                address=client_address(request),
            )
        except registration.DuplicateNames as clash:
            context = {
                "tournament": tournament,
                "club": tournament.club,
                "form": form,
                "clashes": clash.clashes,
            }
            return render(request, "tournaments/manage/entrant_guests_confirm.html", context)
        except records.TournamentError as error:
            show_refusal(request, error)
        else:
            _register(request, tournament, entered)
            if entered and form.cleaned_data["check_in"] and not _late(tournament):
                messages.info(request, _("The guests are checked in."))
    return redirect(tournament_url(tournament, "entrants"))


def _late(tournament) -> bool:
    return tournament.status != Tournament.Status.REGISTRATION


@require_POST
@login_required
@organizer_required(registration.entrant_for_manage)
def entrant_check_in(request, entrant):
    checked_in = request.POST.get("checked_in") == "1"
    try:
        registration.entrant_check_in(
            entrant=entrant,
            checked_in=checked_in,
            user=request.user,
            address=client_address(request),
        )
    except records.TournamentError as error:
        show_refusal(request, error)
    else:
        text = _("%(name)s is checked in.") if checked_in else _("%(name)s is not checked in.")
        messages.success(request, text % {"name": entrant})
    return redirect(tournament_url(entrant.tournament, f"entrant-{entrant.pk}"))


@require_POST
@login_required
@organizer_required(registration.tournament_by_slug)
def keep_apart_add(request, tournament):
    form = PairForm(request.POST, entrants=registration.tournament_entrants(tournament))
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect(tournament_url(tournament, "apart"))
    first, second = form.pair()
    try:
        registration.keep_apart_add(
            tournament=tournament,
            first=first,
            second=second,
            user=request.user,
            address=client_address(request),
        )
    except records.TournamentError as error:
        show_refusal(request, error)
    else:
        messages.success(
            request,
            _("%(first)s and %(second)s are kept apart: they are paired as if they had met.")
            % {"first": first, "second": second},
        )
    return redirect(tournament_url(tournament, "apart"))


@require_http_methods(["GET", "POST"])
@login_required
@organizer_required(registration.keep_apart_for_manage)
def keep_apart_remove(request, pair):
    """The two may meet from the next pairing on."""
    tournament = pair.tournament
    back = tournament_url(tournament, "apart")
    names = {"first": pair.first, "second": pair.second}
    if request.method == "GET":
        return confirm(
            request,
            tournament,
            title=_("No longer keep %(first)s and %(second)s apart?") % names,
            lines=[
                _(
                    "From the next pairing they may be paired against each other. "
                    "Rounds already paired stay as they are."
                )
            ],
            button=_("Let them meet"),
            back=back,
        )
    try:
        registration.keep_apart_remove(
            pair=pair, user=request.user, address=client_address(request)
        )
    except records.TournamentError as error:
        show_refusal(request, error)
    else:
        messages.success(request, _("%(first)s and %(second)s are no longer kept apart.") % names)
    return redirect(back)


def _on_the_day(tournament) -> bool:
    # Names typed on the tournament's day are people at the door; before it, a
    # pasted list is a pre-registration of people who have not come yet.
    return tournament.date <= timezone.localdate()


def _an_id(value: str) -> bool:
    # ASCII digits only ("²" is a digit to Python, not to int), and short enough
    # for the database's integer: anything else is simply not an entrant.
    return value.isascii() and value.isdigit() and len(value) <= 9


def _check_in_context(tournament, entrants) -> dict:
    count = registration.check_in_count(entrants)
    return {
        "tournament": tournament,
        "entrants": entrants,
        "count": count,
        "checked_in": count["in"],
        "can_start": count["in"] >= 2,
        "registering": tournament.status == Tournament.Status.REGISTRATION,
        # A knockout tournament starts with its bracket, not with round 1.
        "plays_rounds": format_of(tournament.format).plays_rounds,
    }


@require_GET
@login_required
@organizer_required(registration.tournament_by_slug)
def entrant_rows(request, tournament):
    """The entrants and the check-in count as they are now: the desk fetches them
    every few seconds, so a player who checks himself in shows up by himself."""
    entrants = registration.tournament_entrants(tournament)
    context = _check_in_context(tournament, entrants)
    response = render(request, "tournaments/manage/_check_in.html", context)
    # Once round 1 is started (elsewhere), the desk reloads to the running tournament.
    response["X-Tournament-Status"] = tournament.status
    return response


@require_POST
@login_required
@organizer_required(registration.tournament_by_slug)
def entrants_check_in(request, tournament):
    """The ticked entrants checked in (or out), or everyone not yet here: one POST."""
    action = request.POST.get("action")
    entrants = registration.tournament_entrants(tournament)
    if action == "all":
        ids = [e.pk for e in entrants if not e.checked_in]
        if not ids:
            messages.info(request, _("Everyone is checked in."))
            return redirect(tournament_url(tournament, "entrants"))
    else:
        ids = {int(v) for v in request.POST.getlist("entrant") if _an_id(v)}
    checked_in = action != "out"
    try:
        changed = registration.entrants_check_in(
            tournament=tournament,
            entrant_ids=ids,
            checked_in=checked_in,
            user=request.user,
            address=client_address(request),
        )
    except records.TournamentError as error:
        show_refusal(request, error)
    else:
        names = ", ".join(sorted(str(e.player) for e in changed))
        if not changed:
            messages.info(request, _("Nothing changed: they were already so."))
        elif checked_in:
            text = ngettext(
                "%(count)d entrant checked in: %(names)s.",
                "%(count)d entrants checked in: %(names)s.",
                len(changed),
            )
            messages.success(request, text % {"count": len(changed), "names": names})
        else:
            text = ngettext(
                "%(count)d entrant checked out: %(names)s.",
                "%(count)d entrants checked out: %(names)s.",
                len(changed),
            )
            messages.success(request, text % {"count": len(changed), "names": names})
    return redirect(tournament_url(tournament, "entrants"))


@require_GET
@login_required
@organizer_required(registration.tournament_by_slug)
def door(request, tournament):
    """The QR code at the door: players check themselves in on their phones, from
    the entrants not yet checked in. Printable, or shown on a tablet."""
    link = code = None
    if tournament.door_token:
        link = request.build_absolute_uri(reverse("seat:door", args=[tournament.door_token]))
        code = qr.qr_svg(link)
    entrants = registration.tournament_entrants(tournament)
    context = {
        **_check_in_context(tournament, entrants),
        "club": tournament.club,
        "link": link,
        "code": code,
    }
    return render(request, "tournaments/manage/tournament_door.html", context)


@require_POST
@login_required
@organizer_required(registration.tournament_by_slug)
def door_link(request, tournament):
    """Open self check-in, give it a new link (the old one stops working), or close it."""
    try:
        if request.POST.get("close") == "1":
            registration.door_link_close(tournament=tournament)
            messages.success(request, _("Self check-in is closed: the link no longer works."))
        else:
            replaced = bool(tournament.door_token)
            registration.door_link_issue(tournament=tournament)
            messages.success(
                request,
                _("New link: the old QR code no longer works. Print this one.")
                if replaced
                else _("Self check-in is open: show or print the QR code at the door."),
            )
    except records.TournamentError as error:
        show_refusal(request, error)
    return redirect("manage:door", slug=tournament.slug)
