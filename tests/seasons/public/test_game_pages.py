"""The rating list and the player's page by game (issue 28): Gin Rummy first and
by default, every other game with a rated party a link away, and a section per game
played on the player's page with its small record."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.seasons.conftest import play_game_party
from tests.seasons.test_game_ratings import GOOD, POOR

pytestmark = pytest.mark.django_db

CHINCHON = {"closer": 0, "chinchon": True, "penalties": [0, 50, 60]}


@pytest.fixture
def anyone():
    return Client()


@pytest.fixture
def games_club(season_club, after_commit):
    """The season's club with a Chinchón party Ada won with a Chinchón at once, and
    a Canasta party of partnerships Ada's side won going out each hand."""
    from tests.factories import MembershipFactory

    club, ada, ben, cleo = (season_club[k] for k in ("club", "ada", "ben", "cleo"))
    dan = MembershipFactory(club=club, player__name="Dan Listed", listed=True).player
    with after_commit():
        play_game_party(club, "chinchon", [ada, ben, cleo], [CHINCHON])
        play_game_party(club, "canasta", [ada, ben, dan, cleo], [{"sides": [GOOD, POOR]}] * 3)
    return {**season_club, "dan": dan}


def test_the_rating_list_shows_gin_by_default_and_links_each_rated_game(anyone, games_club):
    club = games_club["club"]
    url = reverse("public:club-detail", args=[club.slug])
    page = anyone.get(url)
    html = page.content.decode()
    assert page.context["rating_game"] == "gin_rummy"
    assert {r["player"].pk for r in page.context["ratings"]} == {
        games_club[k].pk for k in ("ada", "ben", "cleo")
    }
    assert 'href="?game=chinchon#rating-list"' in html
    assert 'href="?game=canasta#rating-list"' in html and "?game=cruzo" not in html

    chinchon = anyone.get(url, {"game": "chinchon"})
    ratings = chinchon.context["ratings"]
    assert ratings[0]["player"].pk == games_club["ada"].pk
    assert [r["won"] for r in ratings] == [1, 0, 0]
    # An unknown game is Gin Rummy's list, never an error.
    assert anyone.get(url, {"game": "poker"}).context["rating_game"] == "gin_rummy"


def test_the_organizers_player_list_lists_each_games_ratings(client, games_club):
    club = games_club["club"]
    page = client.get(reverse("manage:season-players", args=[club.slug]), {"game": "canasta"})
    assert page.status_code == 200
    assert {r["player"].pk for r in page.context["ratings"]} == {
        games_club[k].pk for k in ("ada", "ben", "cleo", "dan")
    }


def test_the_player_page_has_a_section_per_game_with_its_record(anyone, games_club):
    club, ada = games_club["club"], games_club["ada"]
    page = anyone.get(reverse("public:club-player", args=[club.slug, ada.pk]))
    html = page.content.decode()
    games = {g["key"]: g for g in page.context["games"]}
    assert list(games) == ["chinchon", "canasta"]
    chinchon = {str(f["label"]): f["f"] for f in games["chinchon"]["figures"]}
    assert (chinchon["Hands closed"].value, chinchon["Chinchóns"].value) == (1, 1)
    assert chinchon["Average penalty per hand"].value == -10
    canasta = {str(f["label"]): f["f"] for f in games["canasta"]["figures"]}
    assert (canasta["Canastas per party"].value, canasta["Hands gone out"].value) == (9, 3)
    assert (games["canasta"]["parties"], games["canasta"]["won"]) == (1, 1)
    assert 'id="game-chinchon"' in html and 'id="game-canasta"' in html
    assert "Hands closed" in html and "Canastas per party" in html


def test_the_pages_speak_german_too(anyone, games_club):
    club, ada = games_club["club"], games_club["ada"]
    page = anyone.get(
        reverse("public:club-player", args=[club.slug, ada.pk]), HTTP_ACCEPT_LANGUAGE="de"
    )
    html = page.content.decode()
    assert "Beendete Spiele" in html and "Canastas pro Partie" in html


def test_the_rating_list_of_a_game_keeps_its_query_count_as_parties_grow(
    anyone, games_club, after_commit, django_assert_max_num_queries
):
    from tests.factories import MembershipFactory

    club = games_club["club"]
    with after_commit():
        for _ in range(4):
            players = [MembershipFactory(club=club, listed=True).player for _ in range(4)]
            play_game_party(club, "chinchon", players[:3], [CHINCHON])
            play_game_party(club, "blaue_vierzehn", players, [{"points": [10, 20, 13, 13]}] * 4)
    with django_assert_max_num_queries(17):
        page = anyone.get(reverse("public:club-detail", args=[club.slug]), {"game": "chinchon"})
    assert len(page.context["ratings"]) == 15


def test_the_api_lists_each_games_ratings_and_refuses_an_unknown_game(anyone, games_club):
    club = games_club["club"]
    url = f"/api/clubs/{club.slug}/ratings"
    assert len(anyone.get(url).json()) == 3
    chinchon = anyone.get(url, {"game": "chinchon"}).json()
    assert [r["won"] for r in chinchon] == [1, 0, 0]
    assert anyone.get(url, {"game": "poker"}).status_code == 422
    season = games_club["season"]
    assert anyone.get(f"/api/clubs/{club.slug}/seasons").json()[0]["game"] == season.game


def test_a_player_rated_in_another_game_only_is_not_listed_as_unrated(client, games_club):
    club, dan = games_club["club"], games_club["dan"]
    page = client.get(reverse("manage:season-players", args=[club.slug]))
    assert dan.pk not in {p.pk for p in page.context["unrated"]}
    assert 'href="?game=canasta#rating-list"' in page.content.decode()


def test_the_api_gives_a_players_record_in_each_other_game(anyone, games_club):
    club, ada = games_club["club"], games_club["ada"]
    found = anyone.get(f"/api/clubs/{club.slug}/players/{ada.pk}").json()
    games = {g["game"]: g for g in found["games"]}
    assert list(games) == ["chinchon", "canasta"]
    assert games["chinchon"]["figures"]["chinchons"] == {"value": 1, "rests_on": 1}
    assert games["canasta"]["won"] == 1 and games["canasta"]["rating"] > 1500
