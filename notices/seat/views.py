"""This phone told by push, from the seat page: the subscription is the seat's
player's, kept after the party (his next table, his sheet)."""

from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST

from notices import delivery, selectors
from notices.subscribing import push_answer
from scoring.selectors import seat_by_token


def push_page(request, token):
    seat = seat_by_token(token)
    context = {
        "seat": seat,
        "push_key": delivery.public_key(),
        "phones": selectors.push_subscribed(seat.player),
        "push_url": reverse("seat:notices-push", args=[seat.token]),
    }
    return render(request, "notices/seat/push_detail.html", context)


@require_POST
def push_subscribe(request, token):
    """As the own page's, for the seat's player."""
    return push_answer(player=seat_by_token(token).player, body=request.body)
