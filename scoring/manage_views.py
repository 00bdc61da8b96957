"""The organizer's party pages: seats and their links, the sheet, every hand with
its correction controls, the audit log, and the printable table cards."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from clubs.views import require_organizer
from config.client import client_address
from scoring import errors, manage_selectors, qr, services
from scoring.manage_forms import HandDecisionForm
from scoring.views import first_error


@login_required
@require_GET
def party_detail(request, pk):
    party = manage_selectors.party_for_manage(pk)
    require_organizer(request.user, party.club)
    return _party_page(request, party)


def _party_page(request, party, *, refused=None):
    """The party page. ``refused``: a hand decision that was turned down, shown again
    at its hand with the message and what the organizer typed (a 400)."""
    page = manage_selectors.party_page(party=party)
    for row in page["hands"]:
        if refused is not None and row["hand"].pk == refused.hand.pk:
            row["form"] = refused
        else:
            row["form"] = HandDecisionForm.for_hand(row["hand"], row["players"])
    codes = qr.seat_codes(page["seats"], request.build_absolute_uri)
    context = {"party": party, "codes": codes, **page}
    status = 200 if refused is None else 400
    return render(request, "manage/party_detail.html", context, status=status)


@login_required
@require_GET
def party_cards(request, pk):
    party = manage_selectors.party_for_manage(pk)
    require_organizer(request.user, party.club)
    codes = qr.seat_codes(manage_selectors.party_seats(party), request.build_absolute_uri)
    return render(request, "manage/party_cards.html", {"party": party, "codes": codes})


@login_required
@require_POST
def seat_link(request, pk):
    """Revokes a seat's link and issues a new one: the old link stops opening the table."""
    seat = manage_selectors.seat_for_manage(pk)
    require_organizer(request.user, seat.party.club)
    seat = services.seat_link_reissue(seat=seat, user=request.user, address=client_address(request))
    messages.success(
        request,
        _("New link for %(name)s: %(link)s — the old link no longer opens the table.")
        % {"name": seat.player.name, "link": request.build_absolute_uri(seat.get_absolute_url())},
    )
    return redirect(_party_url(seat.party_id, f"seat-{seat.pk}"))


@login_required
@require_POST
def hand_decide(request, pk):
    """Corrects, voids or settles a disputed hand, with the organizer's reason."""
    hand = manage_selectors.hand_for_manage(pk)
    require_organizer(request.user, hand.party.club)
    players = manage_selectors.hand_players(hand, manage_selectors.party_seats(hand.party))
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
