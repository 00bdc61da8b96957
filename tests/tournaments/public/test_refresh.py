"""At a championship a hand is confirmed somewhere every second: the public board
moves on at most every PUBLIC_REFRESH_SECONDS, so it is rebuilt (and every
spectator's page sent again) that often at most, never after each hand."""

from unittest import mock

import pytest
from django.urls import reverse

from tests.tournaments.conftest import first_table

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
    first = client.get(live)
    version = first["X-Board-Version"]
    assert "X-Board-Held" not in first  # current: nothing held back

    confirmed(first_table(round), deadwood=30)  # gin: 30 + 20 = 50
    clock[0] += 9
    # Still the board shown 9 s ago: nothing to send, nothing rebuilt, and the
    # page is told to ask again in a second, when the board moves on.
    with django_assert_max_num_queries(1):  # the tournament
        held = client.get(live, {"v": version})
    assert held.status_code == 204
    assert held["X-Board-Held"] == "1.00"

    clock[0] += 2
    after = client.get(live, {"v": version})
    assert after.status_code == 200
    assert after["X-Board-Version"] != version
    assert "X-Board-Held" not in after
    assert ">50<" in after.text


def test_with_no_refresh_interval_each_change_shows_at_once(started, confirmed, client, clock):
    # The tests' setting (conftest): PUBLIC_REFRESH_SECONDS = 0.
    tournament, round = started(NAMES)
    live = reverse("public:tournament-live", args=[tournament.slug, "tables"])
    version = client.get(live)["X-Board-Version"]
    confirmed(first_table(round), deadwood=30)
    assert client.get(live, {"v": version}).status_code == 200
