"""At a championship a hand is confirmed somewhere every second: the public board
moves on at most every PUBLIC_REFRESH_SECONDS, so it is rebuilt (and every
spectator's page sent again) that often at most, never after each hand."""

from unittest import mock

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.tournaments.conftest import first_table
from tournaments import board

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Ben", "Carl", "Dora"]


@pytest.fixture
def clock():
    """tournaments.board's clock, moved by hand."""
    now = [1_000_000.0]
    with mock.patch("tournaments.board.time.time", side_effect=lambda: now[0]):
        yield now


def test_a_change_shows_once_the_refresh_interval_has_passed(
    started, confirmed, client, settings, clock, django_assert_max_num_queries
):
    settings.PUBLIC_REFRESH_SECONDS = 10
    tournament, round = started(NAMES)
    live = reverse("public:tournament-live", args=[tournament.slug, "tables"])
    version = client.get(live)["X-Board-Version"]

    confirmed(first_table(round), deadwood=30)  # gin: 30 + 20 = 50
    clock[0] += 9
    # Still the board shown 9 s ago: nothing to send, nothing rebuilt.
    with django_assert_max_num_queries(1):  # the tournament
        assert client.get(live, {"v": version}).status_code == 204

    clock[0] += 2
    after = client.get(live, {"v": version})
    assert after.status_code == 200
    assert after["X-Board-Version"] != version
    assert ">50<" in after.text


def test_with_no_refresh_interval_each_change_shows_at_once(started, confirmed, client, clock):
    # The tests' setting (conftest): PUBLIC_REFRESH_SECONDS = 0.
    tournament, round = started(NAMES)
    live = reverse("public:tournament-live", args=[tournament.slug, "tables"])
    version = client.get(live)["X-Board-Version"]
    confirmed(first_table(round), deadwood=30)
    assert client.get(live, {"v": version}).status_code == 200


def test_while_one_request_builds_the_next_board_the_others_serve_the_last(
    started, confirmed, client, settings, clock, django_assert_max_num_queries
):
    """A board of a thousand entrants takes seconds to build: every web process
    building it at once kept every phone's request waiting behind it."""
    settings.PUBLIC_REFRESH_SECONDS = 10
    tournament, round = started(NAMES)
    live = reverse("public:tournament-live", args=[tournament.slug, "tables"])
    version = client.get(live)["X-Board-Version"]
    confirmed(first_table(round), deadwood=30)
    clock[0] += 11

    cache.set(f"board-building:{tournament.pk}", "another request", 60)
    with mock.patch("tournaments.board.build_board", wraps=board.build_board) as build:
        with django_assert_max_num_queries(1):  # the tournament
            assert client.get(live, {"v": version}).status_code == 204
        assert build.call_count == 0

        cache.delete(f"board-building:{tournament.pk}")  # it is built
        after = client.get(live, {"v": version})
        assert after.status_code == 200
        assert ">50<" in after.text
        assert client.get(live, {"v": after["X-Board-Version"]}).status_code == 204
        assert build.call_count == 1
    # The building request gave its claim up.
    assert cache.get(f"board-building:{tournament.pk}") is None
