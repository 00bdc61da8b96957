"""Check-in at the door in a real browser at 360 pixels: the organizer ticks the
players who came and checks them in with one click, opens self check-in, and a
player scans the QR link and checks himself in on his phone; the organizer's list
shows him by itself.

Set KNOCK_SCREENSHOTS to a folder to keep screenshots of the pages."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.factories import MembershipFactory, OrganizerFactory
from tournaments import registration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("KNOCK_SCREENSHOTS")


def look(page, name):
    """Nothing sticks out sideways on a phone."""
    width = page.evaluate("document.documentElement.scrollWidth")
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}-360.png", full_page=True)
    assert width <= PHONE["width"], f"{name} is {width} pixels wide on a phone"


@pytest.fixture
def desk(chromium, live_server):
    """The organizer on a phone-sized screen, logged in, at a tournament of six."""
    organizer = OrganizerFactory(player__name="Olga")
    club = organizer.club
    players = [
        MembershipFactory(club=club, player__name=n).player
        for n in ("Anna", "Ben", "Carl", "Dora", "Ed", "Fay")
    ]
    tournament = registration.tournament_create(club=club, name="Door Cup")
    registration.entrant_register(tournament=tournament, players=players)
    context = chromium.new_context(viewport=PHONE, locale="en-US", is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(live_server.url + "/login/?next=/manage/")
    page.get_by_label("Username").fill(organizer.player.user.username)
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your clubs")).to_be_visible()
    page.goto(live_server.url + f"/manage/tournaments/{tournament.slug}/")
    yield page
    context.close()


def test_bulk_check_in_at_the_desk_and_self_check_in_from_the_qr_link(desk, phone):
    # Nobody is here yet: starting is not the main step, and the page says why.
    expect(desk.locator("#check-in-count")).to_contain_text("0 of 6 entrants checked in.")
    expect(desk.locator("#start-why")).to_be_visible()
    expect(desk.locator("#start")).not_to_have_class("primary")

    # Three came: ticked, and checked in with one click.
    for name in ("Anna", "Ben", "Carl"):
        desk.get_by_label(f"Tick {name}").check()
    desk.locator("#check-in-ticked").click()
    expect(desk.locator(".messages")).to_contain_text("3 entrants checked in: Anna, Ben, Carl.")
    expect(desk.locator("#check-in-count")).to_contain_text("3 of 6 entrants checked in.")
    expect(desk.locator("#start")).to_have_class("primary")
    look(desk, "desk-check-in")

    # Ben was ticked by mistake: checked out again.
    desk.get_by_label("Tick Ben").check()
    desk.locator("#check-out-ticked").click()
    expect(desk.locator(".messages")).to_contain_text("1 entrant checked out: Ben.")

    # Self check-in: the QR code for the door, and its link.
    desk.locator("#door-link").click()
    desk.locator("#door-open").click()
    expect(desk.locator("#door-card svg")).to_be_visible()
    look(desk, "door-qr")
    link = desk.locator("#door-url").inner_text()
    path = "/" + link.split("://", 1)[1].split("/", 1)[1]

    # Dora scans it on her phone: she is not yet here, Anna and Carl are.
    dora = phone(path)
    expect(dora.locator("#door-here")).to_contain_text("Anna")
    expect(dora.locator("#door-form")).not_to_contain_text("Anna")
    look(dora, "door-phone")
    dora.get_by_label("Dora").check()
    dora.locator("#door-check-in").click()
    expect(dora.locator(".messages")).to_contain_text("Welcome, Dora: you are checked in.")
    expect(dora.locator("#door-me")).to_contain_text("You are checked in, Dora.")
    look(dora, "door-phone-done")

    # Back at the desk the list shows her by itself, checked in on her phone.
    desk.get_by_role("link", name="Entrants").first.click()
    desk.wait_for_load_state()
    row = desk.locator("#entrant-rows tr", has_text="Dora")
    expect(row.locator("[data-by=self]")).to_be_visible()

    # A player who scans it while the desk's page is open appears there unreloaded.
    fay = phone(path)
    fay.get_by_label("Fay").check()
    fay.locator("#door-check-in").click()
    expect(fay.locator("#door-me")).to_be_visible()
    expect(
        desk.locator("#entrant-rows tr", has_text="Fay").locator("[data-by=self]")
    ).to_be_visible()
    expect(desk.locator("#check-in-count")).to_contain_text("4 of 6 entrants checked in.")
    expect(desk.locator("#check-in-count")).to_contain_text("2 of them on their own phones.")
