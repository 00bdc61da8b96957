"""Only the organizers of the tournament's club see or change its tournaments: a
stranger, another club's organizer included, learns nothing (404), and nobody
changes anything without logging in."""

import pytest
from django.urls import reverse

from tests.factories import MembershipFactory, OrganizerFactory, UserFactory
from tournaments import selectors

pytestmark = pytest.mark.django_db

# (URL name, method, which arguments): every page of tournaments/manage.
PAGES = [
    ("tournament-create", "get", "club"),
    ("tournament-create", "post", "club"),
    ("tournament-detail", "get", "tournament"),
    ("entrant-register", "post", "tournament"),
    ("entrant-guests", "post", "tournament"),
    ("entrant-check-in", "post", "entrant"),
    ("entrant-withdraw", "post", "entrant"),
    ("keep-apart", "post", "tournament"),
    ("round-start", "post", "tournament"),
    ("round-pair", "post", "tournament"),
    ("standings", "get", "tournament"),
    ("standings-draw", "post", "tournament"),
    ("tournament-finish", "post", "tournament"),
    ("round-detail", "get", "round"),
    ("round-tables", "get", "round"),
    ("round-cards", "get", "round"),
    ("tables-swap", "post", "round"),
    ("round-undo", "post", "round"),
    ("round-close", "post", "round"),
    ("table-forfeit", "post", "table"),
]


def test_every_page_of_the_package_is_in_the_matrix():
    from tournaments.manage.urls import urlpatterns

    assert {p.name for p in urlpatterns} == {name for name, _, _ in PAGES}


@pytest.fixture
def running(club, tournament, post):
    t = tournament(["Anna", "Ben", "Carl", "Dora"])
    post(reverse("manage:round-start", args=[t.slug]))
    table = selectors.round_tables(t.round_set.get())[0].table
    return {
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


def as_other_organizer(client, club):
    client.force_login(OrganizerFactory().player.user)


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
    # An empty creation form is shown again with what is missing.
    shown = method == "get" or name == "tournament-create"
    assert response.status_code == (200 if shown else 302)


def test_changing_pages_refuse_a_get(client, running):
    response = client.get(reverse("manage:round-close", args=running["round"]))
    assert response.status_code == 405
