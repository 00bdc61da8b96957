"""Idempotency keys belong to the seat that sent them: a key sent from one table's
link never answers for another table, whatever it looks like."""

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from scoring.models import AuditRecord, Hand
from scoring.services.hands import hand_enter
from scoring.services.knocks import Result
from tests.factories import start_party

pytestmark = pytest.mark.django_db

KNOCK = {
    "number": 1,
    "ending": "knock",
    "knocker": 0,
    "knocker_deadwood": 3,
    "defender_deadwood": 21,
}


def api(client, seat, path, body):
    return client.post(f"/api/tables/{seat.token}{path}", body, content_type="application/json")


def test_a_key_sent_from_another_table_does_not_swallow_this_tables_hand(client):
    """The reproduction: anyone holding any seat link sends an entry through the page
    with the key another seat's API client will use ("<seat id>:hand-1", or plain
    "hand-1"); that seat's own entry is stored, and it gets its own hand back."""
    attacker, _ = start_party(seed=1).seats.order_by("position")
    victim_party = start_party(seed=2)
    victim, _ = victim_party.seats.order_by("position")
    for key in (f"{victim.pk}:hand-1", "hand-1"):
        client.post(
            reverse("seat:table-enter", args=[attacker.token]),
            {**KNOCK, "ending": "gin", "knocker_deadwood": 0, "key": key},
        )

    response = api(client, victim, "/hands", {**KNOCK, "key": "hand-1"})

    assert response.status_code == 201
    assert response.json()["outcome"] == "entered"
    hand = victim_party.hands.get()
    assert (hand.ending, hand.entered_by) == (Hand.Ending.KNOCK, victim)
    assert response.json()["hand"]["id"] == hand.pk
    assert response.json()["hand"]["ending"] == "knock"
    again = api(client, victim, "/hands", {**KNOCK, "key": "hand-1"})
    assert (again.status_code, again.json()["outcome"]) == (200, "repeated")
    assert victim_party.hands.count() == 1


def test_a_key_sent_from_another_table_does_not_swallow_this_tables_confirmation(client):
    attacker_party = start_party(seed=1)
    a, b = attacker_party.seats.order_by("position")
    hand_enter(seat=a, number=1, entry=Result("knock", 0, 3, 21))
    party = start_party(seed=2)
    c, d = party.seats.order_by("position")
    hand_enter(seat=c, number=1, entry=Result("knock", 0, 4, 30))
    api(client, b, "/hands/1/confirm", {"version": 1, "key": "confirm-1"})

    response = api(client, d, "/hands/1/confirm", {"version": 1, "key": "confirm-1"})

    assert (response.status_code, response.json()["outcome"]) == (200, "confirmed")
    assert party.hands.get().status == Hand.Status.CONFIRMED
    assert response.json()["hand"]["defender_deadwood"] == 30


def test_the_page_and_the_api_store_the_key_as_sent_with_its_seat(client):
    party = start_party()
    a, b = party.seats.order_by("position")
    client.post(reverse("seat:table-enter", args=[a.token]), {**KNOCK, "key": "page-1"})
    api(client, b, "/hands/1/confirm", {"version": 1, "key": "api-1"})

    assert set(party.audit.exclude(key=None).values_list("seat", "key")) == {
        (a.pk, "page-1"),
        (b.pk, "api-1"),
    }


def test_the_database_holds_a_key_once_per_seat():
    party = start_party()
    a, b = party.seats.order_by("position")
    AuditRecord.objects.create(party=party, action="enter", seat=a, key="k")
    AuditRecord.objects.create(party=party, action="enter", seat=b, key="k")
    with pytest.raises(IntegrityError), transaction.atomic():
        AuditRecord.objects.create(party=party, action="enter", seat=a, key="k")


@pytest.mark.parametrize("key", ["x" * 65, "two words", "ключ", "a\x00b", "<script>"])
def test_a_key_out_of_shape_is_refused_with_a_message(client, key):
    party = start_party()
    a, _ = party.seats.order_by("position")

    page = client.post(
        reverse("seat:table-enter", args=[a.token]), {**KNOCK, "key": key}, follow=True
    )
    response = api(client, a, "/hands", {**KNOCK, "key": key})

    assert page.status_code == 400
    assert [str(m) for m in page.context["messages"]] != []
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "key"
    assert not party.hands.exists()


def test_a_used_key_sent_with_another_body_is_refused_and_the_entry_kept(client):
    """The probe: the same key with another entry was answered 200 "repeated" and
    the new entry dropped without a word."""
    party = start_party()
    a, _ = party.seats.order_by("position")
    api(client, a, "/hands", {**KNOCK, "key": "k-1"})

    response = api(client, a, "/hands", {**KNOCK, "defender_deadwood": 30, "key": "k-1"})

    assert response.status_code == 409
    assert response.json()["code"] == "key_reused"
    assert "another" in response.json()["detail"]
    hand = party.hands.get()
    assert (hand.defender_deadwood, hand.version) == (21, 1)


def test_hand_ones_key_sent_again_for_hand_two_is_refused_not_repeated(client):
    party = start_party(confirmation_required=False)
    a, _ = party.seats.order_by("position")
    assert api(client, a, "/hands", {**KNOCK, "key": "k-1"}).status_code == 201

    reused = api(client, a, "/hands", {**KNOCK, "number": 2, "key": "k-1"})

    assert (reused.status_code, reused.json()["code"]) == (409, "key_reused")
    assert party.hands.count() == 1
    fresh = api(client, a, "/hands", {**KNOCK, "number": 2, "key": "k-2"})
    assert (fresh.status_code, fresh.json()["outcome"]) == (201, "recorded")


def test_an_entrys_key_sent_with_a_confirmation_is_refused(client):
    party = start_party()
    a, b = party.seats.order_by("position")
    hand_enter(seat=a, number=1, entry=Result("knock", 0, 3, 21))
    api(client, b, "/hands", {**KNOCK, "defender_deadwood": 22, "key": "b-1"})
    party.hands.update(status=Hand.Status.PENDING, counter=None)

    response = api(client, b, "/hands/1/confirm", {"version": 2, "key": "b-1"})

    assert (response.status_code, response.json()["code"]) == (409, "key_reused")
    assert party.hands.get().status == Hand.Status.PENDING


def test_the_same_body_under_its_key_is_repeated_however_often():
    party = start_party()
    a, _ = party.seats.order_by("position")
    result = Result("gin", 0, 0, 21, {"knocker_cards": ["AS"]})
    first = hand_enter(seat=a, number=1, entry=result, key="k-1")
    again = [hand_enter(seat=a, number=1, entry=result, key="k-1") for _ in range(3)]

    assert first.action == "entered"
    assert {o.action for o in again} == {"repeated"}
    assert party.hands.get().version == 1


def test_an_identical_entry_sent_again_with_a_new_key_does_not_raise_the_version(client):
    """The probe: each re-send with a new key raised the version, so the opponent's
    confirmation of what his phone showed was refused with 409."""
    party = start_party()
    a, b = party.seats.order_by("position")
    for key in ("k-1", "k-2", "k-3"):
        api(client, a, "/hands", {**KNOCK, "key": key})

    assert party.hands.get().version == 1
    confirmed = api(client, b, "/hands/1/confirm", {"version": 1, "key": "c-1"})
    assert (confirmed.status_code, confirmed.json()["outcome"]) == (200, "confirmed")


def test_a_correction_with_a_new_key_still_raises_the_version():
    party = start_party()
    a, _ = party.seats.order_by("position")
    hand_enter(seat=a, number=1, entry=Result("knock", 0, 3, 21), key="k-1")
    outcome = hand_enter(seat=a, number=1, entry=Result("knock", 0, 3, 25), key="k-2")

    assert (outcome.action, outcome.hand.version) == ("entered", 2)


def test_the_page_says_why_a_reused_key_was_refused(client):
    """The phone's outbox sends the page's form: the refusal is a message on the
    seat's page (a redirect the outbox follows), not a silent drop."""
    party = start_party()
    a, _ = party.seats.order_by("position")
    enter = reverse("seat:table-enter", args=[a.token])
    client.post(enter, {**KNOCK, "key": "page-1"})

    response = client.post(enter, {**KNOCK, "defender_deadwood": 30, "key": "page-1"}, follow=True)

    assert response.status_code == 200
    said = [str(m) for m in response.context["messages"]]
    assert any("another" in m for m in said), said
    assert party.hands.get().defender_deadwood == 21


def test_a_key_recorded_before_keys_were_bound_answers_only_for_its_own_hand(client):
    """Records written before keys were bound to what they carried have no
    fingerprint: such a key is a repeat for its own hand, and refused for another."""
    party = start_party(confirmation_required=False)
    a, _ = party.seats.order_by("position")
    hand = hand_enter(seat=a, number=1, entry=Result("knock", 0, 3, 21)).hand
    AuditRecord.objects.create(
        party=party, hand=hand, action=AuditRecord.Action.ENTER, seat=a, key="old-1"
    )

    again = api(client, a, "/hands", {**KNOCK, "key": "old-1"})
    assert (again.status_code, again.json()["outcome"]) == (200, "repeated")
    reused = api(client, a, "/hands", {**KNOCK, "number": 2, "key": "old-1"})
    assert (reused.status_code, reused.json()["code"]) == (409, "key_reused")
    assert party.hands.count() == 1
