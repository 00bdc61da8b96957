"""A seat that sits a hand out (three in rotation: the loser of a hand sits out the
next; a chouette's waiting partners) follows the hand through the seat API as its
page does: who plays and deals it and its entry, and that it sits this one out. It
may neither enter nor confirm it."""

import pytest

from scoring.models import Hand
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result
from tests.factories import start_party

pytestmark = pytest.mark.django_db


def table(seat, path=""):
    return f"/api/tables/{seat.token}{path}"


def post(client, url, data):
    return client.post(url, data, content_type="application/json")


def views(client, party):
    """Each seat's answer, by seat."""
    return {s: client.get(table(s)).json() for s in party.seats.order_by("position")}


def test_the_seat_sitting_out_sees_who_plays_and_deals_and_is_told_it_sits_out(client):
    party = start_party("rotation", players=3)

    seen = views(client, party)

    (out,) = [s for s, body in seen.items() if body["sits_out"]]
    playing = [s for s, body in seen.items() if not body["sits_out"]]
    assert len(playing) == 2
    for seat in playing:
        assert seen[out]["players"] == seen[seat]["players"]
        assert seen[out]["dealer"] == seen[seat]["dealer"]
    assert {p["position"] for p in seen[out]["players"]} == {s.position for s in playing}
    assert seen[out]["number"] == 1
    assert seen[out]["can_confirm"] is False


def test_the_seat_sitting_out_sees_the_hand_entered_and_may_not_confirm_it(client):
    party = start_party("rotation", players=3)
    seen = views(client, party)
    (out,) = [s for s, body in seen.items() if body["sits_out"]]
    forehand = next(s for s in seen if s.position == seen[out]["players"][0]["position"])
    entered = post(
        client,
        table(forehand, "/hands"),
        {"number": 1, "ending": "knock", "knocker": forehand.position,
         "knocker_deadwood": 3, "defender_deadwood": 21},
    ).json()  # fmt: skip

    body = client.get(table(out)).json()
    refused = post(client, table(out, "/hands/1/confirm"), {"version": 1})

    assert body["open_hand"] == entered["hand"]
    assert (body["open_hand"]["number"], body["can_confirm"]) == (1, False)
    assert refused.status_code == 409
    assert party.hands.get().status == Hand.Status.PENDING


def test_the_loser_of_a_hand_sits_out_the_next_and_is_told_so(client):
    party = start_party("rotation", players=3)
    seen = views(client, party)
    forehand, dealer = (
        next(s for s in seen if s.position == p["position"])
        for p in next(iter(seen.values()))["players"]
    )
    hand_enter(seat=forehand, number=1, entry=Result("knock", forehand.position, 3, 21))
    hand_confirm(seat=dealer, number=1, version=1)

    after = client.get(table(dealer)).json()

    assert after["sits_out"] is True
    assert after["number"] == 2
    assert dealer.position not in {p["position"] for p in after["players"]}
    assert client.get(table(forehand)).json()["sits_out"] is False


def test_a_chouette_s_waiting_partner_sees_the_hand_of_the_box(client):
    party = start_party("chouette", players=3)

    seen = views(client, party)

    waiting = [s for s, body in seen.items() if body["sits_out"]]
    assert len(waiting) == 1
    assert len(seen[waiting[0]]["players"]) == 2


@pytest.mark.parametrize("hands", [1, 12])
def test_the_seat_sitting_out_reads_in_the_same_queries_however_many_hands(
    client, django_assert_max_num_queries, hands
):
    party = start_party("rotation", players=3)
    for number in range(1, hands + 1):
        players = client.get(table(party.seats.first())).json()["players"]
        forehand, dealer = (party.seats.get(position=p["position"]) for p in players)
        hand_enter(seat=forehand, number=number, entry=Result("knock", forehand.position, 9, 10))
        hand_confirm(seat=dealer, number=number, version=1)
    (out,) = [s for s, body in views(client, party).items() if body["sits_out"]]

    with django_assert_max_num_queries(4):
        response = client.get(table(out))

    assert len(response.json()["sheet"]["rows"]) == hands
    assert len(response.json()["players"]) == 2
