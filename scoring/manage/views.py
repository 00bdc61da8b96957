"""The organizer's pages for club nights and parties: a club's nights, a night's
parties, and a party's seats and their links, the sheet, every hand with its
correction controls, the audit log, and the printable table cards."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_tables2 import RequestConfig

from clubs import selectors as club_selectors
from clubs.permissions import organizer_required
from config.client import client_address
from scoring import errors, services
from scoring.forms import first_error
from scoring.manage import qr, selectors
from scoring.manage.forms import HandDecisionForm, NightForm, PartyStartForm
from scoring.manage.tables import NightPartyTable, NightTable


@login_required
@organizer_required(club_selectors.club_by_slug)
def club_detail(request, club):
    """A club's nights, newest first, and the form that opens a new one."""
    form = NightForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        try:
            night = services.night_create(
                club=club,
                user=request.user,
                address=client_address(request),
                **form.cleaned_data,
            )
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
    """A club night's parties with their scores, and the form that starts a party."""
    form = PartyStartForm(
        request.POST if request.method == "POST" else None,
        players=club_selectors.club_players(club=night.club),
        # A guest just added at the door comes back ticked (clubs' guest-add page).
        initial={"players": request.GET.getlist("guest")},
    )
    if form.is_valid():
        try:
            party = services.party_start(
                club=night.club,
                night=night,
                format=form.cleaned_data["format"],
                players=list(form.cleaned_data["players"]),
                label=form.cleaned_data["label"],
                user=request.user,
            )
        except ValueError as error:
            form.add_error(None, errors.explain(error))
        else:
            messages.success(request, _("Party started: the seats are drawn."))
            return redirect("manage:party-detail", pk=party.pk)
    rows, page = selectors.night_parties(night=night, page=request.GET.get("page"))
    table = NightPartyTable(rows)
    context = {"night": night, "table": table, "page": page, "form": form}
    return render(request, "scoring/manage/night_detail.html", context)


@login_required
@require_GET
@organizer_required(selectors.party_for_manage)
def party_detail(request, party):
    return _party_page(request, party)


def _party_page(request, party, *, refused=None):
    """The party page. ``refused``: a hand decision that was turned down, shown again
    at its hand with the message and what the organizer typed (a 400)."""
    page = selectors.party_page(party=party)
    for row in page["hands"]:
        if refused is not None and row["hand"].pk == refused.hand.pk:
            row["form"] = refused
        else:
            row["form"] = HandDecisionForm.for_hand(row["hand"], row["players"])
    codes = qr.seat_codes(page["seats"], request.build_absolute_uri)
    context = {"party": party, "codes": codes, **page}
    status = 200 if refused is None else 400
    return render(request, "scoring/manage/party_detail.html", context, status=status)


@login_required
@require_GET
@organizer_required(selectors.party_for_manage)
def party_cards(request, party):
    codes = qr.seat_codes(selectors.party_seats(party), request.build_absolute_uri)
    return render(request, "scoring/manage/party_cards.html", {"party": party, "codes": codes})


@login_required
@require_POST
@organizer_required(selectors.seat_for_manage)
def seat_link(request, seat):
    """Revokes a seat's link and issues a new one: the old link stops opening the table."""
    seat = services.seat_link_reissue(seat=seat, user=request.user, address=client_address(request))
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
    """Corrects, voids or settles a disputed hand, with the organizer's reason."""
    players = selectors.hand_players(hand, selectors.party_seats(hand.party))
    form = HandDecisionForm(request.POST, hand=hand, players=players)
    label = _("Hand %(number)s") % {"number": hand.number}
    if not form.is_valid():
        messages.error(request, f"{label}: {first_error(form)}")
        return _party_page(request, hand.party, refused=form)
    try:
        decided = services.hand_decide(
            hand=hand,
            user=request.user,
            address=client_address(request),
            **form.service_arguments(),
        )
    except ValueError as error:
        messages.error(request, f"{label}: {errors.explain(error)}")
        form.add_error(None, errors.explain(error))
        return _party_page(request, hand.party, refused=form)
    messages.success(request, f"{label}: {decided.get_status_display()}.")
    return redirect(_party_url(decided.party_id, f"hand-{decided.pk}"))


def _party_url(party_id: int, anchor: str) -> str:
    return f"{reverse('manage:party-detail', args=[party_id])}#{anchor}"
