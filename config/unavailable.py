"""A request that loses the database on its way — a dropped connection, a restart,
a failover — answers 503 "try again", never a 500. Its transaction went with the
connection, so nothing of it was stored, and the phone may send the same form
again (its key makes a second arrival harmless)."""

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext

log = logging.getLogger(__name__)


class DatabaseUnavailable:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        log.warning("the database was lost during %s %s", request.method, request.path)
        detail = gettext(
            "The score sheet could not be reached just now, and nothing was saved. "
            "Try again in a moment."
        )
        if request.path.startswith("/api/"):
            response = JsonResponse({"detail": detail, "code": "database_unavailable"}, status=503)
        else:
            # No base template: it reads the session and the user, from the database.
            response = HttpResponse(render_to_string("503.html", {"detail": detail}), status=503)
        response["Retry-After"] = "5"
        return response
