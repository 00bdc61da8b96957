"""The scoring app's JSON API: one module per kind of caller (`seat`, `organizer`),
each with its router and its authentication set once; config/api.py mounts
`ROUTERS` and answers `ERRORS` as JSON."""

from scoring.api import organizer, seat
from scoring.api.common import ERRORS

#: The routers config/api.py mounts, with their path prefixes.
ROUTERS = [("/", seat.router), ("/", organizer.router)]

__all__ = ["ERRORS", "ROUTERS"]
