"""A club from nothing, in a real browser at 360 pixels, on a site with no club:
Nora signs up, confirms her address from the mail, creates her club and invites
Cora by e-mail; Cora signs up from the invitation and organizes the club. The
mails are read from Django's test outbox: the live server runs in this process.

Set KNOCK_SCREENSHOTS to a folder to keep screenshots of the pages."""

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from clubs.models import Club, Membership
from tests.browser.conftest import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("KNOCK_SCREENSHOTS")


def look(page, name):
    """Nothing sticks out sideways on a phone."""
    page.wait_for_load_state("load")
    width = page.evaluate("document.documentElement.scrollWidth")
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}-360.png", full_page=True)
    assert width <= PHONE["width"], f"{name} is {width} pixels wide on a phone"


def link_in(outbox, to, start):
    """The path of the link beginning with ``start`` in the last mail sent to ``to``."""
    mail = [m for m in outbox if m.to == [to]][-1]
    return re.search(r"https?://[^/\s]+(" + re.escape(start) + r"\S*)", mail.body).group(1)


def under_watch(phone, refused):
    """A new phone whose every page's refusals by the policy go into ``refused``."""
    page = phone("/login/")
    page.on("console", lambda m: refused.append(m.text) if "Content Security" in m.text else None)
    return page


def sign_up(page, email):
    page.get_by_label("Email").fill(email)
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("heading", name="Check your mail")).to_be_visible()


def confirm(page, base, link, name):
    """The mailed link's page: the name and the password are chosen there."""
    page.goto(base + link)
    page.get_by_label("Your name").fill(name)
    page.get_by_label("Password").fill("a long new secret 42")
    look(page, "confirm")
    page.get_by_role("button", name="Confirm my address").click()


def test_a_club_from_nothing_to_two_organizers(phone, live_server, mailoutbox):
    base = live_server.url
    refused = []
    page = under_watch(phone, refused)
    page.goto(base + "/")
    expect(page.get_by_role("heading", name="Start your club")).to_be_visible()
    look(page, "home-empty")

    page.get_by_role("link", name="Sign up").click()
    look(page, "signup")
    sign_up(page, "nora@example.org")
    confirm(page, base, link_in(mailoutbox, "nora@example.org", "/signup/"), "Nora Nash")

    expect(page.get_by_role("heading", name="A new club")).to_be_visible()
    page.get_by_label("Club name").fill("Café Pik")
    # The address follows the name (static/js/club-slug.js).
    expect(page.get_by_label("Address of its pages")).to_have_value("cafe-pik")
    page.get_by_label("Language").select_option("de")
    page.get_by_label("Time zone").select_option("Europe/Vienna")
    look(page, "club-form")
    page.get_by_role("button", name="Create the club").click()

    expect(page.get_by_role("heading", name="Invite co-organizers")).to_be_visible()
    page.get_by_label("Their email").fill("cora@example.org")
    page.get_by_role("button", name="Invite").click()
    expect(page.locator(".messages")).to_contain_text("on its way")
    look(page, "invitations")

    cora = under_watch(phone, refused)
    cora.goto(base + link_in(mailoutbox, "cora@example.org", "/invitations/"))
    expect(cora.get_by_role("heading", name="Organize Café Pik")).to_be_visible()
    look(cora, "invitation")
    cora.get_by_role("link", name="Sign up").click()
    sign_up(cora, "cora@example.org")
    confirm(cora, base, link_in(mailoutbox, "cora@example.org", "/signup/"), "Cora Clay")
    cora.get_by_role("button", name="Accept the invitation").click()
    expect(cora.locator(".messages")).to_contain_text("You organize Café Pik now")
    look(cora, "accepted")

    club = Club.objects.get(slug="cafe-pik")
    assert (club.language, club.time_zone) == ("de", "Europe/Vienna")
    roles = dict(club.memberships.values_list("player__name", "role"))
    assert roles == {"Nora Nash": Membership.Role.OWNER, "Cora Clay": Membership.Role.ORGANIZER}
    # The owner's list shows the invitation accepted, and no address is public.
    page.reload()
    expect(page.locator(".invitations")).to_contain_text("accepted by Cora Clay")
    cora.goto(base + club.get_absolute_url())
    expect(cora.locator("main")).not_to_contain_text("@example.org")
    # Every page of the way, the club form's script too, ran under the policy.
    assert refused == []
