"""Who reaches which organizer page and endpoint: anonymous visitors are sent to
log in (401 in the API), a club's players and other clubs' organizers find
nothing there (404), its organizers and the site's superusers get in; what only
the owner may do is a 403 for the other organizers. A new organizer page or
endpoint is one more line in `ORGANIZER_URLS`. The API answers a personal API key
exactly as it answers its owner's session; the keys page itself is for those who
organize a club, and each key only for its owner."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.urls import reverse
from django.utils import timezone

from clubs.models import ApiToken, Club, Membership
from clubs.permissions import organizer_required
from clubs.selectors import is_organizer, is_owner
from clubs.services import api_token_create, api_token_revoke, api_token_use
from scoring.models import Party
from scoring.services.hands import hand_enter
from scoring.services.knocks import Result
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
    ("night events", "get", lambda w: reverse("manage:night-events", args=[w.night.pk]), False),
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
    ("settings", "get", lambda w: reverse("manage:club-settings", args=[w.club.slug]), False),
    ("settings", "post", lambda w: reverse("manage:club-settings", args=[w.club.slug]), False),
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
    ("api players", "get", lambda w: f"/api/manage/clubs/{w.club.slug}/players", False),
    ("api nights", "get", lambda w: f"/api/manage/clubs/{w.club.slug}/nights", False),
    ("api night create", "post", lambda w: f"/api/manage/clubs/{w.club.slug}/nights", False),
    ("api party start", "post", lambda w: f"/api/manage/nights/{w.night.pk}/parties", False),
    ("api night close", "post", lambda w: f"/api/manage/nights/{w.night.pk}/close", False),
    ("api cancel", "post", lambda w: f"/api/parties/{w.party.pk}/cancel", False),
    ("api swap", "post", lambda w: f"/api/parties/{w.party.pk}/seats/0/swap", False),
    ("api rematch", "post", lambda w: f"/api/parties/{w.party.pk}/rematch", False),
    ("api night archive", "get", lambda w: f"/api/manage/nights/{w.night.pk}/archive", False),
    ("api archive import", "post", lambda w: f"/api/manage/clubs/{w.club.slug}/archive", False),
    (
        "api tournament create",
        "post",
        lambda w: f"/api/manage/clubs/{w.club.slug}/tournaments",
        False,
    ),
]

#: Well-formed bodies of the endpoints that take one (the rest get the decision's),
#: so that the answer comes from who asks, not from the body.
API_BODIES = {
    "api night create": lambda w: {"name": "Friday", "date": "2026-01-09"},
    "api party start": lambda w: {"players": [w.member.player_id, w.organizer.player_id]},
    "api cancel": lambda w: {"reason": "checking who may"},
    "api swap": lambda w: {"player": w.member.player_id},
    "api archive import": lambda w: {"format": "knock-archive", "version": 1, "kind": "night"},
    "api tournament create": lambda w: {"name": "Spring Open"},
}

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
        self.hand = hand_enter(seat=self.seat, number=1, entry=result).hand
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


def _ask(client, method, url, name="", world=None, **headers):
    if url.startswith("/api/"):
        # A well-formed body: the answer must come from who asks, not from the body.
        body = {"action": "void", "reason": "checking who may"}
        if name in API_BODIES:
            body = API_BODIES[name](world)
        return getattr(client, method)(url, body, content_type="application/json", **headers)
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

    response = _ask(client, method, url, name, world)

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
        # In: the page, a redirect after a write, something made (201), a refusal
        # of the empty form, or of what the party's hand allows now (409: no swap
        # after it, no rematch or close while it runs). The live stream tells the
        # test client, a WSGI request, to poll (200): no stream held.
        allowed = (200, 201, 302, 400, 409, 422)
        assert response.status_code in allowed, response.content[:300]


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


API_URLS = [entry for entry in ORGANIZER_URLS if entry[0].startswith("api ")]


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize(
    "name, method, url, owner_only",
    API_URLS,
    ids=[f"{method} {name}" for name, method, *_ in API_URLS],
)
def test_the_api_answers_a_personal_key_as_it_answers_its_owner(
    client, who, name, method, url, owner_only
):
    world = World()
    user = world.user(who)
    # Anonymous: a key nobody made.
    key = api_token_create(user=user, name="program")[1] if user else "knock_guessed"
    url = url(world)

    response = _ask(client, method, url, name, world, HTTP_AUTHORIZATION=f"Bearer {key}")

    if who == "anonymous":
        assert response.status_code == 401
    elif who in ("player", "other club's organizer"):
        assert response.status_code == 404
        assert world.club.name not in response.content.decode()
    else:
        assert response.status_code in (200, 201, 409, 422), response.content[:300]


#: The organizer's own pages: his API keys (to make one, and to revoke the
#: organizer's key of the `World`), with what each user gets.
KEY_PAGES = [
    ("keys", "get", lambda w: reverse("manage:token-list")),
    ("key make", "post", lambda w: reverse("manage:token-list")),
    ("key revoke", "post", lambda w: reverse("manage:token-revoke", args=[w.key.pk])),
]
KEY_ANSWERS = {
    # (page, who): status; anonymous visitors are sent to log in.
    **{(page, "player"): 404 for page, *_ in KEY_PAGES},
    **{(page, who): 200 for page, *_ in KEY_PAGES[:2] for who in WHO[2:]},
    # A key is its owner's alone: to anyone else there is no such key.
    **{("key revoke", who): 404 for who in WHO[2:]},
    ("key revoke", "organizer"): 302,
}


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize("page, method, url", KEY_PAGES, ids=[p for p, *_ in KEY_PAGES])
def test_the_api_keys_pages_are_for_organizers_each_key_for_its_owner(
    client, who, page, method, url
):
    world = World()
    world.key, _ = api_token_create(user=world.organizer.player.user, name="club website")
    user = world.user(who)
    if user is not None:
        client.force_login(user)

    response = getattr(client, method)(url(world), {"name": "scoreboard"})

    if who == "anonymous":
        assert response.status_code == 302
        assert response.url.startswith(reverse("login"))
    else:
        assert response.status_code == KEY_ANSWERS[page, who]
    made = ApiToken.objects.filter(name="scoreboard").exists()
    assert made == (response.status_code == 200 and page == "key make")
    world.key.refresh_from_db()
    assert (world.key.revoked_at is not None) == (
        response.status_code == 302 and who != "anonymous"
    )


# The checks themselves, called as the pages and the API call them.


def test_the_decorator_hands_the_view_the_thing_the_url_names(rf):
    world = World()

    @organizer_required(lambda pk: Party.objects.get(pk=pk))
    def view(request, party):
        return (request, party)

    request = rf.get("/")
    request.user = world.organizer.player.user
    assert view(request, pk=world.party.pk) == (request, world.party)
    request.user = world.stranger.player.user
    with pytest.raises(Http404):
        view(request, pk=world.party.pk)


def test_an_owners_page_lets_in_the_owner_and_tells_an_organizer_why_not(rf):
    world = World()

    @organizer_required(lambda slug: Club.objects.get(slug=slug), owner=True)
    def view(request, club):
        return club

    request = rf.get("/")
    request.user = world.owner.player.user
    assert view(request, slug=world.club.slug) == world.club
    request.user = world.organizer.player.user
    with pytest.raises(PermissionDenied) as refused:
        view(request, slug=world.club.slug)
    assert str(refused.value) == f"Only the owner of {world.club.name} decides who organizes it."


def test_someone_not_logged_in_owns_and_organizes_nothing():
    club = World().club
    assert not is_owner(user=AnonymousUser(), club=club)
    assert not is_organizer(user=AnonymousUser(), club=club)


def test_a_key_acts_for_its_user_while_it_is_live_and_he_is_active():
    organizer = OrganizerFactory(player__user__password=None).player.user
    api_token_create(user=UserFactory(password=None), name="another user's")
    token, key = api_token_create(user=organizer, name="program")

    assert api_token_use(key=key) == organizer
    assert api_token_use(key="knock_" + "x" * 43) is None
    organizer.is_active = False
    organizer.save()
    assert api_token_use(key=key) is None
    organizer.is_active = True
    organizer.save()
    api_token_revoke(token=token)
    assert api_token_use(key=key) is None


def test_a_key_notes_when_it_was_used_at_most_once_a_minute():
    token, key = api_token_create(user=UserFactory(password=None), name="program")
    api_token_use(key=key)
    token.refresh_from_db()
    first = token.last_used_at
    assert first is not None

    # Used again within the minute: not noted again.
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=first - timedelta(seconds=30))
    api_token_use(key=key)
    token.refresh_from_db()
    assert token.last_used_at == first - timedelta(seconds=30)

    # A minute and a half later: noted.
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=first - timedelta(seconds=90))
    api_token_use(key=key)
    token.refresh_from_db()
    assert token.last_used_at > first - timedelta(seconds=1)


def test_a_key_that_is_not_valid_text_finds_nobody():
    # A lone surrogate cannot be encoded as UTF-8: it is hashed as it is, not refused.
    assert api_token_use(key="knock_\ud800") is None


def test_a_key_used_exactly_a_minute_after_its_last_note_is_not_noted_again(monkeypatch):
    token, key = api_token_create(user=UserFactory(password=None), name="program")
    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now)
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=now - timedelta(minutes=1))
    api_token_use(key=key)
    token.refresh_from_db()
    assert token.last_used_at == now - timedelta(minutes=1)
