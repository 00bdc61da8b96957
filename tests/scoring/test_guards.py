"""What guards a result once a table has entered it: a confirmation counts once and
only for the entry it names, two entries agree only when they say the same thing,
the organizer's decisions are explained and recorded, a closed night stays as it
is, a party finishes (and reopens) with its sheet, and a reissued link is recorded
without the link itself."""

import hashlib

import pytest
from django.core.cache import cache
from django.utils import timezone

from clubs.models import ClubNight
from scoring import changes, errors
from scoring.engine.hands import IllegalKnock, ImpossibleDeadwood, MissingUpCard
from scoring.engine.rules import RULESETS
from scoring.engine.settlement import PartyOver
from scoring.models import AuditRecord, Hand, Party, Seat
from scoring.services import hands
from scoring.services.hands import hand_confirm, hand_decide, hand_enter
from scoring.services.knocks import Result, result_from_cards
from scoring.services.seats import seat_link_reissue
from tests.factories import ClubNightFactory, UserFactory, start_night_party, start_party

pytestmark = pytest.mark.django_db

ADDRESS = "203.0.113.7"


def seats(party):
    return list(party.seats.select_related("player").order_by("position"))


def knock(knocker, mine, theirs, **details):
    return Result("knock", knocker, mine, theirs, details)


def test_a_confirmation_sent_twice_with_its_key_counts_once():
    party = start_party()
    a, b = seats(party)
    entered = hand_enter(seat=a, number=1, entry=knock(0, 3, 21)).hand

    first = hand_confirm(seat=b, number=1, version=1, key="confirm-1", address=ADDRESS)
    again = hand_confirm(seat=b, number=1, version=1, key="confirm-1")

    assert (first.action, again.action) == ("confirmed", "repeated")
    assert again.hand == entered
    record = party.audit.get(action=AuditRecord.Action.CONFIRM)
    assert (record.seat, record.key, record.address, record.hand) == (
        b,
        "confirm-1",
        ADDRESS,
        entered,
    )
    assert (record.before["status"], record.after["status"]) == ("pending", "confirmed")


def test_a_confirmation_names_the_hand_that_is_due():
    party = start_party()
    a, b = seats(party)
    hand_enter(seat=a, number=1, entry=knock(0, 3, 21))
    with pytest.raises(errors.StaleEntry) as refused:
        hand_confirm(seat=b, number=2, version=1)
    assert str(refused.value) == "Hand 2 is not due yet: hand 1 comes first."
    assert party.hands.get().status == Hand.Status.PENDING


def test_a_disputed_hand_cannot_be_confirmed():
    party = start_party()
    a, b = seats(party)
    hand_enter(seat=a, number=1, entry=knock(0, 3, 21))
    hand_enter(seat=b, number=1, entry=knock(0, 3, 12))
    with pytest.raises(errors.HandBlocked) as refused:
        hand_confirm(seat=b, number=1, version=2)
    assert str(refused.value) == "Hand 1 is disputed: the organizer decides it."


def test_a_confirmation_of_a_changed_entry_says_who_changed_it():
    party = start_party()
    a, b = seats(party)
    hand_enter(seat=a, number=1, entry=knock(0, 3, 21))
    hand_enter(seat=a, number=1, entry=knock(0, 3, 25))  # version 2
    with pytest.raises(errors.EntryChanged) as refused:
        hand_confirm(seat=b, number=1, version=1)
    assert str(refused.value) == (
        f"{a.player.name} changed hand 1 after your phone showed it: "
        "check the new entry and confirm it again."
    )


def test_two_entries_with_the_same_rulings_agree_and_with_others_do_not():
    # Seed 000 § 14.12: the defender was short of a card; both phones say so.
    party = start_party()
    a, b = seats(party)
    hand_enter(seat=a, number=1, entry=knock(0, 3, 21, defender_missing_cards=1))
    outcome = hand_enter(seat=b, number=1, entry=knock(0, 3, 21, defender_missing_cards=1))
    assert outcome.action == "confirmed"

    hand_enter(seat=b, number=2, entry=knock(1, 4, 30, defender_missing_cards=1))
    outcome = hand_enter(seat=a, number=2, entry=knock(1, 4, 30))
    assert outcome.action == "disputed"


def test_two_no_games_agree():
    party = start_party()
    a, b = seats(party)
    hand_enter(seat=a, number=1, entry=Result("no_game"))
    assert hand_enter(seat=b, number=1, entry=Result("no_game")).action == "confirmed"


def test_a_party_finishes_with_its_last_hand_and_a_correction_reopens_it():
    party = start_party(confirmation_required=False)
    a, _ = seats(party)
    # A writes 95 in the first hand (3 against 98), 9 in the second: 104, over 100.
    hand_enter(seat=a, number=1, entry=knock(0, 3, 98))
    party.refresh_from_db()
    assert (party.status, party.finished_at) == (Party.Status.RUNNING, None)
    last = hand_enter(seat=a, number=2, entry=knock(0, 1, 10)).hand
    party.refresh_from_db()
    assert party.status == Party.Status.FINISHED
    assert party.finished_at is not None

    # The second hand was 1 against 2: A has 96, and the party goes on.
    hand_decide(hand=last, user=UserFactory(), entry=knock(0, 1, 2), reason="recounted")
    party.refresh_from_db()
    assert (party.status, party.finished_at) == (Party.Status.RUNNING, None)


def test_a_correction_is_recorded_with_who_why_and_what_it_was():
    party = start_party()
    a, b = seats(party)
    hand_enter(seat=a, number=1, entry=knock(0, 3, 21))
    hand = hand_confirm(seat=b, number=1, version=1).hand
    director = UserFactory()

    hand = hand_decide(
        hand=hand, user=director, entry=knock(0, 3, 12), reason="typo", address=ADDRESS
    )

    assert (hand.points, hand.counter, hand.decided_by) == (9, None, director)
    record = party.audit.latest("pk")
    assert (record.action, record.user, record.address, record.reason) == (
        AuditRecord.Action.CORRECT,
        director,
        ADDRESS,
        "typo",
    )
    assert (record.before["points"], record.after["points"]) == (18, 9)


def test_a_resolved_dispute_keeps_no_second_version():
    party = start_party()
    a, b = seats(party)
    hand_enter(seat=a, number=1, entry=knock(0, 3, 21))
    hand = hand_enter(seat=b, number=1, entry=knock(0, 3, 12)).hand
    hand = hand_decide(hand=hand, user=UserFactory(), entry=knock(0, 3, 21), reason="seen")
    hand.refresh_from_db()
    assert (hand.status, hand.counter, hand.points) == (Hand.Status.CONFIRMED, None, 18)


def test_the_refusals_of_a_decision_say_what_to_do_instead():
    party = start_party()
    a, b = seats(party)
    hand_enter(seat=a, number=1, entry=knock(0, 3, 21))
    first = hand_confirm(seat=b, number=1, version=1).hand
    hand_enter(seat=a, number=2, entry=knock(0, 2, 10))
    second = hand_enter(seat=b, number=2, entry=knock(0, 2, 11)).hand
    director = UserFactory()

    with pytest.raises(errors.EntryError) as refused:
        hand_decide(hand=first, user=director, entry=None, reason=" ")
    assert str(refused.value) == "Give a reason: corrections are kept in the party's record."
    with pytest.raises(errors.WrongDecision) as refused:
        hand_decide(hand=first, user=director, entry=None, reason="x", disputed=True)
    assert str(refused.value) == "Hand 1 is not disputed (any more): correct it instead."
    with pytest.raises(errors.WrongDecision) as refused:
        hand_decide(hand=second, user=director, entry=None, reason="x", disputed=False)
    assert str(refused.value) == ("Hand 2 is disputed: resolve it, after comparing both versions.")


def test_a_correction_that_would_end_the_party_before_later_hands_is_refused():
    party = start_party(confirmation_required=False)
    a, _ = seats(party)
    first = hand_enter(seat=a, number=1, entry=knock(0, 3, 50)).hand  # A 47
    hand_enter(seat=a, number=2, entry=knock(0, 3, 20))  # A 64
    with pytest.raises(errors.EntryError) as refused:
        # Gin against 98 is 98 + the gin bonus of 20: the party would end at hand 1.
        hand_decide(hand=first, user=None, entry=Result("gin", 0, 0, 98), reason="x")
    assert str(refused.value) == (
        "This correction ends the party before hands that were already played: "
        "void the later hands first."
    )
    assert party.hands.get(number=1).points == 47


def test_a_no_game_is_corrected_at_its_own_table_while_it_is_the_current_hand():
    party = start_party()
    a, _ = seats(party)
    hand = hand_enter(seat=a, number=1, entry=Result("no_game")).hand
    hand = hand_decide(hand=hand, user=None, entry=knock(1, 2, 12), reason="it was a knock")
    assert (hand.ending, hand.winner.position, hand.points) == ("knock", 1, 10)


def test_an_older_no_game_is_voided_not_corrected():
    party = start_party(confirmation_required=False)
    a, _ = seats(party)
    old = hand_enter(seat=a, number=1, entry=Result("no_game")).hand
    hand_enter(seat=a, number=2, entry=knock(0, 3, 21))
    with pytest.raises(errors.EntryError) as refused:
        hand_decide(hand=old, user=None, entry=knock(0, 2, 12), reason="x")
    assert str(refused.value) == "This hand's players are not recorded; void it instead."


def test_a_correction_naming_a_player_who_sat_out_names_the_players():
    # Rotation (seed 000 "zu dritt" 1): position 2 sits out the first hand.
    party = start_party("rotation", players=3)
    p0, p1, p2 = seats(party)
    hand = hand_enter(seat=p0, number=1, entry=knock(0, 3, 21)).hand
    with pytest.raises(errors.NotYourHand) as refused:
        hand_decide(hand=hand, user=None, entry=knock(2, 3, 21), reason="x")
    assert str(refused.value) == (
        f"Hand 1: {p2.player.name} sat out that hand: the knocker must be one of the two "
        f"players at the table, {p0.player.name} or {p1.player.name}."
    )


def test_a_closed_nights_results_are_not_changed():
    night = ClubNightFactory(name="Friday")
    party = start_night_party(night)
    a, b = seats(party)
    hand_enter(seat=a, number=1, entry=knock(0, 3, 21))
    hand = hand_confirm(seat=b, number=1, version=1).hand
    ClubNight.objects.filter(pk=night.pk).update(closed_at=timezone.now())
    with pytest.raises(errors.NightClosed) as refused:
        hand_decide(hand=hand, user=None, entry=None, reason="x")
    assert str(refused.value) == "Friday is closed: its results are final."


def test_a_reissued_link_is_recorded_by_a_digest_of_the_old_one():
    party = start_party()
    seat = seats(party)[0]
    old = seat.token
    director = UserFactory()

    seat_link_reissue(seat=seat, user=director, address=ADDRESS)

    assert not Seat.objects.filter(token=old).exists()
    assert Seat.objects.get(pk=seat.pk).token != old
    record = party.audit.get(action=AuditRecord.Action.LINK)
    assert (record.seat_id, record.user, record.address) == (seat.pk, director, ADDRESS)
    assert record.before == {"replaced_link": hashlib.sha256(old.encode()).hexdigest()}


def test_cards_with_an_unknown_ruling_are_refused_and_the_details_keep_both_hands():
    rules = RULESETS["classic"]
    knocker = "2H 3H 4H 7C 7D 7S 9S TS JS 2C"
    defender = "AH 5H KC KD KS 8D 8C 6S QD QC"
    with pytest.raises(errors.EntryError) as refused:
        result_from_cards(
            rules, knocker=0, knocker_cards=knocker, defender_cards=defender, rulings={"x": 1}
        )
    assert str(refused.value) == "There is no ruling called 'x'."
    result = result_from_cards(rules, knocker=0, knocker_cards=knocker, defender_cards=defender)
    assert result.details["defender_cards"] == defender.split()


def _twin_not_yet_committed(monkeypatch):
    # Two requests with the same key at the same moment: the second looked for the
    # key before the first was committed, and its own record then collides.
    looked = []
    replayed = hands.replayed

    def not_yet_committed(seat, key, sent, number):
        looked.append(key)
        return None if len(looked) == 1 else replayed(seat, key, sent, number)

    monkeypatch.setattr(hands, "replayed", not_yet_committed)


def test_a_submission_that_collides_with_its_own_twin_is_answered_as_repeated(monkeypatch):
    party = start_party()
    a, _ = seats(party)
    stored = hand_enter(seat=a, number=1, entry=knock(0, 3, 21), key="hand-1").hand
    _twin_not_yet_committed(monkeypatch)
    outcome = hand_enter(seat=a, number=1, entry=knock(0, 3, 21), key="hand-1")

    assert (outcome.action, outcome.hand) == ("repeated", stored)
    assert party.hands.get().defender_deadwood == 21


def test_a_key_that_collides_with_another_entry_under_it_is_refused(monkeypatch):
    """The same key sent at the same moment with another entry: a key means one
    request, so the second is refused, never answered for the first."""
    party = start_party()
    a, _ = seats(party)
    hand_enter(seat=a, number=1, entry=knock(0, 3, 21), key="hand-1")
    _twin_not_yet_committed(monkeypatch)

    with pytest.raises(errors.KeyReused):
        hand_enter(seat=a, number=1, entry=knock(0, 3, 30), key="hand-1")
    assert party.hands.get().defender_deadwood == 21


def test_a_hand_stored_at_the_same_moment_is_not_stored_twice(monkeypatch, caplog):
    # The other phone's entry was committed after this one read the party's state.
    party = start_party()
    a, b = seats(party)
    before = hands._locked(party.pk)
    hand_enter(seat=b, number=1, entry=knock(0, 3, 21))
    monkeypatch.setattr(hands, "_locked", lambda party_id: before)

    with pytest.raises(errors.StaleEntry) as refused:
        hand_enter(seat=a, number=1, entry=knock(0, 3, 30))

    assert str(refused.value) == "This hand was just recorded: the sheet below is up to date."
    assert party.hands.get().defender_deadwood == 21
    assert [r.getMessage() for r in caplog.records] == [f"Hand 1 of party {party.pk} collided"]


def test_an_entry_is_recorded_with_its_seat_key_address_and_the_whole_hand():
    party = start_party()
    a, _ = seats(party)
    hand = hand_enter(
        seat=a,
        number=1,
        entry=knock(0, 3, 21, defender_missing_cards=1),
        key="k1",
        address=ADDRESS,
    ).hand
    record = party.audit.get(action=AuditRecord.Action.ENTER)
    assert (record.seat, record.key, record.address, record.hand) == (a, "k1", ADDRESS, hand)
    assert (record.user, record.before, record.reason) == (None, None, "")
    # Seed 000 § 14.12: a missing card of the defender counts 10, so 21 + 10 − 3 = 28.
    assert record.after == {
        "number": 1,
        "table": 1,
        "status": "pending",
        "ending": "knock",
        "knocker": 0,
        "knocker_deadwood": 3,
        "defender_deadwood": 21,
        "details": {"defender_missing_cards": 1},
        "kind": "knock",
        "points": 28,
        "winner": 0,
        "version": 1,
        "counter": None,
    }


def test_an_entry_tells_the_clubs_cached_pages_once_it_is_committed(
    django_capture_on_commit_callbacks,
):
    party = start_party()
    a, _ = seats(party)
    key = changes.club_key(party.club_id)
    before = cache.get(key)
    with django_capture_on_commit_callbacks() as after_commit:
        hand_enter(seat=a, number=1, entry=knock(0, 3, 21))
    assert cache.get(key) == before  # not before the commit
    for callback in after_commit:
        callback()
    assert cache.get(key) not in (None, before)


def test_under_oklahoma_the_up_card_sets_the_knock_limit():
    # Seed 000 (Oklahoma): the up-card's value is the knock limit; a 5 allows 5.
    party = start_party(rules="oklahoma", confirmation_required=False)
    a, _ = seats(party)
    with pytest.raises(MissingUpCard):
        hand_enter(seat=a, number=1, entry=knock(0, 5, 30))
    with pytest.raises(IllegalKnock):
        hand_enter(seat=a, number=1, entry=knock(0, 6, 30, up_card="5H"))
    hand = hand_enter(seat=a, number=1, entry=knock(0, 5, 30, up_card="5H")).hand
    assert (hand.kind, hand.points) == ("knock", 25)


def test_a_knocker_short_of_a_card_pays_ten_for_it():
    # Seed 000 § 14.11: the missing card counts 10, so 5 + 10 = 15 against 30: 15.
    party = start_party(confirmation_required=False)
    a, _ = seats(party)
    hand = hand_enter(seat=a, number=1, entry=knock(0, 5, 30, knocker_missing_cards=1)).hand
    assert (hand.winner.position, hand.points) == (0, 15)


def test_the_refusals_of_an_entry_say_why():
    party = start_party("rotation", players=3, confirmation_required=False)
    p0, p1, p2 = seats(party)
    with pytest.raises(errors.NotYourHand) as refused:
        hand_enter(seat=p2, number=1, entry=knock(0, 3, 21))
    assert str(refused.value) == "You sit out this hand: the players at the table enter it."
    with pytest.raises(errors.NotYourHand) as refused:
        hand_enter(seat=p0, number=1, entry=knock(2, 3, 21))
    assert str(refused.value) == (
        f"Hand 1: {p2.player.name} sat out that hand: the knocker must be one of the two "
        f"players at the table, {p0.player.name} or {p1.player.name}."
    )


def test_a_disputed_hand_blocks_the_entering_side_too_and_a_finished_party_all():
    party = start_party()
    a, b = seats(party)
    hand_enter(seat=a, number=1, entry=knock(0, 3, 21))
    hand_enter(seat=b, number=1, entry=knock(0, 3, 12))
    with pytest.raises(errors.HandBlocked) as refused:
        hand_enter(seat=a, number=1, entry=knock(0, 3, 21))
    assert str(refused.value) == (
        "Hand 1 is disputed: the organizer decides it before play goes on."
    )

    done = start_party(confirmation_required=False)
    c, _ = seats(done)
    hand_enter(seat=c, number=1, entry=Result("gin", 0, 0, 98))  # 98 + 20: over
    with pytest.raises(PartyOver) as refused:
        hand_enter(seat=c, number=2, entry=knock(0, 3, 21))
    assert str(refused.value) == "The party is over: no more hands can be entered."


def test_a_cancelled_party_says_so():
    party = start_party()
    a, _ = seats(party)
    Party.objects.filter(pk=party.pk).update(status=Party.Status.CANCELLED)
    with pytest.raises(errors.PartyCancelled) as refused:
        hand_enter(seat=a, number=1, entry=knock(0, 3, 21))
    assert str(refused.value) == (
        "This party was cancelled by the organizer: it takes no more hands."
    )


def test_a_dispute_keeps_the_other_sides_version_whole_and_records_both():
    party = start_party()
    a, b = seats(party)
    hand_enter(seat=a, number=1, entry=knock(0, 3, 21))
    hand = hand_enter(seat=b, number=1, entry=knock(0, 3, 12), key="k2", address=ADDRESS).hand
    # B's version: A knocks with 3 against 12, 9 points to A.
    assert hand.counter == {
        "seat": 1,
        "ending": "knock",
        "knocker": 0,
        "knocker_deadwood": 3,
        "defender_deadwood": 12,
        "details": {},
        "kind": "knock",
        "points": 9,
        "winner": 0,
        "defender": 1,
    }
    record = party.audit.get(action=AuditRecord.Action.DISPUTE)
    assert (record.seat, record.key, record.address) == (b, "k2", ADDRESS)
    assert (record.before["status"], record.after["status"]) == ("pending", "disputed")
    assert (record.before["version"], record.after["version"]) == (1, 2)


def test_a_confirmation_by_entering_the_same_is_recorded_with_what_it_confirmed():
    party = start_party()
    a, b = seats(party)
    hand_enter(seat=a, number=1, entry=knock(0, 3, 21))
    hand = hand_enter(seat=b, number=1, entry=knock(0, 3, 21), key="k2", address=ADDRESS).hand
    assert (hand.status, hand.confirmed_by, hand.version) == (Hand.Status.CONFIRMED, b, 2)
    record = party.audit.get(action=AuditRecord.Action.CONFIRM)
    assert (record.seat, record.key, record.address) == (b, "k2", ADDRESS)
    assert (record.before["status"], record.after["status"]) == ("pending", "confirmed")


def test_a_correction_by_the_entering_side_is_a_new_version_on_the_record():
    party = start_party()
    a, _ = seats(party)
    hand_enter(seat=a, number=1, entry=knock(0, 3, 21))
    hand = hand_enter(seat=a, number=1, entry=knock(0, 3, 25), key="k1b").hand
    assert (hand.version, hand.points, hand.entered_by) == (2, 22, a)
    record = party.audit.filter(action=AuditRecord.Action.ENTER).latest("pk")
    assert (record.key, record.before["points"], record.after["points"]) == ("k1b", 18, 22)


def test_the_hand_at_the_second_table_of_partners_is_dealt_by_its_own_dealer():
    # Partners of two: the low team (positions 2, 3) deals the first round, 2 to 0 at
    # table 1, 3 to 1 at table 2 (seed 000, "Sind vier Spieler beteiligt…").
    party = start_party("partners", players=4)
    hand = hand_enter(seat=seats(party)[1], number=1, entry=knock(1, 3, 21)).hand
    assert (hand.table, hand.dealer.position, hand.defender.position) == (2, 3, 3)


@pytest.mark.parametrize(
    ("result", "scored"),
    [
        # Undercut: the defender has less, 5 − 3 = 2 and the bonus of 10.
        (knock(0, 5, 3), ("undercut", 12, 1)),
        # A knock over the limit that the director accepts (seed 000 § 14.6): 30 − 12.
        (knock(0, 12, 30, illegal_knock_accepted=True), ("knock", 18, 0)),
        # A defender with a card too many who has no more than the knocker: void.
        (knock(0, 5, 4, defender_too_many_cards=True), ("void", 0, None)),
        (Result("no_game"), ("no_game", 0, None)),
        # Gin: the defender's 20 and the gin bonus of 20.
        (Result("gin", 0, 0, 20), ("gin", 40, 0)),
    ],
)
def test_the_rules_score_what_the_table_entered(result, scored):
    party = start_party(confirmation_required=False)
    a, _ = seats(party)
    hand = hand_enter(seat=a, number=1, entry=result).hand
    winner = hand.winner.position if hand.winner else None
    assert (hand.kind, hand.points, winner) == scored


def test_a_no_game_at_the_second_table_is_corrected_with_that_tables_players():
    # Partners of two, first round: table 2 is positions 1 and 3 (3 deals).
    party = start_party("partners", players=4)
    hand = hand_enter(seat=seats(party)[1], number=1, entry=Result("no_game")).hand
    hand = hand_decide(hand=hand, user=None, entry=knock(1, 3, 21), reason="a knock")
    assert (hand.table, hand.winner.position, hand.defender.position) == (2, 1, 3)


def test_big_gin_scores_its_own_bonus_where_the_rules_know_it():
    # cardgames.io's rules: big gin is the defender's deadwood and 31.
    party = start_party(rules="cardgames", confirmation_required=False)
    a, _ = seats(party)
    hand = hand_enter(seat=a, number=1, entry=Result("big_gin", 0, 0, 20)).hand
    assert (hand.kind, hand.points) == ("big_gin", 51)


@pytest.mark.parametrize(
    "result",
    [
        knock(0, 99, 20),
        knock(0, 3, 99),
        knock(0, 90, 20, knocker_missing_cards=1),
        knock(0, 3, 90, defender_missing_cards=1),
    ],
)
def test_more_deadwood_than_the_cards_shown_hold_is_refused_before_scoring(result):
    # Ten cards hold at most 98, nine at most 89 (seed 000 § 14.11, § 14.12).
    party = start_party(confirmation_required=False)
    a, _ = seats(party)
    with pytest.raises(ImpossibleDeadwood):
        hand_enter(seat=a, number=1, entry=result)
    assert not party.hands.exists()


def test_a_defender_with_a_card_too_many_may_hold_more():
    # Seed 000 § 14.13: eleven cards hold up to 106; 100 against 3 is 97 to the knocker.
    party = start_party(confirmation_required=False)
    a, _ = seats(party)
    hand = hand_enter(seat=a, number=1, entry=knock(0, 3, 100, defender_too_many_cards=True))
    assert (hand.hand.kind, hand.hand.points) == ("knock", 97)


def test_a_seat_cannot_confirm_its_own_sides_entry_and_is_told_who_can():
    party = start_party()
    a, _ = seats(party)
    hand_enter(seat=a, number=1, entry=knock(0, 3, 21))
    with pytest.raises(errors.NotYourHand) as refused:
        hand_confirm(seat=a, number=1, version=1)
    assert str(refused.value) == (
        "Your side entered this hand: a player of another side confirms it."
    )


def test_a_correction_that_keeps_the_party_over_keeps_it_finished():
    party = start_party(confirmation_required=False)
    a, _ = seats(party)
    hand_enter(seat=a, number=1, entry=knock(0, 3, 98))  # 95
    last = hand_enter(seat=a, number=2, entry=knock(0, 1, 10)).hand  # 9: 104
    party.refresh_from_db()
    finished_at = party.finished_at
    # 1 against 20 is 19: 114, still over 100.
    hand_decide(hand=last, user=None, entry=knock(0, 1, 20), reason="recounted")
    party.refresh_from_db()
    assert (party.status, party.finished_at) == (Party.Status.FINISHED, finished_at)


def test_an_entry_sent_again_after_its_hand_was_confirmed_is_answered_as_repeated():
    party = start_party()
    a, b = seats(party)
    entered = hand_enter(seat=a, number=1, entry=knock(0, 3, 21), key="hand-1").hand
    hand_confirm(seat=b, number=1, version=1)

    again = hand_enter(seat=a, number=1, entry=knock(0, 3, 21), key="hand-1")

    assert (again.action, again.hand) == ("repeated", entered)
    assert party.hands.count() == 1


def test_a_knock_over_the_limit_is_refused_as_such_not_as_impossible():
    # 95 points fit in ten cards (at most 98) but are far over the knock limit of 10.
    party = start_party(confirmation_required=False)
    a, _ = seats(party)
    with pytest.raises(IllegalKnock):
        hand_enter(seat=a, number=1, entry=knock(0, 95, 20))


def test_an_answer_naming_the_version_it_saw_is_taken():
    party = start_party()
    a, b = seats(party)
    hand_enter(seat=a, number=1, entry=knock(0, 3, 21))
    hand_enter(seat=a, number=1, entry=knock(0, 3, 25))  # version 2
    outcome = hand_enter(seat=b, number=1, entry=knock(0, 3, 25), version=2)
    assert outcome.action == "confirmed"

    hand_enter(seat=b, number=2, entry=knock(1, 2, 30))
    outcome = hand_enter(seat=a, number=2, entry=knock(1, 2, 20), version=1)
    assert outcome.action == "disputed"
