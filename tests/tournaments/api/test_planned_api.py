"""An evening planned ahead through the API: created (201) as any format, started,
its plan read by the organizer with full names and by the public with the names
it may see; Gin Rummy planned ahead refused (422); no plan before round 1 is
paired, nor for a Swiss (no rounds for the organizer, 404 for the public)."""

import pytest

from tests.factories import OrganizerFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def post(client, url, data=None):
    return client.post(url, data or {}, content_type="application/json")


@pytest.fixture
def director(client):
    membership = OrganizerFactory(player__user__username="director")
    client.force_login(membership.player.user)
    return membership.club


def evening(client, club, guests, **more):
    created = post(
        client,
        f"/api/manage/clubs/{club.slug}/tournaments",
        {"name": "Mixer", "format": "planned", "game": "blaue_vierzehn", "table_size": 4} | more,
    )
    assert created.status_code == 201, created.content
    slug = created.json()["slug"]
    names = [f"Guest Number{n}" for n in range(guests)]
    entered = post(client, f"/api/manage/tournaments/{slug}/entrants", {"guests": names})
    for entrant in entered.json():
        post(client, f"/api/manage/tournaments/{slug}/entrants/{entrant['id']}/check-in")
    return slug


def test_an_evening_is_planned_at_the_start_and_read_by_organizer_and_public(
    client, director, django_capture_on_commit_callbacks
):
    slug = evening(client, director, 13, rounds=4)
    waiting = client.get(f"/api/manage/tournaments/{slug}/plan").json()
    assert (waiting["plans_ahead"], waiting["rounds"]) == (False, [])

    with django_capture_on_commit_callbacks(execute=True):
        started = post(client, f"/api/manage/tournaments/{slug}/start")
    assert started.status_code == 200, started.content

    plan = client.get(f"/api/manage/tournaments/{slug}/plan").json()
    assert plan["plans_ahead"] and len(plan["rounds"]) == 4
    assert [len(t["entrants"]) for t in plan["rounds"][0]["tables"]] == [4, 3, 3, 3]
    assert plan["rounds"][0]["paired"] and not plan["rounds"][1]["paired"]
    assert (plan["repeats"], plan["pairs_again"], plan["pairs_never"]) == (0, 0, 18)
    assert plan["rounds"][0]["tables"][0]["names"][0].startswith("Guest Number")
    # The public sees guests by their initials, as on every public page.
    public = client.get(f"/api/tournaments/{slug}/plan").json()
    first = plan["rounds"][0]["tables"][0]
    assert public["rounds"][0]["tables"][0]["entrants"] == first["entrants"]
    assert not any(
        "Number" in name
        for r in public["rounds"]
        for table in r["tables"]
        for name in table["names"]
    )


def test_gin_rummy_planned_ahead_is_a_422(client, director):
    response = post(
        client,
        f"/api/manage/clubs/{director.slug}/tournaments",
        {"name": "Mixer", "format": "planned"},
    )
    assert response.status_code == 422
    assert response.json()["code"] == "invalid_game"
    assert not Tournament.objects.exists()


def test_a_swiss_has_no_plan(client, director, django_capture_on_commit_callbacks):
    slug = evening(client, director, 8, format="swiss")
    with django_capture_on_commit_callbacks(execute=True):
        post(client, f"/api/manage/tournaments/{slug}/start")

    nothing = client.get(f"/api/manage/tournaments/{slug}/plan").json()
    assert (nothing["plans_ahead"], nothing["rounds"]) == (False, [])
    assert client.get(f"/api/tournaments/{slug}/plan").status_code == 404
