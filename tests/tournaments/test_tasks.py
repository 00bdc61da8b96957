"""With a real broker, tasks run in the worker, another process: the round a
service starts is paired there, and the test only sees it in the database."""

import time

import pytest

from config.celery import app
from tournaments import registration, rounds
from tournaments.models import Round

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_a_started_round_is_paired_by_the_worker(club, members):
    # Nothing runs in this process: .delay() only sends the task to the broker.
    assert not app.conf.task_always_eager
    tournament = registration.tournament_create(club=club, name="Spring Open")
    registration.entrant_register(
        tournament=tournament, players=members("Anna", "Ben", "Carl", "Dora")
    )
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)

    # The service sends tournaments.tasks.pair_round after its commit.
    round = rounds.round_start(tournament=tournament)

    deadline = time.monotonic() + 60
    while Round.objects.get(pk=round.pk).status == Round.Status.PAIRING:
        assert time.monotonic() < deadline, "no worker paired the round"
        time.sleep(0.2)
    round.refresh_from_db()
    assert round.status == Round.Status.PLAYING
    assert round.tables.count() == 2  # four entrants, two tables, no bye
