"""What an organizer taps on a phone is a finger's size: the way back from a
question is as easy to hit as the answer (WCAG 2.5.5: 44 by 44 CSS pixels)."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.factories import ClubNightFactory, OrganizerFactory, start_night_party

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_way_back_from_a_new_seat_link_is_a_touch_target(chromium, live_server):
    organizer = OrganizerFactory(player__name="Olga")
    seat = start_night_party(ClubNightFactory(club=organizer.club)).seats.first()
    context = chromium.new_context(viewport=PHONE, locale="en-US", is_mobile=True)
    page = context.new_page()
    try:
        page.goto(live_server.url + f"/login/?next=/manage/seats/{seat.pk}/link/")
        page.get_by_label("Username").fill(organizer.player.user.username)
        page.get_by_label("Password").fill("correct horse battery")
        page.get_by_role("button", name="Log in").click()
        back = page.get_by_role("link", name="Keep the link")
        expect(back).to_be_visible()
        box = back.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, box
    finally:
        context.close()
