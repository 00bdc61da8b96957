"""A table's API for the other games: a seat reads its party, enters a hand as
the game's engine reads it, and confirms another side's entry; a wrong entry is a
4xx with its reasons, never a 5xx."""

import pytest

from scoring.models import Hand
from tests.factories import start_game_party, start_party

pytestmark = pytest.mark.django_db


def seats(party):
    return list(party.seats.select_related("player").order_by("position"))


def game(seat, path=""):
    return f"/api/tables/{seat.token}/game{path}"


def post(client, url, data):
    return client.post(url, data, content_type="application/json")


def test_a_seat_reads_its_party_of_canasta_with_both_partners_and_the_first_meld(client):
    party = start_game_party("canasta", 4)
    a, *_ = seats(party)
    body = client.get(game(a)).json()
    assert body["party"]["game"] == "canasta"
    assert body["lower_wins"] is False
    assert [len(side["players"]) for side in body["sides"]] == [2, 2]
    assert [side["hint"] for side in body["sides"]] == [50, 50]
    assert (body["number"], body["open_hand"], body["may_enter"]) == (1, None, True)


def test_three_players_enter_and_confirm_a_hand_of_chinchon(client):
    party = start_game_party("chinchon", 3)
    a, b, c = seats(party)
    entry = {"closer": 0, "penalties": [0, 12, 7]}
    response = post(client, game(a, "/hands"), {"number": 1, "entry": entry, "key": "a-1"})
    assert response.status_code == 201
    body = response.json()
    assert body["outcome"] == "entered"
    assert body["hand"]["scores"] == [-10, 12, 7]
    assert body["table"]["confirmations_needed"] == 2
    # The same key again stores once.
    again = post(client, game(a, "/hands"), {"number": 1, "entry": entry, "key": "a-1"})
    assert (again.status_code, again.json()["outcome"]) == (200, "repeated")

    version = body["hand"]["version"]
    assert client.get(game(b)).json()["can_confirm"] is True
    first = post(client, game(b, "/hands/1/confirm"), {"version": version})
    assert first.json()["outcome"] == "noted"
    assert first.json()["table"]["confirmations_needed"] == 1
    last = post(client, game(c, "/hands/1/confirm"), {"version": version})
    assert last.json()["outcome"] == "confirmed"
    assert [side["total"] for side in last.json()["table"]["sides"]] == [-10, 12, 7]
    assert party.hands.get().status == Hand.Status.CONFIRMED


def test_a_deal_that_does_not_add_up_is_a_422_with_the_engine_s_words(client):
    a, *_ = seats(start_game_party("blaue_vierzehn", 3))
    response = post(client, game(a, "/hands"), {"number": 1, "entry": {"points": [20, 30, 5]}})
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "invalid_entry"
    assert "56" in body["detail"]


def test_an_entry_of_the_wrong_shape_is_a_422(client):
    a, *_ = seats(start_game_party("cruzo", 3))
    response = post(client, game(a, "/hands"), {"number": 1, "entry": {"closer": "me"}})
    assert response.status_code == 422
    assert response.json()["errors"]


def test_a_confirmation_of_a_corrected_entry_is_a_409_with_the_entry_as_it_stands(client):
    party = start_game_party("cruzo", 2)
    a, b = seats(party)
    post(
        client, game(a, "/hands"), {"number": 1, "entry": {"went_out": [1], "cards_left": {"0": 3}}}
    )
    post(
        client, game(a, "/hands"), {"number": 1, "entry": {"went_out": [0], "cards_left": {"1": 3}}}
    )
    response = post(client, game(b, "/hands/1/confirm"), {"version": 1})
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "entry_changed"
    assert body["hand"]["version"] == 2
    assert body["hand"]["entry"]["went_out"] == [0]


def test_a_different_entry_disputes_the_hand(client):
    party = start_game_party("chinchon", 2)
    a, b = seats(party)
    post(client, game(a, "/hands"), {"number": 1, "entry": {"closer": 0, "penalties": [0, 9]}})
    response = post(
        client,
        game(b, "/hands"),
        {"number": 1, "entry": {"closer": 0, "penalties": [0, 19]}, "version": 1},
    )
    assert response.json()["outcome"] == "disputed"
    assert response.json()["table"]["open_hand"]["counter"]["scores"] == [-10, 19]


def test_the_entering_side_cannot_confirm_its_own_entry(client):
    party = start_game_party("canasta", 4)
    a, b, c, d = seats(party)
    partner = next(s for s in (b, c, d) if s.side == a.side)
    sides = [{"meld_points": 300, "went_out": True, "natural_canastas": 1}, {"meld_points": 120}]
    post(client, game(a, "/hands"), {"number": 1, "entry": {"sides": sides}})
    response = post(client, game(partner, "/hands/1/confirm"), {"version": 1})
    assert (response.status_code, response.json()["code"]) == (409, "not_your_hand")


def test_the_whole_table_aliases_refuse_a_gin_rummy_party(client):
    """``/tables/<token>`` reads every game's party; its alias under ``/game``
    reads only a party at one whole table."""
    gin = start_party().seats.first()
    response = client.get(game(gin))
    assert response.status_code == 422
    assert "Gin Rummy" in response.json()["detail"]
    chinchon = start_game_party("chinchon", 2).seats.first()
    assert client.get(f"/api/tables/{chinchon.token}").json() == client.get(game(chinchon)).json()


def test_a_chinchon_hand_may_be_entered_by_the_cards(client):
    party = start_game_party("chinchon", 2)
    a, _ = seats(party)
    cards = [
        ["1O", "2O", "3O", "4O", "5O", "6O", "7O"],
        ["1C", "1E", "1B", "5C", "7E", "12B", "11C"],
    ]
    response = post(
        client, game(a, "/hands"), {"number": 1, "entry": {"closer": 0, "cards": cards}}
    )
    assert response.status_code == 201
    assert response.json()["hand"]["scores"] == [-10, 35]
    assert response.json()["hand"]["facts"]["chinchon"] is True
    refused = post(
        client,
        game(a, "/hands"),
        {"number": 1, "entry": {"closer": 0, "cards": [["8O"], ["1C"]]}},
    )
    assert refused.status_code == 422
