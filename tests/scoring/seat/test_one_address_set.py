"""Every game's hands go through one lifecycle, but a party is still read by the
pages and API answers of its own kind: a table that sends a hand to the other
kind's address is refused in words, and nothing is changed."""

import pytest
from django.urls import reverse

from scoring.models import Hand
from scoring.services.hands import hand_enter
from scoring.services.knocks import Result
from tests.factories import start_game_party, start_party

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", ["table-enter-cards", "table-preview"])
def test_the_card_picker_is_not_an_address_of_a_game_without_formats(client, name):
    seat = start_game_party("chinchon", 2).seats.first()
    body = {"number": 1, "knocker": 0, "knocker_cards": "AS 2S 3S", "defender_cards": "KH"}

    response = client.post(reverse(f"seat:{name}", args=[seat.token]), body)

    assert response.status_code == 404
    assert not seat.party.hands.exists()


def test_a_confirmation_at_the_whole_table_alias_of_a_gin_rummy_party_is_refused(client):
    """The API's addresses take every game's hands; the aliases under ``/game``
    take only a whole table's, and refuse a Gin Rummy party's without a change."""
    party = start_party()
    a, b = party.seats.order_by("position")
    hand_enter(seat=b, number=1, entry=Result("knock", 1, 3, 20))

    response = client.post(
        f"/api/tables/{a.token}/game/hands/1/confirm",
        {"version": 1},
        content_type="application/json",
    )

    assert response.status_code == 422
    assert "This party plays" in response.json()["detail"]
    assert party.hands.get().status == Hand.Status.PENDING


def test_a_confirmation_of_a_whole_table_s_hand_at_the_one_address_counts(client):
    party = start_game_party("chinchon", 2)
    a, b = party.seats.order_by("position")
    hand_enter(seat=b, number=1, entry={"closer": 1, "penalties": [3, 0]})

    response = client.post(
        f"/api/tables/{a.token}/hands/1/confirm", {"version": 1}, content_type="application/json"
    )

    assert response.json()["outcome"] == "confirmed"
    assert party.hands.get().status == Hand.Status.CONFIRMED
