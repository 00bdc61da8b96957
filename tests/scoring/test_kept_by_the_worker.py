"""A party's score is kept by the worker after each change (`scoring.tasks`), not
in the phone's request: the request only sends the task. With the broker away the
change still stands, and a reader settles the party from its hands."""

import time

import pytest

from scoring import tasks
from scoring.models import KeptScore, Party
from scoring.scores import computed_scores, party_scores
from scoring.services.hands import Result, hand_confirm, hand_enter
from tests.factories import start_party

GIN = Result("gin", knocker=0, knocker_deadwood=0, defender_deadwood=4)


def _play_a_hand(party, after_commit):
    a, b = party.seats.order_by("position")
    with after_commit(execute=True):
        entered = hand_enter(seat=a, number=1, result=GIN).hand
    with after_commit(execute=True):
        hand_confirm(seat=b, number=1, version=entered.version)


@pytest.mark.django_db
def test_the_request_sends_the_keeping_to_the_worker(
    monkeypatch, django_capture_on_commit_callbacks
):
    sent = []
    monkeypatch.setattr(tasks.party_score_keep, "delay", sent.append)
    party = start_party()

    _play_a_hand(party, django_capture_on_commit_callbacks)

    assert sent == [party.pk, party.pk]  # the entry's and the confirmation's
    assert not KeptScore.objects.filter(party=party).exists()
    tasks.party_score_keep(party.pk)  # as the worker runs it
    kept = KeptScore.objects.get(party=party)
    assert kept.changes == Party.objects.get(pk=party.pk).changes
    assert party_scores([party.pk]) == computed_scores([party.pk])


@pytest.mark.django_db
def test_with_the_broker_away_the_hand_stands_and_is_read_from_the_hands(
    monkeypatch, django_capture_on_commit_callbacks
):
    def refused(party_id):
        raise ConnectionError("broker away")

    monkeypatch.setattr(tasks.party_score_keep, "delay", refused)
    party = start_party()

    _play_a_hand(party, django_capture_on_commit_callbacks)

    assert party.hands.get(number=1).status == "confirmed"
    assert not KeptScore.objects.filter(party=party).exists()
    a = party.seats.get(position=0)
    # Gin: the bonus of 20 and the defender's 4 (seed 000).
    assert party_scores([party.pk])[party.pk].points[a.player_id] == 24


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_worker_keeps_the_score_of_a_confirmed_hand(django_capture_on_commit_callbacks):
    party = start_party()
    _play_a_hand(party, django_capture_on_commit_callbacks)

    changes = Party.objects.get(pk=party.pk).changes
    deadline = time.monotonic() + 30
    while not KeptScore.objects.filter(party=party, changes=changes).exists():
        assert time.monotonic() < deadline, "the worker did not keep the score"
        time.sleep(0.1)
    assert party_scores([party.pk]) == computed_scores([party.pk])
