"""How a hand of another game is confirmed, corrected, disputed and decided
(`scoring.services.games`): at a table of three or more, more than half of the
other players confirm the version their phone showed."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import changes, errors
from scoring.engine.games import GAMES
from scoring.models import AuditRecord, Hand, Party
from scoring.services.hands import confirmations_needed, hand_confirm, hand_decide, hand_enter
from scoring.services.whole_table_sheet import game_sheet
from tests.factories import OrganizerFactory, start_game_party

pytestmark = pytest.mark.django_db

DEAL = {"points": [10, 20, 13, 13]}
OTHER_DEAL = {"points": [13, 20, 10, 13]}


def table_of_four():
    party = start_game_party("blaue_vierzehn", 4)
    return party, list(party.seats.select_related("player").order_by("position"))


def actions(party):
    return list(
        AuditRecord.objects.filter(party=party)
        .order_by("at", "pk")
        .values_list("action", flat=True)
    )


def test_at_a_table_of_four_one_confirmation_is_not_enough_two_are():
    party, (a, b, c, _d) = table_of_four()
    entered = hand_enter(seat=a, number=1, entry=DEAL)

    first = hand_confirm(seat=b, number=1, version=entered.hand.version)
    assert first.action == "noted"
    assert (first.hand.status, first.hand.confirmations) == (Hand.Status.PENDING, [1])
    assert game_sheet(party).totals == [0, 0, 0, 0]

    second = hand_confirm(seat=c, number=1, version=entered.hand.version)
    assert second.action == "confirmed"
    assert second.hand.status == Hand.Status.CONFIRMED
    assert second.hand.confirmations == [1, 2]
    assert game_sheet(party).totals == [10, 20, 13, 13]
    assert actions(party) == ["start", "enter", "confirm", "confirm"]


def test_how_many_confirm_depends_on_the_sides_at_the_table():
    for game, players, needed in [
        ("blaue_vierzehn", 3, 2),
        ("blaue_vierzehn", 4, 2),
        ("blaue_vierzehn", 6, 3),
        ("canasta", 4, 1),
        ("chinchon", 2, 1),
    ]:
        party = start_game_party(game, players)
        seats = list(party.seats.all())
        assert confirmations_needed(party, seats, seats[0]) == needed, (game, players)


def test_how_many_confirm_is_the_games_own_rule(monkeypatch):
    _party, (a, b, c, _d) = table_of_four()
    asked = []

    def everyone_else(sides, entering):
        asked.append((sides, entering))
        return 3

    monkeypatch.setattr(GAMES["blaue_vierzehn"], "confirmations_needed", everyone_else)
    entered = hand_enter(seat=a, number=1, entry=DEAL)
    hand_confirm(seat=b, number=1, version=entered.hand.version)

    second = hand_confirm(seat=c, number=1, version=entered.hand.version)

    assert second.action == "noted"
    assert asked[-1] == ([[0], [1], [2], [3]], 0)


def test_a_confirmation_of_an_older_version_is_refused():
    party, (a, b, _c, _d) = table_of_four()
    first = hand_enter(seat=a, number=1, entry=DEAL)
    hand_enter(seat=a, number=1, entry=OTHER_DEAL)

    with pytest.raises(errors.EntryChanged) as changed:
        hand_confirm(seat=b, number=1, version=first.hand.version)

    assert changed.value.hand.details["entry"] == OTHER_DEAL
    hand = party.hands.get()
    assert (hand.status, hand.confirmations) == (Hand.Status.PENDING, [])


def test_a_correction_resets_the_confirmations():
    party, (a, b, c, d) = table_of_four()
    entered = hand_enter(seat=a, number=1, entry=DEAL)
    hand_confirm(seat=b, number=1, version=entered.hand.version)

    corrected = hand_enter(seat=a, number=1, entry=OTHER_DEAL)

    assert corrected.action == "entered"
    assert corrected.hand.version == entered.hand.version + 1
    assert corrected.hand.confirmations == []
    # b's earlier confirmation no longer counts: c alone is not enough.
    noted = hand_confirm(seat=c, number=1, version=corrected.hand.version)
    assert noted.action == "noted"
    assert hand_confirm(seat=d, number=1, version=corrected.hand.version).action == ("confirmed")
    assert game_sheet(party).totals == [13, 20, 10, 13]
    assert actions(party) == ["start", "enter", "confirm", "enter", "confirm", "confirm"]


def test_the_entering_player_cannot_confirm_his_own_entry():
    party, (a, _b, _c, _d) = table_of_four()
    entered = hand_enter(seat=a, number=1, entry=DEAL)

    with pytest.raises(errors.NotYourHand):
        hand_confirm(seat=a, number=1, version=entered.hand.version)
    assert party.hands.get().confirmations == []


def test_the_same_entry_from_another_player_counts_as_his_confirmation():
    _party, (a, b, _c, _d) = table_of_four()
    entered = hand_enter(seat=a, number=1, entry=DEAL)

    same = hand_enter(seat=b, number=1, entry=DEAL, version=entered.hand.version)

    assert same.action == "noted"
    assert same.hand.confirmations == [1]


def test_a_different_entry_disputes_the_hand_and_the_organizer_decides_it():
    party, (a, b, c, d) = table_of_four()
    hand_enter(seat=a, number=1, entry=DEAL)

    disputed = hand_enter(seat=c, number=1, entry=OTHER_DEAL)

    assert disputed.action == "disputed"
    hand = party.hands.get()
    assert hand.status == Hand.Status.DISPUTED
    assert hand.details["entry"] == DEAL
    assert hand.counter["entry"] == OTHER_DEAL and hand.counter["seat"] == 2
    assert hand.counter["scores"] == [13, 20, 10, 13]
    with pytest.raises(errors.HandBlocked):
        hand_confirm(seat=b, number=1, version=hand.version)
    with pytest.raises(errors.HandBlocked):
        hand_enter(seat=d, number=1, entry=DEAL)

    organizer = OrganizerFactory(club=party.club).player.user
    with pytest.raises(errors.EntryError, match="reason"):
        hand_decide(hand=hand, user=organizer, entry=OTHER_DEAL, reason=" ")
    decided = hand_decide(
        hand=hand, user=organizer, entry=OTHER_DEAL, reason="c counted the tricks again"
    )

    assert decided.status == Hand.Status.CONFIRMED
    assert (decided.counter, decided.decided_by) == (None, organizer)
    assert game_sheet(party).totals == [13, 20, 10, 13]
    resolve = AuditRecord.objects.get(party=party, action=AuditRecord.Action.RESOLVE)
    assert resolve.before["counter"]["entry"] == OTHER_DEAL
    assert resolve.before["entry"] == DEAL
    assert resolve.reason == "c counted the tricks again"
    assert actions(party) == ["start", "enter", "dispute", "resolve"]
    with pytest.raises(errors.WrongDecision):
        hand_decide(hand=decided, user=organizer, entry=DEAL, reason="again", disputed=True)
    assert hand_enter(seat=b, number=2, entry=DEAL).action == "entered"


def test_a_repeated_key_is_stored_once():
    party, (a, _b, _c, _d) = table_of_four()

    first = hand_enter(seat=a, number=1, entry=DEAL, key="hand-1")
    again = hand_enter(seat=a, number=1, entry=DEAL, key="hand-1")

    assert (first.action, again.action) == ("entered", "repeated")
    assert again.hand.pk == first.hand.pk
    assert party.hands.get().version == 1
    assert AuditRecord.objects.filter(party=party, key="hand-1").count() == 1


def test_the_same_key_with_another_entry_is_refused_and_nothing_stored():
    party, (a, _b, _c, _d) = table_of_four()
    hand_enter(seat=a, number=1, entry=DEAL, key="hand-1")

    with pytest.raises(errors.KeyReused):
        hand_enter(seat=a, number=1, entry=OTHER_DEAL, key="hand-1")

    hand = party.hands.get()
    assert (hand.details["entry"], hand.version) == (DEAL, 1)
    assert actions(party) == ["start", "enter"]


def test_a_repeated_confirmation_key_is_counted_once():
    party, (a, b, _c, _d) = table_of_four()
    entered = hand_enter(seat=a, number=1, entry=DEAL)

    hand_confirm(seat=b, number=1, version=entered.hand.version, key="ok-1")
    again = hand_confirm(seat=b, number=1, version=entered.hand.version, key="ok-1")
    plain_again = hand_confirm(seat=b, number=1, version=entered.hand.version)

    assert (again.action, plain_again.action) == ("repeated", "repeated")
    hand = party.hands.get()
    assert (hand.status, hand.confirmations) == (Hand.Status.PENDING, [1])
    assert actions(party) == ["start", "enter", "confirm"]


def test_every_change_bumps_the_pages_counters(monkeypatch):

    moved = []
    monkeypatch.setattr(changes, "party_changed", lambda pk: moved.append(("party", pk)))
    monkeypatch.setattr(changes, "scores_changed", lambda pk: moved.append(("club", pk)))
    party, (a, _b, _c, _d) = table_of_four()

    hand_enter(seat=a, number=1, entry=DEAL)

    assert moved == [("club", party.club_id), ("party", party.pk)]


def test_a_cancelled_party_takes_no_more_hands():
    party, (a, _b, _c, _d) = table_of_four()
    Party.objects.filter(pk=party.pk).update(status=Party.Status.CANCELLED)

    with pytest.raises(errors.PartyCancelled):
        hand_enter(seat=a, number=1, entry=DEAL)


def test_the_sheet_is_read_in_a_fixed_number_of_queries():
    party, (a, b, c, _d) = table_of_four()
    for number in (1, 2, 3):
        hand_enter(seat=a, number=number, entry=DEAL)
        for seat in (b, c):
            hand_confirm(seat=seat, number=number, version=party.hands.get(number=number).version)

    with CaptureQueriesContext(connection) as queries:
        sheet = game_sheet(party)
        [hand.entered_by.player.name for hand in sheet.hands]
    assert len(queries) == 2
    assert sheet.totals == [30, 60, 39, 39]
