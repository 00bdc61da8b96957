"""The public's reads of a club's ratings, seasons and players. No login; only
published seasons, only the pages of members who agreed to be listed (and one's
own, by the personal link); whoever did not agree appears by initials, without an
id that would lead to him."""

from typing import Annotated, Literal

from ninja import Path, Router

from scoring.engine.games import GAMES
from seasons import player_pages, selectors
from seasons.api.schemas import (
    PlayerStatsOut,
    RatingOut,
    SeasonOut,
    SeasonTableOut,
)
from web.api_errors import PUBLIC_READ, SEAT_READ

router = Router(tags=["seasons"])

Slug = Annotated[str, Path(..., max_length=60, pattern=r"^[-a-zA-Z0-9_]+$")]
Id = Annotated[int, Path(..., ge=1, le=2_147_483_647)]
# Any text: one that cannot be a token is a 404 like a wrong one (`player_by_link`),
# which the link guard counts, not a 422 it would not.
Token = Annotated[str, Path(..., description="The personal link's token.")]

#: A game of `GAMES` by its key (an enum in the OpenAPI document).
GameKey = Literal[tuple(GAMES)]


def _season(season) -> dict:
    return {
        "id": season.pk,
        "name": season.name,
        "starts": season.starts,
        "ends": season.ends,
        "game": season.game,
        "counts": season.counts,
        "scheme": season.scheme,
        "place_points": list(season.place_points or []),
        "best_of": season.best_of,
        "minimum_events": season.minimum_events,
        "closed": season.closed_at is not None,
    }


def _rating(entry: dict) -> dict:
    return {
        "player_id": entry["player"].pk if entry["player"].listed else None,
        "name": entry["name"],
        "rating": entry["shown"],
        "shown": entry["label"],
        "spread": entry["spread"],
        "provisional": entry["provisional"],
        "parties": entry["parties"],
        "won": entry["won"],
    }


@router.get("/clubs/{slug}/ratings", response={200: list[RatingOut], **PUBLIC_READ})
def club_ratings(request, slug: Slug, game: GameKey | None = None):
    """The club's ratings in a game (each game keeps its own; the game the club
    plays most unless ``game`` says another), best first, provisional ones last."""
    club = selectors.club_by_slug(slug)
    entries = selectors.rating_list(club=club, public=True, game=game)
    return [_rating(entry) for entry in entries]


@router.get("/clubs/{slug}/seasons", response={200: list[SeasonOut], **PUBLIC_READ})
def club_seasons(request, slug: Slug):
    """The club's published seasons, newest first."""
    club = selectors.club_by_slug(slug)
    return [_season(season) for season in selectors.season_list(club=club, public=True)]


@router.get("/clubs/{slug}/seasons/{season_id}", response={200: SeasonTableOut, **PUBLIC_READ})
def club_season(request, slug: Slug, season_id: Id):
    """A published season's table (frozen once the season is closed)."""
    season = selectors.season_by_id(season_id, public=True, slug=slug)
    rows = selectors.season_page(season, public=True)["rows"]
    return {
        "season": _season(season),
        "lines": [
            {
                "place": row["line"].place,
                "player_id": row["player"].pk if row["player"].listed else None,
                "name": row["name"],
                "total": row["line"].total,
                "events": row["line"].events,
                "dropped": row["dropped"],
                "needed": row["line"].needed,
            }
            for row in rows
        ],
    }


def _figure(figure) -> dict:
    return {"value": figure.value, "rests_on": figure.of}


def _stats(page: dict) -> dict:
    stats, rating = page["stats"], page["rating"]
    return {
        "name": page["name"],
        "rating": None
        if rating is None
        else {
            "player_id": page["player"].pk,
            "name": page["name"],
            "rating": rating.shown(page["today"]),
            "shown": rating.label(page["today"]),
            "spread": rating.spread(page["today"]),
            "provisional": rating.provisional(page["today"]),
            "parties": rating.parties,
            "won": rating.won,
        },
        "rating_history": [shown for _, shown in page["history"]],
        "parties": stats.parties,
        "won": stats.won,
        "plus_minus": stats.plus_minus,
        "hands": stats.hands,
        **{
            name: _figure(getattr(stats, name))
            for name in (
                "gin_rate",
                "knocks_won",
                "undercuts_made",
                "undercuts_suffered",
                "deadwood_when_knocking",
                "laid_off_when_defending",
                "boxes_per_party",
                "shutouts_made",
                "shutouts_suffered",
            )
        },
        "best_party": stats.best_party.plus_minus if stats.best_party else None,
        "head_to_head": [
            {
                "name": rival["name"],
                "parties": rival["rival"].parties,
                "won": rival["rival"].won,
                "plus_minus": rival["rival"].plus_minus,
            }
            for rival in page["rivals"]
        ],
        "games": [_game(section, page["today"]) for section in page["games"]],
    }


def _game(section: dict, today) -> dict:
    rating = section["rating"]
    return {
        "game": section["key"],
        "rating": rating.shown(today) if rating else None,
        "shown": section["label"] if rating else None,
        "provisional": section["provisional"],
        "parties": section["parties"],
        "won": section["won"],
        "figures": {f["name"]: _figure(f["f"]) for f in section["figures"]},
    }


@router.get("/clubs/{slug}/players/{player_id}", response={200: PlayerStatsOut, **PUBLIC_READ})
def club_player(request, slug: Slug, player_id: Id):
    """A listed member's figures: rating and history, gin statistics (each with the
    hands or parties it rests on), head to head."""
    club = selectors.club_by_slug(slug)
    player = player_pages.club_player(club, player_id, public=True)
    return _stats(player_pages.player_page(club=club, player=player, public=True))


@router.get("/me/{token}", response={200: PlayerStatsOut, **SEAT_READ})
def player_own(request, token: Token):
    """One's own figures, by the personal link's token."""
    link = selectors.player_by_link(token)
    return _stats(
        player_pages.player_page(club=link.club, player=link.player, public=True, own=True)
    )
