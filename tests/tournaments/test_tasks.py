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


def test_a_confirmed_hand_reaches_the_public_board_through_the_worker(club, members, client):
    from django.core.cache import cache
    from django.urls import reverse

    from scoring.services.hands import hand_confirm, hand_enter
    from scoring.services.knocks import Result
    from tournaments import stored_board, tables

    tournament = registration.tournament_create(club=club, name="Spring Open")
    registration.entrant_register(
        tournament=tournament, players=members("Anna", "Ben", "Carl", "Dora")
    )
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    round = rounds.round_start(tournament=tournament)
    board_key = f"board-3:{tournament.pk}"
    counter = stored_board.board_stored_key(tournament.pk)

    def waited(found, what):
        deadline = time.monotonic() + 60
        while (value := found()) is None:
            assert time.monotonic() < deadline, what
            time.sleep(0.2)
        return value

    # The worker pairs the round, and then builds the board of the paired round.
    waited(lambda: (cache.get(board_key) or None) and cache.get(board_key).current, "no board")
    view = next(v for v in tables.round_tables(round) if v.table.number == 1)
    first = view.table.seatings.get(side=0).entrant.player_id
    mine, theirs = sorted(view.table.party.seats.all(), key=lambda s: s.player_id != first)
    before = cache.get(counter)

    # Gin against 30: 50 for the table's first side. Entered and confirmed here;
    # built and stored there.
    result = Result("gin", knocker=mine.position, knocker_deadwood=0, defender_deadwood=30)
    entered = hand_enter(seat=mine, number=1, entry=result).hand
    hand_confirm(seat=theirs, number=1, version=entered.version)

    def shown():  # the counter's number once the board stored shows the hand
        number, board = cache.get(counter), cache.get(board_key)
        table = board.current.tables[0]
        return number if table.hands == 1 and [s.points for s in table.sides] == [50, 0] else None

    assert waited(shown, "the worker stored no board with the hand") != before
    live = client.get(reverse("public:tournament-live", args=[tournament.slug, "tables"]))
    assert live["X-Board-Version"].startswith(f"{cache.get(counter)}-")
    assert ">50<" in live.text
