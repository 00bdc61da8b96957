"""A hand's entry in a table's API is checked against the body made from the
party's game's own declaration (`entry_body`): the OpenAPI document shows each
game's entry with its ranges and without room for unknown fields, and a party
takes only its own game's entry, a refusal naming the fields as the client wrote
them, with nothing stored."""

import pytest

from scoring.models import Hand
from tests.factories import start_game_party

pytestmark = pytest.mark.django_db


def schemas(client):
    return client.get("/api/openapi.json").json()["components"]["schemas"]


def enter(client, party, entry):
    seat = party.seats.order_by("position").first()
    return client.post(
        f"/api/tables/{seat.token}/hands",
        {"number": 1, "entry": entry},
        content_type="application/json",
    )


def test_the_document_shows_each_game_s_entry_with_its_ranges(client):
    found = schemas(client)
    entry = found["GameEntryIn"]["properties"]["entry"]
    assert {ref["$ref"].rsplit("/", 1)[1] for ref in entry["anyOf"]} == {
        "ChinchonEntryIn",
        "CanastaEntryIn",
        "BlaueVierzehnEntryIn",
        "CruzoEntryIn",
    }
    points = found["BlaueVierzehnEntryIn"]["properties"]["points"]
    assert (points["minItems"], points["maxItems"], points["items"]["maximum"]) == (3, 6, 56)
    penalties = found["ChinchonEntryIn"]["properties"]["penalties"]["anyOf"][0]
    assert penalties["items"]["anyOf"][0]["maximum"] == 96
    assert found["CanastaSidesIn"]["properties"]["meld_points"]["maximum"] == 1280
    assert found["CanastaSidesIn"]["required"] == ["meld_points"]
    left = found["CruzoEntryIn"]["properties"]["cards_left"]["patternProperties"]
    assert left == {"^[0-6]$": {"maximum": 6, "minimum": 0, "type": "integer"}}
    for name in ("ChinchonEntryIn", "CanastaEntryIn", "CanastaSidesIn", "CruzoEntryIn"):
        assert found[name]["additionalProperties"] is False


def test_an_entry_of_another_game_is_refused_naming_its_fields(client):
    party = start_game_party("chinchon", 3)
    response = enter(client, party, {"points": [20, 30, 6]})
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "invalid_entry"
    assert {error["field"] for error in body["errors"]} == {"entry.closer", "entry.points"}
    assert not Hand.objects.filter(party=party).exists()


def test_a_value_out_of_its_range_is_named_down_to_the_side(client):
    party = start_game_party("canasta", 2)
    sides = [{"meld_points": 120}, {"meld_points": 90, "red_threes": 5}]
    response = enter(client, party, {"sides": sides})
    assert response.status_code == 422
    assert [error["field"] for error in response.json()["errors"]] == ["entry.sides.1.red_threes"]
    assert not Hand.objects.filter(party=party).exists()


def test_the_values_left_out_are_stored_as_the_game_reads_them(client):
    party = start_game_party("canasta", 2)
    response = enter(client, party, {"sides": [{"meld_points": 120}, {"meld_points": 90}]})
    assert response.status_code == 201, response.content
    stored = Hand.objects.get(party=party, number=1).details["entry"]["sides"][1]
    assert stored == {
        "meld_points": 90,
        "natural_canastas": 0,
        "mixed_canastas": 0,
        "red_threes": 0,
        "hand_points": 0,
        "went_out": False,
        "concealed": False,
        "has_melded": True,
    }


def test_an_entry_that_is_no_object_is_refused(client):
    party = start_game_party("cruzo", 2)
    response = enter(client, party, [1, 0])
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "entry"
