"""The mail provider's tracking webhook (django-anymail's, for the provider named
in the address: ``/notices/provider/postmark/tracking/``), served only where the
operator set its secret (``ANYMAIL_WEBHOOK_SECRET``, "user:password", which the
provider sends as basic auth): without it anymail would take events from anyone,
so the address is a 404. What the events do: `notices.bounces`."""

from django.conf import settings
from django.http import Http404, HttpResponseBadRequest
from django.urls import Resolver404, resolve
from django.views.decorators.csrf import csrf_exempt


@csrf_exempt
def provider_tracking(request, provider):
    if not settings.ANYMAIL.get("WEBHOOK_SECRET"):
        raise Http404
    try:
        match = resolve(f"/{provider}/tracking/", urlconf="anymail.urls")
    except Resolver404:
        raise Http404 from None
    try:
        return match.func(request, *match.args, **match.kwargs)
    except (ValueError, KeyError, TypeError):
        # A body that is not the provider's event (the wrong JSON, or none).
        return HttpResponseBadRequest("not a tracking event of this provider")
