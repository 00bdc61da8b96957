"""Only what ten cards can make is stored, by the seat page, the API and the
organizer's decision alike; each refusal says what is wrong, and nothing is
rewritten on the way."""

import pytest
from django.test import Client
from django.urls import reverse

from scoring import errors
from scoring.services.hands import hand_enter
from scoring.services.knocks import Result
from tests.factories import OrganizerFactory, start_party

pytestmark = pytest.mark.django_db


def seats(party):
    return list(party.seats.select_related("player").order_by("position"))


def page_entry(client, seat, **fields):
    data = {"number": 1, **fields}
    return client.post(reverse("seat:table-enter", args=[seat.token]), data, follow=True)


def api_entry(client, seat, **fields):
    return client.post(
        f"/api/tables/{seat.token}/hands", {"number": 1, **fields}, content_type="application/json"
    )


def messages(response):
    return [str(message) for message in response.context["messages"]]


# Each case: the rules, what the table says, the API's code, and what the message says.
REFUSED = [
    ("classic", {"ending": "knock", "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 105},
     "impossible_deadwood", "cannot be 105"),
    ("classic", {"ending": "knock", "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 99},
     "impossible_deadwood", "at most 98"),
    ("classic", {"ending": "gin", "knocker": 0, "knocker_deadwood": 5, "defender_deadwood": 30},
     "impossible_claim", "Gin means no deadwood"),
    ("classic", {"ending": "knock", "knocker": 0, "knocker_deadwood": 12, "defender_deadwood": 30},
     "illegal_knock", "at most 10 points"),
    ("classic", {"ending": "big_gin", "knocker": 0, "defender_deadwood": 30},
     "unknown_ending", "do not know big gin"),
    ("oklahoma", {"ending": "knock", "knocker": 0, "knocker_deadwood": 9, "defender_deadwood": 30},
     "missing_up_card", "up-card"),
]  # fmt: skip


@pytest.mark.parametrize(("rules", "fields", "code", "message"), REFUSED)
def test_the_seat_page_refuses_with_a_message_and_stores_nothing(
    client, rules, fields, code, message
):
    party = start_party(rules=rules)
    a, _ = seats(party)
    response = page_entry(client, a, **fields)
    assert response.status_code == 400
    assert any(message in text for text in messages(response)), messages(response)
    assert not party.hands.exists()


@pytest.mark.parametrize(("rules", "fields", "code", "message"), REFUSED)
def test_the_api_refuses_with_a_422_and_stores_nothing(client, rules, fields, code, message):
    party = start_party(rules=rules)
    a, _ = seats(party)
    response = api_entry(client, a, **fields)
    assert response.status_code == 422
    assert response.json()["code"] in (code, "invalid_entry")
    assert message in response.json()["detail"]
    assert not party.hands.exists()


@pytest.mark.parametrize(("rules", "fields", "code", "message"), REFUSED)
def test_the_service_refuses_whoever_calls_it(rules, fields, code, message):
    party = start_party(rules=rules)
    a, _ = seats(party)
    with pytest.raises(ValueError) as refused:
        hand_enter(seat=a, number=1, entry=Result(**fields))
    assert message in errors.explain(refused.value)
    assert not party.hands.exists()


def test_the_organizers_decision_refuses_too_and_changes_nothing(client):
    party = start_party()
    a, _ = seats(party)
    hand = hand_enter(seat=a, number=1, entry=Result("knock", 0, 3, 21)).hand
    organizer = OrganizerFactory(club=party.club).player.user
    desk = Client()
    desk.force_login(organizer)

    page = desk.post(
        reverse("manage:hand-decide", args=[hand.pk]),
        {"decision": "correct", "ending": "knock", "knocker": 0, "knocker_deadwood": 3,
         "defender_deadwood": 120, "reason": "recount"},
    )  # fmt: skip
    api = desk.post(
        f"/api/parties/{party.pk}/hands/{hand.pk}/decide",
        {"action": "correct", "reason": "recount",
         "result": {"ending": "big_gin", "knocker": 0, "defender_deadwood": 20}},
        content_type="application/json",
    )  # fmt: skip

    assert page.status_code == 400
    assert "cannot be 120" in page.text
    assert (api.status_code, api.json()["code"]) == (422, "unknown_ending")
    hand.refresh_from_db()
    assert (hand.defender_deadwood, hand.points, hand.ending) == (21, 18, "knock")


def test_big_gin_is_offered_only_under_rules_that_know_it(client):
    classic, cardgames = start_party(), start_party(rules="cardgames")
    big_gin = 'name="ending" value="big_gin"'
    assert big_gin not in client.get(seats(classic)[0].get_absolute_url()).text
    assert big_gin in client.get(seats(cardgames)[0].get_absolute_url()).text


def test_the_organizer_is_not_offered_big_gin_under_rules_without_it(client):
    party = start_party()
    hand = hand_enter(seat=seats(party)[0], number=1, entry=Result("knock", 0, 3, 21)).hand
    desk = Client()
    desk.force_login(OrganizerFactory(club=party.club).player.user)
    text = desk.get(reverse("manage:party-detail", args=[party.pk])).text
    assert f'id="hand-{hand.pk}-ending' in text
    assert 'value="big_gin"' not in text


def test_gin_entered_with_no_knocker_deadwood_is_stored_as_gin(client):
    party = start_party()
    a, _ = seats(party)
    page_entry(client, a, ending="gin", knocker=0, defender_deadwood=30)
    hand = party.hands.get()
    assert (hand.ending, hand.knocker_deadwood, hand.points) == ("gin", 0, 50)
