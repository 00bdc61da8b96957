"""The organizer's night page on a phone: a dispute at a table appears by itself,
without a reload, and the page fits 360 pixels however long the names."""

import pytest
from playwright.sync_api import expect

from scoring.services.hands import hand_enter
from scoring.services.knocks import Result
from tests.browser.conftest import PHONE
from tests.factories import ClubNightFactory, MembershipFactory, OrganizerFactory, start_night_party

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, username, password):
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


def test_a_dispute_appears_on_the_open_night_page_without_a_reload(phone, tmp_path):
    organizer = OrganizerFactory(player__user__username="desk")
    night = ClubNightFactory(club=organizer.club, name="Friday")
    long_name = "Maximiliane Wilhelmine von Hohenzollern-Sigmaringen"
    MembershipFactory(club=night.club, player__name=long_name)
    party = start_night_party(night, label="Table 1")
    seat = party.seats.order_by("position").first()
    seat.player.name = long_name
    seat.player.save()
    start_night_party(night, label="Table 2", seed=2)

    desk = phone(f"/login/?next=/manage/nights/{night.pk}/")
    log_in(desk, "desk", "correct horse battery")
    expect(desk.locator("#night-tables")).to_be_visible()
    expect(desk).to_have_title("Friday · Manage · Knock")
    desk.evaluate("window.stillTheSamePage = true")
    assert desk.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # The two phones at table 1 disagree.
    a, b = party.seats.order_by("position")
    hand_enter(seat=a, number=1, entry=Result("knock", a.position, 3, 21))
    hand_enter(seat=b, number=1, entry=Result("knock", a.position, 3, 12))

    disputed = desk.locator(f"#table-{party.pk}")
    expect(disputed).to_have_attribute("data-state", "disputed")
    expect(desk.locator("#night-tables .table-state").first).to_have_id(f"table-{party.pk}")
    expect(desk).to_have_title("1 dispute · Friday · Manage · Knock")
    expect(desk.locator("[data-count=disputed] strong")).to_have_text("1")
    assert desk.evaluate("window.stillTheSamePage") is True
    assert desk.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # The long name wraps beside its score: the score keeps a line of its own.
    name = disputed.locator("ul.score li").first.locator(".name").bounding_box()
    points = disputed.locator("ul.score li").first.locator(".points").bounding_box()
    assert name["x"] + name["width"] <= points["x"]
    desk.screenshot(path=str(tmp_path / "night.png"), full_page=True)

    # One click to the decision.
    desk.locator(f"#decide-{party.pk}").click()
    hand = party.hands.get()
    expect(desk.locator(f"#hand-{hand.pk}-accept-counter")).to_be_visible()
