"""A program adds and starts a knockout final with the organizer's key, records a
no-show and takes it back; the public reads the bracket. Refusals are JSON."""

import pytest

from clubs.services import api_token_create
from tests.factories import MembershipFactory, OrganizerFactory
from tests.tournaments.api.test_api import bearer, keyholder, post  # noqa: F401 - fixture
from tests.tournaments.conftest import play_out
from tests.tournaments.test_knockout_services import current_party, win_game
from tournaments import registration, rounds, tables
from tournaments.final import setup
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz"]


@pytest.fixture
def swiss(keyholder, client, django_capture_on_commit_callbacks):  # noqa: F811
    """A Swiss of six with round 1 played and closed, made through the API."""
    club, key = keyholder
    players = [MembershipFactory(club=club, player__name=n, listed=True).player for n in NAMES]
    auth = bearer(key)
    slug = post(
        client, f"/api/manage/clubs/{club.slug}/tournaments", {"name": "Cup", "rounds": 1}, **auth
    ).json()["slug"]
    entered = post(
        client,
        f"/api/manage/tournaments/{slug}/entrants",
        {"players": [p.pk for p in players]},
        **auth,
    ).json()
    for e in entered:
        post(client, f"/api/manage/tournaments/{slug}/entrants/{e['id']}/check-in", **auth)
    with django_capture_on_commit_callbacks(execute=True):
        post(client, f"/api/manage/tournaments/{slug}/start", **auth)
    round = rounds.latest_round(registration.tournament_by_slug(slug))
    for view in tables.round_tables(round):
        play_out(view.table, view.entrants[0])
    return slug, auth


def test_a_final_is_added_started_and_read_through_the_api(swiss, client):
    slug, auth = swiss
    base = f"/api/manage/tournaments/{slug}"
    added = post(
        client, f"{base}/final", {"qualifiers": 4, "best_of": 3, "third_place": True}, **auth
    )
    assert added.status_code == 201
    assert added.json()["status"] == "planned"
    assert added.json()["rounds"] == []

    early = post(client, f"{base}/final/start", **auth)
    assert early.status_code == 409
    assert early.json()["code"] == "refused"
    assert "qualifying rounds" in early.json()["detail"]

    post(client, f"{base}/rounds/1/close", **auth)
    post(client, f"{base}/finish", {"final_draw": True}, **auth)
    started = post(client, f"{base}/final/start", **auth)
    assert started.status_code == 200
    body = started.json()
    assert [r["key"] for r in body["rounds"]] == ["semi-final", "final", "third-place"]
    semi = body["rounds"][0]["matches"][0]
    assert (semi["first"]["seed"], semi["second"]["seed"], semi["status"]) == (1, 4, "playing")
    assert semi["party"] is not None

    public = client.get(f"/api/tournaments/{slug}/final").json()
    assert public["rounds"][0]["matches"][0]["first"] == semi["first"]
    assert public["rounds"][0]["matches"][0]["party"] is None
    assert public["rounds"][1]["matches"][0]["status"] == "waiting"


def test_a_no_show_in_the_final_and_its_undo_through_the_api(swiss, client):
    slug, auth = swiss
    base = f"/api/manage/tournaments/{slug}"
    post(client, f"{base}/final", {"qualifiers": 2}, **auth)
    post(client, f"{base}/rounds/1/close", **auth)
    post(client, f"{base}/finish", {"final_draw": True}, **auth)
    final = post(client, f"{base}/final/start", **auth).json()["rounds"][0]["matches"][0]
    absent = final["second"]["entrant"]

    forfeited = post(client, f"{base}/matches/{final['id']}/forfeit", {"absent": absent}, **auth)
    assert forfeited.status_code == 200
    body = forfeited.json()
    assert body["status"] == "finished"
    assert body["rounds"][0]["matches"][0]["status"] == "forfeit"
    assert body["rounds"][0]["matches"][0]["winner"] == final["first"]["entrant"]

    again = post(client, f"{base}/matches/{final['id']}/forfeit", {"absent": absent}, **auth)
    assert again.status_code == 409
    undone = post(client, f"{base}/matches/{final['id']}/forfeit/undo", **auth).json()
    assert undone["status"] == "playing"
    assert undone["rounds"][0]["matches"][0]["status"] == "playing"


def test_the_final_refuses_what_does_not_fit(swiss, client):
    slug, auth = swiss
    base = f"/api/manage/tournaments/{slug}"
    assert post(client, f"{base}/final", {"qualifiers": 4, "best_of": 2}, **auth).status_code == 422
    assert post(client, f"{base}/final", {"qualifiers": 1}, **auth).status_code == 422
    too_many = post(client, f"{base}/final", {"qualifiers": 9}, **auth)
    assert too_many.status_code == 409
    assert "only 6 entrants" in too_many.json()["detail"]
    assert post(client, f"{base}/final", {"qualifiers": 4}).status_code == 401
    assert client.get(f"/api/tournaments/{slug}/final").status_code == 404


def test_the_public_bracket_follows_the_pairings_flag(swiss, client):
    slug, auth = swiss
    post(client, f"/api/manage/tournaments/{slug}/final", {"qualifiers": 4}, **auth)
    assert client.get(f"/api/tournaments/{slug}/final").status_code == 200
    Tournament.objects.filter(slug=slug).update(public_pairings=False)
    hidden = client.get(f"/api/tournaments/{slug}/final")
    assert hidden.status_code == 404
    assert hidden.json()["code"] == "not_found"


def test_another_clubs_key_cannot_touch_the_final(swiss, client):
    slug, _ = swiss

    stranger = OrganizerFactory()
    _, key = api_token_create(user=stranger.player.user, name="other")
    answer = post(client, f"/api/manage/tournaments/{slug}/final", {"qualifiers": 4}, **bearer(key))
    assert answer.status_code == 404
    assert not Tournament.objects.get(slug=slug).records.filter(action="final_added").exists()


def test_a_knockout_tournament_is_made_and_started_through_the_api(keyholder, client):  # noqa: F811
    club, key = keyholder
    auth = bearer(key)
    players = [MembershipFactory(club=club, player__name=n, listed=True).player for n in NAMES]
    slug = post(
        client,
        f"/api/manage/clubs/{club.slug}/tournaments",
        {"name": "Club Cup", "format": "knockout"},
        **auth,
    ).json()["slug"]
    base = f"/api/manage/tournaments/{slug}"
    entered = post(client, f"{base}/entrants", {"players": [p.pk for p in players]}, **auth).json()
    for e in entered:
        post(client, f"{base}/entrants/{e['id']}/check-in", **auth)
    refused = post(client, f"{base}/start", **auth)
    assert refused.status_code == 409
    body = post(client, f"{base}/final/start", **auth).json()
    assert (body["seeding"], body["qualifiers"], body["status"]) == ("lot", 6, "playing")
    assert [r["key"] for r in body["rounds"]] == ["quarter-final", "semi-final", "final"]
    assert [m["status"] for m in body["rounds"][0]["matches"]] == ["bye", "playing"] * 2


def test_the_public_bracket_takes_the_same_queries_for_4_and_16_qualifiers(club, members, client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for size in (4, 16):
        tournament = registration.tournament_create(
            club=club, name=f"Cup {size}", format="knockout"
        )
        names = [f"P{size}-{n}" for n in range(size)]
        registration.entrant_register(tournament=tournament, players=members(*names))
        for e in tournament.entrants.all():
            registration.entrant_check_in(entrant=e)
        setup.final_stage_start(tournament=tournament)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/api/tournaments/{tournament.slug}/final").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] > 0


def test_a_final_is_removed_and_its_start_undone_through_the_api(swiss, client):
    slug, auth = swiss
    base = f"/api/manage/tournaments/{slug}"
    post(client, f"{base}/final", {"qualifiers": 4}, **auth)
    removed = post(client, f"{base}/final/remove", **auth)
    assert removed.status_code == 200
    assert removed.json()["slug"] == slug
    assert client.get(f"{base}/final", **auth).status_code == 404

    post(client, f"{base}/final", {"qualifiers": 4}, **auth)
    post(client, f"{base}/rounds/1/close", **auth)
    post(client, f"{base}/finish", {"final_draw": True}, **auth)
    post(client, f"{base}/final/start", **auth)
    refused = post(client, f"{base}/final/remove", **auth)
    assert refused.status_code == 409
    undone = post(client, f"{base}/final/start/undo", **auth)
    assert undone.status_code == 200
    assert (undone.json()["status"], undone.json()["rounds"]) == ("planned", [])
    again = post(client, f"{base}/final/start/undo", **auth)
    assert again.status_code == 409
    assert "has not started" in again.json()["detail"]


def test_a_game_that_decided_its_match_refuses_a_correction_through_the_api(
    swiss, client, django_capture_on_commit_callbacks
):
    slug, auth = swiss
    base = f"/api/manage/tournaments/{slug}"
    post(client, f"{base}/final", {"qualifiers": 2}, **auth)
    post(client, f"{base}/rounds/1/close", **auth)
    post(client, f"{base}/finish", {"final_draw": True}, **auth)
    post(client, f"{base}/final/start", **auth)
    match = Match.objects.get(stage__tournament__slug=slug)
    party = current_party(match)
    win_game(party, match.first, django_capture_on_commit_callbacks)
    hand = party.hands.order_by("number").first()
    loser = party.seats.get(player=match.second.player)

    answer = post(
        client,
        f"/api/parties/{party.pk}/hands/{hand.pk}/decide",
        {
            "action": "correct",
            "reason": "the other way round",
            "result": {"ending": "gin", "knocker": loser.position, "defender_deadwood": 90},
        },
        **auth,
    )
    assert answer.status_code == 409
    assert answer.json()["code"] == "result_final"
    assert "its result stands" in answer.json()["detail"]
    match.refresh_from_db()
    assert match.winner_id == match.first_id
