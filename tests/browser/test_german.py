"""Knock in a German browser: the stake typed with a decimal comma is stored as
typed, and no word on a phone's page is broken in the middle."""

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from tests.factories import ClubNightFactory, OrganizerFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GERMAN_PHONE = {"width": 390, "height": 844}


@pytest.fixture
def german(chromium, live_server):
    """Opens a page in a German browser (de-DE), logged in as ``user`` when given."""
    contexts = []

    def open_page(path, *, user=None, viewport=None, phone=False):
        context = chromium.new_context(
            locale="de-DE", viewport=viewport or {"width": 1280, "height": 900}, is_mobile=phone
        )
        contexts.append(context)
        if user is not None:
            client = Client()
            client.force_login(user)
            session = client.cookies[settings.SESSION_COOKIE_NAME].value
            context.add_cookies(
                [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
            )
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(live_server.url + path)
        return page

    yield open_page
    for context in contexts:
        context.close()


def test_a_stake_typed_with_a_decimal_comma_is_stored_as_typed(german):
    organizer = OrganizerFactory()
    night = ClubNightFactory(club=organizer.club, name="Freitag")
    page = german(f"/manage/nights/{night.pk}/", user=organizer.player.user)

    stake = page.get_by_label("Einsatz pro Punkt")
    stake.fill("0,05")
    page.locator("#stake-set").click()

    expect(page.get_by_text("Einsatz festgelegt: 0,05\u00a0€ pro Punkt.")).to_be_visible()
    night.refresh_from_db()
    assert str(night.stake) == "0.05"
    expect(page.get_by_label("Einsatz pro Punkt")).to_have_value("0,05")
