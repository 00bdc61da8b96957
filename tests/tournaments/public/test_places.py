"""Places as the public reads them: in brackets beside a name, the place the round
was paired from, as in the organizer's explanation; one place each once a card
draw has separated a tie; a withdrawn player marked on every page."""

import csv
import io
import re

import pytest
from django.urls import reverse

from tests.tournaments.conftest import play_out
from tournaments import explanations, rounds, standings, tables, withdrawals

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Ben", "Carl", "Dora"]


def url(name, tournament, *args):
    return reverse(f"public:{name}", args=[tournament.slug, *args])


@pytest.fixture
def second_round(started, committed, django_capture_on_commit_callbacks):
    """Round 1 played (two winners on +330, two losers on -330, each tie ordered
    by Knock's card draw) and round 2 paired from those standings."""
    tournament, round = started(NAMES)
    with django_capture_on_commit_callbacks(execute=True):
        for view in tables.round_tables(round):
            play_out(view.table, view.entrants[0], deadwood=90)
        rounds.round_close(round=round)
    committed(rounds.round_pair_next, tournament=tournament)
    return tournament, tournament.round_set.get(number=2)


def bracketed(html):
    """Name -> the place in brackets beside it on a round's tables."""
    return {
        name: int(place) for name, place in re.findall(r"<td>(\w+) <small[^>]*>\((\d+)\.\)", html)
    }


def test_the_public_and_the_organizer_show_the_places_a_round_was_paired_from(
    second_round, client, django_capture_on_commit_callbacks
):
    tournament, paired = second_round
    entrants = {e.pk: e for e in tournament.entrants.select_related("player")}
    # The standings the round was paired from, best first, ties drawn apart.
    then = {str(entrants[pk]): place for place, pk in enumerate(paired.standings, start=1)}
    assert sorted(then.values()) == [1, 2, 3, 4]  # the draw separated both ties

    assert bracketed(client.get(url("round-detail", tournament, 2)).text) == then
    explanation = " ".join(explanations.round_explanation(paired, entrants))
    for name, place in then.items():
        assert re.search(rf"{name} \({place}(st|nd|rd|th),", explanation)

    # Round 2 is played and closed: the standings change, its places in brackets do not.
    with django_capture_on_commit_callbacks(execute=True):
        for view in tables.round_tables(paired):
            play_out(view.table, view.entrants[1], deadwood=50)
        rounds.round_close(round=paired)
    now = {
        line.entrant.player.name: line.place for line in standings.standings_for(tournament).lines
    }
    assert now != then
    assert bracketed(client.get(url("round-detail", tournament, 2)).text) == then


def test_while_a_round_is_played_the_draw_that_paired_it_still_gives_one_place_each(
    second_round, client
):
    tournament, _ = second_round

    organizer = [line.place for line in standings.standings_for(tournament).lines]
    rows = list(
        csv.reader(
            io.StringIO(client.get(url("standings-csv", tournament)).content.decode("utf-8-sig"))
        )
    )
    page = client.get(url("tournament-detail", tournament)).text

    assert organizer == [1, 2, 3, 4]
    assert [int(row[0]) for row in rows[1:]] == [1, 2, 3, 4]
    assert "1. =" not in page and "3. =" not in page


def test_a_withdrawn_player_is_marked_in_print_and_in_the_crosstable(
    second_round, client, committed
):
    tournament, paired = second_round
    quitter = paired.seatings.first().entrant
    committed(withdrawals.entrant_withdraw, entrant=quitter)
    marked = f"{quitter.player.name} (withdrawn)"

    for page in (
        client.get(url("tournament-print", tournament, "standings")),
        client.get(url("tournament-print", tournament, "crosstable")),
        client.get(url("crosstable", tournament)),
        client.get(url("tournament-detail", tournament)),
    ):
        assert page.status_code == 200
        assert page.text.count(marked) == 1


def test_the_public_standings_say_who_drew_what_where_tie_by_tie(started, committed, client):
    tournament, round = started(NAMES)
    views = tables.round_tables(round)
    for view in views:
        play_out(view.table, view.entrants[0], deadwood=90)
    committed(rounds.round_close, round=round)
    high, low = (view.entrants[0] for view in views)
    committed(
        rounds.standings_draw_enter, tournament=tournament, cards={high.pk: "KH", low.pk: "3C"}
    )

    page = client.get(url("tournament-detail", tournament)).text

    assert f"Tied on +330 · drawn at the venue: <strong>{high} K♥, {low} 3♣</strong>" in page
    assert "Tied on -330 · Knock's card draw: <strong>" in page

    # Once the round is played the standings are provisional: no draw is claimed.
    committed(rounds.round_pair_next, tournament=tournament)
    assert 'id="standings-draws"' not in client.get(url("tournament-detail", tournament)).text
