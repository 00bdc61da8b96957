import uuid

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from scoring import selectors, services
from scoring.forms import ConfirmForm, QuickEntryForm


@require_GET
def table(request, token):
    """A seat's view of its party: the sheet, the open hand, and what to do next."""
    seat = selectors.seat_by_token(token)
    context = {"seat": seat, "party": seat.party, "key": uuid.uuid4().hex}
    return render(request, "scoring/table_detail.html", context | selectors.seat_view(seat))


@require_GET
def table_state(request, token):
    seat = selectors.seat_by_token(token)
    state, hands = selectors.state_for(seat.party)
    return JsonResponse({"version": selectors.version(state, hands), "number": state.number})


@require_POST
def table_enter(request, token):
    return _act(request, token, QuickEntryForm(request.POST), services.hand_enter)


@require_POST
def table_confirm(request, token):
    return _act(request, token, ConfirmForm(request.POST), services.hand_confirm)


def _act(request, token, form, service):
    """Validates the form, calls the service for the seat, and shows the outcome
    (or the reason it was refused) on the seat's page."""
    seat = selectors.seat_by_token(token)
    if not form.is_valid():
        messages.error(request, _first_error(form))
        return redirect(seat)
    try:
        outcome = service(
            seat=seat,
            number=form.cleaned_data["number"],
            key=form.cleaned_data["key"] or None,
            address=request.META.get("REMOTE_ADDR"),
            **form.service_arguments(),
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
    "recorded": "Hand %s recorded.",
    "confirmed": "Hand %s confirmed.",
    "disputed": "Hand %s is disputed: the two entries differ. The organizer decides.",
    "repeated": "Hand %s was already stored.",
}
