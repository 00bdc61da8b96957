"""The round page and the standings take the same number of queries however many
entrants, rounds or tables (of Gin Rummy or another game), and the club's
tournament list however many tournaments."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournaments.conftest import play_out
from tests.tournaments.test_table_tournaments import play_chinchon, table_tournament, tables_of
from tournaments import registration, tables
from tournaments.rounds import round_close

pytestmark = pytest.mark.django_db

ROUND_PAGE = 12
# (Nothing is kept inside a test's transaction: the standings work out every seat
# that moved, two queries more than when the builder has kept them.)
STANDINGS_PAGE = 17


def played(tournament, post, rounds):
    """``rounds`` - 1 closed rounds (one table played out each, the rest forfeits),
    and the last being played: one table finished, the others playing."""
    post(reverse("manage:round-start", args=[tournament.slug]))
    for number in range(1, rounds + 1):
        round = tournament.round_set.get(number=number)
        games = [v for v in tables.round_tables(round) if not v.table.bye]
        play_out(games[0].table, games[0].entrants[0])
        if number == rounds:
            return round
        for view in games[1:]:
            tables.table_forfeit(table=view.table, absent=view.entrants[1])
        round_close(round=round)
        post(reverse("manage:round-pair", args=[tournament.slug]))
    raise AssertionError("unreachable")


def count(client, url):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


def test_round_page_and_standings_take_the_same_queries_for_any_field_or_round(
    client, tournament, post, django_assert_max_num_queries
):
    counts = []
    for entrants, rounds in [(10, 2), (60, 2), (10, 4)]:
        t = tournament([f"P{i:03d}" for i in range(entrants)], rounds=5)
        round = played(t, post, rounds)
        pages = {
            "round": reverse("manage:round-detail", args=[t.slug, round.number]),
            "tables": reverse("manage:round-tables", args=[t.slug, round.number]),
            "standings": reverse("manage:standings", args=[t.slug]),
            "desk": reverse("manage:tournament-detail", args=[t.slug]),
        }
        with django_assert_max_num_queries(ROUND_PAGE):
            client.get(pages["round"])
        with django_assert_max_num_queries(STANDINGS_PAGE):
            client.get(pages["standings"])
        counts.append({page: count(client, url) for page, url in pages.items()})

    assert counts[0] == counts[1] == counts[2]


def test_the_round_page_and_standings_take_the_same_queries_for_any_number_of_tables(
    client, club, committed
):
    counts = []
    for size in (8, 20):
        tournament, round = table_tournament(club, size, committed)
        views = tables_of(round)
        play_chinchon(views[0].table.party, [0, 20, 40, 100])
        pages = [
            reverse("manage:round-detail", args=[tournament.slug, 1]),
            reverse("manage:round-tables", args=[tournament.slug, 1]),
            reverse("manage:standings", args=[tournament.slug]),
        ]
        counts.append([count(client, url) for url in pages])

    assert counts[0] == counts[1]


@pytest.mark.parametrize("count", [1, 20])
def test_the_clubs_tournament_list_takes_the_same_queries_for_any_number(
    client, organizer, count, django_assert_num_queries
):
    for number in range(count):
        registration.tournament_create(club=organizer.club, name=f"Cup {number}")
    with django_assert_num_queries(5):
        page = client.get(reverse("manage:tournament-create", args=[organizer.club.slug]))
    assert page.text.count("Cup ") == count
