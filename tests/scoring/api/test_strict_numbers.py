"""A count is a JSON number: ``true`` (which Python counts as 1), a string of
digits or 7.0 is no count a player gave, and is refused (422, naming the field)
before anything is written."""

import pytest

from scoring.models import Hand
from tests.factories import start_party

pytestmark = pytest.mark.django_db

KNOCK = {"number": 1, "ending": "knock", "knocker": 0, "knocker_deadwood": 3}


def enter(client, party, body):
    seat = party.seats.order_by("position").first()
    return client.post(f"/api/tables/{seat.token}/hands", body, content_type="application/json")


@pytest.mark.parametrize(
    "field, value",
    [
        ("defender_deadwood", True),
        ("knocker_deadwood", False),
        ("defender_deadwood", "21"),
        ("defender_deadwood", 21.0),
        ("knocker", True),
        ("number", True),
    ],
)
def test_a_count_that_is_no_json_number_is_refused(client, field, value):
    party = start_party()

    response = enter(client, party, {**KNOCK, "defender_deadwood": 21, field: value})

    assert response.status_code == 422, response.content
    assert field in [error["field"] for error in response.json()["errors"]]
    assert not Hand.objects.filter(party=party).exists()


def test_a_count_as_a_number_is_taken(client):
    party = start_party()

    response = enter(client, party, {**KNOCK, "defender_deadwood": 21})

    assert response.status_code in (200, 201), response.content
