import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from seasons.services import player_link_issue
from tests.conftest import clear_cache
from tests.factories import MembershipFactory
from tests.seasons.conftest import play_party

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
