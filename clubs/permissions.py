"""Who may run a club: its owner and organizers, and the site's superusers. One
check, used by the organizer's pages (`organizer_required`) and the API
(`OrganizerAuth`, then `require_organizer` on the object asked for).

Someone who does not organize the club gets a 404, as if there were nothing
there: one club's organizers do not even learn which nights, parties or members
another club has. Only what an organizer of this very club may not do (what is
left to its owner) is a 403 that says why."""

from functools import wraps

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext
from ninja.security import HttpBearer, SessionAuth

from clubs.models import Club
from clubs.selectors import clubs_organized_by, is_organizer, is_owner
from clubs.services import api_token_use
from web import zones


def require_organizer(user, club: Club) -> None:
    """Only the club's organizers (and superusers) see or change its nights, parties
    and members; to anyone else there is nothing there."""
    if not is_organizer(user=user, club=club):
        raise Http404


def require_organizing(user) -> None:
    """Pages of one's own that only organizers need (the API keys): someone who
    organizes no club finds nothing there either."""
    if not clubs_organized_by(user=user).exists():
        raise Http404


def require_owner(user, club: Club) -> None:
    """Only the club's owner (and superusers) decide who organizes the club."""
    require_organizer(user, club)
    if not is_owner(user=user, club=club):
        raise PermissionDenied(
            gettext("Only the owner of %(club)s decides who organizes it.") % {"club": club.name}
        )


def organizer_required(load, *, owner: bool = False):
    """Decorator for an organizer's page, under ``login_required``: ``load(**kwargs)``
    loads the object the URL names (a 404 when there is none), its club's organizers
    (its owner, with ``owner=True``) may go on, and the view gets the object in place
    of the URL's arguments."""
    check = require_owner if owner else require_organizer

    def decorator(view):
        @wraps(view)
        def wrapped(request, **kwargs):
            thing = load(**kwargs)
            club = club_of(thing)
            check(request.user, club)
            # The club's pages show its times in its own zone.
            zones.zone_use(club.time_zone)
            return view(request, thing)

        return wrapped

    return decorator


def club_of(thing) -> Club:
    """The club a thing belongs to: a club itself, a night, party or membership
    (``.club``), or a hand or seat (``.party.club``)."""
    while not isinstance(thing, Club):
        thing = thing.club if hasattr(thing, "club") else thing.party
    return thing


class OrganizerAuth(SessionAuth):
    """The API's organizer: a logged-in session, with its CSRF check on unsafe
    methods. Whose club it is, is checked per object by `require_organizer`."""

    def __call__(self, request):
        # A request that brings a key, or no session cookie, is not a session's: its
        # refusal is "log in" (401), never a CSRF check of a session it never had.
        if "Authorization" in request.headers or self.param_name not in request.COOKIES:
            return None
        return super().__call__(request)


class TokenAuth(HttpBearer):
    """The API's organizer by a personal key (``Authorization: Bearer knock_…``),
    made and revoked on the organizer's API keys page. The key acts for its user:
    whose club it is, is checked per object by `require_organizer`, as for a
    session. No cookie is read, so there is no CSRF check to make."""

    def authenticate(self, request, token):
        return api_token_use(key=token)
