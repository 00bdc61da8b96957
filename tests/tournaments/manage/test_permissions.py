"""Only the organizers of the tournament's club see or change its tournaments: a
stranger, another club's organizer included, learns nothing (404), and nobody
changes anything without logging in. The same holds for the organizer's API, by
session or by personal API key."""

import pytest
from django.test import Client
from django.urls import reverse

from clubs.services import api_token_create
from tests.factories import ClubNightFactory, MembershipFactory, OrganizerFactory, UserFactory
from tournaments import registration, rounds, tables
from tournaments.final import setup

pytestmark = pytest.mark.django_db

# (URL name, method, which arguments): every page of tournaments/manage.
PAGES = [
    ("tournament-create", "get", "club"),
    ("tournament-create", "post", "club"),
    ("archive-import", "get", "club"),
    ("archive-import", "post", "club"),
    ("tournament-detail", "get", "tournament"),
    ("entrant-register", "post", "tournament"),
    ("entrant-guests", "post", "tournament"),
    ("entrant-check-in", "post", "entrant"),
    ("entrants-check-in", "post", "tournament"),
    ("entrant-rows", "get", "tournament"),
    ("door", "get", "tournament"),
    ("door-link", "post", "tournament"),
    ("entrant-withdraw", "get", "entrant"),
    ("entrant-withdraw", "post", "entrant"),
    ("entrant-reinstate", "get", "entrant"),
    ("entrant-reinstate", "post", "entrant"),
    ("keep-apart", "post", "tournament"),
    ("keep-apart-remove", "get", "pair"),
    ("keep-apart-remove", "post", "pair"),
    ("round-start", "post", "tournament"),
    ("round-pair", "post", "tournament"),
    ("standings", "get", "tournament"),
    ("standings-draw", "post", "tournament"),
    ("plan-cards", "get", "tournament"),
    ("tournament-finish", "get", "tournament"),
    ("tournament-finish", "post", "tournament"),
    ("round-detail", "get", "round"),
    ("round-tables", "get", "round"),
    ("round-events", "get", "round"),
    ("round-cards", "get", "round"),
    ("tables-swap", "post", "round"),
    ("round-undo", "get", "round"),
    ("round-undo", "post", "round"),
    ("round-close", "post", "round"),
    ("table-forfeit", "get", "table"),
    ("table-forfeit", "post", "table"),
    ("table-forfeit-undo", "get", "table"),
    ("table-forfeit-undo", "post", "table"),
    ("final-add", "post", "tournament"),
    ("final", "get", "cup"),
    ("final-start", "get", "cup"),
    ("final-start", "post", "cup"),
    ("final-bracket", "get", "cup"),
    ("final-start-undo", "get", "cup"),
    ("final-start-undo", "post", "cup"),
    ("final-remove", "get", "cup"),
    ("final-remove", "post", "cup"),
    ("final-events", "get", "cup"),
    ("match-forfeit", "get", "match"),
    ("match-forfeit", "post", "match"),
    ("match-forfeit-undo", "get", "match"),
    ("match-forfeit-undo", "post", "match"),
]


def test_every_page_of_the_package_is_in_the_matrix():
    from tournaments.manage.urls import urlpatterns

    assert {p.name for p in urlpatterns} == {name for name, _, _ in PAGES}


@pytest.fixture
def running(club, tournament, post):
    t = tournament(["Anna", "Ben", "Carl", "Dora"])
    post(reverse("manage:round-start", args=[t.slug]))
    table = tables.round_tables(t.round_set.get())[0].table
    first, second = list(t.entrants.all())[:2]
    pair = registration.keep_apart_add(tournament=t, first=first, second=second)
    # A knockout cup whose final is played.
    cup = registration.tournament_create(club=club, name="Cup", format="knockout")
    registration.entrant_register(tournament=cup, players=[e.player for e in t.entrants.all()])
    registration.entrants_check_in(
        tournament=cup, entrant_ids=[e.pk for e in cup.entrants.all()], checked_in=True
    )
    setup.final_stage_start(tournament=cup)
    match = cup.final_stage.matches.first()
    return {
        "cup": [cup.slug],
        "player": match.first_id,
        "match": [cup.slug, match.pk],
        "pair": [t.slug, pair.pk],
        "club": [club.slug],
        "tournament": [t.slug],
        "entrant": [t.slug, t.entrants.first().pk],
        "round": [t.slug, 1],
        "table": [t.slug, 1, table.number],
    }


def as_member(client, club):
    user = UserFactory()
    MembershipFactory(club=club, player__user=user)
    client.force_login(user)
    return user


def as_other_organizer(client, club):
    user = OrganizerFactory().player.user
    client.force_login(user)
    return user


def answers(client, running):
    """Every page's status and where it redirects to (nothing changes: refused)."""
    result = {}
    for name, method, args in PAGES:
        response = getattr(client, method)(reverse(f"manage:{name}", args=running[args]))
        result[name, method] = (response.status_code, response.get("Location", "")[:7])
    return result


def test_anonymous_visitors_are_sent_to_log_in(client, running):
    client.logout()
    assert answers(client, running) == {(n, m): (302, "/login/") for n, m, _ in PAGES}


@pytest.mark.parametrize("who", [as_member, as_other_organizer])
def test_anyone_but_the_clubs_organizers_finds_no_such_page(client, club, running, who):
    who(client, club)
    assert answers(client, running) == {(n, m): (404, "") for n, m, _ in PAGES}


@pytest.mark.parametrize("name,method,args", PAGES)
def test_the_clubs_organizer_gets_each_page_or_a_redirect(client, running, name, method, args):
    response = getattr(client, method)(reverse(f"manage:{name}", args=running[args]))
    # An empty creation form is shown again with what is missing, and an import
    # without a file is refused, each a 400 with its form.
    expected = 200 if method == "get" else 302
    if (name, method) in (("archive-import", "post"), ("tournament-create", "post")):
        expected = 400
    # Asked without naming who did not come, the forfeit's question goes back to the round.
    if (name, method) == ("table-forfeit", "get"):
        expected = 302
    # Asked without naming who did not come, a match's no-show goes back to the final.
    if (name, method) == ("match-forfeit", "get"):
        expected = 302
    # round-events, final-events: the test client is WSGI, where the stream is one
    # event telling the page to poll (200).
    assert response.status_code == expected


def test_changing_pages_refuse_a_get(client, running):
    response = client.get(reverse("manage:round-close", args=running["round"]))
    assert response.status_code == 405


# --- The organizer's API -------------------------------------------------------------

# (method, path as the router names it, body): every endpoint of tournaments/api/organizer.
ENDPOINTS = [
    ("post", "/manage/clubs/{slug}/tournaments", {"name": "Autumn Cup"}),
    ("get", "/manage/tournaments/{slug}", None),
    ("post", "/manage/tournaments/{slug}/entrants", {"guests": ["Walk In"]}),
    ("post", "/manage/tournaments/{slug}/entrants/{entrant_id}/check-in", {"checked_in": True}),
    ("post", "/manage/tournaments/{slug}/entrants/{entrant_id}/withdraw", {}),
    ("post", "/manage/tournaments/{slug}/entrants/{entrant_id}/reinstate", {}),
    ("post", "/manage/tournaments/{slug}/start", {}),
    ("post", "/manage/tournaments/{slug}/rounds/next", {"fewest_rematches": False}),
    ("post", "/manage/tournaments/{slug}/rounds/{number}/close", {}),
    ("post", "/manage/tournaments/{slug}/tables/{table_id}/forfeit", {"absent": "entrant"}),
    ("post", "/manage/tournaments/{slug}/tables/{table_id}/forfeit/undo", {}),
    ("post", "/manage/tournaments/{slug}/finish", {"final_draw": False}),
    ("get", "/manage/tournaments/{slug}/archive", None),
    ("get", "/manage/tournaments/{slug}/plan", None),
    ("get", "/manage/tournaments/{slug}/final", None),
    ("post", "/manage/tournaments/{slug}/final", {"qualifiers": 2, "best_of": 1}),
    ("post", "/manage/tournaments/{slug}/final/start", {}),
    ("post", "/manage/tournaments/{slug}/matches/{match_id}/forfeit", {"absent": "player"}),
    ("post", "/manage/tournaments/{slug}/matches/{match_id}/forfeit/undo", {}),
    ("post", "/manage/tournaments/{slug}/final/start/undo", {}),
    ("post", "/manage/tournaments/{slug}/final/remove", {}),
    ("get", "/manage/nights/{night_id}/archive", None),
    (
        "post",
        "/manage/clubs/{slug}/archive",
        {"format": "knock-archive", "version": 1, "kind": "night"},
    ),
]


def test_every_endpoint_of_the_organizers_api_is_in_the_matrix():
    from tournaments.api.organizer import router

    assert set(router.path_operations) == {path for _, path, _ in ENDPOINTS}


@pytest.fixture
def addresses(club, running):
    """Each endpoint's address and body for the running tournament of ``running``."""
    slug, entrant = running["entrant"]
    table = tables.round_tables(rounds.latest_round(registration.tournament_by_slug(slug)))
    values = {
        "entrant_id": entrant,
        "number": 1,
        "table_id": next(v.table.pk for v in table if not v.table.bye),
        "night_id": ClubNightFactory(club=club).pk,
        "match_id": running["match"][1],
    }
    found = []
    for method, path, body in ENDPOINTS:
        # A club's endpoints name the club, a tournament's the tournament; the
        # final's, the knockout cup whose final is played.
        names = {**values, "slug": club.slug if "/clubs/" in path else slug}
        if "/final" in path or "/matches/" in path:
            names["slug"] = running["cup"][0]
        if body and body.get("absent") == "entrant":
            body = {"absent": entrant}
        if body and body.get("absent") == "player":  # one of the match's two
            body = {"absent": running["player"]}
        found.append((method, "/api" + path.format(**names), body))
    return found


def api_answers(client, addresses, **headers) -> list[int]:
    return [
        getattr(client, method)(
            url, body or {}, content_type="application/json", **headers
        ).status_code
        for method, url, body in addresses
    ]


def test_the_api_wants_a_login_or_a_key(client, addresses):
    client.logout()
    assert api_answers(client, addresses) == [401] * len(ENDPOINTS)
    wrong = {"HTTP_AUTHORIZATION": "Bearer knock_guessed"}
    assert api_answers(client, addresses, **wrong) == [401] * len(ENDPOINTS)


def test_a_wrong_key_is_401_not_a_failed_csrf_check(addresses):
    # As a program sends it: no session cookie, so no CSRF token to check (the test
    # client skips the check unless told to make it).
    program = Client(enforce_csrf_checks=True)
    assert api_answers(program, addresses) == [401] * len(ENDPOINTS)
    wrong = {"HTTP_AUTHORIZATION": "Bearer knock_guessed"}
    answers = [
        getattr(program, method)(url, body or {}, content_type="application/json", **wrong)
        for method, url, body in addresses
    ]
    assert [(a.status_code, a.json()["code"]) for a in answers] == [
        (401, "not_authenticated")
    ] * len(ENDPOINTS)


@pytest.mark.parametrize("who", [as_member, as_other_organizer])
@pytest.mark.parametrize("by_key", [False, True], ids=["session", "key"])
def test_anyone_but_the_clubs_organizers_finds_nothing_in_the_api(
    client, club, addresses, who, by_key
):
    user = who(client, club)
    headers = {}
    if by_key:
        headers = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='x')[1]}"}
        client.logout()
    assert api_answers(client, addresses, **headers) == [404] * len(ENDPOINTS)


@pytest.mark.parametrize("by_key", [False, True], ids=["session", "key"])
def test_the_clubs_organizer_reaches_every_endpoint(client, organizer, addresses, by_key):
    headers = {}
    if by_key:
        key = api_token_create(user=organizer.player.user, name="x")[1]
        headers = {"HTTP_AUTHORIZATION": f"Bearer {key}"}
        client.logout()
    answers = api_answers(client, addresses, **headers)
    # In: an answer, something made, or a refusal of what cannot be done now (a
    # round not finished: 409) or of the incomplete archive (422).
    assert all(status in (200, 201, 409, 422) for status in answers), answers
