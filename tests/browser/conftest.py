"""A real browser for the pages players use at the table: Debian's Chromium
driven by Playwright, never a downloaded browser."""

import os
import signal
import threading
import time
import warnings

import pytest
from playwright.sync_api import Error as BrowserError
from playwright.sync_api import expect

from tests.conftest import CHROMIUM
from tests.factories import MembershipFactory, OrganizerFactory
from tournaments import registration
from tournaments.tables import round_tables

PHONE = {"width": 360, "height": 740}


def launch(playwright):
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM),
        headless=True,
        args=["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
    )


class Chromium:
    """The module's browser, launched again when the one before was killed (see
    ``close``): the tests open their contexts on it as on Playwright's browser."""

    def __init__(self, playwright):
        self.playwright = playwright
        self.browser = launch(playwright)

    def __getattr__(self, name):
        if not self.browser.is_connected():
            self.browser = launch(self.playwright)
        return getattr(self.browser, name)


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
        browser = Chromium(playwright)
        yield browser
        browser.close()
    del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


def close(context, within=30):
    """Closes a context. Now and then (about one suite pass in eight) Chromium never
    answers the disposal of a context whose seat pages' service worker is starting
    or stopping, and the test's teardown would wait until the suite's timeout. After
    ``within`` seconds the browser is killed instead, which ends the wait; the
    module's next test gets a new one (``Chromium``). The test's own checks have all
    run by then: only the browser's teardown is cut short, and said so."""
    watchdog = threading.Timer(within, kill_browsers)
    watchdog.start()
    try:
        context.close()
    except BrowserError:
        pass  # the browser was killed: the context went with it
    finally:
        watchdog.cancel()
    if killed:
        warnings.warn(
            f"Chromium did not close a context within {within} s and was killed", stacklevel=2
        )
        killed.clear()


killed = []


def kill_browsers():
    """Kills this process's Chromiums (the main process of each; its helpers end
    with it)."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parents[int(entry)] = int(stat.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue  # ended meanwhile

    def name(pid):
        try:
            with open(f"/proc/{pid}/comm") as comm:
                return comm.read().strip()
        except OSError:
            return ""

    def ours(pid):
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == os.getpid():
                return True
        return False

    for pid, parent in parents.items():
        if name(pid) == "chromium" and name(parent) != "chromium" and ours(pid):
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)


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
        close(context)


LAPTOP = {"width": 1280, "height": 900}


@pytest.fixture
def laptop(chromium, live_server):
    """A laptop at the site's first page, nobody logged in: the organizer of a club
    that does not exist yet."""
    context = chromium.new_context(viewport=LAPTOP, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(live_server.url + "/")
    yield page
    close(context)


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
    close(context)


def until(page, condition, seconds=20):
    """Waits until ``condition()`` holds, the browser's events (and the routes'
    handlers) running meanwhile."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not within the deadline"
        page.wait_for_timeout(20)


def paired_tables(round, seconds=20):
    """The round's tables once its pairing has run (after the commit; with a real
    worker in another process), table 1 first."""
    deadline = time.monotonic() + seconds
    while not (views := round_tables(round)):
        assert time.monotonic() < deadline, f"round {round.number} was not paired"
        time.sleep(0.05)
    return sorted(views, key=lambda v: v.table.number)


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


def spring_open(club):
    """The club's Swiss of four (Anna, Ben, Carl, Dora), everyone checked in."""
    players = [
        MembershipFactory(club=club, player__name=n, listed=True).player
        for n in ("Anna", "Ben", "Carl", "Dora")
    ]
    tournament = registration.tournament_create(club=club, name="Spring Open")
    registration.entrant_register(tournament=tournament, players=players)
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    return tournament
