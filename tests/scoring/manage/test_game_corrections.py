"""The organizer corrects or voids a confirmed hand of another game on its party's
page, with a reason; a refusal comes back beside the form, never as an error page."""

import pytest
from django.urls import reverse

from scoring.models import AuditRecord, Hand
from scoring.services.hands import hand_enter
from tests.factories import ClubNightFactory, start_game_party

pytestmark = pytest.mark.django_db


@pytest.fixture
def chinchon(organizer):
    """Three confirmed hands of Chinchón at a night of the organizer's club."""
    night = ClubNightFactory(club=organizer.club)
    party = start_game_party("chinchon", 2, night=night, confirmation_required=False)
    a, _b = party.seats.order_by("position")
    hand_enter(seat=a, number=1, entry={"closer": 0, "penalties": [0, 60]})
    hand_enter(seat=a, number=2, entry={"closer": 0, "penalties": [0, 30]})
    hand_enter(seat=a, number=3, entry={"closer": 0, "penalties": [0, 5]})
    return party


def decide(client, hand, data):
    return client.post(reverse("manage:hand-decide", args=[hand.pk]), data)


def test_each_confirmed_hand_offers_its_correction_and_its_void(client, chinchon):
    response = client.get(reverse("manage:party-detail", args=[chinchon.pk]))

    for hand in chinchon.hands.all():
        assert f'id="hand-{hand.pk}-correct"' in response.text
        assert f'id="hand-{hand.pk}-void"' in response.text


def test_a_confirmed_hand_is_corrected_with_a_reason(client, chinchon):
    hand = chinchon.hands.get(number=1)

    response = decide(
        client,
        hand,
        {
            "action": "correct",
            "closer": "0",
            "penalty_0": "0",
            "penalty_1": "50",
            "reason": "recounted",
        },
    )

    assert response.status_code == 302
    hand.refresh_from_db()
    assert (hand.status, hand.scores) == (Hand.Status.CONFIRMED, [-10, 50])
    assert "Hand 1: corrected." in client.get(response["Location"]).text
    assert AuditRecord.objects.get(hand=hand, action="correct").reason == "recounted"


def test_a_hand_is_voided_with_a_reason_and_its_forms_go(client, chinchon):
    hand = chinchon.hands.get(number=3)

    response = decide(client, hand, {"action": "void", "reason": "misdeal"})

    assert response.status_code == 302
    hand.refresh_from_db()
    assert hand.status == Hand.Status.VOID
    assert str(hand.decided_by_id) == client.session["_auth_user_id"]
    page = client.get(response["Location"]).text
    assert "Hand 3: voided." in page
    assert f'id="hand-{hand.pk}-void"' not in page


def test_a_correction_that_undoes_a_later_hand_comes_back_with_the_reason(client, chinchon):
    # 45 in hand 2 would end the party (60 + 45) before hand 3 was dealt.
    hand = chinchon.hands.get(number=2)

    response = decide(
        client,
        hand,
        {"action": "correct", "closer": "0", "penalty_0": "0", "penalty_1": "45", "reason": "r"},
    )

    assert response.status_code == 400
    assert "void the later hands first" in response.text
    hand.refresh_from_db()
    assert (hand.scores, hand.version) == ([-10, 30], 1)


def test_voiding_needs_a_reason(client, chinchon):
    hand = chinchon.hands.get(number=2)

    response = decide(client, hand, {"action": "void", "reason": ""})

    assert response.status_code == 400
    hand.refresh_from_db()
    assert hand.status == Hand.Status.CONFIRMED


def test_a_rematch_keeps_the_table_and_passes_the_deal(client, organizer):
    night = ClubNightFactory(club=organizer.club)
    party = start_game_party(
        "canasta", 4, night=night, confirmation_required=False, label="Table 3"
    )
    seats = list(party.seats.order_by("position"))
    won = {"meld_points": 600, "natural_canastas": 2, "mixed_canastas": 1, "went_out": True}
    lost = {"meld_points": 300, "hand_points": 40}
    for number in (1, 2, 3):  # 5,000 reached
        hand_enter(seat=seats[0], number=number, entry={"sides": [won, lost]})
    party.refresh_from_db()
    assert party.status == party.Status.FINISHED
    page = client.get(reverse("manage:party-detail", args=[party.pk])).text
    assert 'id="party-rematch"' in page

    response = client.post(reverse("manage:party-rematch", args=[party.pk]))
    again = client.post(reverse("manage:party-rematch", args=[party.pk]))

    rematch = party.rematch
    assert response.url == again.url == reverse("manage:party-detail", args=[rematch.pk])
    assert (rematch.game, rematch.rules, rematch.label) == (party.game, party.rules, "Table 3")
    # The second seat deals first; partners still sit opposite.
    players = [seat.player_id for seat in seats]
    moved = list(rematch.seats.order_by("position"))
    assert [seat.player_id for seat in moved] == players[1:] + players[:1]
    assert [seat.side for seat in moved] == [0, 1, 0, 1]
    assert "the next player deals first" in client.get(response.url).text
