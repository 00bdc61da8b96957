"""The scoring app's JSON API: one module per kind of caller (`seat`, `organizer`),
each with its router and its authentication set once; config/api.py mounts
`ROUTERS` and answers `ERRORS` as JSON."""

from scoring import errors
from scoring.api import organizer, seat
from scoring.api.common import ERRORS
from scoring.api.keepings import changed_entry

#: The routers config/api.py mounts, with their path prefixes.
ROUTERS = [("/", seat.router), ("/", organizer.router)]

#: What some errors add to their body: a changed entry comes with the new one.
ERROR_BODIES = {errors.EntryChanged: changed_entry}

__all__ = ["ERRORS", "ERROR_BODIES", "ROUTERS"]
