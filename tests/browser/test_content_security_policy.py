"""The strict Content-Security-Policy blocks nothing our pages need: every kind of
page loads in Chromium without a single policy violation."""

import pytest
from playwright.sync_api import expect

from tests.factories import OrganizerFactory, start_party

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def violations(page) -> list[str]:
    found = []
    page.on(
        "console",
        lambda message: (
            found.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return found


def test_every_kind_of_page_runs_under_the_policy(phone, live_server):
    party = start_party()
    seat = party.seats.first()
    organizer = OrganizerFactory(club=party.club).player.user

    page = phone("/login/")
    refused = violations(page)
    page.get_by_label("Username").fill(organizer.username)
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Log in").click()
    for path in ("/", f"/manage/parties/{party.pk}/", seat.get_absolute_url(), "/login/"):
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")

    # The table cards wire their Print button from a script file, not inline.
    page.goto(f"{live_server.url}/manage/parties/{party.pk}/cards/")
    page.wait_for_load_state("networkidle")

    # The API's docs page draws its operations with its own scripts.
    page.goto(live_server.url + "/api/docs")
    expect(page.locator(".opblock").first).to_be_visible()

    assert refused == []
