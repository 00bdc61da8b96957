"""The member list on a 360-pixel phone: an organizer at the door searches, adds a
guest from the night page and finds them ticked for the next party."""

import os

import pytest
from playwright.sync_api import expect

from clubs.models import Membership
from tests.browser.conftest import PHONE
from tests.factories import ClubNightFactory, MembershipFactory, OrganizerFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, username, password):
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


def test_the_member_list_fits_a_phone_and_a_guest_joins_from_the_night_page(phone):
    # Every name on the page is fixed, so the width checked is the same on every run.
    owner = OrganizerFactory(
        role=Membership.Role.OWNER,
        player__name="Olive Owner",
        player__user__username="owner",
        club__name="Door Club",
    )
    club = owner.club
    MembershipFactory(club=club, player__name="Maximiliane Wilhelmine von Hohenzollern-Sigmaringen")
    MembershipFactory(club=club, player__name="<script>alert(1)</script>")
    MembershipFactory(club=club, player__name="Ada Lovelace", listed=True)
    MembershipFactory(club=club, player__name="Gone Greta", active=False)
    night = ClubNightFactory(club=club, name="Friday")

    page = phone(f"/manage/clubs/{club.slug}/members/")
    log_in(page, "owner", "correct horse battery")
    expect(page.get_by_role("heading", name="Members")).to_be_visible()
    expect(page.locator("table")).to_contain_text("<script>alert(1)</script>")
    expect(page.locator("table")).not_to_contain_text("Gone Greta")
    # Nothing sticks out sideways on a 360-pixel phone, not even inside the table's box
    # (measured once the style sheets are in: a busy machine may still be loading them).
    page.wait_for_load_state("load")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.evaluate("(b => b.scrollWidth <= b.clientWidth)(document.querySelector('.scroll'))")
    if os.environ.get("KNOCK_SCREENSHOTS"):
        page.screenshot(path=os.environ["KNOCK_SCREENSHOTS"] + "/member_list.png", full_page=True)

    page.get_by_label("Name or email").fill("love")
    page.get_by_role("button", name="Search").click()
    expect(page.locator("tbody tr")).to_have_count(1)
    expect(page.locator("tbody")).to_contain_text("Ada Lovelace")

    page.goto(page.url.split("/manage/")[0] + f"/manage/nights/{night.pk}/")
    page.locator("#guest-add").click()
    page.get_by_label("Guest's name").fill("Walk-in Wanda")
    page.get_by_role("button", name="Add the guest").click()
    expect(page.get_by_role("heading", name="Friday")).to_be_visible()
    expect(page.get_by_label("Walk-in Wanda")).to_be_checked()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
