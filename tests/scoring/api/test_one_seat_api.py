"""One set of seat operations for every game: ``GET /api/tables/<token>``, its
``hands`` and their ``confirm`` take a Gin Rummy party's hands and another
game's alike; the addresses under ``/game`` answer as before, as aliases. A seat
reads its party, enters a hand as the game's engine reads it and confirms another
side's entry; a wrong entry is a 4xx with its reasons, never a 5xx."""

import uuid

import pytest

from scoring.api.schemas import HandOut
from scoring.api.whole_table_schemas import GameHandOut
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

    sent = {"number": 1, "entry": CHINCHON, "key": uuid.uuid4().hex}
    entered = post(client, f"/api/tables/{first.token}/hands", sent)
    assert entered.status_code == 201 and entered.json()["outcome"] == "entered"
    assert entered.json()["hand"]["scores"] == [-10, 12, 7]
    assert entered.json()["table"]["confirmations_needed"] == 2
    # The same key again stores once.
    again = post(client, f"/api/tables/{first.token}/hands", sent)
    assert (again.status_code, again.json()["outcome"]) == (200, "repeated")
    version = entered.json()["hand"]["version"]
    assert client.get(f"/api/tables/{second.token}").json()["can_confirm"] is True
    noted = post(client, f"/api/tables/{second.token}/hands/1/confirm", {"version": version})
    assert noted.status_code == 200 and noted.json()["outcome"] == "noted"
    assert noted.json()["table"]["confirmations_needed"] == 1
    # The alias answers the same operation.
    confirmed = post(
        client, f"/api/tables/{third.token}/game/hands/1/confirm", {"version": version}
    )
    assert confirmed.json()["outcome"] == "confirmed"
    assert [side["total"] for side in confirmed.json()["table"]["sides"]] == [-10, 12, 7]
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


def alias(seat, path=""):
    """The whole-table games' older address of a seat operation."""
    return f"/api/tables/{seat.token}/game{path}"


def test_a_seat_reads_its_party_of_canasta_with_both_partners_and_the_first_meld(client):
    party = start_game_party("canasta", 4)
    a, *_ = seats_of(party)
    body = client.get(alias(a)).json()
    assert body["party"]["game"] == "canasta"
    assert body["lower_wins"] is False
    assert [len(side["players"]) for side in body["sides"]] == [2, 2]
    assert [side["hint"] for side in body["sides"]] == [50, 50]
    assert (body["number"], body["open_hand"], body["may_enter"]) == (1, None, True)


def test_a_deal_that_does_not_add_up_is_a_422_with_the_engine_s_words(client):
    a, *_ = seats_of(start_game_party("blaue_vierzehn", 3))
    response = post(client, alias(a, "/hands"), {"number": 1, "entry": {"points": [20, 30, 5]}})
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "invalid_entry"
    assert "56" in body["detail"]


def test_an_entry_of_the_wrong_shape_is_a_422(client):
    a, *_ = seats_of(start_game_party("cruzo", 3))
    response = post(client, alias(a, "/hands"), {"number": 1, "entry": {"closer": "me"}})
    assert response.status_code == 422
    assert response.json()["errors"]


def test_a_confirmation_of_a_corrected_entry_is_a_409_with_the_entry_as_it_stands(client):
    party = start_game_party("cruzo", 2)
    a, b = seats_of(party)
    post(
        client,
        alias(a, "/hands"),
        {"number": 1, "entry": {"went_out": [1], "cards_left": {"0": 3}}},
    )
    post(
        client,
        alias(a, "/hands"),
        {"number": 1, "entry": {"went_out": [0], "cards_left": {"1": 3}}},
    )
    response = post(client, alias(b, "/hands/1/confirm"), {"version": 1})
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "entry_changed"
    assert body["hand"]["version"] == 2
    assert body["hand"]["entry"]["went_out"] == [0]


def test_a_different_entry_disputes_the_hand(client):
    party = start_game_party("chinchon", 2)
    a, b = seats_of(party)
    post(client, alias(a, "/hands"), {"number": 1, "entry": {"closer": 0, "penalties": [0, 9]}})
    response = post(
        client,
        alias(b, "/hands"),
        {"number": 1, "entry": {"closer": 0, "penalties": [0, 19]}, "version": 1},
    )
    assert response.json()["outcome"] == "disputed"
    assert response.json()["table"]["open_hand"]["counter"]["scores"] == [-10, 19]


def test_the_entering_side_cannot_confirm_its_own_entry(client):
    party = start_game_party("canasta", 4)
    a, b, c, d = seats_of(party)
    partner = next(s for s in (b, c, d) if s.side == a.side)
    sides = [{"meld_points": 300, "went_out": True, "natural_canastas": 1}, {"meld_points": 120}]
    post(client, alias(a, "/hands"), {"number": 1, "entry": {"sides": sides}})
    response = post(client, alias(partner, "/hands/1/confirm"), {"version": 1})
    assert (response.status_code, response.json()["code"]) == (409, "not_your_hand")


def test_the_whole_table_aliases_refuse_a_gin_rummy_party(client):
    """``/tables/<token>`` reads every game's party; its alias under ``/game``
    reads only a party at one whole table."""
    gin = start_party().seats.first()
    response = client.get(alias(gin))
    assert response.status_code == 422
    assert "Gin Rummy" in response.json()["detail"]
    chinchon = start_game_party("chinchon", 2).seats.first()
    assert client.get(f"/api/tables/{chinchon.token}").json() == client.get(alias(chinchon)).json()


def test_a_chinchon_hand_may_be_entered_by_the_cards(client):
    party = start_game_party("chinchon", 2)
    a, _ = seats_of(party)
    cards = [
        ["1O", "2O", "3O", "4O", "5O", "6O", "7O"],
        ["1C", "1E", "1B", "5C", "7E", "12B", "11C"],
    ]
    response = post(
        client, alias(a, "/hands"), {"number": 1, "entry": {"closer": 0, "cards": cards}}
    )
    assert response.status_code == 201
    assert response.json()["hand"]["scores"] == [-10, 35]
    assert response.json()["hand"]["facts"]["chinchon"] is True
    refused = post(
        client,
        alias(a, "/hands"),
        {"number": 1, "entry": {"closer": 0, "cards": [["8O"], ["1C"]]}},
    )
    assert refused.status_code == 422


@pytest.mark.parametrize(
    ("kind", "first", "corrected", "shape"),
    [
        (
            "gin",
            {"number": 1, "ending": "gin", "knocker": 0, "defender_deadwood": 12},
            {"number": 1, "ending": "gin", "knocker": 0, "defender_deadwood": 20},
            HandOut,
        ),
        (
            "chinchon",
            {"number": 1, "entry": {"closer": 0, "penalties": [0, 9]}},
            {"number": 1, "entry": {"closer": 0, "penalties": [0, 19]}},
            GameHandOut,
        ),
    ],
)
def test_a_stale_confirmation_at_the_one_address_answers_the_hand_as_its_party_keeps_it(
    client, kind, first, corrected, shape
):
    # Both kinds answer their 409 through the one error handler: the hand in the
    # shape the party's other answers give it, never the other kind's.
    party = (
        start_party(confirmation_required=True)
        if kind == "gin"
        else start_game_party("chinchon", 2)
    )
    a, b = seats_of(party)
    post(client, f"/api/tables/{a.token}/hands", first)
    post(client, f"/api/tables/{a.token}/hands", corrected)

    response = post(client, f"/api/tables/{b.token}/hands/1/confirm", {"version": 1})

    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "entry_changed"
    assert set(body["hand"]) == set(shape.model_fields)
    assert body["hand"]["version"] == 2
