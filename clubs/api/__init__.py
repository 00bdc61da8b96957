"""The clubs app's JSON API: the public's reads (`public`) and the organizer's
(`organizer`); config/api.py mounts `ROUTERS`."""

from clubs.api import organizer, public

ROUTERS = [("/", public.router), ("/", organizer.router)]
ERRORS: dict = {}

__all__ = ["ERRORS", "ROUTERS"]
