"""The organizer's tournament day: create, register and check in, start, print the
table cards, watch the round, forfeits, close, standings and card draws, pair the
next round, withdrawals, late entrants, swaps, undo, the stuck round, the finish.

Every page is for the organizers of the tournament's club only; anyone else, another
club's organizer too, gets a 404 (`clubs.permissions.require_organizer`): he learns
nothing about this club's tournaments. Every change is a POST answered by a redirect."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseNotModified
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import parse_etags
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clubs import selectors as club_selectors
from clubs.permissions import organizer_required
from config.client import client_address
from scoring import push, qr, versions
from scoring.forms import first_error
from tournaments import archive, board, knockout, selectors, services
from tournaments.engine.formats import format_of
from tournaments.manage.forms import (
    ArchiveForm,
    CardsForm,
    FinalStageForm,
    FinishForm,
    GuestsForm,
    MembersForm,
    PairForm,
    TournamentForm,
)
from tournaments.manage.tables import StandingsTable
from tournaments.models import Round, Tournament

#: How often the round page asks for its tables (milliseconds): within 5 s of a change.
POLL_MS = 4000


def _tournament_url(tournament, anchor=""):
    url = reverse("manage:tournament-detail", args=[tournament.slug])
    return f"{url}#{anchor}" if anchor else url


def _round_url(round):
    return reverse("manage:round-detail", args=[round.tournament.slug, round.number])


def _refused(request, error) -> None:
    messages.error(request, str(error))


def _confirm(request, tournament, *, title, lines, button, back, hidden=None, refused=""):
    """The page that asks before an action that changes results: what it does, one
    button that does it (a POST to the same address), and a way back. No script:
    the question is a page of its own."""
    context = {
        "tournament": tournament,
        "club": tournament.club,
        "title": title,
        "lines": lines,
        "button": button,
        "action": request.path,
        "hidden": hidden or {},
        "back": back,
        "refused": refused,
    }
    return render(request, "tournaments/manage/action_confirm.html", context)


# --------------------------------------------------------------------------- create


@login_required
@organizer_required(club_selectors.club_by_slug)
def tournament_create(request, club):
    form = TournamentForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        try:
            tournament = services.tournament_create(club=club, **form.cleaned_data)
        except services.TournamentError as error:
            form.add_error(None, str(error))
        else:
            messages.success(
                request,
                _("Tournament “%(name)s” created: register the entrants.")
                % {"name": tournament.name},
            )
            warning = selectors.swiss_rounds_warning(tournament)
            if warning:
                messages.warning(request, warning)
            return redirect(_tournament_url(tournament))
    tournaments = selectors.club_tournaments(club)
    context = {"club": club, "form": form, "tournaments": tournaments}
    return render(request, "tournaments/manage/tournament_create.html", context)


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
            made = archive.archive_import(
                data=form.cleaned_data["file"],
                club=club,
                user=request.user,
                address=client_address(request),
            )
        except archive.ArchiveError as error:
            form.add_error("file", str(error))
        else:
            if isinstance(made, Tournament):
                messages.success(
                    request, _("Tournament “%(name)s” imported.") % {"name": made.name}
                )
                return redirect(_tournament_url(made))
            messages.success(request, _("Club night “%(name)s” imported.") % {"name": made.name})
            return redirect("manage:night-detail", pk=made.pk)
    status = 400 if posted else 200
    context = {"club": club, "form": form}
    return render(request, "tournaments/manage/archive_import.html", context, status=status)


# --------------------------------------------------------------------------- registration


@require_GET
@login_required
@organizer_required(selectors.tournament_by_slug)
def tournament_detail(request, tournament):
    """The tournament's desk: entrants and check-in, registration, pairs kept apart,
    the rounds, and the next step."""
    entrants = selectors.tournament_entrants(tournament)
    rounds = selectors.tournament_rounds(tournament)
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
        "rounds_warning": selectors.swiss_rounds_warning(
            tournament, sum(e.checked_in for e in entrants)
        )
        if registering
        else "",
        "planned": selectors.rounds_planned(tournament, entrants),
        "rounds": rounds,
        "latest": rounds[-1] if rounds else None,
        "registering": registering,
        "late": late,
        "members_form": MembersForm(players=selectors.members_not_entered(tournament))
        if registering or late
        else None,
        "guests_form": GuestsForm(initial={"check_in": _on_the_day(tournament)}, late=late)
        if registering or late
        else None,
        "count": selectors.check_in_count(entrants),
        "plays_rounds": format_of(tournament.format).plays_rounds,
        "poll_ms": POLL_MS,
        "can_start": sum(e.checked_in for e in entrants) >= 2,
        "apart_form": PairForm(entrants=active, auto_id="apart-%s")
        if tournament.status != Tournament.Status.FINISHED
        else None,
        "apart": selectors.keep_apart_pairs(tournament),
        "records": [
            (r, selectors.record_text(r)) for r in selectors.tournament_records(tournament)
        ],
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
        if stage is None and tournament.status != Tournament.Status.FINISHED and plays_rounds
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
@organizer_required(selectors.tournament_by_slug)
def entrant_register(request, tournament):
    form = MembersForm(request.POST, players=selectors.members_not_entered(tournament))
    if not form.is_valid():
        messages.error(request, first_error(form))
    else:
        try:
            entered = services.entrant_register(
                tournament=tournament, players=list(form.cleaned_data["players"])
            )
        except services.TournamentError as error:
            _refused(request, error)
        else:
            _register(request, tournament, entered)
    return redirect(_tournament_url(tournament, "entrants"))


@require_POST
@login_required
@organizer_required(selectors.tournament_by_slug)
def entrant_register_guests(request, tournament):
    """Guests from a pasted list. A name that looks like someone already there
    (ignoring case and spacing) is not entered silently: the page asks whether to
    enter it anyway or to skip it, with the paste kept."""
    form = GuestsForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
    else:
        try:
            entered = services.entrant_register_guests(
                tournament=tournament,
                names=form.cleaned_data["names"],
                check_in=form.cleaned_data["check_in"],
                duplicates=form.cleaned_data["duplicates"] or "ask",
                user=request.user,
                address=client_address(request),
            )
        except services.DuplicateNames as clash:
            context = {
                "tournament": tournament,
                "club": tournament.club,
                "form": form,
                "clashes": clash.clashes,
            }
            return render(request, "tournaments/manage/entrant_guests_confirm.html", context)
        except services.TournamentError as error:
            _refused(request, error)
        else:
            _register(request, tournament, entered)
            if entered and form.cleaned_data["check_in"] and not _late(tournament):
                messages.info(request, _("The guests are checked in."))
    return redirect(_tournament_url(tournament, "entrants"))


def _late(tournament) -> bool:
    return tournament.status != Tournament.Status.REGISTRATION


@require_POST
@login_required
@organizer_required(selectors.entrant_for_manage)
def entrant_check_in(request, entrant):
    checked_in = request.POST.get("checked_in") == "1"
    try:
        services.entrant_check_in(
            entrant=entrant,
            checked_in=checked_in,
            user=request.user,
            address=client_address(request),
        )
    except services.TournamentError as error:
        _refused(request, error)
    else:
        text = _("%(name)s is checked in.") if checked_in else _("%(name)s is not checked in.")
        messages.success(request, text % {"name": entrant})
    return redirect(_tournament_url(entrant.tournament, f"entrant-{entrant.pk}"))


@require_http_methods(["GET", "POST"])
@login_required
@organizer_required(selectors.entrant_for_manage)
def entrant_withdraw(request, entrant):
    in_final = knockout.final_playing_with(entrant) is not None
    back = _entrant_back(entrant, in_final)
    if request.method == "GET":
        if in_final:
            lines = [
                _(
                    "%(name)s gives his match in the final away: his opponent goes on. "
                    "A game already begun is decided by its party first; waiting for his "
                    "next opponent, he gives that match away when it is drawn."
                )
                % {"name": entrant},
                _("You can reinstate him until the match his opponent goes on to has begun."),
            ]
        else:
            lines = [
                _(
                    "%(name)s is not paired again; the results so far stay. Withdrawn "
                    "during a round, he is still at that round's table."
                )
                % {"name": entrant},
                _("You can reinstate him until a round is paired without him."),
            ]
        return _confirm(
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
        services.entrant_withdraw(
            entrant=entrant, user=request.user, address=client_address(request)
        )
    except services.TournamentError as error:
        _refused(request, error)
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
    return _tournament_url(entrant.tournament, f"entrant-{entrant.pk}")


@require_POST
@login_required
@organizer_required(selectors.tournament_by_slug)
def keep_apart_add(request, tournament):
    form = PairForm(request.POST, entrants=selectors.tournament_entrants(tournament))
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect(_tournament_url(tournament, "apart"))
    first, second = form.pair()
    try:
        services.keep_apart_add(
            tournament=tournament,
            first=first,
            second=second,
            user=request.user,
            address=client_address(request),
        )
    except services.TournamentError as error:
        _refused(request, error)
    else:
        messages.success(
            request,
            _("%(first)s and %(second)s are kept apart: they are paired as if they had met.")
            % {"first": first, "second": second},
        )
    return redirect(_tournament_url(tournament, "apart"))


# --------------------------------------------------------------------------- check-in at the door


def _on_the_day(tournament) -> bool:
    # Names typed on the tournament's day are people at the door; before it, a
    # pasted list is a pre-registration of people who have not come yet.
    return tournament.date <= timezone.localdate()


def _an_id(value: str) -> bool:
    # ASCII digits only ("²" is a digit to Python, not to int), and short enough
    # for the database's integer: anything else is simply not an entrant.
    return value.isascii() and value.isdigit() and len(value) <= 9


def _check_in_context(tournament, entrants) -> dict:
    count = selectors.check_in_count(entrants)
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
@organizer_required(selectors.tournament_by_slug)
def entrant_rows(request, tournament):
    """The entrants and the check-in count as they are now: the desk fetches them
    every few seconds, so a player who checks himself in shows up by himself."""
    entrants = selectors.tournament_entrants(tournament)
    context = _check_in_context(tournament, entrants)
    response = render(request, "tournaments/manage/_check_in.html", context)
    # Once round 1 is started (elsewhere), the desk reloads to the running tournament.
    response["X-Tournament-Status"] = tournament.status
    return response


@require_POST
@login_required
@organizer_required(selectors.tournament_by_slug)
def entrants_check_in(request, tournament):
    """The ticked entrants checked in (or out), or everyone not yet here: one POST."""
    action = request.POST.get("action")
    entrants = selectors.tournament_entrants(tournament)
    if action == "all":
        ids = [e.pk for e in entrants if not e.checked_in]
        if not ids:
            messages.info(request, _("Everyone is checked in."))
            return redirect(_tournament_url(tournament, "entrants"))
    else:
        ids = {int(v) for v in request.POST.getlist("entrant") if _an_id(v)}
    checked_in = action != "out"
    try:
        changed = services.entrants_check_in(
            tournament=tournament,
            entrant_ids=ids,
            checked_in=checked_in,
            user=request.user,
            address=client_address(request),
        )
    except services.TournamentError as error:
        _refused(request, error)
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
    return redirect(_tournament_url(tournament, "entrants"))


@require_GET
@login_required
@organizer_required(selectors.tournament_by_slug)
def door(request, tournament):
    """The QR code at the door: players check themselves in on their phones, from
    the entrants not yet checked in. Printable, or shown on a tablet."""
    link = code = None
    if tournament.door_token:
        link = request.build_absolute_uri(reverse("seat:door", args=[tournament.door_token]))
        code = qr.qr_svg(link)
    entrants = selectors.tournament_entrants(tournament)
    context = {
        **_check_in_context(tournament, entrants),
        "club": tournament.club,
        "link": link,
        "code": code,
    }
    return render(request, "tournaments/manage/tournament_door.html", context)


@require_POST
@login_required
@organizer_required(selectors.tournament_by_slug)
def door_link(request, tournament):
    """Open self check-in, give it a new link (the old one stops working), or close it."""
    try:
        if request.POST.get("close") == "1":
            services.door_link_close(tournament=tournament)
            messages.success(request, _("Self check-in is closed: the link no longer works."))
        else:
            replaced = bool(tournament.door_token)
            services.door_link_issue(tournament=tournament)
            messages.success(
                request,
                _("New link: the old QR code no longer works. Print this one.")
                if replaced
                else _("Self check-in is open: show or print the QR code at the door."),
            )
    except services.TournamentError as error:
        _refused(request, error)
    return redirect("manage:door", slug=tournament.slug)


# --------------------------------------------------------------------------- rounds


@require_POST
@login_required
@organizer_required(selectors.tournament_by_slug)
def round_start(request, tournament):
    try:
        round = services.round_start(tournament=tournament)
    except services.TournamentError as error:
        _refused(request, error)
        return redirect(_tournament_url(tournament))
    messages.success(request, _("Round 1 is drawn by lot."))
    warning = selectors.swiss_rounds_warning(
        round.tournament, selectors.checked_in_count(round.tournament)
    )
    if warning:
        messages.warning(request, warning)
    return redirect(_round_url(round))


@require_POST
@login_required
@organizer_required(selectors.tournament_by_slug)
def round_pair(request, tournament):
    """Pair the round that waits (with the fewest rematches, when asked)."""
    fewest = request.POST.get("fewest") == "1"
    try:
        round = services.round_pair_next(tournament=tournament, fewest_rematches=fewest)
    except services.TournamentError as error:
        _refused(request, error)
        latest = selectors.latest_round(tournament)
        return redirect(_round_url(latest) if latest else _tournament_url(tournament))
    return redirect(_round_url(round))


def _round_context(round) -> dict:
    tables = selectors.round_tables(round)
    return {
        "round": round,
        "tournament": round.tournament,
        "tables": tables,
        "clock": selectors.round_clock(round, timezone.now()),
        "playing": round.status == Round.Status.PLAYING,
        "unfinished": sum(not view.finished for view in tables),
        "untouched": sum(view.untouched for view in tables),
    }


@require_GET
@login_required
@organizer_required(selectors.round_for_manage)
def round_detail(request, round):
    """The round: its tables as they play (the fragment below, polled), the
    pairing's explanation, and what the organizer can do now."""
    tournament = round.tournament
    entrants = selectors.tournament_entrants(tournament)
    by_id = {e.pk: e for e in entrants}
    context = _round_context(round)
    # Only tables that have not started can change (`services.tables_swap`).
    untouched = [view for view in context["tables"] if view.untouched]
    movable = sorted((e for view in untouched for e in view.entrants), key=str)
    context.update(
        {
            "club": tournament.club,
            "rounds": selectors.tournament_rounds(tournament),
            "explanation": selectors.round_explanation(round, by_id),
            "draws": selectors.draw_groups(round.draws, by_id, selectors.round_draw_points(round)),
            "swap_form": PairForm(entrants=movable, auto_id="swap-%s")
            if context["playing"] and len(untouched) > 1
            else None,
            # A forfeit does not stop the undo; a hand does (`services.round_undo`).
            "undoable": context["playing"]
            and all(v.untouched or v.table.absent is not None for v in context["tables"]),
            "poll_ms": POLL_MS,
            "finish_form": FinishForm(),
        }
    )
    return render(request, "tournaments/manage/round_detail.html", context)


@require_GET
@login_required
@organizer_required(selectors.round_for_manage)
def round_tables(request, round):
    """The round's tables alone, for the round page to poll. The round's status and
    how many tables have not started go in headers: when either changes, the page
    reloads itself (the forms to swap or undo depend on them).

    The ETag is the club's scores counter and the tournament's (every hand and
    every tournament service moves one), with the clock's minutes: while the page
    sends it back unchanged in If-None-Match, the answer is an empty 304."""
    etag = _round_etag(round)
    if etag and etag in parse_etags(request.headers.get("If-None-Match", "")):
        response = HttpResponseNotModified()
    else:
        context = _round_context(round)
        response = render(request, "tournaments/manage/_round_tables.html", context)
        response["X-Round-Untouched"] = str(context["untouched"])
    response["X-Round-Status"] = round.status
    if etag:
        response["ETag"] = etag
    return response


def _round_etag(round) -> str | None:
    # Read before the tables: a change committed in between shows now and is
    # fetched once more on the next poll, never missed.
    tournament = round.tournament
    keys = [versions.club_key(tournament.club_id), board.tournament_key(tournament.pk)]
    numbers = versions.counters(keys)
    if numbers is None:
        return None
    clock = selectors.round_clock(round, timezone.now())
    minutes = "" if clock is None else clock.minutes_left
    return f'"{numbers[0]}-{numbers[1]}-{minutes}-{get_language()}"'


@require_GET
@login_required
@organizer_required(selectors.round_for_manage)
def round_events(request, round):
    """The round page's live stream: an event after each hand at the club and each
    step of the tournament, so the page fetches `round_tables` at once."""
    return push.stream(request, board.live_counters(round.tournament))


@require_GET
@login_required
@organizer_required(selectors.round_for_manage)
def round_cards(request, round):
    """A6 table cards for the round: one per seat, like a party's cards, with the
    table number, both players, the card each drew and who deals first."""
    cards = []
    for card in selectors.round_cards(round):
        codes = qr.seat_codes(card.seats, request.build_absolute_uri)
        cards.append({"card": card, "codes": codes})
    context = {"round": round, "tournament": round.tournament, "cards": cards}
    return render(request, "tournaments/manage/round_cards.html", context)


@require_http_methods(["GET", "POST"])
@login_required
@organizer_required(selectors.table_for_manage)
def table_forfeit(request, table):
    round = table.round
    seated = selectors.table_entrants(table)
    chosen = request.POST.get("absent") if request.method == "POST" else request.GET.get("absent")
    absent = next((e for e in seated if str(e.pk) == chosen), None)
    if absent is None:
        messages.error(request, _("Choose the player who did not come."))
        return redirect(_round_url(round))
    if request.method == "GET":
        tournament = round.tournament
        present = [e for e in seated if e.pk != absent.pk]
        lines = [
            _(
                "%(absent)s loses %(value)s points, %(present)s scores them, and the "
                "table's party is cancelled."
            )
            % {
                "absent": absent,
                "present": ", ".join(map(str, present)),
                "value": tournament.forfeit_value,
            },
            _("You can take it back while round %(number)s is played.") % {"number": round.number},
        ]
        return _confirm(
            request,
            tournament,
            title=_("Table %(number)s: %(name)s did not come?")
            % {"number": table.number, "name": absent},
            lines=lines,
            button=_("Record the forfeit"),
            back=_round_url(round) + f"#table-{table.number}",
            hidden={"absent": absent.pk},
        )
    try:
        services.table_forfeit(
            table=table, absent=absent, user=request.user, address=client_address(request)
        )
    except services.TournamentError as error:
        _refused(request, error)
    else:
        messages.success(
            request,
            _("Table %(number)s: %(name)s did not come; the forfeit is recorded.")
            % {"number": table.number, "name": absent},
        )
    return redirect(_round_url(round))


@require_POST
@login_required
@organizer_required(selectors.round_for_manage)
def tables_swap(request, round):
    form = PairForm(request.POST, entrants=selectors.tournament_entrants(round.tournament))
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect(_round_url(round))
    first, second = form.pair()
    try:
        warnings = services.tables_swap(round=round, first=first, second=second, user=request.user)
    except services.TournamentError as error:
        _refused(request, error)
    else:
        messages.success(
            request,
            _("%(first)s and %(second)s have changed tables: print their new table cards.")
            % {"first": first, "second": second},
        )
        for warning in warnings:
            messages.warning(request, warning)
    return redirect(_round_url(round))


@require_http_methods(["GET", "POST"])
@login_required
@organizer_required(selectors.round_for_manage)
def round_undo(request, round):
    if request.method == "GET":
        lines = [
            _(
                "Its tables, parties and table cards go; the round waits to be paired "
                "again, from the same seed."
            )
        ]
        dropped = selectors.round_forfeits(round)
        if dropped:
            lines.append(
                _(
                    "The forfeits of %(names)s go with it. Withdraw a player who will "
                    "not come before pairing the round again."
                )
                % {"names": ", ".join(map(str, dropped))}
            )
        refused = ""
        if round.status != Round.Status.PLAYING:
            refused = _("Only a round being played can be undone.")
        elif not all(
            v.untouched or v.table.absent is not None for v in selectors.round_tables(round)
        ):
            refused = _("Hands are recorded: the round cannot be undone.")
        return _confirm(
            request,
            round.tournament,
            refused=refused,
            title=_("Undo round %(number)s?") % {"number": round.number},
            lines=lines,
            button=_("Undo round %(number)s") % {"number": round.number},
            back=_round_url(round),
        )
    try:
        services.round_undo(round=round, user=request.user, address=client_address(request))
    except services.TournamentError as error:
        _refused(request, error)
    else:
        messages.success(
            request,
            _("Round %(number)s is undone: its tables are gone; pair it again when ready.")
            % {"number": round.number},
        )
    return redirect(_round_url(round))


@require_POST
@login_required
@organizer_required(selectors.round_for_manage)
def round_close(request, round):
    try:
        services.round_close(round=round)
    except services.TournamentError as error:
        _refused(request, error)
        return redirect(_round_url(round))
    messages.success(request, _("Round %(number)s is closed.") % {"number": round.number})
    return redirect("manage:standings", slug=round.tournament.slug)


# --------------------------------------------------------------------------- standings


def _standings_context(tournament, cards_form=None) -> dict:
    standings = selectors.standings_for(tournament)
    entrants = {line.entrant.pk: line.entrant for line in standings.lines}
    groups = selectors.venue_draw_groups(tournament, standings)
    latest = selectors.latest_round(tournament)
    running = tournament.status == Tournament.Status.RUNNING
    return {
        "tournament": tournament,
        "club": tournament.club,
        "rounds": selectors.tournament_rounds(tournament),
        "standings": standings,
        "table": StandingsTable(standings.lines),
        "draws": selectors.draw_groups(
            standings.draws,
            entrants,
            {line.entrant.pk: line.points for line in standings.lines},
        ),
        "cards_form": cards_form
        or (CardsForm(groups=groups, initial=_venue_cards(standings.draws)) if groups else None),
        "latest": latest,
        "waiting": latest is not None
        and running
        and latest.status in (Round.Status.PENDING, Round.Status.STUCK),
        "can_finish": running
        and latest is not None
        and latest.status not in (Round.Status.PLAYING, Round.Status.PAIRING),
        "finish_form": FinishForm(),
    }


def _venue_cards(draws) -> dict[str, str]:
    # The form shows the cards already entered at the venue: entering another tie
    # keeps them, and the organizer sees what was entered.
    return {f"card-{d['entrant']}": d["cards"][0] for d in draws if d["by"] == "venue"}


@require_GET
@login_required
@organizer_required(selectors.tournament_by_slug)
def standings(request, tournament):
    context = _standings_context(tournament)
    return render(request, "tournaments/manage/standings_detail.html", context)


@require_POST
@login_required
@organizer_required(selectors.tournament_by_slug)
def standings_draw(request, tournament):
    """The cards drawn at the venue for the tied players: they order the next round."""
    standings = selectors.standings_for(tournament)
    groups = selectors.venue_draw_groups(tournament, standings)
    form = CardsForm(request.POST, groups=groups)
    if not groups:
        messages.error(request, _("Cards can be entered only before a round is paired."))
    elif not form.is_valid():
        messages.error(request, first_error(form))
    else:
        try:
            services.standings_draw_enter(
                tournament=tournament,
                cards=form.cards(),
                user=request.user,
                address=client_address(request),
            )
        except services.TournamentError as error:
            _refused(request, error)
        else:
            messages.success(request, _("The cards drawn at the venue order the tied players."))
    return redirect(reverse("manage:standings", args=[tournament.slug]) + "#draws")


@require_http_methods(["GET", "POST"])
@login_required
@organizer_required(selectors.tournament_by_slug)
def tournament_finish(request, tournament):
    form = FinishForm(request.POST if request.method == "POST" else request.GET)
    final_draw = form.is_valid() and form.cleaned_data["final_draw"]
    if request.method == "GET":
        return _finish_confirm(request, tournament, final_draw)
    try:
        services.tournament_finish(
            tournament=tournament,
            final_draw=final_draw,
            user=request.user,
            address=client_address(request),
        )
    except services.TournamentError as error:
        _refused(request, error)
        return redirect(_tournament_url(tournament))
    messages.success(request, _("The tournament is finished: these are the final standings."))
    return redirect("manage:standings", slug=tournament.slug)


def _finish_confirm(request, tournament, final_draw):
    """Finish after the last round, or end early (a round waits, or no pairing is
    left): the question says which, and what becomes of the standings."""
    latest = selectors.latest_round(tournament)
    waiting = latest is not None and latest.status in (Round.Status.PENDING, Round.Status.STUCK)
    if waiting:
        title = _("End the tournament now?")
        lines = [
            _("Round %(number)s is not played; the standings after round %(last)s are final.")
            % {"number": latest.number, "last": latest.number - 1}
        ]
    else:
        title = _("Finish the tournament?")
        lines = [_("The standings as they are become the final standings.")]
    if final_draw:
        lines.append(_("Tied players draw cards: one place for every player."))
    else:
        lines.append(_("Players on equal points share their place."))
    lines.append(_("A finished tournament cannot be reopened."))
    # A stale link or a second tab: say now what the button would be told.
    refused = ""
    if tournament.status != Tournament.Status.RUNNING:
        refused = _("Only a running tournament can be finished.")
    elif latest is not None and latest.status in (Round.Status.PLAYING, Round.Status.PAIRING):
        refused = _("Close the round being played first.")
    return _confirm(
        request,
        tournament,
        title=title,
        lines=lines,
        refused=refused,
        button=_("End the tournament") if waiting else _("Finish the tournament"),
        back=_round_url(latest) if latest else _tournament_url(tournament),
        hidden={"final_draw": "on"} if final_draw else {},
    )


# --------------------------------------------------------------------------- taking back


@require_http_methods(["GET", "POST"])
@login_required
@organizer_required(selectors.table_for_manage)
def table_forfeit_undo(request, table):
    """Take back a forfeit while its round is played: the table plays again."""
    round = table.round
    back = _round_url(round) + f"#table-{table.number}"
    if request.method == "GET":
        absent = selectors.table_absent(table)
        refused = ""
        if absent is None:
            refused = _("Table %(number)s has no forfeit to take back.") % {"number": table.number}
        return _confirm(
            request,
            round.tournament,
            title=_("Table %(number)s: take back the forfeit?") % {"number": table.number},
            lines=[
                _(
                    "%(name)s is recorded as a no-show. Taken back, the table plays its "
                    "party: the seats are drawn as before, with new seat links, so "
                    "print the table's cards again."
                )
                % {"name": absent or "–"}
            ],
            button=_("Take back the forfeit"),
            back=back,
            refused=refused,
        )
    try:
        services.table_forfeit_undo(table=table, user=request.user, address=client_address(request))
    except services.TournamentError as error:
        _refused(request, error)
    else:
        messages.success(
            request,
            _("Table %(number)s plays again: the forfeit is taken back. Print its table cards.")
            % {"number": table.number},
        )
    return redirect(back)


@require_http_methods(["GET", "POST"])
@login_required
@organizer_required(selectors.entrant_for_manage)
def entrant_reinstate(request, entrant):
    """Take back a withdrawal until a round has been paired without him (in a
    final, until the match his opponent went on to has begun)."""
    in_final = knockout.final_playing_with(entrant) is not None
    back = _entrant_back(entrant, in_final)
    if request.method == "GET":
        if in_final:
            line = _("%(name)s plays on in the final: the match he gave away is played again.")
        else:
            line = _("%(name)s plays on: he is paired again from the next pairing.")
        return _confirm(
            request,
            entrant.tournament,
            refused=selectors.reinstate_refusal(entrant.tournament, entrant),
            title=_("Reinstate %(name)s?") % {"name": entrant},
            lines=[line % {"name": entrant}],
            button=_("Reinstate %(name)s") % {"name": entrant},
            back=back,
        )
    try:
        services.entrant_reinstate(
            entrant=entrant, user=request.user, address=client_address(request)
        )
    except services.TournamentError as error:
        _refused(request, error)
    else:
        messages.success(request, _("%(name)s is reinstated and paired again.") % {"name": entrant})
    return redirect(back)


@require_http_methods(["GET", "POST"])
@login_required
@organizer_required(selectors.keep_apart_for_manage)
def keep_apart_remove(request, pair):
    """The two may meet from the next pairing on."""
    tournament = pair.tournament
    back = _tournament_url(tournament, "apart")
    names = {"first": pair.first, "second": pair.second}
    if request.method == "GET":
        return _confirm(
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
        services.keep_apart_remove(pair=pair, user=request.user, address=client_address(request))
    except services.TournamentError as error:
        _refused(request, error)
    else:
        messages.success(request, _("%(first)s and %(second)s are no longer kept apart.") % names)
    return redirect(back)
