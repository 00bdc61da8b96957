"""A party's kept score (`KeptScore`) always equals the score settled from its
hands: after any sequence of entries, confirmations, disputes, corrections, voids
and a cancel, what the standings and boards read (`party_scores`) is what settling
the hands gives (`computed_scores`), whether it was computed afresh or read as kept."""

import contextlib

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import scores
from scoring.engine.settlement import PartyOver
from scoring.errors import EntryError
from scoring.models import Hand, KeptScore, Party
from scoring.scores import _from_kept as from_kept
from scoring.scores import computed_scores, keep_party_score, party_scores
from scoring.services.hands import hand_confirm, hand_decide, hand_enter
from scoring.services.knocks import Result
from scoring.services.parties import party_cancel
from tests.factories import OrganizerFactory, start_party

pytestmark = pytest.mark.django_db

ACTIONS = ["enter", "enter", "confirm", "confirm", "dispute", "correct", "void", "cancel"]


def _next_number(party) -> int:
    open_hand = party.hands.filter(status__in=[Hand.Status.PENDING, Hand.Status.DISPUTED]).first()
    if open_hand:
        return open_hand.number
    last = party.hands.order_by("-number").first()
    return last.number + 1 if last else 1


def _act(party, seats, user, action, who, deadwood):
    seat, other = seats[who], seats[1 - who]
    result = Result("gin", knocker=seat.position, knocker_deadwood=0, defender_deadwood=deadwood)
    number = _next_number(party)
    open_hand = party.hands.filter(number=number).exclude(status=Hand.Status.VOID).first()
    if action == "enter":
        hand_enter(seat=seat, number=number, entry=result)
    elif action == "confirm" and open_hand:
        hand_confirm(seat=seat, number=number, version=open_hand.version)
    elif action == "dispute" and open_hand:
        changed = Result("gin", knocker=other.position, knocker_deadwood=0, defender_deadwood=7)
        hand_enter(seat=seat, number=number, entry=changed)
    elif action in ("correct", "void"):
        hand = party.hands.exclude(status=Hand.Status.VOID).order_by("-number").first()
        if hand:
            decided = result if action == "correct" else None
            hand_decide(hand=hand, user=user, entry=decided, reason="counted again")
    elif action == "cancel":
        party_cancel(party=party, user=user, reason="the table broke up")


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    events=st.lists(
        st.tuples(st.sampled_from(ACTIONS), st.integers(0, 1), st.integers(0, 60)),
        min_size=1,
        max_size=25,
    )
)
def test_a_kept_score_always_equals_the_score_settled_from_the_hands(
    events, django_capture_on_commit_callbacks
):
    party = start_party()
    seats = list(party.seats.order_by("position"))
    user = OrganizerFactory(club=party.club).player.user
    keep_party_score(party.pk)
    for action, who, deadwood in events:
        # A refused action changes nothing, and the kept score must say so too; so
        # does a hand entered after the party was won (two big gins end it).
        refused = contextlib.suppress(EntryError, PartyOver)
        with refused, django_capture_on_commit_callbacks(execute=True):
            _act(party, seats, user, action, who, deadwood)
        kept = KeptScore.objects.get(party=party)
        # Kept after the commit of every change, at the party's count.
        assert kept.changes == Party.objects.get(pk=party.pk).changes
        assert party_scores([party.pk]) == computed_scores([party.pk])


def test_a_party_changed_and_not_yet_kept_is_settled_again_alone(django_assert_num_queries):
    first, second = start_party(), start_party()
    seats = list(first.seats.order_by("position"))
    party_scores([first.pk, second.pk], keep=True)
    with django_assert_num_queries(1):
        party_scores([first.pk, second.pk])  # both kept

    # Inside the change's transaction, before its commit keeps the new score:
    result = Result("gin", knocker=seats[0].position, knocker_deadwood=0, defender_deadwood=30)
    entered = hand_enter(seat=seats[0], number=1, entry=result).hand
    hand_confirm(seat=seats[1], number=1, version=entered.version)

    with django_assert_num_queries(3):  # the second as kept, the first settled again
        scores = party_scores([first.pk, second.pk])
    assert scores == computed_scores([first.pk, second.pk])
    # Gin: the bonus of 20 and the defender's 30 (seed 000).
    assert scores[first.pk].points[seats[0].player_id] == 50
    assert not KeptScore.objects.get(party=first).score["points"][0][1]  # a page keeps nothing


def test_after_the_commit_of_a_hand_its_partys_score_is_kept(
    django_capture_on_commit_callbacks, django_assert_num_queries
):
    party = start_party()
    seats = list(party.seats.order_by("position"))
    result = Result("gin", knocker=seats[1].position, knocker_deadwood=0, defender_deadwood=4)
    with django_capture_on_commit_callbacks(execute=True):
        entered = hand_enter(seat=seats[1], number=1, entry=result).hand
    with django_capture_on_commit_callbacks(execute=True):
        hand_confirm(seat=seats[0], number=1, version=entered.version)

    with django_assert_num_queries(1):
        scores = party_scores([party.pk])
    assert scores == computed_scores([party.pk])
    assert scores[party.pk].points[seats[1].player_id] == 24


def test_a_kept_score_is_only_a_saving_deleting_them_all_loses_nothing():
    party = start_party()
    seats = list(party.seats.order_by("position"))
    result = Result("gin", knocker=seats[1].position, knocker_deadwood=0, defender_deadwood=12)
    entered = hand_enter(seat=seats[1], number=1, entry=result).hand
    hand_confirm(seat=seats[0], number=1, version=entered.version)
    before = party_scores([party.pk])

    KeptScore.objects.all().delete()

    assert party_scores([party.pk]) == before == computed_scores([party.pk])


class RolledBack(Exception):
    pass


def _confirmed(party, number, deadwood):
    seats = list(party.seats.order_by("position"))
    result = Result(
        "gin", knocker=seats[0].position, knocker_deadwood=0, defender_deadwood=deadwood
    )
    entered = hand_enter(seat=seats[0], number=number, entry=result).hand
    hand_confirm(seat=seats[1], number=number, version=entered.version)


@pytest.mark.django_db(transaction=True)
def test_a_kept_score_is_decoded_again_only_when_its_party_moved_and_never_from_a_rollback(
    monkeypatch,
):
    """Outside a transaction (the board's builder) a process decodes a kept score
    once per count of its party; a transaction's reads, which may be rolled back,
    are never remembered."""
    decoded = []
    monkeypatch.setattr(scores, "_from_kept", lambda kept: decoded.append(1) or from_kept(kept))
    party = start_party()
    _confirmed(party, 1, deadwood=10)  # committed, and kept after the commit

    first = party_scores([party.pk])
    assert party_scores([party.pk]) == first == computed_scores([party.pk])
    assert len(decoded) == 1  # the second read decoded nothing

    # A transaction keeps and reads a second hand, then is rolled back ...
    with contextlib.suppress(RolledBack), transaction.atomic():
        _confirmed(party, 2, deadwood=40)
        keep_party_score(party.pk)
        assert party_scores([party.pk]) == computed_scores([party.pk])
        raise RolledBack
    # ... and the same steps committed with another hand bring the party to the
    # same count: what is read is this hand, not the rolled-back one.
    _confirmed(party, 2, deadwood=5)
    after = party_scores([party.pk])
    assert after == computed_scores([party.pk]) != first
    seats = list(party.seats.order_by("position"))
    assert after[party.pk].points[seats[0].player_id] == 30 + 25  # 20 + 10, then 20 + 5


#: What a kept score held before its sides and payments (and its ``shape``).
OLD_SHAPE = (
    "finished",
    "hands",
    "points",
    "plus_minus",
    "pending",
    "disputed",
    "cancelled",
    "places",
)


def test_a_score_kept_in_an_older_shape_is_settled_again_never_misread(
    django_assert_num_queries, django_assert_max_num_queries
):
    """A row kept before the score had its sides and payments (no ``shape``) at
    the party's very count: read as it is, it would give a finished party no
    payments, no boxes and no totals. It is settled again, and kept anew by the
    read that found it (a finished party never changes again to be kept)."""
    party = start_party()
    seats = list(party.seats.order_by("position"))
    for number in (1, 2):  # two big gins end the party (seed 000: 100 points)
        result = Result("gin", knocker=seats[0].position, knocker_deadwood=0, defender_deadwood=40)
        entered = hand_enter(seat=seats[0], number=number, entry=result).hand
        hand_confirm(seat=seats[1], number=number, version=entered.version)
    party_scores([party.pk], keep=True)
    kept = KeptScore.objects.get(party=party).score
    old = {name: kept[name] for name in OLD_SHAPE}
    KeptScore.objects.filter(party=party).update(score=old)  # the same count, the old shape

    with django_assert_max_num_queries(3 + 3):  # read, settled from the hands, kept
        score = party_scores([party.pk])[party.pk]
    assert score == computed_scores([party.pk])[party.pk]
    a, b = seats[0].player_id, seats[1].player_id
    assert score.finished and score.sides == ((a,), (b,))
    assert score.payments and score.payments[0].payee == (a,) and score.payments[0].amount > 0
    assert score.boxes == (2, 0) and score.totals[0] > score.side_points[0] == 120

    # Kept in today's shape by that read, once: read as kept from now on.
    assert KeptScore.objects.get(party=party).score["shape"] == scores.SHAPE
    with django_assert_num_queries(1):
        assert party_scores([party.pk])[party.pk] == score
