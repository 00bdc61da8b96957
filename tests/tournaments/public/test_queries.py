"""The public standings take the same number of queries for 10 entrants as for
1,000, after 10 rounds, with the board stored or not; the other public pages, of
Gin Rummy or at tables of another game, a fixed number too."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from demo.big import big_tournament
from tests.conftest import clear_cache
from tests.tournaments.test_table_tournaments import play_chinchon, table_tournament, tables_of

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("entrants", [10, 1000])
def test_the_standings_page_takes_fixed_queries(client, django_assert_num_queries, entrants):
    tournament = big_tournament(entrants=entrants, rounds=10)
    page = reverse("public:tournament-detail", args=[tournament.slug])
    clear_cache()  # no board stored: the first request builds and stores it

    # (One of them: who agreed to be listed, for the names the public sees; one
    # reads every party's kept score, `party_scores`; two the kept results,
    # `tournaments.kept`: the seats moved since kept, and the sums of the others;
    # two what each round's tables were built from, `board._built_from`.)
    with django_assert_num_queries(11):
        cold = client.get(page)
    with django_assert_num_queries(1):
        warm = client.get(page)

    assert cold.status_code == warm.status_code == 200
    standings = cold.context["standings_html"]
    # One linked name per line, a hundred lines a page.
    assert standings.count("/players/") == min(entrants, 100)
    assert "After round 10." in standings
    assert warm.context["standings_html"] == standings


def test_without_a_cache_the_page_builds_the_board_once(
    client, settings, django_assert_num_queries
):
    # The cache keeps nothing (as the uncached benchmark's settings): the standings
    # and the round in play are both built from one board, in the cold page's queries.
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    tournament = big_tournament(entrants=10, rounds=10)
    page = reverse("public:tournament-detail", args=[tournament.slug])

    with django_assert_num_queries(11):
        response = client.get(page)

    assert response.status_code == 200
    assert "After round 10." in response.context["standings_html"]


@pytest.mark.parametrize("entrants", [10, 200])
def test_the_other_public_pages_take_fixed_queries(client, django_assert_max_num_queries, entrants):
    tournament = big_tournament(entrants=entrants, rounds=3)
    entrant = tournament.entrants.first()
    for name, args in [
        ("crosstable", []),
        ("round-detail", [2]),
        ("player-detail", [entrant.pk]),
        ("tournament-screen", []),
        ("standings-csv", []),
        ("results-csv", []),
    ]:
        clear_cache()  # no board stored: each page builds it
        with django_assert_max_num_queries(18):
            response = client.get(reverse(f"public:{name}", args=[tournament.slug, *args]))
        assert response.status_code == 200, name


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


@pytest.mark.parametrize("count", [1, 20])
def test_the_home_page_takes_fixed_queries(client, django_assert_max_num_queries, count):
    for i in range(count):
        big_tournament(entrants=4, rounds=1, slug=f"t{i}")
    with django_assert_max_num_queries(4):
        response = client.get(reverse("home"))
    assert response.status_code == 200
    assert response.text.count("/t/t") >= min(count, 5)
