import uuid

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from scoring import selectors, services
from scoring.forms import ConfirmForm, QuickEntryForm


def client_address(request) -> str | None:
    return request.META.get("REMOTE_ADDR")


@require_GET
def table(request, token):
    """A seat's view of its party: the sheet, the open hand, and what to do next."""
    seat = selectors.seat_by_token(token)
    state, hands = selectors.state_for(seat.party)
    my_table = state.table_of(seat.position)
    open_hand = state.open_hands.get(my_table) if my_table else None
    players = state.tables[my_table - 1].players if my_table else ()
    by_position = {s.position: s for s in state.seats}
    return render(
        request,
        "scoring/table_detail.html",
        {
            "seat": seat,
            "party": seat.party,
            "state": state,
            "sheet": selectors.sheet_rows(state, hands),
            **(selectors.settlement_view(state) if state.finished else {}),
            "open_hand": open_hand,
            "can_confirm": open_hand is not None
            and open_hand.status == "pending"
            and open_hand.entered_by.side != seat.side,
            "players": [by_position[p] for p in players],
            "dealer": by_position[state.tables[my_table - 1].dealer] if my_table else None,
            "key": uuid.uuid4().hex,
            "version": selectors.version(state, hands),
        },
    )


@require_GET
def table_state(request, token):
    seat = selectors.seat_by_token(token)
    state, hands = selectors.state_for(seat.party)
    return JsonResponse({"version": selectors.version(state, hands), "number": state.number})


@require_POST
def table_enter(request, token):
    seat = selectors.seat_by_token(token)
    form = QuickEntryForm(request.POST)
    if not form.is_valid():
        for error in form.errors.get("__all__", []) or [_first_error(form)]:
            messages.error(request, error)
        return redirect(seat)
    try:
        outcome = services.hand_enter(
            seat=seat,
            number=form.cleaned_data["number"],
            result=form.result(),
            key=form.cleaned_data["key"] or None,
            address=client_address(request),
        )
    except ValueError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _OUTCOME_MESSAGES[outcome.action] % outcome.hand.number)
    return redirect(seat)


@require_POST
def table_confirm(request, token):
    seat = selectors.seat_by_token(token)
    form = ConfirmForm(request.POST)
    if not form.is_valid():
        messages.error(request, _first_error(form))
        return redirect(seat)
    try:
        outcome = services.hand_confirm(
            seat=seat,
            number=form.cleaned_data["number"],
            key=form.cleaned_data["key"] or None,
            address=client_address(request),
        )
    except ValueError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _OUTCOME_MESSAGES[outcome.action] % outcome.hand.number)
    return redirect(seat)


def _first_error(form) -> str:
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        return f"{label}: {errors[0]}" if label else errors[0]
    return ""


_OUTCOME_MESSAGES = {
    "entered": "Hand %s entered: waiting for the other side to confirm.",
    "confirmed": "Hand %s confirmed.",
    "disputed": "Hand %s is disputed: the two entries differ. The organizer decides.",
    "repeated": "Hand %s was already stored.",
}
