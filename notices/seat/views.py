"""This phone told by push, from the seat page: the subscription is the seat's
player's, kept after the party (his next table, his sheet)."""

from django.http import JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from notices import delivery, selectors, services
from notices.forms import subscription_from
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
    """As the own page's (`public.views.push_subscribe`), for the seat's player."""
    seat = seat_by_token(token)
    try:
        sent = subscription_from(request.body)
        subscribed = services.push_change(player=seat.player, sent=sent)
    except services.SubscriptionRefused as refused:
        return JsonResponse({"detail": str(refused)}, status=409)
    except (ValueError, KeyError, TypeError):
        return JsonResponse({"detail": _("This is not a push subscription.")}, status=400)
    return JsonResponse({"subscribed": subscribed}, status=201 if subscribed else 200)
