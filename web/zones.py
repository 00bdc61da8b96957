"""The time zone a page is shown in: the site's (``TIME_ZONE``) unless the view
serves one club, whose stored zone it then uses for the rest of that request
(`zone_use`; the organizer's pages do, `clubs.permissions.organizer_required`).
The middleware puts the site's back after every request, so a zone never passes
from one request to the next one its thread serves."""

import contextlib
import zoneinfo

from django.utils import timezone


def zone_use(name: str) -> None:
    """Times on this request's pages in the zone ``name``; one this system does not
    know (a zone renamed since it was chosen) leaves the site's."""
    with contextlib.suppress(zoneinfo.ZoneInfoNotFoundError, ValueError):
        timezone.activate(zoneinfo.ZoneInfo(name))


def zone_reset(get_response):
    def middleware(request):
        timezone.deactivate()
        try:
            return get_response(request)
        finally:
            timezone.deactivate()

    return middleware
