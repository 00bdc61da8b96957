"""The public season pages, the club's page with its rating lists and a player's
page. By game (issue 28): Gin Rummy first and by default, every other game with a
rated party a link away, and a section per game played on the player's page with
its small record."""

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from seasons.services import player_link_issue
from tests.conftest import clear_cache
from tests.factories import MembershipFactory
from tests.seasons.conftest import GOOD, POOR, play_game_party, play_party

pytestmark = pytest.mark.django_db


@pytest.fixture
def anyone():
    return Client()


def test_the_public_season_table_names_only_the_listed_and_shows_the_rest_by_initials(
    anyone, season_club
):
    club, season = season_club["club"], season_club["season"]
    html = anyone.get(reverse("public:season-detail", args=[club.slug, season.pk])).content.decode()
    assert "Ada Lovelace" in html
    assert "Ben Hur" not in html and "B. H." in html
    # A guest never agreed to be listed.
    assert "Cleo Walk" not in html and "C. W." in html


def test_the_csv_follows_the_same_rule(anyone, season_club):
    club, season = season_club["club"], season_club["season"]
    content = anyone.get(reverse("public:season-csv", args=[club.slug, season.pk])).content
    # A UTF-8 byte-order mark first, as every CSV of Knock's: Excel reads umlauts right.
    assert content.startswith(b"\xef\xbb\xbf")
    body = content[3:].decode()
    assert body.splitlines()[0] == "Place,Player,Points,Events,Events dropped,Events still needed"
    assert "Ada Lovelace" in body and "B. H." in body and "Ben Hur" not in body


def test_a_season_not_published_is_not_there(anyone, season_club):
    club, season = season_club["club"], season_club["season"]
    season.published = False
    season.save()
    assert (
        anyone.get(reverse("public:season-detail", args=[club.slug, season.pk])).status_code == 404
    )
    assert anyone.get(reverse("public:season-csv", args=[club.slug, season.pk])).status_code == 404


def test_only_a_listed_members_page_is_public(anyone, season_club):
    club = season_club["club"]
    ada = anyone.get(reverse("public:club-player", args=[club.slug, season_club["ada"].pk]))
    ben = anyone.get(reverse("public:club-player", args=[club.slug, season_club["ben"].pk]))
    assert ada.status_code == 200
    assert ben.status_code == 404
    html = ada.content.decode()
    # Ada met Ben and Cleo, who are shown by their initials.
    assert "B. H." in html and "Ben Hur" not in html and "Cleo Walk" not in html


def test_the_personal_link_shows_the_player_his_own_page_only(anyone, season_club, organizer):
    club, ben = season_club["club"], season_club["ben"]
    link = player_link_issue(club=club, player=ben, user=organizer.player.user)
    html = anyone.get(reverse("public:player-own", args=[link.token])).content.decode()
    assert "<h1>Ben Hur</h1>" in html
    # Nothing on it leads to another player's page.
    assert "/players/" not in html
    assert anyone.get(reverse("public:player-own", args=["x" * 43])).status_code == 404


def test_the_club_page_keeps_its_query_count_as_players_and_events_grow(
    anyone, season_club, django_assert_max_num_queries, after_commit
):
    from datetime import date

    from scoring.services.nights import night_create
    from tournaments.registration import tournament_create

    club = season_club["club"]
    url = reverse("public:club-detail", args=[club.slug])
    with after_commit():
        for n in range(6):
            night = night_create(club=club, name=f"Night {n}", date=date(2026, 11, n + 1))
            a, b = (MembershipFactory(club=club, listed=True).player for _ in range(2))
            play_party(club, [a, b], winner=a, night=night, seed=n)
            tournament_create(club=club, name=f"Open {n}", date=date(2026, 11, n + 1))
    # The rating list opens on the game the club plays most: one query for it.
    with django_assert_max_num_queries(18):
        page = anyone.get(url)
    html = page.content.decode()
    assert "Autumn 2026" in html and "B. H." in html and "Ada Lovelace" in html
    assert "Night 5" in html and "Open 5" in html


def test_the_public_season_table_keeps_its_query_count_as_events_grow(
    anyone, season_club, django_assert_max_num_queries, after_commit
):
    from datetime import date

    from scoring.services.nights import night_create

    club, season = season_club["club"], season_club["season"]
    ada, ben = season_club["ada"], season_club["ben"]
    with after_commit():
        for day in range(1, 6):
            night = night_create(club=club, name=f"Night {day}", date=date(2026, 11, day))
            play_party(club, [ada, ben], winner=ben, night=night, seed=day)
    with django_assert_max_num_queries(12):
        page = anyone.get(reverse("public:season-detail", args=[club.slug, season.pk]))
    assert page.context["rows"][0]["line"].events == 6


def test_the_club_page_shows_its_season_table_ratings_and_latest_events(anyone, season_club):
    club, season = season_club["club"], season_club["season"]
    page = anyone.get(reverse("public:club-detail", args=[club.slug]))
    html = page.content.decode()
    assert 'id="season-table"' in html and 'id="rating-list"' in html
    assert reverse("public:season-detail", args=[club.slug, season.pk]) in html
    assert "Autumn night" in html
    # Whoever did not agree to be listed is there by initials only, in both lists.
    assert "Ada Lovelace" in html
    assert "Ben Hur" not in html and "Cleo Walk" not in html
    assert html.count("B. H.") == 2 and html.count("C. W.") == 2


def test_a_club_page_hides_a_season_not_published(anyone, season_club):
    club, season = season_club["club"], season_club["season"]
    season.published = False
    season.save()
    html = anyone.get(reverse("public:club-detail", args=[club.slug])).content.decode()
    assert 'id="season-table"' not in html and "Autumn 2026" not in html
    assert 'id="rating-list"' in html


def test_the_old_ratings_address_leads_to_the_club_page(anyone, season_club):
    club = season_club["club"]
    page = anyone.get(reverse("public:club-ratings", args=[club.slug]))
    assert page.status_code == 301
    assert page.url == reverse("public:club-detail", args=[club.slug]) + "#ratings"
    assert anyone.get("/clubs/no-such-club/ratings/").status_code == 404


def test_the_organizers_club_page_leads_to_every_player(client, season_club):
    club = season_club["club"]
    html = client.get(reverse("manage:club-detail", args=[club.slug])).content.decode()
    assert reverse("manage:season-players", args=[club.slug]) in html
    assert reverse("manage:season-list", args=[club.slug]) in html


def test_an_address_guessing_personal_links_is_stopped_and_told_why(season_club):

    clear_cache()
    guesser = Client(REMOTE_ADDR="203.0.113.9")
    answers = [guesser.get(f"/me/guess-{n:04d}-{'x' * 30}/").status_code for n in range(20)]
    assert set(answers) == {404}
    stopped = guesser.get("/me/guess-last-" + "x" * 30 + "/")
    assert stopped.status_code == 429
    assert "personal links" in stopped.content.decode()
    assert (
        stopped["Cache-Control"].startswith("max-age=0") or "no-store" in stopped["Cache-Control"]
    )
    assert guesser.get("/api/me/" + "y" * 43).status_code == 429
    clear_cache()


def test_the_german_csv_opens_in_a_german_spreadsheet(anyone, season_club):
    club, season = season_club["club"], season_club["season"]
    response = anyone.get(
        reverse("public:season-csv", args=[club.slug, season.pk]), HTTP_ACCEPT_LANGUAGE="de"
    )
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    assert rows[0] == ["Platz", "Spieler", "Punkte", "Veranstaltungen",
                       "Gestrichene Veranstaltungen", "Noch nötige Veranstaltungen"]  # fmt: skip
    assert all(len(row) == 6 for row in rows)


# ------------------------------------------------------------------ by game

CHINCHON = {"closer": 0, "chinchon": True, "penalties": [0, 50, 60]}


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
