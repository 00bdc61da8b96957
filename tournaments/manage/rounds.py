"""The organizer's rounds: start, pair the next, the round's page (polled for its
tables, followed by its live stream), the table cards, players swapped by hand,
undo, close; then the standings, the card draw at the venue, the finish."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseNotModified
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import parse_etags
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clubs.permissions import organizer_required
from live import counters, streams
from scoring import changes, qr
from scoring.forms import first_error
from tournaments import explanations, planned, records, registration, rounds, tables
from tournaments.final import bracket
from tournaments.manage import boards
from tournaments.manage.common import POLL_MS, confirm, round_url, show_refusal, tournament_url
from tournaments.manage.forms import (
    CardsForm,
    FinishForm,
    PairForm,
)
from tournaments.manage.tables import StandingsTable, TableStandingsTable
from tournaments.models import FinalStage, Round, Tournament
from tournaments.standings import draw_groups, round_draw_points, standings_for
from web.client import client_address


@require_POST
@login_required
@organizer_required(registration.tournament_by_slug)
def round_start(request, tournament):
    try:
        round = rounds.round_start(tournament=tournament)
    except records.TournamentError as error:
        show_refusal(request, error)
        return redirect(tournament_url(tournament))
    messages.success(request, _("Round 1 is drawn by lot."))
    warning = rounds.swiss_rounds_warning(
        round.tournament, registration.checked_in_count(round.tournament)
    )
    if warning:
        messages.warning(request, warning)
    return redirect(round_url(round))


@require_POST
@login_required
@organizer_required(registration.tournament_by_slug)
def round_pair(request, tournament):
    """Pair the round that waits (with the fewest rematches, when asked)."""
    fewest = request.POST.get("fewest") == "1"
    try:
        round = rounds.round_pair_next(tournament=tournament, fewest_rematches=fewest)
    except records.TournamentError as error:
        show_refusal(request, error)
        latest = rounds.latest_round(tournament)
        return redirect(round_url(latest) if latest else tournament_url(tournament))
    return redirect(round_url(round))


def _round_context(round) -> dict:
    views = tables.round_tables(round)
    playing = round.status == Round.Status.PLAYING
    return {
        "round": round,
        "tournament": round.tournament,
        "tables": views,
        "boards": boards.boards_html(round, views, playing),
        "clock": rounds.round_clock(round, timezone.now()),
        "playing": playing,
        "unfinished": sum(not view.finished for view in views),
        "untouched": sum(view.untouched for view in views),
    }


@require_GET
@login_required
@organizer_required(rounds.round_for_manage)
def round_detail(request, round):
    """The round: its tables as they play (the fragment below, polled), the
    pairing's explanation, and what the organizer can do now."""
    tournament = round.tournament
    entrants = registration.tournament_entrants(tournament)
    by_id = {e.pk: e for e in entrants}
    context = _round_context(round)
    # Only tables that have not started can change (`tables.tables_swap`).
    untouched = [view for view in context["tables"] if view.untouched]
    movable = sorted((e for view in untouched for e in view.entrants), key=str)
    context.update(
        {
            "club": tournament.club,
            "rounds": rounds.tournament_rounds(tournament),
            "explanation": explanations.round_explanation(round, by_id),
            "draws": draw_groups(round.draws, by_id, round_draw_points(round)),
            "swap_form": PairForm(entrants=movable, auto_id="swap-%s")
            # Tables of another game are not swapped by hand (`check_two_at_a_table`).
            if context["playing"] and len(untouched) > 1 and not tournament.plays_at_tables
            else None,
            # A forfeit does not stop the undo; a hand does (`rounds.round_undo`).
            "undoable": context["playing"]
            and all(v.untouched or v.table.absent is not None for v in context["tables"]),
            "poll_ms": POLL_MS,
            "finish_form": FinishForm(),
            "plan": planned.plan_view(tournament),
            "cards_url": reverse("manage:plan-cards", args=[tournament.slug]),
        }
    )
    return render(request, "tournaments/manage/round_detail.html", context)


@require_GET
@login_required
@organizer_required(registration.tournament_by_slug)
def plan_cards(request, tournament):
    """Every player's tables for an evening planned ahead, one card each, to print
    (`planned.plan_view`); a tournament that plans nothing ahead has none."""
    context = {
        "tournament": tournament,
        "plan": planned.plan_view(tournament),
        "back": tournament_url(tournament),
    }
    latest = rounds.latest_round(tournament)
    if latest is not None:
        context["back"] = round_url(latest)
    return render(request, "tournaments/manage/plan_cards.html", context)


@require_GET
@login_required
@organizer_required(rounds.round_for_manage)
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
    keys = [changes.club_key(tournament.club_id), records.tournament_key(tournament.pk)]
    numbers = counters.counters(keys)
    if numbers is None:
        return None
    clock = rounds.round_clock(round, timezone.now())
    minutes = "" if clock is None else clock.minutes_left
    return f'"{numbers[0]}-{numbers[1]}-{minutes}-{get_language()}"'


@require_GET
@login_required
@organizer_required(rounds.round_for_manage)
def round_events(request, round):
    """The round page's live stream: an event after each hand at the club and each
    step of the tournament, so the page fetches `round_tables` at once."""
    return streams.stream(request, records.live_counters(round.tournament))


@require_GET
@login_required
@organizer_required(rounds.round_for_manage)
def round_cards(request, round):
    """A6 table cards for the round: one per seat, like a party's cards, with the
    table number, both players, the card each drew and who deals first."""
    cards = []
    for card in tables.round_cards(round):
        codes = qr.seat_codes(card.seats, request.build_absolute_uri)
        for code in codes:
            code["company"] = card.company(code["seat"])
        cards.append({"card": card, "codes": codes})
    context = {"round": round, "tournament": round.tournament, "cards": cards}
    return render(request, "tournaments/manage/round_cards.html", context)


@require_POST
@login_required
@organizer_required(rounds.round_for_manage)
def tables_swap(request, round):
    form = PairForm(request.POST, entrants=registration.tournament_entrants(round.tournament))
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect(round_url(round))
    first, second = form.pair()
    try:
        warnings = tables.tables_swap(round=round, first=first, second=second, user=request.user)
    except records.TournamentError as error:
        show_refusal(request, error)
    else:
        messages.success(
            request,
            _("%(first)s and %(second)s have changed tables: print their new table cards.")
            % {"first": first, "second": second},
        )
        for warning in warnings:
            messages.warning(request, warning)
    return redirect(round_url(round))


@require_http_methods(["GET", "POST"])
@login_required
@organizer_required(rounds.round_for_manage)
def round_undo(request, round):
    if request.method == "GET":
        lines = [
            _(
                "Its tables, parties and table cards go; the round waits to be paired "
                "again, from the same seed."
            )
        ]
        dropped = rounds.round_forfeits(round)
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
        elif not all(v.untouched or v.table.absent is not None for v in tables.round_tables(round)):
            refused = _("Hands are recorded: the round cannot be undone.")
        return confirm(
            request,
            round.tournament,
            refused=refused,
            title=_("Undo round %(number)s?") % {"number": round.number},
            lines=lines,
            button=_("Undo round %(number)s") % {"number": round.number},
            back=round_url(round),
        )
    try:
        rounds.round_undo(round=round, user=request.user, address=client_address(request))
    except records.TournamentError as error:
        show_refusal(request, error)
    else:
        messages.success(
            request,
            _("Round %(number)s is undone: its tables are gone; pair it again when ready.")
            % {"number": round.number},
        )
    return redirect(round_url(round))


@require_POST
@login_required
@organizer_required(rounds.round_for_manage)
def round_close(request, round):
    try:
        rounds.round_close(round=round)
    except records.TournamentError as error:
        show_refusal(request, error)
        return redirect(round_url(round))
    messages.success(request, _("Round %(number)s is closed.") % {"number": round.number})
    return redirect("manage:standings", slug=round.tournament.slug)


def _standings_context(tournament, cards_form=None) -> dict:
    standings = standings_for(tournament)
    entrants = {line.entrant.pk: line.entrant for line in standings.lines}
    groups = rounds.venue_draw_groups(tournament, standings)
    latest = rounds.latest_round(tournament)
    running = tournament.status == Tournament.Status.RUNNING
    return {
        "tournament": tournament,
        "club": tournament.club,
        "rounds": rounds.tournament_rounds(tournament),
        "standings": standings,
        # The card column only once a card was drawn: a phone has no room to spare.
        "table": TableStandingsTable(standings.lines)
        if tournament.plays_at_tables
        else StandingsTable(
            standings.lines,
            exclude=() if any(line.draw for line in standings.lines) else ("draw",),
        ),
        "draws": draw_groups(
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
@organizer_required(registration.tournament_by_slug)
def standings(request, tournament):
    context = _standings_context(tournament)
    # Once the final is decided its order comes first, as on every other
    # standings surface; the rounds' standings follow for the points.
    stage = getattr(tournament, "final_stage", None)
    if stage is not None and stage.status == FinalStage.Status.FINISHED:
        context["places"] = bracket.places(tournament, public=False)
    return render(request, "tournaments/manage/standings_detail.html", context)


@require_POST
@login_required
@organizer_required(registration.tournament_by_slug)
def standings_draw(request, tournament):
    """The cards drawn at the venue for the tied players: they order the next round."""
    standings = standings_for(tournament)
    groups = rounds.venue_draw_groups(tournament, standings)
    form = CardsForm(request.POST, groups=groups)
    if not groups:
        messages.error(request, _("Cards can be entered only before a round is paired."))
    elif not form.is_valid():
        messages.error(request, first_error(form))
    else:
        try:
            rounds.standings_draw_enter(
                tournament=tournament,
                cards=form.cards(),
                user=request.user,
                address=client_address(request),
            )
        except records.TournamentError as error:
            show_refusal(request, error)
        else:
            messages.success(request, _("The cards drawn at the venue order the tied players."))
    return redirect(reverse("manage:standings", args=[tournament.slug]) + "#draws")


@require_http_methods(["GET", "POST"])
@login_required
@organizer_required(registration.tournament_by_slug)
def tournament_finish(request, tournament):
    form = FinishForm(request.POST if request.method == "POST" else request.GET)
    final_draw = form.is_valid() and form.cleaned_data["final_draw"]
    if request.method == "GET":
        return _finish_confirm(request, tournament, final_draw)
    try:
        rounds.tournament_finish(
            tournament=tournament,
            final_draw=final_draw,
            user=request.user,
            address=client_address(request),
        )
    except records.TournamentError as error:
        show_refusal(request, error)
        return redirect(tournament_url(tournament))
    messages.success(request, _("The tournament is finished: these are the final standings."))
    return redirect("manage:standings", slug=tournament.slug)


def _finish_confirm(request, tournament, final_draw):
    """Finish after the last round, or end early (a round waits, or no pairing is
    left): the question says which, and what becomes of the standings."""
    latest = rounds.latest_round(tournament)
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
    return confirm(
        request,
        tournament,
        title=title,
        lines=lines,
        refused=refused,
        button=_("End the tournament") if waiting else _("Finish the tournament"),
        back=round_url(latest) if latest else tournament_url(tournament),
        hidden={"final_draw": "on"} if final_draw else {},
    )
