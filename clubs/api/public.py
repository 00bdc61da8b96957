"""The public's reads of the clubs: ``/api/clubs…``. No login."""

from ninja import Router

from clubs import selectors
from clubs.api.common import Slug, night_body
from clubs.api.schemas import ClubDetailOut, ClubOut
from web.api_errors import PUBLIC_READ, refusals

router = Router(tags=["public"])


def _club(club) -> dict:
    return {"slug": club.slug, "name": club.name, "city": club.city, "founded": club.founded}


@router.get("/clubs", response={200: list[ClubOut], **refusals()})
def club_list(request):
    """Every club."""
    return [_club(club) for club in selectors.club_list()]


@router.get("/clubs/{slug}", response={200: ClubDetailOut, **PUBLIC_READ})
def club_detail(request, slug: Slug):
    """A club: its members (as its public page lists them) and its nights."""
    club = selectors.club_by_slug(slug)
    return {
        **_club(club),
        "members": [m.player.name for m in selectors.club_members(club=club)],
        "nights": [night_body(n) for n in selectors.recent_nights(club_ids=[club.pk], limit=100)],
    }
