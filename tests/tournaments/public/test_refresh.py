"""The public pages serve the stored board (tournaments/stored_board.py): a change
is built and stored after its commit, and a page that asks then gets it at once;
a page that already has the stored board's version gets 204, nothing else does."""

import pytest
from django.urls import reverse

from tests.conftest import clear_cache
from tests.tournaments.conftest import first_table, play_out
from tournaments import tables

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Ben", "Carl", "Dora"]


def test_a_confirmed_hand_shows_on_the_polled_part_as_soon_as_it_is_committed(
    started, confirmed, client, django_assert_max_num_queries
):
    tournament, round = started(NAMES)
    live = reverse("public:tournament-live", args=[tournament.slug, "tables"])
    version = client.get(live)["X-Board-Version"]
    with django_assert_max_num_queries(1):  # the tournament: the board is not built here
        assert client.get(live, {"v": version}).status_code == 204

    confirmed(first_table(round), deadwood=30)  # gin: 30 + 20 = 50

    # No wait, no second ask: the board was stored before the page could hear of it.
    with django_assert_max_num_queries(1):
        after = client.get(live, {"v": version})
    assert after.status_code == 200
    assert after["X-Board-Version"] != version
    assert ">50<" in after.text
    assert "X-Board-Held" not in after
    assert client.get(live, {"v": after["X-Board-Version"]}).status_code == 204


def won(round, committed_hands):
    """The first table played out, its first entrant winning (+330), every hand
    committed as the phones' requests commit it. The winner."""
    view = next(v for v in tables.round_tables(round) if not v.table.bye)
    with committed_hands(execute=True):
        play_out(view.table, view.entrants[0], deadwood=90)
    return view.entrants[0]


def test_a_page_with_an_older_version_gets_the_stored_board_whatever_it_asks(
    started, client, django_capture_on_commit_callbacks
):
    tournament, round = started(NAMES)
    live = reverse("public:tournament-live", args=[tournament.slug, "standings"])
    won(round, django_capture_on_commit_callbacks)

    for asked in ("", "1-1-1-1", "nonsense"):
        answer = client.get(live, {"v": asked})
        assert answer.status_code == 200
        assert "+330" in answer.text


def test_the_page_and_the_api_show_a_confirmed_hand(
    started, client, django_capture_on_commit_callbacks
):
    tournament, round = started(NAMES)
    page = reverse("public:tournament-detail", args=[tournament.slug])
    api = f"/api/tournaments/{tournament.slug}/standings"
    assert "+330" not in client.get(page).text
    assert {line["points"] for line in client.get(api).json()["lines"]} == {0}

    winner = won(round, django_capture_on_commit_callbacks)

    assert "+330" in client.get(page).text
    lines = client.get(api).json()["lines"]
    assert [line["points"] for line in lines if line["entrant"] == winner.pk] == [330]


def test_with_no_board_stored_the_first_page_builds_it_once_and_the_next_reads_it(
    started, confirmed, client, django_assert_max_num_queries
):
    tournament, round = started(NAMES)
    confirmed(first_table(round), deadwood=30)
    clear_cache()  # a restart of the cache: nothing stored
    live = reverse("public:tournament-live", args=[tournament.slug, "tables"])

    cold = client.get(live)
    assert ">50<" in cold.text
    assert cold["X-Board-Version"]
    with django_assert_max_num_queries(1):
        warm = client.get(live, {"v": ""})
    assert warm["X-Board-Version"] == cold["X-Board-Version"]
    assert warm.text == cold.text
