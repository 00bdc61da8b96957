"""The ratings of each game on a 360-pixel phone: the club's rating list switches
from Gin Rummy to Chinchón by a link, and a player's page shows a section per game
played with its record, all without scrolling sideways."""

import pytest
from playwright.sync_api import expect

from tests.browser.test_season_phone import NAMES, fits, shoot
from tests.factories import ClubFactory, MembershipFactory
from tests.seasons.conftest import GOOD, POOR, play_game_party, play_party

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def club_of_games():
    club = ClubFactory(slug="vienna-games")
    players = [MembershipFactory(club=club, player__name=n, listed=True).player for n in NAMES]
    play_party(club, players[:2], winner=players[0])
    play_game_party(
        club, "chinchon", players[:3], [{"closer": 0, "chinchon": True, "penalties": [0, 40, 55]}]
    )
    play_game_party(club, "canasta", players, [{"sides": [GOOD, POOR]}] * 3)
    return club, players


def test_the_rating_list_switches_game_and_the_player_page_shows_each(
    phone, club_of_games, tmp_path
):
    club, players = club_of_games
    page = phone(f"/clubs/{club.slug}/")
    ratings = page.locator("#rating-list")
    expect(ratings).to_contain_text(NAMES[0])
    expect(ratings).not_to_contain_text(NAMES[3])
    page.get_by_role("link", name="Chinchón").click()
    expect(page.locator("nav.rating-games [aria-current=page]")).to_have_text("Chinchón")
    expect(ratings).to_contain_text(NAMES[2])
    assert fits(page)
    shoot(page, tmp_path, "ratings-chinchon-360.png")

    page = phone(f"/clubs/{club.slug}/players/{players[0].pk}/")
    expect(page.locator("#game-chinchon")).to_contain_text("Hands closed")
    expect(page.locator("#game-canasta")).to_contain_text("Canastas per party")
    assert fits(page)
    shoot(page, tmp_path, "player-games-360.png")
