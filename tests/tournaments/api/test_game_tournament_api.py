"""A tournament of another game through the API: the organizer creates it with
its game, players per table and options (what does not go together is a 422
with a JSON body that says why); the public's round answers carry every seat of
a table with its total, margin, place at the table and tournament points, and the
standings the game score."""

import pytest

from tests.factories import OrganizerFactory
from tests.tournaments.test_table_tournaments import play_chinchon, table_tournament, tables_of

pytestmark = pytest.mark.django_db


def post(client, url, data):
    return client.post(url, data, content_type="application/json")


@pytest.fixture
def director(client):
    membership = OrganizerFactory(player__user__username="director")
    client.force_login(membership.player.user)
    return membership.club


def test_the_organizer_creates_a_tournament_of_chinchon_at_tables_of_four(client, director):
    response = post(
        client,
        f"/api/manage/clubs/{director.slug}/tournaments",
        {"name": "Chinchón Cup", "game": "chinchon", "table_size": 4, "options": {"deck": 48}},
    )

    assert response.status_code == 201
    body = response.json()
    assert (body["game"], body["table_size"]) == ("chinchon", 4)
    assert body["options"] == {"deck": 48, "conga": False}
    detail = client.get(f"/api/tournaments/{body['slug']}").json()
    assert detail["game"] == "chinchon" and detail["table_size"] == 4


def test_gin_rummy_is_the_default_game(client, director):
    response = post(client, f"/api/manage/clubs/{director.slug}/tournaments", {"name": "Cup"})

    assert response.status_code == 201
    body = response.json()
    assert (body["game"], body["table_size"], body["options"]) == ("gin_rummy", None, {})


@pytest.mark.parametrize(
    "fields,words",
    [
        ({"game": "chinchon", "table_size": 5}, "tables of 3, 4 players"),
        ({"game": "chinchon"}, "tables of 3, 4 players"),
        ({"game": "chinchon", "table_size": 4, "format": "knockout"}, "Swiss system"),
        ({"game": "cruzo", "table_size": 4, "format": "knockout"}, "or planned ahead"),
        ({"table_size": 4}, "Gin Rummy is played two at a table"),
        ({"options": {"deck": 40}}, "Gin Rummy is played two at a table"),
        ({"game": "chinchon", "table_size": 4, "options": {"trumps": 1}}, "no rule called"),
        ({"game": "chinchon", "table_size": 4, "options": {"deck": 52}}, "deck is one of"),
        (
            {"game": "canasta", "table_size": 4, "options": {"partnerships": 3}},
            "two partnerships",
        ),
    ],
)
def test_a_game_that_does_not_go_together_is_a_422_that_says_why(client, director, fields, words):
    response = post(
        client, f"/api/manage/clubs/{director.slug}/tournaments", {"name": "Cup"} | fields
    )

    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "invalid_game"
    assert words in body["detail"]


@pytest.mark.parametrize(
    "fields",
    [
        {"game": "poker", "table_size": 4},
        {"game": "chinchon", "table_size": 7},
        {"game": "chinchon", "table_size": 4, "options": {"deck": "forty"}},
        {"game": "chinchon", "table_size": 4, "options": [40]},
    ],
)
def test_a_body_that_does_not_fit_is_a_422_naming_the_field(client, director, fields):
    response = post(
        client, f"/api/manage/clubs/{director.slug}/tournaments", {"name": "Cup"} | fields
    )

    assert response.status_code == 422
    assert response.json()["code"] == "invalid_entry"


def test_the_public_reads_every_seat_of_a_table_and_the_game_score(
    client, director, committed, django_capture_on_commit_callbacks
):
    tournament, round = table_tournament(director, 12, committed)
    done = tables_of(round)[0]
    with django_capture_on_commit_callbacks(execute=True):
        play_chinchon(done.table.party, [0, 20, 40, 100])

    tables = client.get(f"/api/tournaments/{tournament.slug}/rounds/1").json()["tables"]
    standings = client.get(f"/api/tournaments/{tournament.slug}/standings").json()

    assert [len(t["sides"]) for t in tables] == [4, 4, 4]
    first = tables[0]
    assert first["finished"] and first["hands"] == 1
    assert [s["entrant"] for s in first["sides"]] == [e.pk for e in done.entrants]
    assert [s["total"] for s in first["sides"]] == [-10, 20, 40, 100]
    assert [s["points"] for s in first["sides"]] == [190, 70, -10, -250]
    assert [s["table_place"] for s in first["sides"]] == [1, 2, 3, 4]
    assert [s["earned"] for s in first["sides"]] == [6, 4, 2, 0]
    playing = tables[1]
    assert not playing["finished"]
    assert {s["earned"] for s in playing["sides"]} == {None}
    top = standings["lines"][0]
    assert (top["points"], top["score"], top["won"]) == (6, 190, 1)
    assert standings["lines"][-1]["score"] == -250


def test_a_party_of_another_game_is_read_at_its_table_not_as_a_gin_sheet(
    client, director, committed
):
    tournament, round = table_tournament(director, 8, committed)
    party = tables_of(round)[0].table.party

    response = client.get(f"/api/tournaments/{tournament.slug}/parties/{party.pk}")

    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "other_game"
    assert f"/api/tournaments/{tournament.slug}/rounds/1" in body["detail"]
    assert "This party is of Chinchón" in body["detail"]


def test_the_organizers_detail_carries_every_seat_of_each_table(client, director, committed):
    tournament, round = table_tournament(director, 10, committed)
    play_chinchon(tables_of(round)[0].table.party, [0, 20, 40, 100])

    body = client.get(f"/api/manage/tournaments/{tournament.slug}").json()

    assert (body["game"], body["table_size"]) == ("chinchon", 4)
    tables = body["rounds_played"][0]["tables"]
    # Ten at tables of four: one of four and two of three.
    assert [len(t["sides"]) for t in tables] == [4, 3, 3]
    assert [s["earned"] for s in tables[0]["sides"]] == [6, 4, 2, 0]
