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
    # One message for each commit (the entry, the confirmation), with all it tells.
    assert broker == [(("scores", party.club_id), ("party", party.pk))] * 2

    for message in broker:  # what the worker then does
        changes.tell_in_worker(*message)
    assert (told, kept) == ([party.club_id] * 2, [party.pk] * 2)


def test_a_message_of_one_kind_and_pk_as_sent_before_is_still_told(told):
    changes.tell_in_worker("scores", 7)
    assert told == [7]


def test_in_the_worker_each_is_told_on_its_own(told, monkeypatch):
    def broken(pk):
        raise RuntimeError("a callback's bug")

    monkeypatch.setattr(changes, "_after_party_change", [broken])
    # As the broker hands them over (JSON: lists), one of a kind unknown.
    changes.tell_in_worker(["party", 1], ["nothing", 2], ["scores", 3], ["scores", 4])
    assert told == [3, 4]


def test_a_transaction_of_many_parties_tells_them_in_few_messages(
    broker, django_capture_on_commit_callbacks
):
    parties = [start_party() for _ in range(changes.TOLD_AT_ONCE)]
    with django_capture_on_commit_callbacks(execute=True), counters.once_each():
        for party in parties:
            play(party, 1)
    told = [item for message in broker for item in message]
    # Two for each party, at most TOLD_AT_ONCE a message.
    assert [len(message) for message in broker] == [changes.TOLD_AT_ONCE] * 2
    assert sorted(told) == sorted(
        {("party", p.pk) for p in parties} | {("scores", p.club_id) for p in parties}
    )


def test_with_the_broker_away_the_request_tells_as_before(
    told, monkeypatch, django_capture_on_commit_callbacks
):
    kept = []
    monkeypatch.setattr(changes, "_after_party_change", [kept.append])

    def away(*told):
        raise ConnectionError("no broker")

    monkeypatch.setattr(changes.tell_in_worker, "delay", away)
    party = start_party()
    with django_capture_on_commit_callbacks(execute=True):
        play(party, 1)
    assert (told, kept) == ([party.club_id] * 2, [party.pk] * 2)
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


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_worker_tells_one_message_per_commit_and_one_sent_as_before(monkeypatch):
    from scoring.models import KeptScore

    sent = []
    delay = changes.tell_in_worker.delay
    monkeypatch.setattr(
        changes.tell_in_worker, "delay", lambda *told: sent.append(told) or delay(*told)
    )
    party = start_party()
    play(party, 1)
    assert sent == [(("scores", party.club_id), ("party", party.pk))] * 2
    party.refresh_from_db()
    wait_for_kept_score(party)

    # A message as they were sent before: one kind and its pk.
    monkeypatch.setattr(changes.tell_in_worker, "delay", lambda *told: None)
    play_next(party, 2)
    party.refresh_from_db()
    assert not KeptScore.objects.filter(party=party, changes=party.changes).exists()
    delay("party", party.pk)
    assert wait_for_kept_score(party).score["hands"] == 2


def play_next(party, number):
    a, b = party.seats.order_by("position")
    entered = hand_enter(seat=a, number=number, entry=Result("knock", 0, 3, 21)).hand
    hand_confirm(seat=b, number=number, version=entered.version)


def wait_for_kept_score(party):
    from scoring.models import KeptScore

    deadline = time.monotonic() + 30
    while not (found := KeptScore.objects.filter(party=party, changes=party.changes).first()):
        assert time.monotonic() < deadline, "the worker did not keep the party's score"
        time.sleep(0.1)
    return found
