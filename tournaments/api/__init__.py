"""The tournaments app's JSON API: the public's reads (`public`) and the
organizer's actions (`organizer`); config/api.py mounts `ROUTERS` and answers
`ERRORS` as JSON."""

from tournaments.api import organizer, public
from tournaments.archive.refusals import ArchiveError
from tournaments.records import GameSettingsError, NoTableSchedule, TournamentError

ROUTERS = [("/", public.router), ("/", organizer.router)]

#: A tournament refuses what cannot be done now (a round not finished, check-in
#: closed): the request is fine, the moment is not.
#: A round robin at tables started with a field no schedule covers is refused for
#: now too, with a code of its own: checking entrants in or out mends it.
#: A game, players per table and options that do not go together are impossible,
#: whenever asked.
ERRORS = {
    TournamentError: (409, "refused"),
    NoTableSchedule: (409, "no_schedule"),
    GameSettingsError: (422, "invalid_game"),
    ArchiveError: (422, "invalid_archive"),
}

#: A refused archive names each field and its rule (``errors``), as a refused
#: request body does.
ERROR_BODIES = {ArchiveError: ArchiveError.as_body}


def explain(error: ValueError) -> str:
    """The tournaments' errors carry their message in the reader's language."""
    return str(error)


__all__ = ["ERRORS", "ERROR_BODIES", "ROUTERS", "explain"]
