"""Ratings that seed a knockout tournament: the club's ratings are kept by seasons,
which tournaments cannot import, so it registers here at start-up (as
tournaments/screen.py does for the screen's slides)."""

import logging

log = logging.getLogger(__name__)

_rating_sources = []


def rating_source(callback) -> None:
    """``callback(tournament, entrant_ids)`` returns the ratings it knows,
    entrant id -> number (higher is stronger); the unrated are left out."""
    if callback not in _rating_sources:
        _rating_sources.append(callback)


def ratings(tournament, entrant_ids) -> dict[int, float]:
    """The first registered source's ratings that rate anyone; empty when none
    does (the bracket is then drawn by lot). A source that fails is logged and
    skipped: the knockout still starts."""
    for callback in _rating_sources:
        try:
            found = callback(tournament, list(entrant_ids))
        except Exception:
            log.exception("a rating source failed for tournament %s", tournament.pk)
            continue
        if found:
            return dict(found)
    return {}
