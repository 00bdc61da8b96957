"""What the public sees of a tournament of another game: every player of a table
of three to six with the table's score, margin, place and tournament points; the
standings (page, CSV, print, screen) by tournament points, game score and parties
won; a crosstable of who sat with whom; each page in a fixed number of queries."""

import csv
import io
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.engine.games.game import Figure
from tests.conftest import clear_cache
from tests.tournaments.test_table_tournaments import (
    blaue_vierzehn,
    play,
    play_chinchon,
    table_tournament,
    tables_of,
)
from tournaments.rounds import round_close, round_pair_next

pytestmark = pytest.mark.django_db


@pytest.fixture
def halfway(club, committed, django_capture_on_commit_callbacks):
    """Twelve at three tables of four: table 1 finished (places 1–4 by seat),
    table 2 one hand in, table 3 not begun; each hand committed with its board."""
    tournament, round = table_tournament(club, 12, committed)
    done, playing, _ = tables_of(round)
    with django_capture_on_commit_callbacks(execute=True):
        play_chinchon(done.table.party, [0, 20, 40, 100])
        play(playing.table.party, {"closer": 0, "penalties": [0, 5, 6, 7]})
    return tournament, round, done


def text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_round_lists_every_player_of_a_table_with_place_and_points(client, halfway):
    tournament, *_ = halfway
    page = client.get(reverse("public:round-detail", args=[tournament.slug, 1])).text

    tables = re.findall(
        r'<table class="sheet at-table[^"]*" data-table="(\d)">(.*?)</table>', page, re.S
    )
    assert [number for number, _ in tables] == ["1", "2", "3"]
    first = tables[0][1]
    assert len(re.findall(r"<tr data-entrant", first)) == 4
    assert re.findall(r"data-place>([^<]*)<", first) == ["1.", "2.", "3.", "4."]
    assert re.findall(r"data-earned>([^<]*)<", first) == ["6", "4", "2", "0"]
    assert "+190" in first and "-250" in first and "finished" in first
    # The table in play: its running totals and its hands, no places yet.
    second = text(tables[1][1])
    assert "1 hand" in second and "-10" in second
    assert re.findall(r"data-earned>([^<]*)<", tables[1][1]) == ["", "", "", ""]
    assert "Opponent" not in page and "plus/minus" not in page


def test_a_players_page_counts_the_finished_party_and_the_games_own_record(client, halfway):
    tournament, _round, done = halfway
    closer = done.table.seatings.get(side=0).entrant
    page = client.get(reverse("public:player-detail", args=[tournament.slug, closer.pk]))

    assert page.context["figures"] == {"parties": 1, "won": 1, "points": 190}
    record = {x["name"]: x["f"] for x in page.context["record"]}
    assert record == {
        "closes": Figure(1, 1),
        "chinchons": Figure(0, 1),
        "average_penalty": Figure(-10, 1),
    }
    shown = text(page.text)
    assert "Hands closed" in shown and "+190" in shown


def test_the_standings_count_tournament_points_and_game_score(client, halfway):
    tournament, *_ = halfway
    page = client.get(reverse("public:tournament-detail", args=[tournament.slug])).text

    standings = page[page.index('class="sheet standings"') :]
    head = text(standings[: standings.index("</thead>")])
    assert "Tournament points" in head and "Game score" in head and "Parties won" in head
    assert "Plus/minus" not in head
    first = text(re.findall(r"<tr[^>]*data-entrant[^>]*>(.*?)</tr>", standings, re.S)[0])
    assert first.split()[-5:] == ["1", "6", "+190", "1", "0"]
    assert "Chinchón at tables of 4" in page


def test_the_standings_sort_by_game_score(client, halfway):
    tournament, *_ = halfway
    url = reverse("public:tournament-detail", args=[tournament.slug])

    page = client.get(url + "?sort=-score").text

    rows = re.findall(r"<tr[^>]*data-entrant[^>]*>(.*?)</tr>", page, re.S)
    assert "+190" in rows[0] and "-250" in rows[-1]


def test_the_csv_exports_say_points_game_score_and_each_seat(client, halfway):
    tournament, *_ = halfway
    standings = client.get(reverse("public:standings-csv", args=[tournament.slug]))
    rows = list(csv.reader(io.StringIO(standings.content.decode("utf-8-sig"))))
    head = ["Place", "Player", "Parties", "Tournament points", "Game score", "Parties won"]
    assert rows[0][:6] == head
    assert rows[1][2:6] == ["1", "6", "190", "1"]

    results = client.get(reverse("public:results-csv", args=[tournament.slug]))
    rows = list(csv.reader(io.StringIO(results.content.decode("utf-8-sig"))))
    assert rows[0] == [
        "Round", "Table", "Player", "Score", "Margin", "Place", "Tournament points", "Hands",
        "Finished",
    ]  # fmt: skip
    # One line per seat: twelve players, the first table's four finished.
    assert len(rows) == 13
    assert [row[3:7] for row in rows[1:5]] == [
        ["-10", "190", "1", "6"],
        ["20", "70", "2", "4"],
        ["40", "-10", "3", "2"],
        ["100", "-250", "4", "0"],
    ]
    assert rows[5][4:7] == ["", "", ""]


def test_the_crosstable_shows_who_sat_with_whom(client, halfway):
    tournament, *_ = halfway
    response = client.get(reverse("public:crosstable", args=[tournament.slug]))

    assert response.status_code == 200
    page = text(response.text)
    assert "Tournament points" in page and "Plus/minus" not in page
    # The winner of table 1 sat with the players placed 2nd, 3rd and last.
    assert "with 2, 3, 12 · 1. 6" in page
    assert "Every table, round by round" in page


def test_print_and_screen_speak_of_tournament_points(client, halfway):
    tournament, *_ = halfway
    for what in ("standings", "pairings", "crosstable"):
        response = client.get(reverse("public:tournament-print", args=[tournament.slug, what]))
        assert response.status_code == 200, what
        assert "Plus/minus" not in response.text, what
    printed = client.get(reverse("public:tournament-print", args=[tournament.slug, "standings"]))
    assert "Game score" in printed.text
    screen = client.get(reverse("public:tournament-screen", args=[tournament.slug])).text
    assert "Tournament points" in screen and "Opponent" not in screen


def test_the_round_after_is_seated_from_the_standings_and_shown(client, club, committed):
    tournament, round = table_tournament(club, 8, committed)
    for view in tables_of(round):
        play_chinchon(view.table.party, [0, 20, 40, 100])
    round_close(round=round)
    committed(round_pair_next, tournament=tournament)
    page = client.get(reverse("public:tournament-detail", args=[tournament.slug])).text

    assert "Round 2" in page
    # The two winners of round 1 sit at table 1, with their places in brackets.
    first = re.search(r'<table[^>]*data-table="1">(.*?)</table>', page, re.S).group(1)
    assert "(1.)" in first and "(2.)" in first


def test_the_ties_of_a_blaue_vierzehn_swiss_are_shared_without_a_card_draw(client, club, committed):
    tournament, round = table_tournament(
        club, 8, committed, game="blaue_vierzehn", game_options={"deals": 1}
    )
    for view in tables_of(round):
        blaue_vierzehn(view.table.party, [0, 10, 13, 33])
    round_close(round=round)

    page = client.get(reverse("public:tournament-detail", args=[tournament.slug])).text

    assert "1. =" in text(page)
    assert "card draw" not in page and 'id="standings-draws"' not in page


def test_the_page_describes_the_tournament_by_its_game(client, halfway):
    tournament, *_ = halfway
    page = client.get(reverse("public:tournament-detail", args=[tournament.slug])).text

    found = re.search(r'<meta name="description" content="([^"]+)">', page).group(1)
    assert found.startswith("Chinchón Open, a Chinchón tournament of")


PAGES = [
    ("tournament-detail", []),
    ("round-detail", [1]),
    ("crosstable", []),
    ("standings-csv", []),
    ("results-csv", []),
    ("tournament-screen", []),
]


def test_the_public_pages_take_the_same_queries_for_any_number_of_tables(client, club, committed):
    counts = []
    for players in (8, 24):
        tournament, round = table_tournament(club, players, committed)
        play_chinchon(tables_of(round)[0].table.party, [0, 20, 40, 100])
        found = []
        for name, args in PAGES:
            clear_cache()  # no board stored, nothing cached: each page builds its own
            with CaptureQueriesContext(connection) as queries:
                response = client.get(reverse(f"public:{name}", args=[tournament.slug, *args]))
            assert response.status_code == 200, name
            found.append(len(queries))
        counts.append(found)

    assert counts[0] == counts[1]
    assert max(counts[0]) <= 14


def test_the_pages_speak_german(client, halfway):
    tournament, *_ = halfway
    german = {"HTTP_ACCEPT_LANGUAGE": "de"}

    page = client.get(reverse("public:tournament-detail", args=[tournament.slug]), **german)
    crosstable = client.get(reverse("public:crosstable", args=[tournament.slug]), **german)

    assert "Turnierpunkte" in page.text and "Spielwertung" in page.text
    assert "Chinchón an Tischen zu 4" in page.text
    assert "Differenz" in page.text and "Tournament points" not in page.text
    assert "Alle Tische, Runde für Runde" in crosstable.text
