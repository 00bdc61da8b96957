"""The public pages serve the stored board (tournaments/stored_board.py): a change
is built and stored after its commit, and a page that asks then gets it at once;
a page that already has the stored board's version gets 204, nothing else does."""

import pytest
from django.urls import reverse

from tests.conftest import clear_cache
from tests.tournaments.conftest import first_table, play_out
from tournaments import tables
from tournaments.public import parts

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


def _rendered(answer) -> set[str]:
    return {template.name for template in answer.templates}


def test_the_parts_spectators_read_come_rendered_with_the_new_board(
    started, client, django_capture_on_commit_callbacks
):
    """The builder renders the parts asked for lately with each new board, before
    the pages are told: the spectator woken by the news renders nothing."""
    tournament, round = started(NAMES)
    live = {
        part: reverse("public:tournament-live", args=[tournament.slug, part])
        for part in ("standings", "tables", "screen")
    }
    before = {}
    for part, url in live.items():  # each asked once, and rendered on that ask
        before[part] = client.get(url)
        assert f"tournaments/public/_{part}.html" in _rendered(before[part])
    sorted_by_name = client.get(live["standings"], {"sort": "name"})
    assert "tournaments/public/_standings_table.html" in _rendered(sorted_by_name)

    won(round, django_capture_on_commit_callbacks)

    tables, screen = client.get(live["tables"]), client.get(live["screen"])
    assert tables.text != before["tables"].text
    assert "+330" in screen.text
    assert not {"tournaments/public/_tables.html", "tournaments/public/_screen.html"} & (
        _rendered(tables) | _rendered(screen)
    )
    for asked in ({}, {"sort": "name"}):
        standings = client.get(live["standings"], asked)
        assert "+330" in standings.text
        assert "tournaments/public/_standings_table.html" not in _rendered(standings)
    # Nobody read the German standings: the builder left them to their first ask.
    german = client.get(live["standings"], HTTP_ACCEPT_LANGUAGE="de")
    assert "+330" in german.text
    assert "tournaments/public/_standings_table.html" in _rendered(german)


def test_a_part_nobody_asked_for_lately_is_left_to_its_next_ask(
    started, confirmed, client, monkeypatch
):
    tournament, round = started(NAMES)
    live = reverse("public:tournament-live", args=[tournament.slug, "tables"])
    client.get(live)
    monkeypatch.setattr(parts, "ASKED_SECONDS", -1)  # every note is too old now

    confirmed(first_table(round), deadwood=30)

    answer = client.get(live)
    assert ">50<" in answer.text
    assert "tournaments/public/_tables.html" in _rendered(answer)
