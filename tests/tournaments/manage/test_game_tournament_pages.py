"""The organizer's pages of a tournament of another game: created from the form
with its game, players per table and options; the round page lists every player
of a table of three to six with the table's score, margin, place and tournament
points; the standings count tournament points, game score and parties won."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import MembershipFactory
from tests.tournaments.test_table_tournaments import (
    blaue_vierzehn,
    play_chinchon,
    table_tournament,
    tables_of,
)
from tournaments import registration
from tournaments.models import Tournament
from tournaments.rounds import round_close

pytestmark = pytest.mark.django_db

FORM = {
    "name": "Chinchón Cup",
    "date": "2026-11-28",
    "format": "swiss",
    "ruleset": "classic",
    "target": "100",
    "bye_value": "0",
    "forfeit_value": "100",
    "confirmation_required": "on",
    "public_standings": "on",
}


def create(client, club, **more):
    return client.post(reverse("manage:tournament-create", args=[club.slug]), FORM | more)


def test_the_create_form_offers_the_card_game_players_per_table_and_each_games_options(
    client, club
):
    page = client.get(reverse("manage:tournament-create", args=[club.slug])).text

    for game in ("gin_rummy", "chinchon", "canasta", "blaue_vierzehn", "cruzo"):
        assert f'name="game" value="{game}"' in page
    assert 'name="table_size"' in page
    # The club night's option fields, one group per game.
    for field in ("chinchon_deck", "chinchon_conga", "canasta_partnerships", "cruzo_games"):
        assert f'name="{field}"' in page
    assert "La Conga: out at 100" in page


def test_a_chinchon_tournament_is_created_with_its_table_size_and_options(client, club):
    response = create(client, club, game="chinchon", table_size="4", chinchon_deck="48")

    tournament = Tournament.objects.get(club=club)
    assert response.status_code == 302
    assert (tournament.game, tournament.table_size) == ("chinchon", 4)
    assert tournament.game_options == {"deck": 48, "conga": False}
    desk = client.get(response["Location"]).text
    assert "Chinchón at tables of 4" in desk


def test_gin_rummy_stays_the_default_and_ignores_the_other_games_fields(client, club):
    # A number left in another game's options is no reason to refuse Gin Rummy.
    response = create(client, club, cruzo_games="0")

    tournament = Tournament.objects.get(club=club)
    assert response.status_code == 302
    assert (tournament.game, tournament.table_size, tournament.game_options) == (
        "gin_rummy",
        None,
        {},
    )


@pytest.mark.parametrize(
    "fields,message",
    [
        (
            {"game": "chinchon", "table_size": "5"},
            "Chinchón is played at tables of 3, 4 players in a tournament",
        ),
        ({"game": "chinchon"}, "Chinchón is played at tables of 3, 4 players"),
        (
            {"game": "chinchon", "table_size": "4", "format": "knockout"},
            "A tournament of Chinchón is played in the Swiss system",
        ),
        (
            {"game": "blaue_vierzehn", "table_size": "4", "format": "knockout"},
            "A tournament of Blaue Vierzehn is played in the Swiss system, as a round robin",
        ),
        ({"table_size": "4"}, "Gin Rummy is played two at a table"),
        (
            {"game": "canasta", "table_size": "4", "canasta_partnerships": "3"},
            "Canasta at a table of 4: 4 players play as two partnerships.",
        ),
        # Where twelve do not divide into sixes a table of five is seated, and five
        # cannot play three partnerships.
        (
            {"game": "canasta", "table_size": "6", "canasta_partnerships": "3"},
            "Canasta at a table of 5: 5 players play as two partnerships.",
        ),
    ],
)
def test_a_game_that_does_not_go_together_is_shown_again_with_why(client, club, fields, message):
    response = create(client, club, **fields)

    assert response.status_code == 400
    assert message in " ".join(response.context["form"].non_field_errors())
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    "fields", [{"game": "poker"}, {"game": "chinchon", "table_size": "9"}, {"chinchon_deck": "52"}]
)
def test_a_value_no_form_offers_is_a_400_with_the_form(client, club, fields):
    response = create(client, club, **({"game": "chinchon", "table_size": "4"} | fields))

    assert response.status_code == 400
    assert response.context["form"].errors
    assert not Tournament.objects.exists()


def test_the_round_page_lists_every_player_at_a_table_with_place_and_points(
    client, club, committed
):
    tournament, round = table_tournament(club, 12, committed)
    done, playing, _ = tables_of(round)
    play_chinchon(done.table.party, [0, 20, 40, 100])
    page = client.get(reverse("manage:round-detail", args=[tournament.slug, 1])).text

    board = page[page.index('id="table-1"') : page.index('id="table-2"')]
    for entrant in done.entrants:
        assert entrant.player.name in board
    places = re.findall(r"data-place>([^<]*)<", board)
    earned = re.findall(r"data-earned>([^<]*)<", board)
    assert places == ["1.", "2.", "3.", "4."] and earned == ["6", "4", "2", "0"]
    assert "+190" in board and "-250" in board
    # A table in play: all four, no places yet, its hands counted.
    second = page[page.index('id="table-2"') : page.index('id="table-3"')]
    assert all(e.player.name in second for e in playing.entrants)
    assert re.findall(r"data-earned>([^<]*)<", second) == ["", "", "", ""]
    assert "0 hands" in second
    # Forfeits and swaps are not made at tables of another game.
    assert "No-show?" not in page
    assert 'id="swap-form"' not in page and "Swap" not in page


def test_a_table_card_at_a_table_of_four_names_the_other_three_in_one_line(client, club, committed):
    tournament, round = table_tournament(club, 8, committed)
    first = tables_of(round)[0]
    page = client.get(reverse("manage:round-cards", args=[tournament.slug, 1])).text

    me, *others = first.table.party.seats.order_by("position")
    card = page[page.index(f'id="card-{me.pk}"') :]
    card = card[: card.index("</section>")]
    assert me.player.name in card
    a, b, c = (seat.player.name for seat in others)
    assert f"with {a}, {b} and {c}" in card
    assert "against" not in card
    # No card is drawn at tables of another game: the seats in order, no stray commas.
    assert " ," not in card


def test_the_standings_count_tournament_points_game_score_and_parties_won(client, club, committed):
    tournament, round = table_tournament(club, 8, committed)
    for view in tables_of(round):
        play_chinchon(view.table.party, [0, 20, 40, 100])
    round_close(round=round)
    page = client.get(reverse("manage:standings", args=[tournament.slug])).text

    head = page[page.index("<thead") : page.index("</thead>")]
    assert "Tournament points" in head and "Game score" in head and "Parties won" in head
    assert "Plus/minus" not in head and "Card" not in head
    assert "by tournament points from the places at the tables of Chinchón" in page
    # The two who closed clean share the first place: 6 points, +190.
    rows = re.findall(r"<tr[^>]*data-entrant[^>]*>(.*?)</tr>", page, re.S)
    first = re.sub(r"<[^>]+>", " ", rows[0]).split()
    assert first[0] == "1=" and "6" in first and "+190" in first
    # No final card draw at tables: ties are broken by game score and parties won.
    assert 'name="final_draw"' not in page


def test_the_standings_of_a_blaue_vierzehn_swiss_offer_no_card_draw_for_its_ties(
    client, club, committed
):
    tournament, round = table_tournament(
        club, 8, committed, game="blaue_vierzehn", game_options={"deals": 1}
    )
    # Both tables of four end alike: each place is tied on points, game score and
    # parties won with the same place at the other table.
    for view in tables_of(round):
        blaue_vierzehn(view.table.party, [0, 10, 13, 33])
    round_close(round=round)

    page = client.get(reverse("manage:standings", args=[tournament.slug])).text

    rows = re.findall(r"<tr[^>]*data-entrant[^>]*>(.*?)</tr>", page, re.S)
    assert re.sub(r"<[^>]+>", " ", rows[0]).split()[0] == "1="
    # The game score has ordered what it can; the rest share their place.
    assert 'id="draws-form"' not in page and "Cards drawn at the venue" not in page
    assert "card draw" not in page
    assert 'name="final_draw"' not in page


def queries(client, url):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured)


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
        counts.append([queries(client, url) for url in pages])

    assert counts[0] == counts[1]


def test_the_desk_of_a_tournament_at_tables_offers_no_final(client, club, committed):
    tournament, _ = table_tournament(club, 8, committed)

    desk = client.get(reverse("manage:tournament-detail", args=[tournament.slug])).text

    assert "Chinchón at tables of 4" in desk
    assert 'id="final-form"' not in desk


def test_the_create_form_speaks_german(client, club):
    page = client.get(
        reverse("manage:tournament-create", args=[club.slug]), HTTP_ACCEPT_LANGUAGE="de"
    ).text

    assert "Kartenspiel" in page and "Spieler pro Tisch" in page
    assert "Turnierpunkte nach dem Platz am Tisch" in page


def test_a_round_robin_of_another_game_is_created_and_offers_a_field_a_planned_schedule(
    client, club
):
    response = create(client, club, game="chinchon", table_size="4", format="round_robin")

    tournament = Tournament.objects.get(club=club)
    assert response.status_code == 302
    assert (tournament.format, tournament.game) == ("round_robin", "chinchon")
    players = [MembershipFactory(club=club).player for _ in range(10)]
    registration.entrant_register(tournament=tournament, players=players)
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    desk = client.get(response["Location"]).text
    assert "No schedule seats every two of 10 entrants at one table exactly once" in desk
    assert "plays 3 rounds planned ahead" in desk

    client.post(reverse("manage:round-start", args=[tournament.slug]), follow=True)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING and tournament.rounds == 3


def test_the_round_page_of_a_round_robin_says_each_table_is_the_schedules(client, club, committed):
    tournament, _ = table_tournament(club, 9, committed, size=3, format="round_robin")

    page = client.get(reverse("manage:round-detail", args=[tournament.slug, 1])).text
    public = client.get(reverse("public:round-detail", args=[tournament.slug, 1])).text

    assert page.count("the round-robin schedule&#x27;s table") == 3
    assert 'id="table-3"' in page and "round-robin schedule" in page
    # The public round shows the tables as it does for the Swiss at tables.
    assert re.findall(r'class="sheet at-table[^"]*" data-table="(\d)"', public) == ["1", "2", "3"]
