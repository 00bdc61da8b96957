"""The organizer takes back what he did, at a laptop and on a phone: a no-show
that turns up after all (forfeit → take back), and a withdrawal that was a
mistake (withdraw → reinstate). Each asks first on a page of its own, and the
tournament's record shows both the action and its taking back.

Set KNOCK_SCREENSHOTS to a folder to keep screenshots of the pages."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, spring_open
from tests.factories import OrganizerFactory
from tournaments import rounds, tables

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1280, "height": 900}
SHOTS = os.environ.get("KNOCK_SCREENSHOTS")


def shot(page, name):
    width = page.evaluate("document.documentElement.scrollWidth")
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}-{page.viewport_size['width']}.png", full_page=True)
    assert width <= page.viewport_size["width"], f"{name} is {width} pixels wide"


@pytest.fixture(params=[PHONE, LAPTOP], ids=["phone", "laptop"])
def desk(request, chromium, live_server):
    """The organizer, logged in, at the size of the parameter; his club runs a
    Swiss of four in round 1."""
    membership = OrganizerFactory(player__name="Olga")
    tournament = spring_open(membership.club)
    rounds.round_start(tournament=tournament)
    context = chromium.new_context(
        viewport=request.param, locale="en-US", is_mobile=request.param == PHONE
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(live_server.url + "/login/?next=/manage/")
    page.get_by_label("Username").fill(membership.player.user.username)
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your clubs")).to_be_visible()
    page.tournament = tournament
    yield page
    context.close()


def test_a_forfeit_is_asked_first_and_taken_back_while_the_round_is_played(desk, live_server):
    tournament = desk.tournament
    round = tournament.round_set.get()
    view = next(v for v in tables.round_tables(round) if v.table.number == 1)
    absent = view.entrants[1]
    desk.goto(live_server.url + f"/manage/tournaments/{tournament.slug}/rounds/1/")
    board = desk.locator("#table-1")

    board.get_by_text("No-show?").click()
    board.get_by_role("link", name=f"{absent} did not come").click()
    # The question names what happens; nothing is recorded yet.
    expect(desk.locator("#confirm-heading")).to_have_text(f"Table 1: {absent} did not come?")
    expect(desk.locator("#confirm")).to_contain_text(f"{absent} loses 100 points")
    shot(desk, "forfeit-confirm")
    desk.locator("#confirm-button").click()
    expect(desk.locator(".messages")).to_contain_text("the forfeit is recorded")
    expect(board).to_have_attribute("data-state", "forfeit")
    # Nobody has played a card: the round can still be undone.
    expect(desk.locator("#undo")).to_be_visible()
    shot(desk, "forfeit-recorded")

    board.get_by_role("link", name="Take back the forfeit").click()
    expect(desk.locator("#confirm-heading")).to_have_text("Table 1: take back the forfeit?")
    shot(desk, "forfeit-undo-confirm")
    desk.locator("#confirm-button").click()
    expect(desk.locator(".messages")).to_contain_text("Table 1 plays again")
    expect(board).to_have_attribute("data-state", "playing")
    expect(board.locator("[data-forfeit]")).to_have_count(2)
    shot(desk, "forfeit-taken-back")

    desk.locator("nav.steps").get_by_role("link", name="Entrants").click()
    records = desk.locator("#record-list li")
    expect(records).to_have_count(2)
    expect(records.nth(0)).to_contain_text(f"the forfeit of {absent} is taken back")
    expect(records.nth(1)).to_contain_text(f"{absent} did not come")


def test_a_withdrawal_is_asked_first_and_the_entrant_reinstated(desk, live_server):
    tournament = desk.tournament
    desk.goto(live_server.url + f"/manage/tournaments/{tournament.slug}/")

    desk.get_by_role("link", name="Withdraw Carl").click()
    expect(desk.locator("#confirm-heading")).to_have_text("Withdraw Carl?")
    shot(desk, "withdraw-confirm")
    # Going back changes nothing.
    desk.locator("#confirm-back").click()
    expect(desk.locator("#entrant-list")).not_to_contain_text("withdrawn")
    desk.get_by_role("link", name="Withdraw Carl").click()
    desk.locator("#confirm-button").click()
    expect(desk.locator(".messages")).to_contain_text("Carl has withdrawn")
    row = desk.locator("tr", has_text="Carl")
    expect(row).to_contain_text("withdrawn after round 1")
    shot(desk, "withdrawn")

    row.get_by_role("link", name="Reinstate Carl").click()
    expect(desk.locator("#confirm-heading")).to_have_text("Reinstate Carl?")
    desk.locator("#confirm-button").click()
    expect(desk.locator(".messages")).to_contain_text("Carl is reinstated")
    expect(desk.locator("tr", has_text="Carl")).not_to_contain_text("withdrawn")
    expect(desk.get_by_role("link", name="Withdraw Carl")).to_be_visible()
    expect(desk.locator("#record-list li").nth(0)).to_contain_text("Carl is reinstated.")
    shot(desk, "reinstated")
