"""The public board built off the request path (tournaments/stored_board.py): after
the commit of a change a task builds it, stores it, and only then moves the counter
the spectators' pages follow; one builder at a time, one more build for what
came during a build, and builds a refresh apart without ever dropping the last."""

from contextlib import contextmanager
from unittest import mock

import pytest
from django.core.cache import cache

from live import streams
from tests.tournaments.conftest import first_table
from tournaments import board, stored_board, tasks

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Ben", "Carl", "Dora"]


def stored(tournament):
    return cache.get(f"board-3:{tournament.pk}")


def first_points(tournament):
    """The first table's running points on the stored board."""
    return [s.points for s in stored(tournament).rounds[0].tables[0].sides]


def test_a_confirmed_hand_is_stored_in_the_board_before_its_counter_moves(started, confirmed):
    tournament, round = started(NAMES)
    key = stored_board.board_stored_key(tournament.pk)
    assert first_points(tournament) == [0, 0]  # stored after the pairing
    seen = []
    publish = streams.publish

    def heard(counter, value):  # what a spectator's page finds when it is told
        if counter == key:
            seen.append((value, first_points(tournament)))
        publish(counter, value)

    with mock.patch("live.streams.publish", side_effect=heard):
        confirmed(first_table(round), deadwood=30)  # gin: 30 + 20 = 50

    # The confirmation's board was stored before its counter moved, and the
    # counter's number is the one the pages are given.
    assert seen[-1] == (cache.get(key), [50, 0])
    assert stored(tournament) == board.build_board(tournament)


def test_changes_during_a_build_make_exactly_one_more_build(started, confirmed):
    tournament, round = started(NAMES)
    table = first_table(round)
    build = board.build_board
    built = []

    def slow_build(t, **options):
        found = build(t, **options)
        built.append(found)
        if len(built) == 1:
            # Two hands committed while the first build runs, as other requests
            # would: their builds find the builder at work and leave it to him.
            confirmed(table, number=1, deadwood=30)
            confirmed(table, number=2, deadwood=10)
        return found

    with mock.patch("tournaments.stored_board.build_board", side_effect=slow_build):
        tasks.send_board(tournament.pk)  # a change, committed

    # The first build, which saw neither hand, and one more for both.
    assert len(built) == 2
    assert [s.points for s in built[0].rounds[0].tables[0].sides] == [0, 0]
    assert first_points(tournament) == [50 + 30, 0]
    assert stored(tournament) == board.build_board(tournament)


def test_a_build_that_is_current_is_not_done_again(started):
    tournament, _ = started(NAMES)
    with mock.patch("tournaments.stored_board.build_board") as build:
        assert stored_board.board_store(tournament_id=tournament.pk) == stored_board.CURRENT
    build.assert_not_called()


@contextmanager
def kept():
    """The build tasks sent from here on, kept (their countdowns) instead of run."""
    countdowns = []

    def keep(args, countdown):
        countdowns.append(countdown)

    with mock.patch.object(tasks.store_board, "apply_async", side_effect=keep):
        yield countdowns


def test_builds_keep_a_refresh_apart_and_the_last_change_is_always_built(started, settings):
    settings.PUBLIC_REFRESH_SECONDS = 10
    tournament, _ = started(NAMES)  # a board was stored just now
    now = [1_000_000.0]
    cache.set(f"board-built:{tournament.pk}", (None, now[0]), 300)

    clock = mock.patch("tournaments.stored_board.time.time", side_effect=lambda: now[0])
    with clock, kept() as sent:
        now[0] += 4
        tasks.send_board(tournament.pk)
        # A change 4 s after the last build: built 6 s from now, not at once, not dropped.
        assert sent == [pytest.approx(6)]
        tasks.send_board(tournament.pk)
        tasks.send_board(tournament.pk)
        assert len(sent) == 1  # the changes meanwhile ride on the task already due

        # The task starts: a change from then on sends another, a refresh after
        # the build it makes.
        assert stored_board.board_store(tournament_id=tournament.pk) == stored_board.STORED
        tasks.send_board(tournament.pk)
        assert sent[1:] == [pytest.approx(10)]

    # After a quiet spell, a change is built at once.
    now[0] += 60
    cache.delete(f"board-due:{tournament.pk}")
    with clock, kept() as sent:
        tasks.send_board(tournament.pk)
    assert sent == [0]


def test_a_busy_builder_leaves_the_task_to_ask_again_a_refresh_later(started, settings):
    settings.PUBLIC_REFRESH_SECONDS = 10
    tournament, _ = started(NAMES)
    cache.add(f"board-building:{tournament.pk}", True, 60)  # another builder, maybe dead
    conf = tasks.store_board.app.conf
    conf.task_always_eager = False  # a worker's run (tests/conftest.py sets it back)
    with kept() as sent:
        assert tasks.store_board(tournament.pk) == stored_board.BUSY
    assert sent == [10]


def test_a_hand_at_the_club_builds_the_boards_of_running_tournaments_only(started, club):
    from tournaments import registration

    running, _ = started(NAMES)
    registration.tournament_create(club=club, name="Next Month")  # in registration

    with kept() as sent:
        tasks.boards_after_scores(club.pk)

    assert len(sent) == 1
    assert stored_board.boards_moved_by_scores(club.pk) == [running.pk]


def test_without_a_cache_every_page_builds_the_board(started, confirmed, client, settings):
    tournament, round = started(NAMES)
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    confirmed(first_table(round), deadwood=30)
    shown = stored_board.board_shown(tournament)
    assert [s.points for s in shown.load().rounds[0].tables[0].sides] == [50, 0]


def test_a_build_lost_with_the_broker_is_caught_up_by_the_first_page_once_overdue(
    started, confirmed, client, settings
):
    from django.urls import reverse

    tournament, round = started(NAMES)
    live = reverse("public:tournament-live", args=[tournament.slug, "tables"])
    version = client.get(live)["X-Board-Version"]
    with mock.patch.object(tasks.store_board, "apply_async", side_effect=OSError("broker down")):
        confirmed(first_table(round), deadwood=30)
    # Lost: the page keeps the stored board for now, and builds nothing...
    assert client.get(live, {"v": version}).status_code == 204

    # ...until the build is overdue: then the page that asks builds it.
    late = settings.PUBLIC_REFRESH_SECONDS + stored_board.DUE_SECONDS + 1
    later = stored_board.time.time() + late
    with mock.patch("tournaments.stored_board.time.time", return_value=later):
        after = client.get(live, {"v": version})
    assert after.status_code == 200
    assert ">50<" in after.text
