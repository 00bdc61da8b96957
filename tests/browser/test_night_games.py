"""An organizer starts a Chinchón party and a Canasta party at a club night, on a
360-pixel phone and on a laptop: the game and its options are chosen in the start
form, the players seat by seat; the party page shows the seats and the sheet, the
night's page both tables with their game. Nothing sticks out sideways on the
phone. Screenshots of the night page, the start form and the party pages go to
the test's temporary folder."""

import pytest
from playwright.sync_api import expect

from scoring.models import Party
from scoring.services.hands import hand_enter
from tests.browser.conftest import LAPTOP, PHONE
from tests.browser.test_accessibility import serious_violations
from tests.factories import (
    ClubNightFactory,
    MembershipFactory,
    OrganizerFactory,
    start_game_party,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = "Maximiliane Wilhelmine von Hohenzollern-Sigmaringen"
NAMES = [LONG, "Ben Okafor", "Cy Lindqvist", "Di Moreau", "Ed Novak", "Flo Ruiz", "Gus Hale"]


def fits(page, width):
    return page.evaluate("document.documentElement.scrollWidth") <= width


def start(page, game, players, option=None):
    page.get_by_label(game, exact=True).check()
    for number, name in enumerate(players, 1):
        page.get_by_label(f"Seat {number}", exact=True).select_option(label=name)
    if option:
        page.get_by_label(option).check()
    page.get_by_role("button", name="Start the party").click()


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_an_organizer_starts_a_chinchon_and_a_canasta_party(
    chromium, live_server, tmp_path, viewport
):
    organizer = OrganizerFactory(player__name="Dora Desk", player__user__username="desk")
    night = ClubNightFactory(club=organizer.club, name="Friday")
    for name in NAMES:
        MembershipFactory(club=organizer.club, player__name=name)
    context = chromium.new_context(viewport=viewport, locale="en-US", is_mobile=viewport == PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    night_url = f"{live_server.url}/manage/nights/{night.pk}/"
    page.goto(f"{live_server.url}/login/?next=/manage/nights/{night.pk}/")
    page.get_by_label("Username").fill("desk")
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Start a party")).to_be_visible()
    shots = tmp_path / ("phone" if viewport == PHONE else "laptop")
    shots.mkdir()
    page.locator("#party-form").screenshot(path=str(shots / "start-form.png"))
    width = viewport["width"]
    assert fits(page, width)

    start(page, "Chinchón", NAMES[:3], "La Conga: out at 100, the last player under 100 wins")

    expect(page.locator("#party-meta")).to_contain_text("Chinchón")
    expect(page.locator("#party-meta")).to_contain_text("La Conga")
    expect(page.locator(".seat")).to_have_count(3)
    page.screenshot(path=str(shots / "party-chinchon.png"), full_page=True)
    assert fits(page, width)

    page.goto(night_url)
    start(page, "Canasta", NAMES[3:7])

    expect(page.locator("#party-meta")).to_contain_text("Canasta")
    expect(page.locator("#game-sheet thead th.who")).to_have_count(2)
    page.screenshot(path=str(shots / "party-canasta.png"), full_page=True)
    assert fits(page, width)

    # The two partnerships disagree on the first hand: the organizer decides it.
    canasta = Party.objects.get(night=night, game="canasta")
    first, second = canasta.seats.order_by("position")[:2]
    entry = {"sides": [{"meld_points": 300}, {"meld_points": 200, "hand_points": 50}]}
    hand_enter(seat=first, number=1, entry=entry)
    entry["sides"][1]["hand_points"] = 40
    hand_enter(seat=second, number=1, entry=entry)
    page.reload()
    page.locator(".dispute summary").click()
    page.screenshot(path=str(shots / "party-canasta-dispute.png"), full_page=True)
    page.locator("article.hand-disputed").screenshot(path=str(shots / "dispute.png"))
    assert serious_violations(page) == []
    assert fits(page, width)
    page.locator(".dispute .resolve textarea").fill("Counted again with both tables")
    page.get_by_role("button", name="Accept other entry").click()
    expect(page.locator("[data-total]").first).to_have_text("300")
    expect(page.locator("[data-total]").last).to_have_text("160")

    page.goto(night_url)
    expect(page.locator("#night-tables [data-game=chinchon]")).to_have_count(1)
    expect(page.locator("#night-tables [data-game=canasta]")).to_have_count(1)
    page.screenshot(path=str(shots / "night.png"), full_page=True)
    assert fits(page, width)
    assert serious_violations(page) == []
    games = sorted(Party.objects.filter(night=night).values_list("game", flat=True))
    assert games == ["canasta", "chinchon"]
    context.close()


def test_the_start_form_and_a_party_of_another_game_fit_a_phone_in_german(
    chromium, live_server, tmp_path
):
    organizer = OrganizerFactory(player__name="Dora Desk", player__user__username="desk")
    night = ClubNightFactory(club=organizer.club, name="Freitag")
    for name in NAMES:
        MembershipFactory(club=organizer.club, player__name=name)
    party = start_game_party("canasta", 4, night=night)
    first, second = party.seats.order_by("position")[:2]
    entry = {"sides": [{"meld_points": 300}, {"meld_points": 200, "hand_points": 50}]}
    hand_enter(seat=first, number=1, entry=entry)
    entry["sides"][1]["hand_points"] = 40
    hand_enter(seat=second, number=1, entry=entry)
    context = chromium.new_context(viewport=PHONE, locale="de-DE", is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/login/?next=/manage/nights/{night.pk}/")
    page.locator("#id_username").fill("desk")
    page.locator("#id_password").fill("correct horse battery")
    page.get_by_role("button", name="Anmelden").click()
    expect(page.locator("#party-form")).to_be_visible()
    expect(page.locator("#game-seats legend")).to_have_text(
        "Andere Spiele: Spieler in Sitzreihenfolge"
    )
    page.screenshot(path=str(tmp_path / "night-de.png"), full_page=True)
    assert fits(page, PHONE["width"])
    page.goto(f"{live_server.url}/manage/parties/{party.pk}/")
    page.locator(".dispute summary").click()
    page.locator("article.hand-disputed").screenshot(path=str(tmp_path / "dispute-de.png"))
    assert fits(page, PHONE["width"])
    context.close()


def test_the_start_form_shows_only_the_chosen_games_fields_on_a_phone(
    chromium, live_server, tmp_path
):
    organizer = OrganizerFactory(player__name="Dora Desk", player__user__username="desk")
    night = ClubNightFactory(club=organizer.club, name="Friday")
    for name in NAMES[:3]:
        MembershipFactory(club=organizer.club, player__name=name)
    context = chromium.new_context(viewport=PHONE, locale="en-US", is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/login/?next=/manage/nights/{night.pk}/")
    page.get_by_label("Username").fill("desk")
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Log in").click()
    form = page.locator("#party-form")
    gin_format = form.get_by_label("Two players", exact=True)
    expect(gin_format).to_be_visible()
    expect(form.get_by_label("Seat 1", exact=True)).to_be_hidden()

    form.get_by_label("Chinchón", exact=True).check()

    expect(gin_format).to_be_hidden()
    expect(form.locator("#game-gin_rummy")).to_be_hidden()
    expect(form.get_by_label("Seat 1", exact=True)).to_be_visible()
    expect(form.get_by_label("Seat 4", exact=True)).to_be_visible()
    # Chinchón is played by two to four: the fifth seat is Canasta's and Cruzo's.
    expect(form.get_by_label("Seat 5", exact=True)).to_be_hidden()
    expect(form.get_by_label("40 cards (without 8s and 9s)")).to_be_visible()
    for other in ("canasta", "blaue_vierzehn", "cruzo"):
        expect(form.locator(f"#game-{other}")).to_be_hidden()
    form.screenshot(path=str(tmp_path / "start-chinchon.png"))
    assert fits(page, PHONE["width"])

    form.get_by_label("Cruzo", exact=True).check()
    expect(form.get_by_label("Seat 7", exact=True)).to_be_visible()
    expect(form.locator("#game-chinchon")).to_be_hidden()

    start(page, "Chinchón", NAMES[:3])

    expect(page.locator("#party-meta")).to_contain_text("Chinchón")
    assert Party.objects.get(night=night).game == "chinchon"
    context.close()
