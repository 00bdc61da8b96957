"""The seats are drawn by lot, so a program entering hands knows its players, not
their seat numbers: the table's answer lists every seat with its player's id, and a
hand's knocker may be named by that id instead of the seat; the seat's number keeps
working. A player who has no seat at the party is a 422 in a sentence."""

import pytest
from django.test import Client

from tests.factories import OrganizerFactory, PlayerFactory, start_party

pytestmark = pytest.mark.django_db


def seats(party):
    return list(party.seats.select_related("player").order_by("position"))


def table(seat, path=""):
    return f"/api/tables/{seat.token}{path}"


def post(client, url, data):
    return client.post(url, data, content_type="application/json")


def by_player(number, player, mine, theirs):
    return {
        "number": number,
        "ending": "knock",
        "knocker_player": player.pk,
        "knocker_deadwood": mine,
        "defender_deadwood": theirs,
    }


def test_the_table_lists_each_seat_with_its_player(client):
    party = start_party()

    body = client.get(table(seats(party)[0])).json()

    assert body["seats"] == [
        {"position": s.position, "side": s.side, "player": s.player.name, "player_id": s.player_id}
        for s in seats(party)
    ]


def test_a_knocker_named_by_player_id_knocks_from_his_seat(client):
    party = start_party()
    a, b = seats(party)

    entered = post(client, table(a, "/hands"), by_player(1, b.player, 3, 21))
    # The other phone says the same, by the seat's number: it confirms.
    same = post(
        client,
        table(b, "/hands"),
        {"number": 1, "ending": "knock", "knocker": b.position,
         "knocker_deadwood": 3, "defender_deadwood": 21},
    )  # fmt: skip

    assert entered.status_code == 201, entered.content
    assert entered.json()["hand"]["knocker"]["position"] == b.position
    assert entered.json()["hand"]["winner"]["player"] == b.player.name
    assert same.json()["outcome"] == "confirmed"


def test_a_hand_by_its_cards_takes_the_knocker_by_player_id(client):
    party = start_party()
    a, _ = seats(party)
    body = {
        "number": 1,
        "knocker_player": a.player_id,
        "knocker_cards": ["AS", "2S", "3S", "4H", "5H", "6H", "7D", "8D", "9D", "KC"],
        "defender_cards": ["2C", "3C", "9H", "9S", "JD", "QD", "5C", "6C", "7S", "8S"],
    }

    entered = post(client, table(a, "/hands"), body)

    assert entered.status_code == 201, entered.content
    assert entered.json()["hand"]["knocker"]["position"] == a.position


def test_a_player_without_a_seat_at_the_party_is_refused_and_nothing_is_stored(client):
    party = start_party()
    a, _ = seats(party)
    stranger = PlayerFactory()

    refused = post(client, table(a, "/hands"), by_player(1, stranger, 3, 21))

    assert refused.status_code == 422
    assert refused.json()["code"] == "invalid_entry"
    assert refused.json()["detail"] == f"Player {stranger.pk} has no seat at this party."
    assert not party.hands.exists()


def test_the_knocker_is_named_once(client):
    party = start_party()
    a, _ = seats(party)
    body = {**by_player(1, a.player, 3, 21), "knocker": a.position}

    refused = post(client, table(a, "/hands"), body)

    assert refused.status_code == 422
    assert "Name the knocker once" in refused.json()["detail"]
    assert not party.hands.exists()


def test_a_no_game_has_no_knocker_by_player_id_either(client):
    party = start_party()
    a, _ = seats(party)
    body = {"number": 1, "ending": "no_game", "knocker_player": a.player_id}

    refused = post(client, table(a, "/hands"), body)

    assert refused.status_code == 422
    assert refused.json()["detail"] == "A no-game has no knocker, no deadwood and no rulings."


def test_in_rotation_the_player_sitting_out_cannot_be_named_knocker(client):
    party = start_party("rotation", players=3)
    views = {s.position: client.get(table(s)).json() for s in seats(party)}
    out = next(s for s in seats(party) if views[s.position]["sits_out"])
    playing = next(s for s in seats(party) if not views[s.position]["sits_out"])

    refused = post(client, table(playing, "/hands"), by_player(1, out.player, 3, 21))

    assert refused.status_code == 409
    assert refused.json()["code"] == "not_your_hand"
    assert not party.hands.exists()


def test_the_organizer_corrects_a_hand_naming_the_knocker_by_player_id(client):
    party = start_party(confirmation_required=False)
    a, b = seats(party)
    post(client, table(a, "/hands"), {**by_player(1, a.player, 3, 21)})
    hand = party.hands.get()
    office = Client()
    office.force_login(OrganizerFactory(club=party.club).player.user)

    decided = post(
        office,
        f"/api/parties/{party.pk}/hands/{hand.pk}/decide",
        {"action": "correct", "reason": "B knocked", "result": {
            "ending": "knock", "knocker_player": b.player_id,
            "knocker_deadwood": 3, "defender_deadwood": 21}},
    )  # fmt: skip

    assert decided.status_code == 200, decided.content
    assert decided.json()["hand"]["knocker"]["position"] == b.position


def test_the_document_lists_both_ways_of_naming_the_knocker(client):
    document = client.get("/api/openapi.json").json()
    entry = document["components"]["schemas"]["HandEntryIn"]
    titles = [variant["title"] for variant in entry["anyOf"]]

    assert "Knock (HandEntryIn)" in titles
    assert "Knock, the knocker by player id (HandEntryIn)" in titles
    by_id = entry["anyOf"][titles.index("Knock, the knocker by player id (HandEntryIn)")]
    assert "knocker_player" in by_id["required"]
    assert "knocker" not in by_id["properties"]
