"""Slides that the apps above add to a tournament's wall screen: the club's season
table is kept by seasons, which tournaments cannot import, so it registers here at
start-up (as scoring.changes.after_scores_change does for the ratings)."""

import logging

log = logging.getLogger(__name__)

_screen_slides = []


def screen_slides(callback) -> None:
    """``callback(tournament)`` returns the HTML of more slide groups for the
    tournament's screen (``<section data-slide data-group=…>``, split by the
    screen's script like the standings), or an empty string."""
    if callback not in _screen_slides:
        _screen_slides.append(callback)


def more_slides(tournament) -> str:
    """The registered slides, after the tournament's own. A slide that fails is
    left out and logged: the standings and the round still show."""
    parts = []
    for callback in _screen_slides:
        try:
            parts.append(callback(tournament))
        except Exception:
            log.exception("a screen slide of tournament %s failed", tournament.pk)
    return "".join(parts)
