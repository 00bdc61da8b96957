"""What a seat's form does, the same for every game and form: validated, handed to
the service for the seat, and the outcome told on the seat's page."""

from django.contrib import messages
from django.shortcuts import redirect

from scoring import errors
from scoring.engine.settlement import PartyOver
from scoring.forms import first_error
from scoring.labels import outcome_message
from web.client import client_address


def act(request, seat, form, service, *, refused=None):
    """Validates ``form``, calls ``service`` for the seat with what it says, and
    goes back to the seat's page with the outcome told. A refusal (a form that
    is not valid, an entry the rules or the party refuse) is answered by
    ``refused(form, message)`` where given (the page again with the form as sent;
    ``message`` None for the form's own errors), else told on the seat's page. A
    page that was old (its hand gone, the party over) always goes back to it."""
    if not form.is_valid():
        if refused:
            return refused(form, None)
        messages.error(request, first_error(form))
        return redirect(seat)
    try:
        outcome = service(
            seat=seat,
            number=form.cleaned_data["number"],
            key=form.cleaned_data["key"] or None,
            address=client_address(request),
            **form.service_arguments(),
        )
    except (errors.StaleEntry, PartyOver) as error:
        messages.error(request, errors.explain(error))
    except ValueError as error:
        if refused:
            return refused(form, errors.explain(error))
        messages.error(request, errors.explain(error))
    else:
        messages.success(request, outcome_message(outcome.action, outcome.hand.number))
    return redirect(seat)
