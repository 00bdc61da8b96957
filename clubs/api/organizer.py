"""The organizer's reads of his clubs: ``/api/manage/clubs…``. A personal API key
(`TokenAuth`) or the logged-in session; only the club's organizers."""

from ninja import Router

from clubs import selectors
from clubs.api.common import Slug
from clubs.api.schemas import ClubOut, PlayerOut
from clubs.permissions import OrganizerAuth, TokenAuth, require_organizer
from web.api_errors import ORGANIZER_READ, refusals

router = Router(auth=[TokenAuth(), OrganizerAuth()], tags=["organizer"])


@router.get("/manage/clubs", response={200: list[ClubOut], **refusals(401)})
def managed_club_list(request):
    """The clubs this key's owner organizes."""
    return [
        {"slug": c.slug, "name": c.name, "city": c.city, "founded": c.founded}
        for c in selectors.clubs_organized_by(user=request.auth)
    ]


@router.get("/manage/clubs/{slug}/players", response={200: list[PlayerOut], **ORGANIZER_READ})
def club_player_list(request, slug: Slug):
    """The club's active members and guests, with the player ids that parties and
    tournaments take (listed publicly or not: the organizer sees them all)."""
    club = selectors.club_by_slug(slug)
    require_organizer(request.auth, club)
    return [
        {"id": m.player_id, "name": m.player.name, "role": m.role}
        for m in selectors.member_list(club=club)
    ]
