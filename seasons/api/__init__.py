"""The seasons' JSON API: ratings, seasons and player statistics, read-only, with
the pages' publication rules (`public`); config/api.py mounts `ROUTERS`."""

from seasons.api import public

ROUTERS = [("/", public.router)]

ERRORS: dict = {}


def explain(error: ValueError) -> str:
    return str(error)


__all__ = ["ERRORS", "ROUTERS", "explain"]
