"""Who may run a club: its organizers, and superusers. One check, used by the
organizer's pages (`organizer_required`) and the API (`OrganizerAuth`, then
`require_organizer` on the object asked for)."""

from functools import wraps

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext
from ninja.security import HttpBearer, SessionAuth

from clubs.models import Club
from clubs.selectors import is_organizer
from clubs.services import api_token_use


def require_organizer(user, club: Club) -> None:
    """Only the club's organizers (and superusers) see or change its nights and parties."""
    if not is_organizer(user=user, club=club):
        raise PermissionDenied(
            gettext("Only an organizer of %(club)s may see or change this party.")
            % {"club": club.name}
        )


def organizer_required(load):
    """Decorator for an organizer's page, under ``login_required``: ``load(**kwargs)``
    loads the object the URL names (a 404 when there is none), its club's organizers
    may go on, and the view gets the object in place of the URL's arguments."""

    def decorator(view):
        @wraps(view)
        def wrapped(request, **kwargs):
            thing = load(**kwargs)
            require_organizer(request.user, club_of(thing))
            return view(request, thing)

        return wrapped

    return decorator


def club_of(thing) -> Club:
    """The club a thing belongs to: a club itself, a night or party (``.club``), or a
    hand or seat (``.party.club``)."""
    while not isinstance(thing, Club):
        thing = thing.club if hasattr(thing, "club") else thing.party
    return thing


class OrganizerAuth(SessionAuth):
    """The API's organizer: a logged-in session, with its CSRF check on unsafe
    methods. Whose club it is, is checked per object by `require_organizer`."""


class TokenAuth(HttpBearer):
    """The API's organizer by a personal key (``Authorization: Bearer knock_…``),
    made and revoked on the organizer's API keys page. The key acts for its user:
    whose club it is, is checked per object by `require_organizer`, as for a
    session. No cookie is read, so there is no CSRF check to make."""

    def authenticate(self, request, token):
        return api_token_use(key=token)
