import pytest
from django.urls import reverse

from scoring.models import Hand
from tests.factories import start_party

pytestmark = pytest.mark.django_db


def table_url(seat, name="table"):
    return reverse(f"scoring:{name}", args=[seat.token])


def enter(client, seat, number, **fields):
    data = {"number": number, "ending": "knock", **fields}
    return client.post(table_url(seat, "table-enter"), data, follow=True)


def test_a_seat_link_opens_the_party_without_login(client):
    party = start_party()
    seat = party.seats.first()
    response = client.get(table_url(seat))
    assert response.status_code == 200
    assert seat.player.name in response.text
    assert "Hand 1" in response.text


def test_an_unknown_link_is_a_404(client):
    assert client.get("/table/not-a-real-token/").status_code == 404


def test_enter_and_confirm_from_two_phones(client):
    party = start_party()
    a, b = party.seats.order_by("position")
    response = enter(client, a, 1, knocker=0, knocker_deadwood=3, defender_deadwood=21)
    assert "waiting for the other side" in response.text

    response = client.post(table_url(b, "table-confirm"), {"number": 1}, follow=True)

    assert "Hand 1 confirmed" in response.text
    assert party.hands.get().status == Hand.Status.CONFIRMED
    assert "Hand 2" in response.text


def test_an_illegal_knock_gets_a_message_not_an_error(client):
    party = start_party()
    a, _ = party.seats.order_by("position")
    response = client.post(
        table_url(a, "table-enter"),
        {
            "number": 1,
            "ending": "knock",
            "knocker": 0,
            "knocker_deadwood": 11,
            "defender_deadwood": 30,
        },
        follow=True,
    )
    assert response.status_code == 200
    assert "Knocker" in response.text
    assert not party.hands.exists()


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"number": "x", "ending": "knock"},
        {"number": 1, "ending": "fold"},
        {"number": 1, "ending": "knock"},
        {"number": 1, "ending": "gin", "knocker": 7, "defender_deadwood": 5},
        {"number": 1, "ending": "gin", "knocker": 0, "defender_deadwood": -5},
    ],
)
def test_nonsense_entries_get_a_message_and_store_nothing(client, data):
    party = start_party()
    seat = party.seats.first()
    response = client.post(table_url(seat, "table-enter"), data, follow=True)
    assert response.status_code == 200
    assert response.context["messages"]
    assert not party.hands.exists()


def test_confirming_your_own_entry_is_refused_by_the_server(client):
    party = start_party()
    a, _ = party.seats.order_by("position")
    enter(client, a, 1, knocker=0, knocker_deadwood=3, defender_deadwood=21)
    response = client.post(table_url(a, "table-confirm"), {"number": 1}, follow=True)
    assert "other side confirms" in response.text
    assert party.hands.get().status == Hand.Status.PENDING


def test_a_stale_page_is_told_the_hand_is_already_recorded(client):
    party = start_party(confirmation_required=False)
    a, _ = party.seats.order_by("position")
    enter(client, a, 1, knocker=0, knocker_deadwood=3, defender_deadwood=21)
    response = enter(client, a, 1, knocker=0, knocker_deadwood=3, defender_deadwood=25)
    assert "already recorded" in response.text
    assert party.hands.count() == 1


def test_the_state_endpoint_changes_when_a_hand_is_entered(client):
    party = start_party()
    a, b = party.seats.order_by("position")
    before = client.get(table_url(b, "table-state")).json()["version"]
    enter(client, a, 1, knocker=0, knocker_deadwood=3, defender_deadwood=21)
    assert client.get(table_url(b, "table-state")).json()["version"] != before


@pytest.mark.parametrize("hands", [1, 12])
def test_the_sheet_query_count_does_not_grow_with_hands(
    client, django_assert_max_num_queries, hands
):
    party = start_party(confirmation_required=False)
    a, b = party.seats.order_by("position")
    for number in range(1, hands + 1):
        enter(client, a, number, knocker=0, knocker_deadwood=9, defender_deadwood=10)
    with django_assert_max_num_queries(8):
        response = client.get(table_url(a))
    assert response.status_code == 200
    with django_assert_max_num_queries(20):
        enter(client, b, hands + 1, knocker=1, knocker_deadwood=9, defender_deadwood=10)


def test_the_finished_party_shows_the_settlement_on_both_seats(client):
    party = start_party(confirmation_required=False)
    a, b = party.seats.order_by("position")
    for number, (knocker, points) in enumerate(
        [(0, 23), (0, 27), (1, 32), (0, 35), (1, 10), (0, 19)], start=1
    ):
        enter(client, a, number, knocker=knocker, knocker_deadwood=2, defender_deadwood=2 + points)
    for seat in (a, b):
        text = client.get(table_url(seat)).text
        assert "Party over" in text
        assert "284" in text and "82" in text
        assert f"{b.player.name} pays {a.player.name} 202" in text
