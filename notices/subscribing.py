"""The answer to a phone's push subscription, sent from the player's own page or
from a seat page (both audiences call it): 201 when subscribed, 200 when ended,
a 4xx with a JSON body that says what is wrong."""

from django.http import JsonResponse
from django.utils.translation import gettext as _

from notices import services
from notices.forms import subscription_from


def push_answer(*, player, body: bytes) -> JsonResponse:
    """This phone's subscription to push for ``player``, or its end
    (`forms.subscription_from`)."""
    try:
        sent = subscription_from(body)
        subscribed = services.push_change(player=player, sent=sent)
    except services.SubscriptionRefused as refused:
        return JsonResponse({"detail": str(refused)}, status=409)
    except (ValueError, KeyError, TypeError):
        return JsonResponse({"detail": _("This is not a push subscription.")}, status=400)
    return JsonResponse({"subscribed": subscribed}, status=201 if subscribed else 200)
