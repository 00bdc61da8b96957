"""One hand's lifecycle, the same for every game (`scoring.services.hands`): a table
enters a hand, the other sides confirm it (at a table of three or more, more than
half of the other players confirm the version their phone showed), a different
entry disputes it and the organizer decides, corrects or voids it, and a key sent
twice stores it once.

Where a behaviour is the same for every game, a test runs once for a Gin Rummy
party and once for a whole-table game's (`KINDS`); what one kind of game alone
does is tested for that kind."""

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import changes, errors
from scoring.engine.games import GAMES
from scoring.models import AuditRecord, Hand, Party
from scoring.services.hands import confirmations_needed, hand_confirm, hand_decide, hand_enter
from scoring.services.knocks import Result
from scoring.services.parties import party_cancel
from scoring.services.whole_table_sheet import game_sheet
from scoring.sheet import party_state
from tests.factories import OrganizerFactory, UserFactory, start_game_party, start_party

pytestmark = pytest.mark.django_db

DEAL = {"points": [10, 20, 13, 13]}
OTHER_DEAL = {"points": [13, 20, 10, 13]}


def seats(party):
    return list(party.seats.select_related("player").order_by("position"))


def knock(knocker, mine, theirs):
    return Result("knock", knocker=knocker, knocker_deadwood=mine, defender_deadwood=theirs)


def rounds(party):
    """Gin Rummy's sheet: per round, each table's (winning side, points)."""
    return party_state(
        party, seats(party), list(party.hands.select_related("winner").order_by("number"))
    ).rounds


def totals(party):
    return game_sheet(party).totals


def actions(party):
    return list(
        AuditRecord.objects.filter(party=party)
        .order_by("at", "pk")
        .values_list("action", flat=True)
    )


@dataclass(frozen=True)
class Kind:
    """A party of one kind of game and what its table enters: ``entry`` and
    ``other`` disagree, ``counted`` reads its sheet (``nothing`` before any hand
    counts, ``counts_entry`` / ``counts_other`` with one hand of either, ``voided`` with
    the one hand voided, ``void_then_other`` with ``other`` played after it), and
    ``counter`` is part of what a dispute by the second seat keeps of ``other``,
    ``decided_from`` and ``resolved`` part of the record of a decision for it:
    what the hand was, what it became."""

    start: Callable
    entry: object
    other: object
    needed: int
    counted: Callable
    nothing: object
    counts_entry: object
    counts_other: object
    counter: dict
    decided_from: dict
    resolved: dict
    voided: object
    void_then_other: object

    def __str__(self):
        return self.start.__name__


def gin_rummy(**more):
    """Two players, one side each: the other side's one confirmation counts."""
    return start_party(**more)


def blaue_vierzehn_at_four(**more):
    """Four players, one side each: two of the other three confirm."""
    return start_game_party("blaue_vierzehn", 4, **more)


KINDS = [
    Kind(
        start=gin_rummy,
        entry=knock(0, 3, 21),
        other=knock(0, 3, 12),
        needed=1,
        counted=rounds,
        nothing=[],
        counts_entry=[[(0, 18)]],
        counts_other=[[(0, 9)]],
        counter={"defender_deadwood": 12},
        # The record keeps both versions, as a whole table's does.
        decided_from={
            "knocker_deadwood": 3,
            "defender_deadwood": 21,
            "counter": {
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
            },
        },
        resolved={"points": 9, "kind": "knock"},
        voided=[[None]],
        void_then_other=[[None], [(0, 9)]],
    ),
    Kind(
        start=blaue_vierzehn_at_four,
        entry=DEAL,
        other=OTHER_DEAL,
        needed=2,
        counted=totals,
        nothing=[0, 0, 0, 0],
        counts_entry=[10, 20, 13, 13],
        counts_other=[13, 20, 10, 13],
        counter={"entry": OTHER_DEAL, "seat": 1, "scores": [13, 20, 10, 13]},
        decided_from={
            "entry": DEAL,
            "counter": {"seat": 1, "entry": OTHER_DEAL, "scores": [13, 20, 10, 13], "facts": {}},
        },
        resolved={"entry": OTHER_DEAL},
        voided=[0, 0, 0, 0],
        void_then_other=[13, 20, 10, 13],
    ),
]


@pytest.fixture(params=KINDS, ids=str)
def kind(request):
    return request.param


def table_of_four():
    party = blaue_vierzehn_at_four()
    return party, seats(party)


# -- the same for every game ------------------------------------------------------


def test_an_entry_counts_once_enough_other_sides_confirmed_it(kind):
    party = kind.start()
    entering, *others = seats(party)
    entered = hand_enter(seat=entering, number=1, entry=kind.entry)
    assert (entered.action, entered.hand.status) == ("entered", Hand.Status.PENDING)

    for confirmer in others[: kind.needed - 1]:
        noted = hand_confirm(seat=confirmer, number=1, version=entered.hand.version)
        assert (noted.action, noted.hand.status) == ("noted", Hand.Status.PENDING)
        assert kind.counted(party) == kind.nothing
    last = hand_confirm(seat=others[kind.needed - 1], number=1, version=entered.hand.version)

    assert (last.action, last.hand.status) == ("confirmed", Hand.Status.CONFIRMED)
    assert last.hand.confirmations == list(range(1, kind.needed + 1))
    assert kind.counted(party) == kind.counts_entry
    assert actions(party) == ["start", "enter", *["confirm"] * kind.needed]


def test_a_seat_cannot_confirm_its_own_sides_entry(kind):
    party = kind.start()
    entering = seats(party)[0]
    entered = hand_enter(seat=entering, number=1, entry=kind.entry)

    with pytest.raises(errors.NotYourHand, match="other side confirms"):
        hand_confirm(seat=entering, number=1, version=entered.hand.version)

    hand = party.hands.get()
    assert (hand.status, hand.confirmations) == (Hand.Status.PENDING, [])


def test_the_same_entry_from_another_side_counts_as_its_confirmation(kind):
    party = kind.start()
    a, b, *_ = seats(party)
    entered = hand_enter(seat=a, number=1, entry=kind.entry)

    same = hand_enter(seat=b, number=1, entry=kind.entry, version=entered.hand.version)

    assert same.action == ("confirmed" if kind.needed == 1 else "noted")
    assert same.hand.confirmations == [1]
    assert party.hands.count() == 1


def test_a_double_tapped_entry_is_stored_once(kind):
    party = kind.start()
    a = seats(party)[0]

    first = hand_enter(seat=a, number=1, entry=kind.entry, key="hand-1")
    again = hand_enter(seat=a, number=1, entry=kind.entry, key="hand-1")

    assert (first.action, again.action) == ("entered", "repeated")
    assert again.hand.pk == first.hand.pk
    assert party.hands.get().version == 1
    assert AuditRecord.objects.filter(party=party, key="hand-1").count() == 1
    assert party.audit.filter(action=AuditRecord.Action.ENTER).count() == 1


def test_a_different_entry_disputes_the_hand_and_blocks_play(kind):
    party = kind.start()
    a, b, *_ = seats(party)
    hand_enter(seat=a, number=1, entry=kind.entry)

    disputed = hand_enter(seat=b, number=1, entry=kind.other)

    assert disputed.action == "disputed"
    hand = party.hands.get()
    assert hand.status == Hand.Status.DISPUTED
    assert hand.counter | kind.counter == hand.counter
    assert kind.counted(party) == kind.nothing
    with pytest.raises(errors.HandBlocked, match="disputed"):
        hand_enter(seat=a, number=1, entry=kind.entry)
    with pytest.raises(errors.HandBlocked, match="disputed"):
        hand_confirm(seat=seats(party)[-1], number=1, version=hand.version)
    with pytest.raises(errors.StaleEntry):
        hand_enter(seat=a, number=2, entry=kind.entry)


def test_the_organizer_decides_a_dispute_with_a_reason_and_it_is_audited(kind):
    party = kind.start()
    a, b, *_ = seats(party)
    hand_enter(seat=a, number=1, entry=kind.entry)
    hand = hand_enter(seat=b, number=1, entry=kind.other).hand
    organizer = OrganizerFactory(club=party.club).player.user
    with pytest.raises(errors.EntryError, match="reason"):
        hand_decide(hand=hand, user=organizer, entry=kind.other, reason=" ")

    decided = hand_decide(hand=hand, user=organizer, entry=kind.other, reason="recounted")

    assert decided.status == Hand.Status.CONFIRMED
    assert (decided.counter, decided.decided_by) == (None, organizer)
    assert kind.counted(party) == kind.counts_other
    record = party.audit.get(action=AuditRecord.Action.RESOLVE)
    assert record.before["status"] == "disputed"
    assert record.before | kind.decided_from == record.before
    assert record.after | kind.resolved == record.after
    assert record.user == organizer and record.reason == "recounted"
    assert actions(party) == ["start", "enter", "dispute", "resolve"]
    with pytest.raises(errors.WrongDecision):
        hand_decide(hand=decided, user=organizer, entry=kind.entry, reason="again", disputed=True)
    assert hand_enter(seat=b, number=2, entry=kind.entry).action == "entered"


def test_without_confirmation_an_entry_counts_at_once_and_a_void_takes_it_off(kind):
    party = kind.start(confirmation_required=False)
    a, b, *_ = seats(party)
    organizer = OrganizerFactory(club=party.club).player.user
    recorded = hand_enter(seat=a, number=1, entry=kind.entry)
    assert (recorded.action, recorded.hand.status) == ("recorded", Hand.Status.CONFIRMED)
    assert kind.counted(party) == kind.counts_entry

    voided = hand_decide(hand=recorded.hand, user=organizer, entry=None, reason="misdeal")

    assert voided.status == Hand.Status.VOID
    assert kind.counted(party) == kind.voided
    assert AuditRecord.objects.get(party=party, action=AuditRecord.Action.VOID).reason == "misdeal"
    with pytest.raises(errors.WrongDecision, match="void already"):
        hand_decide(hand=voided, user=organizer, entry=None, reason="twice")
    assert hand_enter(seat=b, number=2, entry=kind.other).action == "recorded"
    assert kind.counted(party) == kind.void_then_other


def test_a_cancelled_party_takes_no_more_hands_and_keeps_its_record(kind):
    party = kind.start()
    a, b, *_ = seats(party)
    hand_enter(seat=a, number=1, entry=kind.entry)
    organizer = UserFactory()

    party_cancel(party=party, user=organizer, reason="Wrong players")

    party.refresh_from_db()
    assert party.status == Party.Status.CANCELLED
    cancel = party.audit.get(action=AuditRecord.Action.CANCEL)
    assert (cancel.user, cancel.reason, cancel.before) == (
        organizer,
        "Wrong players",
        {"status": "running"},
    )
    with pytest.raises(errors.PartyCancelled):
        hand_confirm(seat=b, number=1, version=1)
    with pytest.raises(errors.PartyCancelled):
        hand_enter(seat=b, number=1, entry=kind.entry)
    with pytest.raises(errors.PartyCancelled):
        hand_enter(seat=a, number=2, entry=kind.entry)
    assert party.hands.get().status == Hand.Status.PENDING


@pytest.mark.parametrize(
    ("start", "entry"),
    [
        (gin_rummy, knock(0, 3, 21)),
        (lambda: start_game_party("chinchon", 2), {"closer": 0, "penalties": [0, 30]}),
    ],
    ids=["gin_rummy", "chinchon"],
)
def test_an_entry_for_a_hand_already_recorded_or_not_due_is_stale(start, entry):
    party = start()
    a, b = seats(party)
    entered = hand_enter(seat=a, number=1, entry=entry)
    hand_confirm(seat=b, number=1, version=entered.hand.version)

    with pytest.raises(errors.StaleEntry) as refused:
        hand_enter(seat=b, number=1, entry=entry)
    assert str(refused.value) == (
        "Hand 1 is already recorded. The sheet below is up to date: enter hand 2 next."
    )
    with pytest.raises(errors.StaleEntry) as refused:
        hand_confirm(seat=a, number=1, version=1)
    assert str(refused.value) == (
        "Hand 1 is already recorded. The sheet below is up to date: enter hand 2 next."
    )
    with pytest.raises(errors.StaleEntry) as refused:
        hand_enter(seat=b, number=3, entry=entry)
    assert str(refused.value) == "Hand 3 is not due yet: hand 2 comes first."
    with pytest.raises(errors.StaleEntry) as refused:
        hand_confirm(seat=a, number=2, version=1)
    assert str(refused.value) == "Hand 2 has no entry to confirm yet."
    assert party.hands.count() == 1


def test_an_entry_of_another_game_is_refused_and_nothing_stored():
    # One service enters every game's hands; the party's game reads the entry.
    chinchon = start_game_party("chinchon", 2)
    with pytest.raises(errors.EntryError, match="not a hand of this game"):
        hand_enter(seat=seats(chinchon)[0], number=1, entry=Result("knock", 0, 3, 21))
    gin_rummy = start_party()
    with pytest.raises(errors.EntryError, match="not a hand of this game"):
        hand_enter(seat=gin_rummy.seats.first(), number=1, entry={"closer": 0, "penalties": [0, 3]})

    assert not chinchon.hands.exists()
    assert not gin_rummy.hands.exists()


# -- Gin Rummy: two sides, one confirmation -----------------------------------------


def test_a_decision_made_on_an_old_view_of_the_hand_is_refused_under_the_lock():
    party = start_party()
    a, b = seats(party)
    hand_enter(seat=a, number=1, entry=knock(0, 3, 21))
    seen = hand_enter(seat=b, number=1, entry=knock(0, 3, 12)).hand  # the page: disputed
    director = UserFactory()
    hand_decide(hand=seen, user=director, entry=knock(0, 3, 12), reason="recounted")
    records = party.audit.count()

    # A second organizer, still looking at the dispute, takes the other version.
    with pytest.raises(errors.WrongDecision, match="not disputed"):
        hand_decide(hand=seen, user=director, entry=knock(0, 3, 21), reason="late", disputed=True)
    # A correction meant for an undisputed hand that a phone has since disputed.
    hand_enter(seat=a, number=2, entry=knock(0, 2, 10))
    second = party.hands.get(number=2)
    hand_enter(seat=b, number=2, entry=knock(0, 2, 11))
    with pytest.raises(errors.WrongDecision, match="resolve it"):
        hand_decide(
            hand=second, user=director, entry=knock(0, 2, 10), reason="typo", disputed=False
        )

    assert party.hands.get(number=1).points == 9
    assert party.hands.get(number=2).status == Hand.Status.DISPUTED
    assert party.audit.count() == records + 2  # the two entries of hand 2 only


# -- the whole-table games: more than half of the other players confirm -----------


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
    monkeypatch.setattr(changes, "party_changed", lambda pk, tokens: moved.append(("party", pk)))
    monkeypatch.setattr(changes, "scores_changed", lambda pk: moved.append(("club", pk)))
    party, (a, _b, _c, _d) = table_of_four()

    hand_enter(seat=a, number=1, entry=DEAL)

    assert moved == [("club", party.club_id), ("party", party.pk)]


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


# -- the organizer corrects or voids a whole-table game's hand: the hand alone
# changes, the record keeps what it was and why, and a decision that would undo a
# later hand is refused whole.


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
