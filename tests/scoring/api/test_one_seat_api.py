"""One set of seat operations for every game: ``GET /api/tables/<token>``, its
``hands`` and their ``confirm`` take a Gin Rummy party's hands and another
game's alike; the addresses under ``/game`` answer as before, as aliases."""

import uuid

import pytest

from scoring.models import Hand
from tests.factories import start_game_party, start_party

pytestmark = pytest.mark.django_db

CHINCHON = {"closer": 0, "penalties": [0, 12, 7]}


def seats_of(party):
    return list(party.seats.select_related("player").order_by("position"))


def post(client, path, body):
    return client.post(path, body, content_type="application/json")


def test_a_whole_table_is_read_entered_and_confirmed_at_the_one_set_of_addresses(client):
    party = start_game_party("chinchon", 3)
    first, second, third = seats_of(party)

    table = client.get(f"/api/tables/{first.token}").json()
    assert table["party"]["game"] == "chinchon" and table["number"] == 1
    assert client.get(f"/api/tables/{first.token}/game").json() == table

    entered = post(
        client,
        f"/api/tables/{first.token}/hands",
        {"number": 1, "entry": CHINCHON, "key": uuid.uuid4().hex},
    )
    assert entered.status_code == 201 and entered.json()["outcome"] == "entered"
    version = entered.json()["hand"]["version"]
    noted = post(client, f"/api/tables/{second.token}/hands/1/confirm", {"version": version})
    assert noted.status_code == 200 and noted.json()["outcome"] == "noted"
    # The alias answers the same operation.
    confirmed = post(
        client, f"/api/tables/{third.token}/game/hands/1/confirm", {"version": version}
    )
    assert confirmed.json()["outcome"] == "confirmed"
    hand = Hand.objects.get(party=party, number=1)
    assert (hand.status, hand.scores) == (Hand.Status.CONFIRMED, [-10, 12, 7])


def test_gin_rummy_is_read_and_entered_at_the_same_addresses_as_before(client):
    party = start_party()
    seat = seats_of(party)[0]
    table = client.get(f"/api/tables/{seat.token}").json()
    assert "open_hand" in table and "sides" not in table
    entered = post(
        client,
        f"/api/tables/{seat.token}/hands",
        {"number": 1, "ending": "gin", "knocker": 0, "defender_deadwood": 12},
    )
    assert entered.status_code == 201 and entered.json()["outcome"] in ("entered", "recorded")


@pytest.mark.parametrize(
    ("kind", "body", "message"),
    [
        ("gin", {"number": 1, "entry": CHINCHON}, "This party plays Gin Rummy"),
        (
            "chinchon",
            {"number": 1, "ending": "gin", "knocker": 0, "defender_deadwood": 12},
            "This party plays Chinchón",
        ),
    ],
)
def test_a_hand_of_the_other_kind_is_refused_and_nothing_stored(client, kind, body, message):
    party = start_party() if kind == "gin" else start_game_party("chinchon", 3)
    seat = seats_of(party)[0]
    response = post(client, f"/api/tables/{seat.token}/hands", body)
    assert response.status_code == 422
    assert message in response.json()["detail"]
    assert not Hand.objects.filter(party=party).exists()


def test_a_wrong_field_is_named_as_the_client_wrote_it(client):
    seat = seats_of(start_game_party("chinchon", 3))[0]
    response = post(
        client, f"/api/tables/{seat.token}/hands", {"number": 1, "entry": CHINCHON, "ending": 1}
    )
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "ending"
