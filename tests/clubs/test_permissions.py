"""Who reaches which organizer page and endpoint: anonymous visitors are sent to
log in (401 in the API), a club's players and other clubs' organizers find
nothing there (404), its organizers and the site's superusers get in; what only
the owner may do is a 403 for the other organizers. A new organizer page or
endpoint is one more line in `ORGANIZER_URLS`."""

import pytest
from django.urls import reverse

from clubs.models import Membership
from scoring.services import Result, hand_enter
from tests.factories import (
    ClubNightFactory,
    MembershipFactory,
    OrganizerFactory,
    UserFactory,
    start_night_party,
)

pytestmark = pytest.mark.django_db

#: (name, method, how to build the URL from the club's things, owner only?)
ORGANIZER_URLS = [
    ("clubs", "get", lambda w: reverse("manage:club-detail", args=[w.club.slug]), False),
    ("night", "get", lambda w: reverse("manage:night-detail", args=[w.night.pk]), False),
    ("night start", "post", lambda w: reverse("manage:night-detail", args=[w.night.pk]), False),
    ("party", "get", lambda w: reverse("manage:party-detail", args=[w.party.pk]), False),
    ("cards", "get", lambda w: reverse("manage:party-cards", args=[w.party.pk]), False),
    ("night tables", "get", lambda w: reverse("manage:night-tables", args=[w.night.pk]), False),
    ("results", "get", lambda w: reverse("manage:night-results", args=[w.night.pk]), False),
    ("results csv", "get", lambda w: reverse("manage:night-results-csv", args=[w.night.pk]), False),
    ("stake", "post", lambda w: reverse("manage:night-stake", args=[w.night.pk]), False),
    ("close", "post", lambda w: reverse("manage:night-close", args=[w.night.pk]), False),
    ("cancel", "post", lambda w: reverse("manage:party-cancel", args=[w.party.pk]), False),
    ("rematch", "post", lambda w: reverse("manage:party-rematch", args=[w.party.pk]), False),
    ("seat link", "get", lambda w: reverse("manage:seat-link", args=[w.seat.pk]), False),
    ("seat link", "post", lambda w: reverse("manage:seat-link", args=[w.seat.pk]), False),
    ("swap", "post", lambda w: reverse("manage:seat-swap", args=[w.seat.pk]), False),
    ("decide", "post", lambda w: reverse("manage:hand-decide", args=[w.hand.pk]), False),
    ("members", "get", lambda w: reverse("manage:member-list", args=[w.club.slug]), False),
    ("member add", "get", lambda w: reverse("manage:member-add", args=[w.club.slug]), False),
    ("member add", "post", lambda w: reverse("manage:member-add", args=[w.club.slug]), False),
    ("guest add", "get", lambda w: reverse("manage:guest-add", args=[w.club.slug]), False),
    ("guest add", "post", lambda w: reverse("manage:guest-add", args=[w.club.slug]), False),
    ("member edit", "get", lambda w: _member_url("member-edit", w), False),
    ("member edit", "post", lambda w: _member_url("member-edit", w), False),
    ("deactivate", "post", lambda w: _member_url("member-deactivate", w), False),
    ("reactivate", "post", lambda w: _member_url("member-reactivate", w), False),
    ("organizers", "get", lambda w: reverse("manage:organizer-list", args=[w.club.slug]), False),
    ("invite", "post", lambda w: reverse("manage:organizer-invite", args=[w.club.slug]), True),
    ("invite link", "post", lambda w: _organizer_url("organizer-link", w), True),
    ("revoke", "post", lambda w: _organizer_url("organizer-revoke", w), True),
    ("api party", "get", lambda w: f"/api/parties/{w.party.pk}", False),
    ("api audit", "get", lambda w: f"/api/parties/{w.party.pk}/audit", False),
    (
        "api decide",
        "post",
        lambda w: f"/api/parties/{w.party.pk}/hands/{w.hand.pk}/decide",
        False,
    ),
]

WHO = ["anonymous", "player", "other club's organizer", "organizer", "owner", "superuser"]


def _member_url(name, world):
    return reverse(f"manage:{name}", args=[world.club.slug, world.member.pk])


def _organizer_url(name, world):
    return reverse(f"manage:{name}", args=[world.club.slug, world.organizer.pk])


class World:
    """A club with its owner, an organizer, a member with a login, a night, a party
    and a hand; and another club with its own organizer."""

    def __init__(self):
        # Logins without a password: hashing one costs far more than the rest of a test.
        no_password = {"player__user__password": None}
        self.owner = OrganizerFactory(role=Membership.Role.OWNER, **no_password)
        self.club = self.owner.club
        self.organizer = OrganizerFactory(club=self.club, **no_password)
        self.member = MembershipFactory(club=self.club, player__user=UserFactory(password=None))
        self.night = ClubNightFactory(club=self.club)
        self.party = start_night_party(self.night)
        self.seat = self.party.seats.order_by("position").first()
        result = Result("knock", knocker=0, knocker_deadwood=3, defender_deadwood=20)
        self.hand = hand_enter(seat=self.seat, number=1, result=result).hand
        self.stranger = OrganizerFactory(**no_password)

    def user(self, who):
        return {
            "anonymous": None,
            "player": self.member.player.user,
            "other club's organizer": self.stranger.player.user,
            "organizer": self.organizer.player.user,
            "owner": self.owner.player.user,
            "superuser": UserFactory(is_superuser=True, is_staff=True, password=None),
        }[who]


def _ask(client, method, url):
    if url.startswith("/api/"):
        # A well-formed body: the answer must come from who asks, not from the body.
        body = {"action": "void", "reason": "checking who may"}
        return getattr(client, method)(url, body, content_type="application/json")
    return getattr(client, method)(url, {})


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize(
    "name, method, url, owner_only",
    ORGANIZER_URLS,
    ids=[f"{method} {name}" for name, method, *_ in ORGANIZER_URLS],
)
def test_organizer_pages_and_endpoints_let_in_only_their_club_s_organizers(
    client, who, name, method, url, owner_only
):
    world = World()
    user = world.user(who)
    if user is not None:
        client.force_login(user)
    url = url(world)

    response = _ask(client, method, url)

    if who == "anonymous":
        if url.startswith("/api/"):
            assert response.status_code == 401
        else:
            assert response.status_code == 302
            assert response.url.startswith(reverse("login"))
    elif who in ("player", "other club's organizer"):
        assert response.status_code == 404
        assert world.club.name not in response.content.decode()
    elif owner_only and who == "organizer":
        assert response.status_code == 403
    else:
        # In: the page, a redirect after a write, or a refusal of the empty form.
        assert response.status_code in (200, 302, 400, 422), response.content[:300]


def test_the_list_of_clubs_shows_each_user_only_theirs(client):
    world = World()
    for who, sees in [
        ("player", []),
        ("other club's organizer", [world.stranger.club.name]),
        ("organizer", [world.club.name]),
        ("superuser", [world.club.name, world.stranger.club.name]),
    ]:
        client.force_login(world.user(who))
        table = client.get(reverse("manage:club-list")).context["table"]
        assert sorted(row.record.name for row in table.rows) == sorted(sees), who


@pytest.mark.parametrize("who", ["organizer", "owner"])
def test_the_admin_is_for_the_site_s_superusers_only(client, who):
    client.force_login(World().user(who))
    response = client.get("/admin/")
    assert response.status_code == 302
    assert response.url.startswith("/admin/login/")


def test_a_superuser_opens_the_admin(client):
    client.force_login(World().user("superuser"))
    assert client.get("/admin/").status_code == 200
