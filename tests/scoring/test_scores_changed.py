"""What keeps a club's scores (its finals, its ratings) is told after the commit of
each change, and once per club for a transaction of many (`scores_changed_once`)."""

import time

import pytest

from live import counters
from scoring import changes
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result
from tests.factories import start_party

pytestmark = pytest.mark.django_db


@pytest.fixture
def told(monkeypatch):
    calls = []
    monkeypatch.setattr(changes, "_after_scores_change", [calls.append])
    return calls


def play(party, hands):
    a, b = party.seats.order_by("position")
    for number in range(1, hands + 1):
        entered = hand_enter(seat=a, number=number, entry=Result("knock", 0, 3, 21)).hand
        hand_confirm(seat=b, number=number, version=entered.version)


def test_each_change_is_told_after_its_commit(told, django_capture_on_commit_callbacks):
    party = start_party()
    with django_capture_on_commit_callbacks(execute=True):
        play(party, 2)
        assert told == []  # not before the commit
    assert told == [party.club_id] * 4


def test_many_changes_at_once_are_told_once_per_club(told, django_capture_on_commit_callbacks):
    one, other = start_party(), start_party()
    with django_capture_on_commit_callbacks(execute=True):
        with counters.once_each():
            play(one, 3)
            play(other, 1)
            with counters.once_each():  # inside another: the outer one tells
                hand_enter(seat=one.seats.get(position=0), number=4, entry=Result("gin", 0, 0, 9))
            assert told == []
        assert told == []  # still not before the commit
    assert sorted(told) == sorted([one.club_id, other.club_id])


def test_a_failed_transaction_tells_nobody(told, django_capture_on_commit_callbacks):
    party = start_party()
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        counters.once_each(),
    ):
        play(party, 1)
        raise RuntimeError("the transaction is rolled back")
    assert told == []


def test_within_many_changes_each_partys_score_is_kept_once(
    monkeypatch, django_capture_on_commit_callbacks
):
    kept = []
    monkeypatch.setattr(changes, "_after_party_change", [kept.append])
    one, other = start_party(), start_party()
    with django_capture_on_commit_callbacks(execute=True), counters.once_each():
        play(one, 3)
        play(other, 2)
        assert kept == []
    assert kept == [one.pk, other.pk]


# --- Told in a worker, not in the phone's request ----------------------------------


@pytest.fixture
def broker(monkeypatch):
    """Tasks go to a broker (as in production) whose messages are caught here."""
    sent = []
    monkeypatch.setattr(changes.tell_in_worker, "delay", lambda *told: sent.append(told))
    return sent


def test_with_a_broker_the_request_sends_what_to_tell_and_tells_nothing_itself(
    told, broker, monkeypatch, django_capture_on_commit_callbacks
):
    kept = []
    monkeypatch.setattr(changes, "_after_party_change", [kept.append])
    party = start_party()
    with django_capture_on_commit_callbacks(execute=True):
        play(party, 1)
    assert (told, kept) == ([], [])
    assert sorted(broker) == sorted([("party", party.pk), ("scores", party.club_id)] * 2)

    for kind, pk in broker:  # what the worker then does
        changes.tell(kind, pk)
    assert (told, kept) == ([party.club_id] * 2, [party.pk] * 2)


def test_with_the_broker_away_the_request_tells_as_before(
    told, monkeypatch, django_capture_on_commit_callbacks
):
    def away(*told):
        raise ConnectionError("no broker")

    monkeypatch.setattr(changes.tell_in_worker, "delay", away)
    party = start_party()
    with django_capture_on_commit_callbacks(execute=True):
        play(party, 1)
    assert told == [party.club_id] * 2
    assert party.hands.get().status == "confirmed"


def test_one_that_fails_stops_neither_the_others_nor_the_hand(
    monkeypatch, django_capture_on_commit_callbacks
):
    calls = []

    def broken(pk):
        raise RuntimeError("a callback's bug")

    monkeypatch.setattr(changes, "_after_scores_change", [broken, calls.append])
    party = start_party()
    with django_capture_on_commit_callbacks(execute=True):
        play(party, 1)
    assert calls == [party.club_id] * 2
    assert party.hands.get().status == "confirmed"


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_worker_keeps_a_partys_score_after_the_commit():
    from scoring.models import KeptScore

    party = start_party()
    play(party, 2)

    party.refresh_from_db()
    deadline = time.monotonic() + 30
    while not KeptScore.objects.filter(party=party, changes=party.changes).exists():
        assert time.monotonic() < deadline, "the worker did not keep the party's score"
        time.sleep(0.1)
    assert KeptScore.objects.get(party=party, changes=party.changes).score["hands"] == 2
