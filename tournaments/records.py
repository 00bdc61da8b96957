"""What every write of a tournament shares, and its append-only record: the
error the organizer reads, the seed of a round's random choices, the tournament's
row locked first, a line of the record (and reading it back), and the counter that
tells the board and the live pages after the commit."""

from __future__ import annotations

import secrets

from django.utils.translation import gettext

from live import counters
from scoring import changes
from tournaments.models import (
    Tournament,
    TournamentRecord,
)


class TournamentError(ValueError):
    """Something the organizer asked for that cannot be done now, with a message
    saying why."""


class GameSettingsError(TournamentError):
    """A new tournament's game, players per table and options that do not go
    together: what was asked is impossible (the API's 422), not refused for now."""


class NoTableSchedule(TournamentError):
    """A round robin at tables started with a field its schedules do not cover:
    refused for now, until entrants are checked in or out to a field that has
    one (the API's 409 ``no_schedule``)."""


def new_seed() -> int:
    # 63 bits: fits a signed 64-bit column on every database.
    return secrets.randbits(63)


def locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def record(tournament: Tournament, action: str, *, user=None, address=None, **details) -> None:
    """One line of the tournament's append-only record: who, from where, and what
    changed, in names and numbers that stay true after the rows change."""
    TournamentRecord.objects.create(
        tournament=tournament,
        action=action,
        user=user if user is not None and user.is_authenticated else None,
        address=address,
        details=details,
    )


def tournament_key(tournament_id: int) -> str:
    return f"v:tournament:{tournament_id}"


#: What is told after the commit of a tournament's change (the public board's
#: builder, `tournaments.tasks.send_board`): registered at start-up, since the
#: record stands below everything that writes it.
_after_change = []


def after_tournament_change(callback) -> None:
    """``callback(tournament_id)`` runs after the commit of every tournament
    service; its failure is logged and never undoes the change (``robust``)."""
    if callback not in _after_change:
        _after_change.append(callback)


def tournament_changed(tournament_id: int) -> None:
    """Called by every tournament service: after the commit its counter moves
    (the organizer's pages) and the public board is built anew."""
    counters.bump_after_commit(tournament_key(tournament_id))
    for callback in _after_change:
        counters.after_commit(callback, tournament_id)


def live_counters(tournament: Tournament) -> dict[str, str]:
    """The counters the organizer's pages of the tournament follow on their live
    stream (`live.streams`): the club's scores and the tournament's own, always
    current. (The public pages follow the stored board's: `stored_board`.)"""
    return {"scores": changes.club_key(tournament.club_id), "board": tournament_key(tournament.pk)}


def tournament_records(tournament: Tournament, limit: int = 50) -> list[TournamentRecord]:
    """The latest lines of the tournament's record, newest first, with who did it."""
    query = tournament.records.select_related("user__player").order_by("-at", "-pk")
    return list(query[:limit])


def record_text(record: TournamentRecord) -> str:
    """One line of the tournament's record in the reader's language."""
    d, action = record.details, TournamentRecord.Action
    texts = {
        action.FORFEIT: gettext("Round %(round)s, table %(table)s: %(absent)s did not come."),
        action.FORFEIT_UNDONE: gettext(
            "Round %(round)s, table %(table)s: the forfeit of %(absent)s is taken back."
        ),
        action.WITHDRAWN: gettext("%(entrant)s withdrew after round %(after)s."),
        action.REINSTATED: gettext("%(entrant)s is reinstated."),
        action.APART: gettext("%(first)s and %(second)s are kept apart."),
        action.APART_REMOVED: gettext("%(first)s and %(second)s may meet again."),
        action.ROUND_UNDONE: gettext("Round %(round)s is undone."),
        action.FINISHED: gettext("The tournament is finished."),
        action.VENUE_DRAW: gettext("After round %(round)s, cards drawn at the venue: %(cards)s."),
    }
    try:
        return texts[record.action] % d
    except (KeyError, TypeError):
        return record.get_action_display()
