"""A round robin of another game at tables through the organizer's API: created
(201) where it was refused before, started with a field that has a schedule,
and refused at the start with any other, a 409 ``no_schedule`` whose sentence
names the field sizes that work, in the request's language."""

import pytest

from tests.factories import OrganizerFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def post(client, url, data=None, **headers):
    return client.post(url, data or {}, content_type="application/json", **headers)


@pytest.fixture
def director(client):
    membership = OrganizerFactory(player__user__username="director")
    client.force_login(membership.player.user)
    return membership.club


def robin(client, club, guests, size=3):
    """A round robin of Chinchón at tables of ``size`` made through the API, with
    ``guests`` entered and checked in; returns its slug."""
    created = post(
        client,
        f"/api/manage/clubs/{club.slug}/tournaments",
        {"name": "Robin", "format": "round_robin", "game": "chinchon", "table_size": size},
    )
    assert created.status_code == 201, created.content
    body = created.json()
    assert (body["format"], body["game"], body["table_size"]) == ("round_robin", "chinchon", size)
    slug = body["slug"]
    names = [f"Guest {n}" for n in range(guests)]
    entered = post(client, f"/api/manage/tournaments/{slug}/entrants", {"guests": names})
    for entrant in entered.json():
        post(client, f"/api/manage/tournaments/{slug}/entrants/{entrant['id']}/check-in")
    return slug


def test_a_round_robin_at_tables_is_created_and_started(
    client, director, django_capture_on_commit_callbacks
):
    slug = robin(client, director, 9)

    with django_capture_on_commit_callbacks(execute=True):
        started = post(client, f"/api/manage/tournaments/{slug}/start")

    assert started.status_code == 200, started.content
    body = started.json()
    assert body["rounds"] == 4
    tables = client.get(f"/api/tournaments/{slug}/rounds/1").json()["tables"]
    assert [len(t["sides"]) for t in tables] == [3, 3, 3]


def test_a_field_smaller_than_a_table_is_a_409_that_says_how_many_it_needs(client, director):
    slug = robin(client, director, 2, size=4)

    refused = post(client, f"/api/manage/tournaments/{slug}/start")
    german = post(client, f"/api/manage/tournaments/{slug}/start", HTTP_ACCEPT_LANGUAGE="de")

    assert refused.status_code == 409
    body = refused.json()
    assert body["code"] == "no_schedule"
    assert "A round robin at tables of 4 needs at least 3 entrants" in body["detail"]
    assert "2 are checked in" in body["detail"]
    assert german.status_code == 409 and german.json()["code"] == "no_schedule"
    assert "braucht mindestens 3 Teilnehmende" in german.json()["detail"]
    assert Tournament.objects.get(slug=slug).status == Tournament.Status.REGISTRATION


def test_a_field_without_a_perfect_schedule_starts_planned_ahead(client, director):
    slug = robin(client, director, 10, size=4)

    started = post(client, f"/api/manage/tournaments/{slug}/start")

    assert started.status_code < 300
    assert Tournament.objects.get(slug=slug).rounds == 3


def test_a_knockout_of_another_game_is_still_a_422(client, director):
    response = post(
        client,
        f"/api/manage/clubs/{director.slug}/tournaments",
        {"name": "Cup", "format": "knockout", "game": "chinchon", "table_size": 4},
    )

    assert response.status_code == 422
    assert response.json()["code"] == "invalid_game"
    assert "Swiss system, as a round robin" in response.json()["detail"]
