"""The public tournament pages: what is published shows, what is not is a 404, the
running scores follow confirmed hands, and names are text, never markup. At tables
of another game: every player of a table of three to six with the table's score,
margin, place and tournament points; the standings (page, CSV, print, screen) by
tournament points, game score and parties won; a crosstable of who sat with whom."""

import csv
import datetime
import io
import re

import pytest
import redis
from django.urls import reverse

from scoring.engine.games.game import Figure
from tests.conftest import cache_keys
from tests.tournaments.conftest import first_table, play_out
from tests.tournaments.test_table_tournaments import (
    blaue_vierzehn,
    play,
    play_chinchon,
    table_tournament,
    tables_of,
)
from tournaments import rounds, stored_board, tables, withdrawals

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Ben", "Carl", "Dora"]


def url(name, tournament, *args):
    return reverse(f"public:{name}", args=[tournament.slug, *args])


def record_of(context) -> dict:
    """The entrant page's record of the game, by figure."""
    return {x["name"]: x["f"] for x in context["record"]}


def text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def halfway(club, committed, django_capture_on_commit_callbacks):
    """Twelve at three tables of four of Chinchón: table 1 finished (places 1–4 by
    seat), table 2 one hand in, table 3 not begun; each hand committed with its
    board."""
    tournament, round = table_tournament(club, 12, committed)
    done, playing, _ = tables_of(round)
    with django_capture_on_commit_callbacks(execute=True):
        play_chinchon(done.table.party, [0, 20, 40, 100])
        play(playing.table.party, {"closer": 0, "penalties": [0, 5, 6, 7]})
    return tournament, round, done


def test_the_tournament_page_shows_standings_and_the_round_with_running_scores(
    started, confirmed, client
):
    tournament, round = started(NAMES)
    table = first_table(round)
    first = table.seatings.get(side=0).entrant.player.name

    confirmed(table, deadwood=30)  # gin: 30 + the gin bonus of 20 = 50 for the first side

    page = client.get(url("tournament-detail", tournament))
    assert page.status_code == 200
    for name in NAMES:
        assert name in page.text
    rows = [r for r in page.context["current"].tables if r.number == table.number]
    assert next(s.name for s in rows[0].sides) == first
    assert [s.points for s in rows[0].sides] == [50, 0]
    assert rows[0].hands == 1


def test_a_confirmed_hand_changes_the_polled_tables_and_nothing_before(started, confirmed, client):
    tournament, round = started(NAMES)
    live = url("tournament-live", tournament, "tables")
    first = client.get(live)
    version = first["X-Board-Version"]
    assert version
    assert client.get(live, {"v": version}).status_code == 204

    confirmed(first_table(round), deadwood=30)

    after = client.get(live, {"v": version})
    assert after.status_code == 200
    assert after["X-Board-Version"] != version
    assert ">50<" in after.text


def test_the_version_moves_only_after_the_commit(
    started, client, django_capture_on_commit_callbacks
):
    from scoring.services.hands import hand_enter
    from scoring.services.knocks import Result

    tournament, round = started(NAMES)
    live = url("tournament-live", tournament, "tables")
    version = client.get(live)["X-Board-Version"]
    table = first_table(round)
    seat = table.party.seats.order_by("position").first()
    result = Result("gin", knocker=seat.position, knocker_deadwood=0, defender_deadwood=10)

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        hand_enter(seat=seat, number=1, entry=result)
        # Not committed yet: readers keep the old board.
        assert client.get(live, {"v": version}).status_code == 204
    assert callbacks
    for callback in callbacks:
        callback()
    assert client.get(live, {"v": version}).status_code == 200


def test_a_round_change_moves_the_standings(started, committed, client):
    tournament, round = started(NAMES)
    live = url("tournament-live", tournament, "standings")
    version = client.get(live)["X-Board-Version"]
    for view in tables.round_tables(round):
        play_out(view.table, view.entrants[0])
    committed(rounds.round_close, round=round)

    after = client.get(live, {"v": version})

    assert after.status_code == 200
    assert "After round 1." in after.text


def test_a_forfeit_cancels_the_tables_party_and_the_public_sees_only_the_forfeit(
    started, committed, client
):
    tournament, round = started(NAMES)
    table = first_table(round)
    party = table.party
    absent = table.seatings.get(side=1).entrant
    present = table.seatings.get(side=0).entrant
    live = url("tournament-live", tournament, "tables")
    version = client.get(live)["X-Board-Version"]

    committed(tables.table_forfeit, table=table, absent=absent)

    party.refresh_from_db()
    assert party.status == "cancelled"
    after = client.get(live, {"v": version})
    assert after.status_code == 200
    assert "forfeit" in after.text
    # (The part came rendered with the board: the board says what it showed.)
    shown = stored_board.board_for(tournament).current
    (row,) = [r for r in shown.tables if r.number == table.number]
    assert (row.party, row.absent, row.finished) == (None, 1, True)
    mine = client.get(url("player-detail", tournament, present.pk)).context
    # No score sheet and no hands: the figures count none of the cancelled party.
    assert [p.get("state") for p in mine["parties"]] == [None]
    assert mine["figures"] == {"parties": 0, "won": 0, "points": 0}
    assert record_of(mine)["gins"] == Figure(0, 0)
    # The standings count the forfeit, won, as the organizer's standings do.
    assert (mine["line"].played, mine["line"].won, mine["line"].byes) == (1, 1, 0)
    assert client.get(f"/api/tournaments/{tournament.slug}/parties/{party.pk}").status_code == 404


def test_a_cached_page_is_read_in_one_query(started, client, django_assert_num_queries):
    tournament, _ = started(NAMES)
    client.get(url("tournament-detail", tournament))  # builds and keeps the board
    with django_assert_num_queries(1):
        response = client.get(url("tournament-live", tournament, "standings"))
    assert response.status_code == 200


def test_with_the_cache_down_the_page_is_computed_and_answers(started, client, settings):
    tournament, _round = started(NAMES)
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    from django.core.cache import cache

    with pytest.raises(redis.ConnectionError):
        cache.get("anything")

    page = client.get(url("tournament-detail", tournament))
    live = client.get(url("tournament-live", tournament, "tables"), {"v": ""})

    assert page.status_code == 200
    assert "Anna" in page.text
    assert live.status_code == 200
    assert live["X-Board-Version"] == ""


@pytest.mark.parametrize(
    "flag, hidden",
    [
        ("public_standings", [("standings-csv",), ("tournament-print", "standings")]),
        ("public_pairings", [("tournament-print", "pairings")]),
        (
            "public_results",
            [
                ("crosstable",),
                ("results-csv",),
                ("round-detail", 1),
                ("tournament-print", "crosstable"),
            ],
        ),
    ],
)
def test_an_unpublished_part_is_a_404(started, client, flag, hidden):
    tournament, _ = started(NAMES)
    live_part = {"public_standings": "standings", "public_pairings": "tables"}.get(flag)
    for name, *args in hidden:
        assert client.get(url(name, tournament, *args)).status_code == 200, name
    tournament.__class__.objects.filter(pk=tournament.pk).update(**{flag: False})

    for name, *args in hidden:
        assert client.get(url(name, tournament, *args)).status_code == 404, name
    if live_part:
        assert client.get(url("tournament-live", tournament, live_part)).status_code == 404
    assert client.get(url("tournament-detail", tournament)).status_code == 200


def test_a_tournament_with_nothing_published_is_a_404_everywhere(started, client):
    tournament, _ = started(NAMES)
    entrant = tournament.entrants.first()
    tournament.__class__.objects.filter(pk=tournament.pk).update(
        public_standings=False, public_pairings=False, public_results=False
    )
    for address in [
        url("tournament-detail", tournament),
        url("tournament-screen", tournament),
        url("tournament-live", tournament, "screen"),
        url("player-detail", tournament, entrant.pk),
    ]:
        assert client.get(address).status_code == 404, address
    assert tournament.name not in client.get(reverse("home")).text


def test_the_standings_sort_by_any_column(started, committed, client):
    tournament, round = started(NAMES)
    for view in tables.round_tables(round):
        play_out(view.table, view.entrants[0])
    committed(rounds.round_close, round=round)

    def names(sort):
        page = client.get(url("tournament-detail", tournament), {"sort": sort}).text
        standings = page[page.index('id="standings"') :]  # not the round's tables above
        return sorted(NAMES, key=standings.index)

    assert names("name") == ["Anna", "Ben", "Carl", "Dora"]
    assert names("-name") == ["Dora", "Carl", "Ben", "Anna"]
    by_points = names("-points")
    by_place = names("place")
    assert by_points[:2] == sorted(by_place[:2], key=by_points.index)


def test_the_standings_csv_lists_every_entrant(started, committed, client):
    tournament, round = started(NAMES)
    winners = []
    for view in tables.round_tables(round):
        play_out(view.table, view.entrants[0], deadwood=90)
        winners.append(view.entrants[0].player.name)
    committed(rounds.round_close, round=round)

    response = client.get(url("standings-csv", tournament))
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))

    assert response["Content-Type"].startswith("text/csv")
    assert rows[0] == [
        "Place",
        "Player",
        "Parties",
        "Won",
        "Plus/minus",
        "Byes",
        "Withdrawn after round",
    ]
    assert sorted(r[1] for r in rows[1:]) == NAMES
    # Gin against 90 each hand: 110 a hand, over in one, plus the box (20) and the game (100),
    # and the shutout (100): the winner is paid 330.
    assert {r[1]: int(r[4]) for r in rows[1:] if r[1] in winners} == dict.fromkeys(winners, 330)
    assert all(r[2] == "1" for r in rows[1:])


def csv_rows(response):
    """The rows as a spreadsheet reads the bytes: a UTF-8 byte-order mark first."""
    assert response.content.startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(response.content[3:].decode("utf-8"))))


def test_the_csv_files_open_in_a_spreadsheet_with_umlauts_and_numbers(
    started, client, django_capture_on_commit_callbacks
):
    names = ["Jürgen Größe", "Ömer Çelik", "Zoë Ångström", "Ben", "Carl"]
    tournament, round = started(names, bye_value=50, forfeit_value=100)
    views = tables.round_tables(round)
    games = [v for v in views if not v.table.bye]
    with django_capture_on_commit_callbacks(execute=True):
        play_out(games[0].table, games[0].entrants[0], deadwood=90)
        tables.table_forfeit(table=games[1].table, absent=games[1].entrants[1])
        rounds.round_close(round=round)
        withdrawals.entrant_withdraw(entrant=games[1].entrants[1])

    standings = csv_rows(client.get(url("standings-csv", tournament)))
    results = csv_rows(client.get(url("results-csv", tournament)))

    assert sorted(row[1] for row in standings[1:]) == sorted(names)
    # Every figure is a number; a withdrawn player's line says after which round.
    for row in standings[1:]:
        assert all(cell.lstrip("-").isdigit() for cell in [row[0], *row[2:6]])
    withdrawn = {row[1]: row[6] for row in standings[1:]}
    assert withdrawn.pop(games[1].entrants[1].player.name) == "1"
    assert set(withdrawn.values()) == {""}

    assert results[0] == [
        "Round", "Table", "Player", "Opponent", "Result", "Kind", "Hands", "Finished"
    ]  # fmt: skip
    by_kind = {row[5]: row for row in results[1:]}
    assert set(by_kind) == {"party", "forfeit", "bye"}
    assert by_kind["party"][4] == "330"
    assert by_kind["forfeit"][4] == "100"
    assert by_kind["bye"][4] == "50"
    assert all(int(row[4]) for row in results[1:])


def test_a_formula_in_a_name_stays_text_in_the_csv(started, client, members):
    tournament, _ = started(["=HYPERLINK(1)", "Ben", "Carl", "Dora"])
    text = client.get(url("standings-csv", tournament)).content.decode()
    assert "'=HYPERLINK(1)" in text


def test_the_player_page_shows_each_party_and_figures_from_the_hands(started, confirmed, client):
    tournament, round = started(NAMES)
    table = first_table(round)
    entrant = table.seatings.get(side=0).entrant
    opponent = table.seatings.get(side=1).entrant
    confirmed(table, number=1, deadwood=10)  # gin: 30
    confirmed(table, number=2, knock=(8, 5))  # undercut by the opponent: 3 + 10
    confirmed(table, number=3, deadwood=10)  # gin: 30

    mine = client.get(url("player-detail", tournament, entrant.pk))
    theirs = client.get(url("player-detail", tournament, opponent.pk))

    assert mine.status_code == 200
    assert mine.context["figures"] == {
        "parties": 0,  # not finished: 60 to 13
        "won": 0,
        "points": 0,
    }
    # The game's own record, each figure with the hands it rests on.
    assert record_of(mine.context)["gins"] == Figure(2, 3)
    assert record_of(mine.context)["undercuts_made"].value == 0
    assert record_of(mine.context)["undercuts_suffered"] == Figure(1, 1)
    assert record_of(theirs.context)["undercuts_made"] == Figure(1, 1)
    assert record_of(theirs.context)["gins"].value == 0
    assert "Hands won with gin" in mine.text and "3 hands" in mine.text
    assert len(mine.context["parties"][0]["sheet"]["rows"]) == 3
    assert opponent.player.name in mine.text


def gin_rummy_won(request):
    """A party of two played out: one gin against 90."""
    tournament, round = request.getfixturevalue("started")(NAMES)
    table = first_table(round)
    winner = table.seatings.get(side=0).entrant
    play_out(table, winner, deadwood=90)
    return tournament, winner


def chinchon_won(request):
    """The first table of four of ``halfway``: its first player closed clean."""
    tournament, _round, done = request.getfixturevalue("halfway")
    return tournament, done.table.seatings.get(side=0).entrant


@pytest.mark.parametrize(
    ("won", "points", "record", "words"),
    [
        # One gin against 90: 110 points, box 20, game 100, shutout 100.
        (
            gin_rummy_won,
            330,
            {
                "gins": Figure(1, 1),
                "knocks_won": Figure(0, 0),
                "undercuts_made": Figure(0, 0),
                "undercuts_suffered": Figure(0, 0),
                "deadwood_when_knocking": Figure(None, 0),
            },
            "Hands won with gin",
        ),
        (
            chinchon_won,
            190,
            {"closes": Figure(1, 1), "chinchons": Figure(0, 1), "average_penalty": Figure(-10, 1)},
            "Hands closed",
        ),
    ],
)
def test_the_player_page_counts_a_finished_party_and_the_games_own_record(
    request, client, won, points, record, words
):
    tournament, winner = won(request)

    page = client.get(url("player-detail", tournament, winner.pk))

    assert page.context["figures"] == {"parties": 1, "won": 1, "points": points}
    assert record_of(page.context) == record
    shown = text(page.text)
    assert words in shown and f"+{points}" in shown


def test_an_entrant_of_another_tournament_is_a_404(started, client):
    tournament, _ = started(NAMES)
    other, _ = started(["Eva", "Fritz"])
    stranger = other.entrants.first()
    assert client.get(url("player-detail", tournament, stranger.pk)).status_code == 404


def test_the_screen_has_no_navigation_and_cycles_its_slides(started, client):
    tournament, _ = started(NAMES)
    page = client.get(url("tournament-screen", tournament))
    assert page.status_code == 200
    assert 'class="bar"' not in page.text
    assert "data-cycle" in page.text
    assert page.text.count("data-slide") == 2  # standings, then the round's tables


def test_the_round_clock_is_shown_when_the_round_has_a_limit(started, client):
    tournament, round = started(NAMES, round_minutes=45)
    page = client.get(url("tournament-screen", tournament))
    deadline = (round.started_at + datetime.timedelta(minutes=45)).isoformat()
    assert "data-deadline" in page.text
    assert deadline[:16] in page.text


HOSTILE = "<script>alert(1)</script>\"'&"


def test_hostile_names_are_escaped_on_every_page(started, confirmed, committed, client):
    tournament, round = started([HOSTILE, "Ben", "Carl", "Dora"])
    tournament.__class__.objects.filter(pk=tournament.pk).update(name=HOSTILE)
    confirmed(first_table(round))
    entrant = tournament.entrants.get(player__name=HOSTILE)
    pages = [
        reverse("home"),
        tournament.club.get_absolute_url(),
        url("tournament-detail", tournament),
        url("tournament-live", tournament, "standings"),
        url("tournament-live", tournament, "tables"),
        url("tournament-live", tournament, "screen"),
        url("tournament-screen", tournament),
        url("round-detail", tournament, 1),
        url("crosstable", tournament),
        url("player-detail", tournament, entrant.pk),
        url("tournament-print", tournament, "standings"),
        url("tournament-print", tournament, "pairings"),
        url("tournament-print", tournament, "crosstable"),
    ]
    for address in pages:
        response = client.get(address)
        assert response.status_code == 200, address
        assert "<script>alert(1)" not in response.text, address
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in response.text, address


def test_only_a_valid_sort_or_page_makes_a_cache_entry(started, client):
    tournament, _ = started(NAMES)
    live = url("tournament-live", tournament, "standings")

    def kept():
        return cache_keys("standings-part")

    plain = client.get(live)
    before = kept()
    for n, (sort, page) in enumerate(
        [("junk", "1"), ("-junk", "2"), ("won,junk", "0"), ("", "-1"), ("", "abc"), ("", "99")]
        + [("", "9" * 5000)]  # more digits than Python reads as a number
        + [(f"x{n}", str(n)) for n in range(20)]
    ):
        answer = client.get(live, {"sort": sort, "page": page, "n": n})
        assert answer.status_code == 200
        # Each shows the table as it is without them: the standings' own order.
        assert answer.text == plain.text
    assert kept() == before
    assert client.get(live, {"sort": "-won"}).status_code == 200
    assert len(kept()) == len(before) + 1


def test_the_german_csv_files_open_in_a_german_spreadsheet(
    started, client, django_capture_on_commit_callbacks
):
    tournament, round = started(NAMES)
    views = tables.round_tables(round)
    with django_capture_on_commit_callbacks(execute=True):
        play_out(views[0].table, views[0].entrants[0], deadwood=90)
    german = {"HTTP_ACCEPT_LANGUAGE": "de"}

    def rows(name):
        response = client.get(url(name, tournament), **german)
        return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))

    standings, results = rows("standings-csv"), rows("results-csv")

    assert standings[0][:3] == ["Platz", "Spieler", "Partien"]
    assert {len(row) for row in standings} == {7}
    assert results[0] == [
        "Runde", "Tisch", "Spieler", "Gegner", "Ergebnis", "Art", "Spiele", "Beendet"
    ]  # fmt: skip
    finished = sorted(row[7] for row in results[1:])
    assert finished == ["ja", *["nein"] * (len(results) - 2)]


def test_the_german_crosstable_names_its_rounds_and_spells_out_a_forfeit(
    started, client, django_capture_on_commit_callbacks
):
    tournament, round = started(NAMES)
    view = tables.round_tables(round)[0]
    with django_capture_on_commit_callbacks(execute=True):
        tables.table_forfeit(table=view.table, absent=view.entrants[1])

    text = client.get(url("crosstable", tournament), HTTP_ACCEPT_LANGUAGE="de").text

    assert '<abbr title="Runde 1">Rd. 1</abbr>' in text
    assert " kampflos <strong>" in text and "„kampflos“: ohne Spiel gewertet" in text
    assert "kl." not in text


# --- Tournaments at tables of another game ------------------------------------------


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
    rounds.round_close(round=round)
    committed(rounds.round_pair_next, tournament=tournament)
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
    rounds.round_close(round=round)

    page = client.get(reverse("public:tournament-detail", args=[tournament.slug])).text

    assert "1. =" in text(page)
    assert "card draw" not in page and 'id="standings-draws"' not in page


def test_the_pages_speak_german(client, halfway):
    tournament, *_ = halfway
    german = {"HTTP_ACCEPT_LANGUAGE": "de"}

    page = client.get(reverse("public:tournament-detail", args=[tournament.slug]), **german)
    crosstable = client.get(reverse("public:crosstable", args=[tournament.slug]), **german)

    assert "Turnierpunkte" in page.text and "Spielwertung" in page.text
    assert "Chinchón an Tischen zu 4" in page.text
    assert "Differenz" in page.text and "Tournament points" not in page.text
    assert "Alle Tische, Runde für Runde" in crosstable.text
