"""The organizer's pages for club nights and parties: a club's nights, a night's
tables at a glance and its results, and a party's seats and their links, the
sheet, every hand with its correction controls, the audit log, the printable table
cards, and the housekeeping (cancel, swap a player, rematch, close the night).

Every POST ends in a redirect (post/redirect/get) unless a form comes back with
its errors; a GET on an address that only takes a POST leads back to its page."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseNotModified
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import parse_etags
from django.utils.text import slugify
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_tables2 import RequestConfig

from clubs import selectors as club_selectors
from clubs.permissions import organizer_required
from clubs.submissions import AlreadySent, key_of, submit_once, to_first
from live import counters, streams
from scoring import changes, errors
from scoring import selectors as scoring_selectors
from scoring.engine.games import GAMES
from scoring.forms import first_error
from scoring.manage import keepings, qr, selectors
from scoring.manage.forms import (
    CancelForm,
    NightForm,
    PartyStartForm,
    StakeForm,
    SwapForm,
)
from scoring.manage.tables import NightTable
from scoring.night_results import night_results as results_of_night
from scoring.services import hands, nights, parties, seats
from web.client import client_address
from web.money import money
from web.spreadsheet import cells, csv_response, csv_writer, text_cell


@login_required
@organizer_required(club_selectors.club_by_slug)
def club_detail(request, club):
    """A club's nights, newest first, and the form that opens a new one."""
    form = NightForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        try:
            night = submit_once(
                user=request.user,
                key=key_of(request),
                make=lambda: nights.night_create(
                    club=club,
                    user=request.user,
                    address=client_address(request),
                    **form.cleaned_data,
                ),
                location=lambda made: reverse("manage:night-detail", args=[made.pk]),
            )
        except AlreadySent as sent:
            return to_first(request, sent)
        except ValueError as error:
            form.add_error(None, errors.explain(error))
        else:
            messages.success(request, _("Club night “%(name)s” opened.") % {"name": night.name})
            return redirect("manage:night-detail", pk=night.pk)
    table = NightTable(club_selectors.club_nights(club=club))
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    records = club_selectors.club_records(club=club)
    context = {"club": club, "table": table, "form": form, "records": records}
    return render(request, "scoring/manage/night_list.html", context)


@login_required
@organizer_required(selectors.night_for_manage)
def night_detail(request, night):
    """A club night at a glance: every table and where it stands (the list updates
    itself, see `night_tables`), the form that starts a party, and the night's
    housekeeping: the stake, the results, closing it."""
    seated = selectors.seated_players(night=night)
    form = PartyStartForm(
        request.POST if request.method == "POST" else None,
        players=club_selectors.club_players(club=night.club),
        seated=seated,
        # A guest just added at the door comes back ticked (clubs' guest-add page).
        initial={"players": request.GET.getlist("guest")},
    )
    if form.is_valid():
        try:
            party = _start(request, night, form)
        except errors.AlreadySeated as error:
            form.add_error(None, _seated_warning(error.where))
        except ValueError as error:
            form.add_error(None, errors.explain(error))
        else:
            if GAMES[party.game].formats:
                started = _("Party started: the seats are drawn.")
            else:
                started = _("%(game)s started: the players sit in the order given.") % {
                    "game": party.get_game_display()
                }
            messages.success(request, started)
            return redirect("manage:party-detail", pk=party.pk)
    context = {
        "night": night,
        "form": form,
        "stake_form": StakeForm(initial={"stake": night.stake}),
        **_glance(night),
    }
    return render(request, "scoring/manage/night_detail.html", context)


def _start(request, night, form):
    """Starts the party the form asks for (`parties.party_start`): the game says
    how its players come to their seats."""
    data = form.cleaned_data
    return parties.party_start(
        club=night.club,
        night=night,
        label=data["label"],
        user=request.user,
        address=client_address(request),
        # The check is the service's, under the night's lock: the page's list of
        # who is seated may be old by the time the form comes back.
        anyway=data["anyway"],
        **form.start_arguments(),
    )


def _seated_warning(where: str) -> str:
    return _(
        "Already seated at a running party of this night: %(where)s. "
        "Tick “Seat them anyway” to start this party all the same."
    ) % {"where": where}


def _glance(night) -> dict:
    glance = selectors.night_glance(night=night)
    return {"glance": glance, "title": _night_title(night, glance["disputes"])}


def _night_title(night, disputes: int) -> str:
    """The page's title: open disputes first, so a tab in the background still tells."""
    if not disputes:
        return night.name
    count = ngettext("%(count)d dispute", "%(count)d disputes", disputes) % {"count": disputes}
    return f"{count} · {night.name}"


@login_required
@require_GET
@organizer_required(selectors.night_for_manage)
def night_tables(request, night):
    """The night's tables alone: the night page fetches this every few seconds and
    puts it in place, with the page's title. The night's counter
    (`changes.night_key`) is the ETag: while the page sends it back unchanged
    in If-None-Match, the answer is an empty 304, not the tables again."""
    # Read before the tables: a change committed in between shows now and is
    # fetched once more on the next poll, never missed.
    numbers = counters.counters([changes.night_key(night.pk)])
    etag = None if numbers is None else f'"{numbers[0]}-{get_language()}"'
    if etag and etag in parse_etags(request.headers.get("If-None-Match", "")):
        response = HttpResponseNotModified()
    else:
        context = {"night": night, **_glance(night)}
        response = render(request, "scoring/manage/_night_tables.html", context)
    if etag:
        response["ETag"] = etag
    return response


@login_required
@require_GET
@organizer_required(selectors.night_for_manage)
def night_events(request, night):
    """The night page's live stream: an event after each hand at its tables, so
    the page fetches `night_tables` at once instead of on its next poll."""
    return streams.stream(request, scoring_selectors.night_live_counters(night))


@login_required
@require_GET
@organizer_required(selectors.night_for_manage)
def night_results(request, night):
    """Every player of the night with parties played and won and the plus/minus;
    with a stake, the amounts and who pays whom. Printable."""
    context = {"night": night, **results_of_night(night=night)}
    return render(request, "scoring/manage/night_results.html", context)


@login_required
@require_GET
@organizer_required(selectors.night_for_manage)
def night_results_csv(request, night):
    """The night's results as CSV, one player a line with the games played, for a
    spreadsheet."""
    results = results_of_night(night=night)
    response = csv_response(f"{night.date:%Y-%m-%d}-{slugify(night.name) or 'night'}-results.csv")
    writer = csv_writer(response)
    header = [_("Player"), _("Games"), _("Parties played"), _("Parties won"), _("Plus/minus")]
    # The amounts are plain numbers, for the spreadsheet to add up: the header names
    # their currency.
    amount = _("Amount (%(currency)s)") % {"currency": night.club.currency}
    writer.writerow([*header, amount] if results["stake"] else header)
    for row in results["rows"]:
        games = ", ".join(row["games"])
        line = [text_cell(row["player"].name), games, row["played"], row["won"], row["plus_minus"]]
        writer.writerow(cells([*line, row["amount"]] if results["stake"] else line))
    return response


@login_required
@organizer_required(selectors.night_for_manage)
def night_stake(request, night):
    """Sets the stake per point of the night (empty: not for money)."""
    if request.method != "POST":
        return redirect("manage:night-detail", pk=night.pk)
    form = StakeForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect("manage:night-detail", pk=night.pk)
    try:
        night = nights.night_set_stake(
            night=night,
            stake=form.cleaned_data["stake"],
            user=request.user,
            address=client_address(request),
        )
    except ValueError as error:
        messages.error(request, errors.explain(error))
    else:
        if night.stake:
            messages.success(
                request,
                _("Stake set: %(stake)s per point.")
                % {"stake": money(night.stake, night.club.currency)},
            )
        else:
            messages.success(request, _("This night is not played for money."))
    return redirect("manage:night-detail", pk=night.pk)


@login_required
@organizer_required(selectors.night_for_manage)
def night_close(request, night):
    """Closes the night: no new parties, its results final."""
    if request.method != "POST":
        return redirect("manage:night-detail", pk=night.pk)
    try:
        nights.night_close(night=night, user=request.user, address=client_address(request))
    except ValueError as error:
        messages.error(request, errors.explain(error))
        return redirect("manage:night-detail", pk=night.pk)
    messages.success(
        request, _("%(night)s is closed: its results are final.") % {"night": night.name}
    )
    return redirect("manage:night-results", pk=night.pk)


@login_required
@require_GET
@organizer_required(selectors.party_for_manage)
def party_detail(request, party):
    return _party_page(request, party, selectors.party_page(party=party))


def _party_page(request, party, page, *, refused=None):
    """The party page, of any game: what differs between games is its keeping's
    part (``page["part"]``, `scoring.manage.keepings`). ``refused``: a hand and
    its decision's forms as sent, turned down: shown again at the hand with the
    message and what the organizer typed (a 400)."""
    for row in page["hands"]:
        if refused is not None and row["hand"].pk == refused[0].pk:
            row.update(refused[1])
        else:
            row.update(page["part"].forms(row, page))
    codes = qr.seat_codes(page["seats"], request.build_absolute_uri)
    context = {"party": party, "codes": codes, **page}
    if page["swappable"]:
        context["swap_form"] = SwapForm(players=club_selectors.club_players(club=party.club))
        context["seated_ids"] = {seat.player_id for seat in page["seats"]}
    status = 200 if refused is None else 400
    return render(request, "scoring/manage/party_detail.html", context, status=status)


@login_required
@require_GET
@organizer_required(selectors.party_for_manage)
def party_cards(request, party):
    codes = qr.seat_codes(selectors.party_seats(party), request.build_absolute_uri)
    return render(request, "scoring/manage/party_cards.html", {"party": party, "codes": codes})


@login_required
@organizer_required(selectors.party_for_manage)
def party_cancel(request, party):
    """Cancels a party started by mistake, with the organizer's reason."""
    if request.method != "POST":
        return redirect("manage:party-detail", pk=party.pk)
    form = CancelForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect(_party_url(party.pk, "housekeeping"))
    try:
        parties.night_party_cancel(
            party=party,
            user=request.user,
            reason=form.cleaned_data["reason"],
            address=client_address(request),
        )
    except ValueError as error:
        messages.error(request, errors.explain(error))
        return redirect(_party_url(party.pk, "housekeeping"))
    messages.success(
        request, _("%(party)s is cancelled: it counts nowhere any more.") % {"party": party}
    )
    return redirect("manage:night-detail", pk=party.night_id)


@login_required
@organizer_required(selectors.party_for_manage)
def party_rematch(request, party):
    """A new party with the same players, in one click."""
    if request.method != "POST":
        return redirect("manage:party-detail", pk=party.pk)
    try:
        rematch, started = parties.party_rematch(
            party=party, user=request.user, address=client_address(request)
        )
    except ValueError as error:
        messages.error(request, errors.explain(error))
        return redirect("manage:party-detail", pk=party.pk)
    if started:
        messages.success(request, keepings.page_of(rematch).rematch_started())
    else:
        messages.info(request, _("The rematch was already started: here it is."))
    return redirect("manage:party-detail", pk=rematch.pk)


@login_required
@organizer_required(selectors.seat_for_manage)
def seat_swap(request, seat):
    """Puts another member in a seat before the first hand."""
    if request.method != "POST":
        return redirect(_party_url(seat.party_id, f"seat-{seat.pk}"))
    form = SwapForm(request.POST, players=club_selectors.club_players(club=seat.party.club))
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect(_party_url(seat.party_id, f"seat-{seat.pk}"))
    old = seat.player.name
    try:
        seat = parties.party_seat_swap(
            seat=seat,
            player=form.cleaned_data["player"],
            user=request.user,
            address=client_address(request),
        )
    except ValueError as error:
        messages.error(request, errors.explain(error))
    else:
        messages.success(
            request,
            _("%(new)s takes %(old)s's seat, with a new link.")
            % {"new": seat.player.name, "old": old},
        )
    return redirect(_party_url(seat.party_id, f"seat-{seat.pk}"))


@login_required
@organizer_required(selectors.seat_for_manage)
def seat_link(request, seat):
    """Revokes a seat's link and issues a new one: the old link stops opening the table.
    The page asks first (static/js/confirm.js); a GET asks without script."""
    if request.method != "POST":
        return render(request, "scoring/manage/seat_link_confirm.html", {"seat": seat})
    seat = seats.seat_link_reissue(seat=seat, user=request.user, address=client_address(request))
    messages.success(
        request,
        _("New link for %(name)s: %(link)s — the old link no longer opens the table.")
        % {"name": seat.player.name, "link": request.build_absolute_uri(seat.get_absolute_url())},
    )
    return redirect(_party_url(seat.party_id, f"seat-{seat.pk}"))


@login_required
@require_POST
@organizer_required(selectors.hand_for_manage)
def hand_decide(request, hand):
    """Corrects, voids or settles a disputed hand, with the organizer's reason: the
    result in the fields of the table's entry form, or one of the two versions as
    it stands. A refusal is the message beside the form, never an error page."""
    party = hand.party
    page = selectors.party_page(party=party)
    part = page["part"]
    row = next(row for row in page["hands"] if row["hand"].pk == hand.pk)
    forms = part.forms(row, page, request.POST)
    label = _("Hand %(number)s") % {"number": hand.number}
    checked = part.checked(forms)
    if not all(form.is_valid() for form in checked):
        problem = next(first_error(form) for form in checked if form.errors)
        messages.error(request, f"{label}: {problem}")
        return _party_page(request, party, page, refused=(hand, forms))
    try:
        decided = hands.hand_decide(
            hand=hand,
            user=request.user,
            address=client_address(request),
            **part.arguments(hand, forms),
        )
    except ValueError as error:
        messages.error(request, f"{label}: {errors.explain(error)}")
        checked[0].add_error(None, errors.explain(error))
        return _party_page(request, party, page, refused=(hand, forms))
    decision = checked[-1].cleaned_data["decision"]
    messages.success(request, part.said(decision, label, decided))
    return redirect(_party_url(decided.party_id, f"hand-{decided.pk}"))


def _party_url(party_id: int, anchor: str) -> str:
    return f"{reverse('manage:party-detail', args=[party_id])}#{anchor}"
