"""A confirmation approves exactly the entry the confirming phone showed.

The reproduction: seat 0 enters knock 2 : 30 (28 points), seat 1's phone shows 28,
seat 0 corrects the entry to gin with 98 against him, and seat 1 taps "Confirm" on
the page that still shows 28. The tap names the version it showed; the entry changed
since, so it is refused, nothing is confirmed, and the phone is shown the new entry
to confirm again (or not)."""

import pytest
from django.urls import reverse

from scoring import errors, selectors
from scoring.models import AuditRecord, Hand, Party
from scoring.services.hands import hand_confirm, hand_decide, hand_enter
from scoring.services.knocks import Result
from tests.factories import UserFactory, start_party

pytestmark = pytest.mark.django_db

KNOCK_28 = Result("knock", knocker=0, knocker_deadwood=2, defender_deadwood=30)
GIN_98 = Result("gin", knocker=0, knocker_deadwood=0, defender_deadwood=98)


def seats(party):
    return list(party.seats.order_by("position"))


def nothing_confirmed(party):
    hand = party.hands.get()
    assert hand.status == Hand.Status.PENDING
    assert hand.confirmed_by is None
    assert not party.audit.filter(action=AuditRecord.Action.CONFIRM).exists()
    assert Party.objects.get(pk=party.pk).status == Party.Status.RUNNING
    return hand


# --- The service ---------------------------------------------------------------------


def test_a_confirmation_of_an_entry_changed_since_is_refused():
    party = start_party()
    a, b = seats(party)
    shown = hand_enter(seat=a, number=1, entry=KNOCK_28).hand
    assert shown.points == 28
    hand_enter(seat=a, number=1, entry=GIN_98)

    with pytest.raises(errors.EntryChanged, match="changed hand 1") as refused:
        hand_confirm(seat=b, number=1, version=shown.version)

    assert (refused.value.hand.ending, refused.value.hand.points) == ("gin", 118)
    hand = nothing_confirmed(party)
    assert (hand.ending, hand.points) == ("gin", 118)


def test_the_changed_entry_is_confirmed_once_its_new_version_is_named():
    party = start_party()
    a, b = seats(party)
    first = hand_enter(seat=a, number=1, entry=KNOCK_28).hand
    second = hand_enter(seat=a, number=1, entry=GIN_98).hand
    assert second.version != first.version

    outcome = hand_confirm(seat=b, number=1, version=second.version)

    assert outcome.action == "confirmed"
    hand = party.hands.get()
    assert (hand.status, hand.points, hand.confirmed_by) == (Hand.Status.CONFIRMED, 118, b)
    confirmation = party.audit.get(action=AuditRecord.Action.CONFIRM)
    assert (confirmation.before["ending"], confirmation.before["points"]) == ("gin", 118)
    assert confirmation.before["version"] == second.version


def test_every_correction_is_a_new_version_and_changes_what_the_phones_poll():
    party = start_party()
    a, _ = seats(party)
    versions, polled = [], []
    for result in (KNOCK_28, GIN_98, KNOCK_28):
        versions.append(hand_enter(seat=a, number=1, entry=result).hand.version)
        polled.append(selectors.party_version(party))
    assert len(set(versions)) == 3
    assert len(set(polled)) == 3


def test_an_answer_by_entering_the_same_result_names_the_version_it_answers():
    """The other side may confirm by entering the same result: that answer to an
    entry that changed since is refused too, and nothing is confirmed or disputed."""
    party = start_party()
    a, b = seats(party)
    shown = hand_enter(seat=a, number=1, entry=KNOCK_28).hand
    hand_enter(seat=a, number=1, entry=GIN_98)

    with pytest.raises(errors.EntryChanged):
        hand_enter(seat=b, number=1, entry=KNOCK_28, version=shown.version)
    with pytest.raises(errors.EntryChanged):
        hand_enter(seat=b, number=1, entry=GIN_98, version=shown.version)

    hand = nothing_confirmed(party)
    assert hand.counter is None


def test_an_organizers_void_after_the_phone_showed_the_entry_leaves_nothing_to_confirm():
    party = start_party()
    a, b = seats(party)
    shown = hand_enter(seat=a, number=1, entry=KNOCK_28).hand
    hand_decide(hand=shown, user=UserFactory(), entry=None, reason="misdeal")

    with pytest.raises(errors.StaleEntry):
        hand_confirm(seat=b, number=1, version=shown.version)

    assert party.hands.get().status == Hand.Status.VOID
    assert not party.audit.filter(action=AuditRecord.Action.CONFIRM).exists()


# --- The seat page ---------------------------------------------------------------------


def page(client, seat):
    return client.get(reverse("seat:table", args=[seat.token]))


def test_the_page_refuses_to_confirm_a_changed_entry_and_shows_the_new_one(client):
    party = start_party()
    a, b = seats(party)
    hand_enter(seat=a, number=1, entry=KNOCK_28)
    shown = page(client, b)
    assert "+28" in shown.text
    form = {
        "number": 1,
        "version": shown.context["open_hand"].version,
        "key": shown.context["key"],
    }
    assert f'name="version" value="{form["version"]}"' in shown.text
    client.post(
        reverse("seat:table-enter", args=[a.token]),
        {"number": 1, "ending": "gin", "knocker": 0, "defender_deadwood": 98, "key": "fix"},
    )

    response = client.post(reverse("seat:table-confirm", args=[b.token]), form, follow=True)

    assert f"{a.player.name} changed hand 1 after your phone showed it" in response.text
    hand = nothing_confirmed(party)
    # The new entry is on the phone, marked as a change, with its own version to confirm.
    assert "+118" in response.text and "+28" not in response.text
    assert 'id="entry-changed"' in response.text
    assert response.context["open_hand"].version == hand.version
    assert f'name="version" value="{hand.version}"' in response.text


def test_the_page_confirms_without_a_version_never(client):
    party = start_party()
    a, b = seats(party)
    hand_enter(seat=a, number=1, entry=KNOCK_28)

    response = client.post(
        reverse("seat:table-confirm", args=[b.token]), {"number": 1}, follow=True
    )

    assert "This page is old" in response.text
    nothing_confirmed(party)


# --- The API ---------------------------------------------------------------------------


def api(client, seat, path, body):
    return client.post(f"/api/tables/{seat.token}{path}", body, content_type="application/json")


def test_the_api_answers_a_changed_entry_with_409_and_the_new_entry(client):
    party = start_party()
    a, b = seats(party)
    api(
        client,
        a,
        "/hands",
        {
            "number": 1,
            "ending": "knock",
            "knocker": 0,
            "knocker_deadwood": 2,
            "defender_deadwood": 30,
        },
    )
    shown = client.get(f"/api/tables/{b.token}").json()["open_hand"]
    assert shown["points"] == 28
    api(client, a, "/hands", {"number": 1, "ending": "gin", "knocker": 0, "defender_deadwood": 98})

    response = api(client, b, "/hands/1/confirm", {"version": shown["version"]})

    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "entry_changed"
    assert "changed hand 1" in body["detail"]
    assert (body["hand"]["ending"], body["hand"]["points"]) == ("gin", 118)
    hand = nothing_confirmed(party)
    assert body["hand"]["version"] == hand.version

    again = api(client, b, "/hands/1/confirm", {"version": body["hand"]["version"]})

    assert again.status_code == 200
    assert again.json()["hand"]["points"] == 118
    assert party.hands.get().status == Hand.Status.CONFIRMED


def test_the_api_takes_no_confirmation_that_names_no_version(client):
    party = start_party()
    a, b = seats(party)
    hand_enter(seat=a, number=1, entry=KNOCK_28)

    response = api(client, b, "/hands/1/confirm", {})

    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "version"
    nothing_confirmed(party)


def test_the_api_refuses_an_answering_entry_to_a_changed_version(client):
    party = start_party()
    a, b = seats(party)
    shown = hand_enter(seat=a, number=1, entry=KNOCK_28).hand
    hand_enter(seat=a, number=1, entry=GIN_98)

    response = api(
        client,
        b,
        "/hands",
        {
            "number": 1,
            "ending": "knock",
            "knocker": 0,
            "knocker_deadwood": 2,
            "defender_deadwood": 30,
            "version": shown.version,
        },
    )

    assert response.status_code == 409
    assert response.json()["code"] == "entry_changed"
    nothing_confirmed(party)
