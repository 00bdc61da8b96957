"""The organizer's tournament day: create, register and check in, start, print the
table cards, watch the round, forfeits, close, standings and card draws, pair the
next round, withdrawals, late entrants, swaps, undo, the stuck round, the finish.

Every page is for the organizers of the tournament's club only; anyone else, another
club's organizer too, gets a 404 (`clubs.permissions.require_organizer`): he learns
nothing about this club's tournaments. Every change is a POST answered by a redirect."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from clubs import selectors as club_selectors
from clubs.permissions import organizer_required
from config.client import client_address
from scoring import push, qr
from scoring.forms import first_error
from tournaments import archive, board, selectors, services
from tournaments.manage.forms import (
    ArchiveForm,
    CardsForm,
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
    late = tournament.status == Tournament.Status.RUNNING and (
        tournament.format == Tournament.Format.SWISS
    )
    active = [e for e in entrants if e.withdrawn_after is None]
    context = {
        "tournament": tournament,
        "club": tournament.club,
        "entrants": entrants,
        "checked_in": sum(e.checked_in for e in entrants),
        "planned": selectors.rounds_planned(tournament, entrants),
        "rounds": rounds,
        "latest": rounds[-1] if rounds else None,
        "registering": registering,
        "late": late,
        "members_form": MembersForm(players=selectors.members_not_entered(tournament))
        if registering or late
        else None,
        "guests_form": GuestsForm() if registering or late else None,
        "apart_form": PairForm(entrants=active, auto_id="apart-%s")
        if tournament.status != Tournament.Status.FINISHED
        else None,
        "apart": selectors.keep_apart_pairs(tournament),
    }
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
    form = GuestsForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
    else:
        try:
            entered = services.entrant_register_guests(
                tournament=tournament, names=form.cleaned_data["names"]
            )
        except services.TournamentError as error:
            _refused(request, error)
        else:
            _register(request, tournament, entered)
    return redirect(_tournament_url(tournament, "entrants"))


@require_POST
@login_required
@organizer_required(selectors.entrant_for_manage)
def entrant_check_in(request, entrant):
    checked_in = request.POST.get("checked_in") == "1"
    try:
        services.entrant_check_in(entrant=entrant, checked_in=checked_in)
    except services.TournamentError as error:
        _refused(request, error)
    else:
        text = _("%(name)s is checked in.") if checked_in else _("%(name)s is not checked in.")
        messages.success(request, text % {"name": entrant})
    return redirect(_tournament_url(entrant.tournament, f"entrant-{entrant.pk}"))


@require_POST
@login_required
@organizer_required(selectors.entrant_for_manage)
def entrant_withdraw(request, entrant):
    try:
        services.entrant_withdraw(entrant=entrant)
    except services.TournamentError as error:
        _refused(request, error)
    else:
        messages.success(
            request,
            _("%(name)s has withdrawn: not paired again, the results so far stay.")
            % {"name": entrant},
        )
    return redirect(_tournament_url(entrant.tournament, f"entrant-{entrant.pk}"))


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
        services.keep_apart_add(tournament=tournament, first=first, second=second)
    except services.TournamentError as error:
        _refused(request, error)
    else:
        messages.success(
            request,
            _("%(first)s and %(second)s are kept apart: they are paired as if they had met.")
            % {"first": first, "second": second},
        )
    return redirect(_tournament_url(tournament, "apart"))


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
            "draws": selectors.draws_shown(round.draws, by_id),
            "swap_form": PairForm(entrants=movable, auto_id="swap-%s")
            if context["playing"] and len(untouched) > 1
            else None,
            "undoable": len(untouched) == len(context["tables"]),
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
    reloads itself (the forms to swap or undo depend on them)."""
    context = _round_context(round)
    response = render(request, "tournaments/manage/_round_tables.html", context)
    response["X-Round-Status"] = round.status
    response["X-Round-Untouched"] = str(context["untouched"])
    return response


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


@require_POST
@login_required
@organizer_required(selectors.table_for_manage)
def table_forfeit(request, table):
    round = table.round
    absent = next(
        (e for e in selectors.table_entrants(table) if str(e.pk) == request.POST.get("absent")),
        None,
    )
    if absent is None:
        messages.error(request, _("Choose the player who did not come."))
        return redirect(_round_url(round))
    try:
        services.table_forfeit(table=table, absent=absent, user=request.user)
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


@require_POST
@login_required
@organizer_required(selectors.round_for_manage)
def round_undo(request, round):
    try:
        services.round_undo(round=round, user=request.user)
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
        "draws": selectors.draws_shown(standings.draws, entrants),
        "venue": any(d["by"] == "venue" for d in standings.draws),
        "cards_form": cards_form or (CardsForm(groups=groups) if groups else None),
        "latest": latest,
        "waiting": latest is not None
        and running
        and latest.status in (Round.Status.PENDING, Round.Status.STUCK),
        "can_finish": running
        and latest is not None
        and latest.status not in (Round.Status.PLAYING, Round.Status.PAIRING),
        "finish_form": FinishForm(),
    }


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
            services.standings_draw_enter(tournament=tournament, cards=form.cards())
        except services.TournamentError as error:
            _refused(request, error)
        else:
            messages.success(request, _("The cards drawn at the venue order the tied players."))
    return redirect(reverse("manage:standings", args=[tournament.slug]) + "#draws")


@require_POST
@login_required
@organizer_required(selectors.tournament_by_slug)
def tournament_finish(request, tournament):
    form = FinishForm(request.POST)
    final_draw = form.is_valid() and form.cleaned_data["final_draw"]
    try:
        services.tournament_finish(tournament=tournament, final_draw=final_draw)
    except services.TournamentError as error:
        _refused(request, error)
        return redirect(_tournament_url(tournament))
    messages.success(request, _("The tournament is finished: these are the final standings."))
    return redirect("manage:standings", slug=tournament.slug)
