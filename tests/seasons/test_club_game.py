"""A club's pages open on the game it plays: the rating lists, a player's page and
a new season, for a club that never played Gin Rummy; Gin Rummy only where a club
has no party yet."""

from datetime import date

import pytest
from django.test import Client
from django.urls import reverse

from seasons.models import Season
from seasons.services import season_create
from tests.factories import ClubFactory, MembershipFactory
from tests.seasons.conftest import play_game_party

pytestmark = pytest.mark.django_db

BLAUE_VIERZEHN = [{"points": [10, 20, 13, 13]}] * 4


@pytest.fixture
def vierzehn_club(organizer, after_commit):
    """The organizer's club, which plays Blaue Vierzehn only: two parties of four."""
    club = organizer.club
    players = [
        MembershipFactory(club=club, player__name=name, listed=True).player
        for name in ("Ada Lovelace", "Ben Hur", "Cleo Walk", "Dan Dee")
    ]
    with after_commit():
        for _ in range(2):
            play_game_party(club, "blaue_vierzehn", players, BLAUE_VIERZEHN)
    newcomer = MembershipFactory(club=club, player__name="Nina New", listed=True).player
    return {"club": club, "players": players, "newcomer": newcomer}


def test_the_rating_lists_open_on_the_game_the_club_plays(client, vierzehn_club):
    club, ada = vierzehn_club["club"], vierzehn_club["players"][0]
    public = Client().get(reverse("public:club-detail", args=[club.slug]))
    assert public.context["rating_game"] == "blaue_vierzehn"
    assert len(public.context["ratings"]) == 4
    # No Gin Rummy list to switch to, nor any other: the club plays one game.
    assert public.context["rated_games"] == [("blaue_vierzehn", "Blaue Vierzehn")]
    assert "?game=gin_rummy" not in public.content.decode()

    manage = client.get(reverse("manage:season-players", args=[club.slug]))
    assert manage.context["rating_game"] == "blaue_vierzehn"
    assert ada.pk in {r["player"].pk for r in manage.context["ratings"]}

    found = Client().get(f"/api/clubs/{club.slug}/ratings").json()
    assert len(found) == 4


def test_a_players_page_opens_on_the_game_the_club_plays(vierzehn_club):
    club, ada = vierzehn_club["club"], vierzehn_club["players"][0]
    page = Client().get(reverse("public:club-player", args=[club.slug, ada.pk]))
    html = page.content.decode()
    assert [s["key"] for s in page.context["sections"]] == ["blaue_vierzehn"]
    assert 'id="game-blaue_vierzehn"' in html
    assert 'id="game-gin_rummy"' not in html and "Gin statistics" not in html
    # A member who has not played yet finds the club's game, with nothing in it yet.
    newcomer = vierzehn_club["newcomer"]
    page = Client().get(reverse("public:club-player", args=[club.slug, newcomer.pk]))
    (section,) = page.context["sections"]
    assert (section["key"], section["parties"], section["label"]) == ("blaue_vierzehn", 0, "—")
    assert "Gin statistics" not in page.content.decode()


def test_a_new_season_counts_the_game_the_club_plays(client, vierzehn_club):
    club = vierzehn_club["club"]
    url = reverse("manage:season-list", args=[club.slug])
    assert client.get(url).context["form"]["game"].initial == "blaue_vierzehn"
    season = season_create(
        club=club, user=None, name="Winter", starts=date(2026, 1, 1), ends=date(2026, 3, 31)
    )
    assert season.game == "blaue_vierzehn"


def test_a_club_with_no_party_yet_opens_on_gin_rummy(organizer):
    club = ClubFactory()
    page = Client().get(reverse("public:club-detail", args=[club.slug]))
    assert page.context["rating_game"] == "gin_rummy"
    season = season_create(
        club=club, user=None, name="First", starts=date(2026, 1, 1), ends=date(2026, 3, 31)
    )
    assert Season.objects.get(pk=season.pk).game == "gin_rummy"
