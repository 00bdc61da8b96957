"""A real browser for the pages players use at the table: Debian's Chromium
driven by Playwright, never a downloaded browser."""

import os

import pytest
from playwright.sync_api import Error as BrowserError
from playwright.sync_api import expect

from tests.conftest import CHROMIUM
from tests.factories import OrganizerFactory

PHONE = {"width": 360, "height": 740}


@pytest.fixture(scope="module")
def chromium():
    """One browser per test module: its event loop, and the setting below, last only
    as long as the module's tests."""
    from playwright.sync_api import expect, sync_playwright

    # The pages poll every three seconds; give them a few rounds.
    expect.set_options(timeout=10_000)

    # Playwright's sync API keeps an event loop running in the test thread; the
    # tests' own database work there is synchronous and safe, so Django may run it.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
        )
        yield browser
        browser.close()
    del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


@pytest.fixture
def phone(chromium, live_server):
    """Opens a new phone-sized page; each phone has its own cookies."""
    contexts = []

    def open_phone(path="/", service_workers="allow"):
        context = chromium.new_context(
            viewport=PHONE, locale="en-US", is_mobile=True, service_workers=service_workers
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(live_server.url + path)
        return page

    yield open_phone
    for context in contexts:
        context.close()


LAPTOP = {"width": 1280, "height": 900}


@pytest.fixture
def desk(chromium, live_server):
    """The organizer's laptop, logged in."""
    organizer = OrganizerFactory(player__name="Olga").player.user
    context = chromium.new_context(viewport=LAPTOP, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(live_server.url + "/login/?next=/manage/")
    page.get_by_label("Username").fill(organizer.username)
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your clubs")).to_be_visible()
    yield page
    context.close()


def reload(page):
    """Reloads an organizer's page that may reload itself (the round page does when
    its round changes, round.js), and when its own reload cuts in, the one asked for here is
    aborted, or finds the page between two documents ("not attached"): then the
    page's is waited for."""
    try:
        page.reload()
    except BrowserError as error:
        if "ERR_ABORTED" not in str(error) and "Not attached to an active page" not in str(error):
            raise
        page.wait_for_load_state()
