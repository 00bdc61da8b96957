"""/health/ for the proxy, compose and load balancers."""

import logging

from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache

log = logging.getLogger(__name__)


@never_cache
def health(request):
    """Says "ok" while the database answers, else "failing" (503). Anyone may ask, so
    the answer names no host, process or error; the reason goes to the log. The
    cache is not asked: a table keeps playing while Redis is down."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception:  # any driver error means "not ready"
        log.exception("health: the database does not answer")
        return JsonResponse({"status": "failing"}, status=503)
    return JsonResponse({"status": "ok"})
