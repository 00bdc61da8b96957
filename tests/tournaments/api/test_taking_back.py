"""A program takes back a forfeit and a withdrawal with the organizer's key, as on
the pages; what cannot be taken back any more is a 409 with the sentence why."""

import pytest

from tests.factories import MembershipFactory
from tests.tournaments.api.test_api import bearer, keyholder, post  # noqa: F401 - fixture
from tests.tournaments.conftest import first_table
from tournaments import registration, rounds

pytestmark = pytest.mark.django_db


def start_by_api(client, club, key, names, capture):
    """A Swiss of two rounds entered, checked in and started through the API by
    the club's key, one listed member for each of ``names``: its slug and the
    key's header."""
    members = [MembershipFactory(club=club, player__name=n, listed=True).player for n in names]
    auth = bearer(key)
    slug = post(
        client, f"/api/manage/clubs/{club.slug}/tournaments", {"name": "Cup", "rounds": 2}, **auth
    ).json()["slug"]
    entered = post(
        client,
        f"/api/manage/tournaments/{slug}/entrants",
        {"players": [p.pk for p in members]},
        **auth,
    ).json()
    for e in entered:
        post(client, f"/api/manage/tournaments/{slug}/entrants/{e['id']}/check-in", **auth)
    with capture(execute=True):
        post(client, f"/api/manage/tournaments/{slug}/start", **auth)
    return slug, auth


@pytest.fixture
def running(keyholder, client, django_capture_on_commit_callbacks):  # noqa: F811
    club, key = keyholder
    return start_by_api(client, club, key, "ABCD", django_capture_on_commit_callbacks)


def test_a_forfeit_is_taken_back_through_the_api(running, client):
    slug, auth = running
    # The table's id as the organizer's pages know it (the board names tables by number).
    table = first_table(rounds.latest_round(registration.tournament_by_slug(slug)))
    absent = table.seatings.get(side=1).entrant_id
    base = f"/api/manage/tournaments/{slug}/tables/{table.pk}/forfeit"

    forfeited = post(client, base, {"absent": absent}, **auth)
    undone = post(client, base + "/undo", **auth)
    again = post(client, base + "/undo", **auth)

    assert forfeited.status_code == 200, forfeited.content
    assert undone.status_code == 200, undone.content
    line = next(
        t for t in undone.json()["rounds_played"][0]["tables"] if t["number"] == table.number
    )
    assert line["absent"] is None and line["party"] is not None
    assert (again.status_code, again.json()["code"]) == (409, "refused")
    assert again.json()["detail"] == f"Table {table.number} has no forfeit to take back."


def test_a_withdrawal_is_taken_back_through_the_api_until_a_round_is_paired_without_him(
    running, client
):
    slug, auth = running
    entrant = client.get(f"/api/manage/tournaments/{slug}", **auth).json()["entrants"][0]
    base = f"/api/manage/tournaments/{slug}/entrants/{entrant['id']}"

    withdrawn = post(client, base + "/withdraw", **auth)
    reinstated = post(client, base + "/reinstate", **auth)
    twice = post(client, base + "/reinstate", **auth)

    assert withdrawn.json()["withdrawn_after"] == 1
    assert reinstated.status_code == 200, reinstated.content
    assert reinstated.json()["withdrawn_after"] is None
    assert (twice.status_code, twice.json()["code"]) == (409, "refused")
    assert twice.json()["detail"] == f"{entrant['name']} has not withdrawn."
