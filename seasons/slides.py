"""The club's season table as slides on its tournament's wall screen (registered
with tournaments.screen at start-up, see apps.py)."""

import hashlib

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.translation import get_language

from seasons import selectors


def season_slides(tournament) -> str:
    """The published season in progress at the tournament's club, as one group of
    slides: every ranked and unranked line, by initials for whoever did not agree
    to be listed, as on the public season page. Kept in the cache until the
    ratings fold in another change or the organizer changes the season."""
    season = selectors.season_in_progress(club_id=tournament.club_id)
    if season is None:
        return ""
    through = selectors.ratings_through(club_id=tournament.club_id)
    scheme = (season.name, season.counts, season.scheme, season.place_points)
    shape = (season.starts, season.ends, season.best_of, season.minimum_events, scheme)
    # A digest the same in every process (Python's own hash of a string is not).
    digest = hashlib.sha256(repr(shape).encode()).hexdigest()[:16]
    key = f"season-slide:{season.pk}:{get_language()}:{through}:{digest}"

    def render():
        page = selectors.season_page(season, public=True)
        return render_to_string("seasons/public/_screen_season.html", page)

    try:
        html = cache.get(key)
    except Exception:
        # The cache down: the slide is built for this request only.
        return render()
    if html is None:
        html = render()
        cache.set(key, html, 3600)
    return html
