"""The organizer corrects or voids a hand of another game (`hand_decide` with
``disputed=False`` or no entry): the hand alone changes, the record keeps what it
was and why, and a decision that would undo a later hand is refused whole."""

import pytest

from scoring import errors
from scoring.models import AuditRecord, Hand, Party
from scoring.services.hands import hand_confirm, hand_decide, hand_enter
from scoring.services.whole_table_sheet import game_sheet
from tests.factories import OrganizerFactory, start_game_party

pytestmark = pytest.mark.django_db


def played(game, players, entries, options=None):
    """A party whose hands are entered with no confirmation asked: each counts."""
    party = start_game_party(game, players, options, confirmation_required=False)
    seats = list(party.seats.order_by("position"))
    for number, entry in enumerate(entries, start=1):
        hand_enter(seat=seats[0], number=number, entry=entry)
    return party, seats


def hand(party, number):
    return party.hands.get(number=number)


@pytest.fixture
def organizer():
    return OrganizerFactory().player.user


def test_a_confirmed_hand_is_corrected_and_the_record_keeps_what_it_was(organizer):
    party, _ = played("blaue_vierzehn", 4, [{"points": [10, 20, 13, 13]}] * 2)

    corrected = hand_decide(
        hand=hand(party, 1),
        user=organizer,
        entry={"points": [13, 20, 10, 13]},
        reason="tricks counted again",
        disputed=False,
    )

    assert (corrected.status, corrected.decided_by, corrected.version) == (
        Hand.Status.CONFIRMED,
        organizer,
        2,
    )
    assert game_sheet(party).totals == [23, 40, 23, 26]
    assert hand(party, 2).scores == [10, 20, 13, 13]  # the other hand untouched
    record = AuditRecord.objects.get(party=party, action=AuditRecord.Action.CORRECT)
    assert record.before["entry"] == {"points": [10, 20, 13, 13]}
    assert record.after["entry"] == {"points": [13, 20, 10, 13]}
    assert record.reason == "tricks counted again"


def test_a_voided_hand_counts_nothing_and_the_next_hand_is_dealt(organizer):
    party, seats = played("blaue_vierzehn", 3, [{"points": [20, 20, 16]}])

    voided = hand_decide(
        hand=hand(party, 1), user=organizer, entry=None, reason="misdeal", disputed=False
    )

    assert voided.status == Hand.Status.VOID
    assert game_sheet(party).totals == [0, 0, 0]
    assert AuditRecord.objects.get(party=party, action=AuditRecord.Action.VOID).reason == "misdeal"
    with pytest.raises(errors.WrongDecision, match="void already"):
        hand_decide(hand=voided, user=organizer, entry=None, reason="twice")
    assert hand_enter(seat=seats[1], number=2, entry={"points": [6, 30, 20]}).action == ("recorded")
    assert game_sheet(party).totals == [6, 30, 20]


def test_a_correction_that_ends_the_party_before_a_later_hand_is_refused(organizer):
    # Classic Chinchón ends when a player reaches 100: with hand 2 corrected to
    # 45, the second player would be out before hand 3 was dealt.
    entries = [
        {"closer": 0, "penalties": [0, 50, 3]},
        {"closer": 0, "penalties": [0, 30, 3]},
        {"closer": 0, "penalties": [0, 5, 3]},
    ]
    party, _ = played("chinchon", 3, entries)
    totals = game_sheet(party).totals

    with pytest.raises(errors.EntryError, match="hand 3"):
        hand_decide(
            hand=hand(party, 2),
            user=organizer,
            entry={"closer": 0, "penalties": [0, 55, 3]},
            reason="miscounted",
            disputed=False,
        )

    assert game_sheet(party).totals == totals
    assert hand(party, 2).version == 1
    assert not AuditRecord.objects.filter(party=party, action=AuditRecord.Action.CORRECT)


def test_correcting_the_last_hand_can_end_or_reopen_the_party(organizer):
    entries = [{"closer": 0, "penalties": [0, 60, 3]}, {"closer": 0, "penalties": [0, 45, 3]}]
    party, _ = played("chinchon", 3, entries)
    party.refresh_from_db()
    assert party.status == Party.Status.FINISHED

    hand_decide(
        hand=hand(party, 2),
        user=organizer,
        entry={"closer": 0, "penalties": [0, 30, 3]},
        reason="a card was counted twice",
        disputed=False,
    )
    party.refresh_from_db()
    assert (party.status, party.finished_at) == (Party.Status.RUNNING, None)

    hand_decide(hand=hand(party, 2), user=organizer, entry=None, reason="misdeal")
    assert game_sheet(party).totals[1] == 60


def test_a_disputed_hand_is_resolved_not_corrected(organizer):
    party = start_game_party("blaue_vierzehn", 3)
    a, b, _c = party.seats.order_by("position")
    hand_enter(seat=a, number=1, entry={"points": [20, 20, 16]})
    hand_enter(seat=b, number=1, entry={"points": [16, 20, 20]})

    with pytest.raises(errors.WrongDecision, match="disputed"):
        hand_decide(
            hand=hand(party, 1),
            user=organizer,
            entry={"points": [20, 20, 16]},
            reason="checked",
            disputed=False,
        )
    assert hand(party, 1).status == Hand.Status.DISPUTED


def test_a_hand_still_waiting_after_the_corrected_one_is_checked_too(organizer):
    # Hand 3 waits for its confirmations; with hand 2 at 45 it would come after
    # the party's end, and its confirmations would count it unchecked.
    party = start_game_party("chinchon", 3)
    a, b, c = party.seats.order_by("position")
    for number, penalty in ((1, 50), (2, 30)):
        entered = hand_enter(
            seat=a, number=number, entry={"closer": 0, "penalties": [0, penalty, 3]}
        )
        for other in (b, c):  # both others at a table of three
            hand_confirm(seat=other, number=number, version=entered.hand.version)
    hand_enter(seat=a, number=3, entry={"closer": 0, "penalties": [0, 5, 3]})

    with pytest.raises(errors.EntryError, match="hand 3"):
        hand_decide(
            hand=hand(party, 2),
            user=organizer,
            entry={"closer": 0, "penalties": [0, 55, 3]},
            reason="miscounted",
            disputed=False,
        )
    assert hand(party, 2).scores == [-10, 30, 3]
