"""The season table and a player's page on a 360-pixel phone, with long names: they
fit without scrolling sideways, the rating chart is drawn, the figures say what they
rest on; the club's rating list switches from Gin Rummy to Chinchón by a link, and
a player's page shows a section per game played with its record, on one club that
plays three games. Screenshots go to
the test's temporary folder (and to KNOCK_SCREENSHOTS, when set)."""

import datetime
import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring.services.nights import night_create
from seasons.services import season_create
from tests.browser.conftest import PHONE
from tests.factories import ClubFactory, MembershipFactory
from tests.seasons.conftest import GOOD, POOR, play_game_party, play_party

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Maximiliane Wilhelmine von Hohenzollern-Sigmaringen",
    "Anna-Katharina Oberhuber-Schwarzenbach",
    "Konstantinos Papadopoulos",
    "Bea Bo",
]


def shoot(page, tmp_path, name):
    page.screenshot(path=str(tmp_path / name), full_page=True)
    if os.environ.get("KNOCK_SCREENSHOTS"):
        Path(os.environ["KNOCK_SCREENSHOTS"]).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=os.environ["KNOCK_SCREENSHOTS"] + "/" + name, full_page=True)


def fits(page) -> bool:
    """Nothing wider than the phone: the page, and every table on it."""
    widths = page.evaluate(
        "[document.documentElement.scrollWidth,"
        " ...[...document.querySelectorAll('table')].map(t => t.getBoundingClientRect().right)]"
    )
    return max(widths) <= PHONE["width"]


@pytest.fixture
def season():
    club = ClubFactory(slug="vienna-gin")
    players = [
        MembershipFactory(club=club, player__name=name, listed=name != "Bea Bo").player
        for name in NAMES
    ]
    for day in range(1, 4):
        night = night_create(club=club, name=f"Night {day}", date=datetime.date(2026, 10, day))
        for n, (a, b) in enumerate([(0, 1), (2, 3), (0, 2)]):
            winner = players[a] if (day + n) % 2 else players[b]
            play_party(
                club, [players[a], players[b]], winner=winner, night=night, seed=day * 10 + n
            )
    # Two other games, for the rating list's switch and a section each on a
    # player's page: Chinchón without Bea Bo, Canasta with everyone.
    play_game_party(
        club, "chinchon", players[:3], [{"closer": 0, "chinchon": True, "penalties": [0, 40, 55]}]
    )
    play_game_party(club, "canasta", players, [{"sides": [GOOD, POOR]}] * 3)
    season = season_create(
        club=club,
        user=None,
        name="Autumn",
        starts=datetime.date(2026, 9, 1),
        ends=datetime.date(2026, 12, 31),
        scheme="places",
        place_points=[10, 8, 6, 5],
        published=True,
    )
    return club, season, players


def test_the_season_table_and_a_players_page_fit_a_phone(phone, season, tmp_path):
    club, season, players = season
    page = phone(f"/clubs/{club.slug}/seasons/{season.pk}/")
    table = page.locator("#season-table")
    expect(table).to_be_visible()
    expect(table).to_contain_text(NAMES[0])
    expect(table).to_contain_text("B. B.")
    expect(page.get_by_text("Bea Bo")).to_have_count(0)
    shoot(page, tmp_path, "season-360.png")
    assert fits(page)

    page.goto(page.url.split("/clubs/")[0] + f"/clubs/{club.slug}/players/{players[0].pk}/")
    expect(page.locator("h1")).to_have_text(NAMES[0])
    expect(page.locator(".rating-chart svg polyline")).to_be_visible()
    expect(page.locator("table.gin-stats")).to_contain_text("hands")
    expect(page.locator("#game-chinchon")).to_contain_text("Hands closed")
    expect(page.locator("#game-canasta")).to_contain_text("Canastas per party")
    shoot(page, tmp_path, "player-360.png")
    assert fits(page)


def test_the_club_page_shows_its_season_and_ratings_on_a_phone(phone, season, tmp_path):
    club, season, _ = season
    page = phone(f"/clubs/{club.slug}/")
    for box in ("#season-table", "#rating-list"):
        expect(page.locator(box)).to_be_visible()
        expect(page.locator(box)).to_contain_text(NAMES[0])
        expect(page.locator(box)).to_contain_text("B. B.")
    expect(page.get_by_text("Bea Bo")).to_have_count(0)
    expect(page.get_by_role("link", name="Autumn", exact=True)).to_be_visible()
    expect(page.locator("ul.nights")).to_contain_text("Night 3")
    shoot(page, tmp_path, "club-360.png")
    assert fits(page)

    # The rating list opens on the club's game (Gin Rummy here) and switches by a link.
    ratings = page.locator("#rating-list")
    page.get_by_role("link", name="Chinchón").click()
    expect(page.locator("nav.rating-games [aria-current=page]")).to_have_text("Chinchón")
    expect(ratings).to_contain_text(NAMES[2])
    expect(ratings).not_to_contain_text("B. B.")
    shoot(page, tmp_path, "ratings-chinchon-360.png")
    assert fits(page)
