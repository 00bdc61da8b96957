"""What the organizer's tournament pages share: their addresses, a refusal shown as
a message, and the page that asks before an action that changes results."""

from django.contrib import messages
from django.shortcuts import render
from django.urls import reverse

#: How often the round page asks for its tables (milliseconds): within 5 s of a change.
POLL_MS = 4000


def tournament_url(tournament, anchor=""):
    url = reverse("manage:tournament-detail", args=[tournament.slug])
    return f"{url}#{anchor}" if anchor else url


def round_url(round):
    return reverse("manage:round-detail", args=[round.tournament.slug, round.number])


def show_refusal(request, error) -> None:
    messages.error(request, str(error))


def confirm(request, tournament, *, title, lines, button, back, hidden=None, refused=""):
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
