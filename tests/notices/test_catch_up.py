"""The catch-up of notices nobody sends any more (notices/catchup.py): one left
"being sent" by a worker killed mid-send, one waiting whose task was lost; each sent
once, and one that kills its worker every time given up."""

import datetime

import pytest
from django.conf import settings
from django.core import mail
from django.utils import timezone

from config.celery import app
from notices import catchup, delivery, services, tasks
from notices.models import Notice
from tests.factories import MembershipFactory

pytestmark = pytest.mark.django_db


class Killed(BaseException):
    """The worker's process ended in the middle of the send (not an error a
    send catches)."""


@pytest.fixture
def notice():
    member = MembershipFactory(player__email="ada@example.org")
    return Notice.objects.create(
        club=member.club,
        player=member.player,
        kind="table",
        channel="email",
        key="party-1-table",
        subject="Your table",
        body="Table 3",
    )


def killed_while_sending(notice, monkeypatch):
    def die(notice):
        raise Killed

    with monkeypatch.context() as patched:
        patched.setattr(delivery, "send_email", die)
        with pytest.raises(Killed):
            services.notice_deliver(notice_id=notice.pk, last_try=False)
    notice.refresh_from_db()
    assert notice.status == Notice.Status.SENDING


def later(minutes):
    return timezone.now() + datetime.timedelta(minutes=minutes)


def test_a_notice_left_being_sent_by_a_killed_worker_is_sent_by_the_catch_up(notice, monkeypatch):
    killed_while_sending(notice, monkeypatch)
    # The broker hands the task to another worker: it finds the notice claimed.
    tasks.deliver_notice.delay(notice.pk)
    assert mail.outbox == []

    again = catchup.notices_catch_up(now=later(11), deliver=tasks.send_notice)

    assert again == [notice.pk]
    assert [m.to for m in mail.outbox] == [["ada@example.org"]]
    notice.refresh_from_db()
    assert (notice.status, notice.attempts) == (Notice.Status.SENT, 2)
    assert catchup.notices_catch_up(now=later(60), deliver=tasks.send_notice) == []
    assert len(mail.outbox) == 1


def test_a_notice_being_sent_a_moment_ago_is_left_to_its_worker(notice, monkeypatch):
    killed_while_sending(notice, monkeypatch)
    assert catchup.notices_catch_up(now=later(2), deliver=tasks.send_notice) == []
    notice.refresh_from_db()
    assert notice.status == Notice.Status.SENDING


def test_a_waiting_notice_whose_task_was_lost_is_sent(notice):
    # The broker was away when it was to be sent (tasks._send logged it).
    assert catchup.notices_catch_up(now=later(5), deliver=tasks.send_notice) == []
    assert catchup.notices_catch_up(now=later(50), deliver=tasks.send_notice) == [notice.pk]
    notice.refresh_from_db()
    assert notice.status == Notice.Status.SENT
    assert len(mail.outbox) == 1


def test_a_notice_that_kills_its_worker_at_every_try_is_given_up(notice, monkeypatch):
    for _ in range(catchup.TRIES):
        killed_while_sending(notice, monkeypatch)
        Notice.objects.filter(pk=notice.pk).update(tried_at=later(-11))
        catchup.notices_catch_up(now=timezone.now(), deliver=lambda pk: None)
    notice.refresh_from_db()
    assert notice.status == Notice.Status.FAILED
    assert "every try" in notice.error
    assert mail.outbox == []


def test_the_beat_runs_the_catch_up_every_minute():
    (entry,) = [e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"].endswith("catch_up")]
    assert entry["task"] in app.tasks
    assert entry["schedule"] <= 60


def test_a_waiting_notice_is_only_taken_for_lost_after_its_longest_pause():
    assert catchup.TRIES == tasks.TRIES
    longest = datetime.timedelta(seconds=tasks.FIRST_PAUSE * 2 ** (tasks.TRIES - 1))
    assert longest + datetime.timedelta(seconds=settings.EMAIL_TIMEOUT) < catchup.LOST
