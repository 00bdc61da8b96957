"""The scoring app's JSON API: one router per kind of caller, added by config/api.py."""

from scoring.api.routes import ERRORS, router

#: The routers config/api.py mounts, with their path prefixes.
ROUTERS = [("/", router)]

__all__ = ["ERRORS", "ROUTERS"]
