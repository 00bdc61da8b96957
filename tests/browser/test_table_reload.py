"""A seat page reloads itself when its party moves (table.js), and a confirmation
moves it too: the page's next ask sees the confirmation stored while the phone still
waits for its answer. That reload must not cut the sending off: the hand would then
go again from the phone's queue (outbox.js), and the player, who tapped Confirm,
would read "Hand 1 was already stored." instead of "Hand 1 confirmed"."""

import contextlib

import pytest
from playwright.sync_api import Error, expect

from scoring.services.hands import hand_enter
from scoring.services.knocks import Result
from tests.browser.conftest import until
from tests.factories import start_party

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def queued(page) -> int:
    """What waits in the phone's queue (outbox.js); a page on its way counts as 1."""
    try:
        return page.evaluate(
            "() => Object.keys(localStorage).filter(k => k.startsWith('knock-outbox:')).length"
        )
    except Error:  # its context went with a navigation
        return 1


def test_a_confirmation_is_answered_on_its_own_page_while_the_page_asks(phone):
    a, b = start_party().seats.order_by("position")
    hand_enter(seat=a, number=1, entry=Result("knock", a.position, 3, 21))
    page = phone(b.get_absolute_url())
    expect(page.locator("#confirm")).to_be_visible()

    # The confirmation reaches the server at once; its answer is held back until
    # the page has asked for its number and been told that it moved. Any later
    # sending goes through.
    held, sent = [], []

    def confirm(route):
        sent.append(route.request.url)
        if len(sent) == 1:
            held.append((route, route.fetch(max_redirects=0)))
        else:
            route.continue_()

    page.route("**/confirm/", confirm)

    def told(response):  # the page's poll (it sends its number), answered "moved"
        polled = "if-none-match" in response.request.headers
        return "/state/" in response.url and polled and response.status == 200

    reloads = []
    page.on("request", lambda r: r.url == page.url and r.method == "GET" and reloads.append(r))
    with page.expect_response(told, timeout=15_000):
        page.locator("#confirm").click(no_wait_after=True)
    # The page acts on what its poll was told: it reloads, or, while its
    # confirmation is on its way, only says that the sheet changed.
    changed = page.locator("#sheet-changed")
    until(page, lambda: reloads or changed.is_visible())
    route, answer = held.pop()
    with contextlib.suppress(Error):  # the page went meanwhile: what this test is about
        route.fulfill(response=answer)
    # Once the phone's queue is empty, the confirmation went once, and the page says so.
    until(page, lambda: not queued(page))
    expect(page.locator(".messages")).to_contain_text("Hand 1 confirmed")
    assert len(sent) == 1, sent
