"""The organizer's tournament and round pages reload themselves when the tournament or
the round changes (entrants.js, round.js). The organizer's own change must not be cut
off by that reload: starting or closing a round changes them too, and the page's next
ask sees it while the organizer's browser is still waiting for the answer to the click,
which would land back on the same page instead of where the button leads."""

import pytest
from playwright.sync_api import expect

from clubs.models import Club
from tests.browser.conftest import spring_open
from tournaments import rounds, tables

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def tournament(desk):
    """The club of the organizer at the laptop (`desk`) runs a Swiss of four, with
    everyone checked in."""
    return spring_open(Club.objects.get())


def click_and_hold(page, button, action, polled):
    """Clicks the button; its form's request goes through at once, but its answer
    is held back until the page has asked once more and been told of the change
    (`polled` says which answer that is)."""
    held = []
    page.route(action, lambda route: held.append((route, route.fetch(max_redirects=0))))
    with page.expect_response(polled):
        page.locator(button).click(no_wait_after=True)
    route, answer = held.pop()
    route.fulfill(response=answer)


def test_starting_the_round_lands_on_the_round_while_the_page_asks(desk, tournament, live_server):
    slug = tournament.slug
    desk.goto(live_server.url + f"/manage/tournaments/{slug}/")
    click_and_hold(
        desk,
        "#start",
        "**/start/",
        lambda r: (
            r.url.endswith(f"/{slug}/entrants/")
            and r.headers.get("x-tournament-status") == "running"
        ),
    )
    expect(desk.get_by_role("heading", name="Round 1 of 3")).to_be_visible()


def test_closing_the_round_lands_on_the_standings_while_the_page_asks(
    desk, tournament, live_server
):
    round = rounds.round_start(tournament=tournament)
    # Both tables decided by a no-show, so the round can be closed.
    for view in tables.round_tables(round):
        tables.table_forfeit(table=view.table, absent=view.entrants[1])
    desk.goto(live_server.url + f"/manage/tournaments/{tournament.slug}/rounds/1/")
    click_and_hold(
        desk,
        "#close",
        "**/rounds/1/close/",
        lambda r: "/rounds/1/tables/" in r.url and r.headers.get("x-round-status") == "closed",
    )
    expect(desk.get_by_role("heading", name="Standings")).to_be_visible()
    expect(desk.locator(".messages")).to_contain_text("Round 1 is closed.")
