"""Importing a member list on a 390-pixel phone: the organizer picks a file, reads
the preview row by row, and confirms."""

import os

import pytest
from playwright.sync_api import expect

from clubs.models import Membership
from tests.factories import MembershipFactory, OrganizerFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
FILE = (
    "\ufeffName;E-Mail;Rolle;Mitglied seit;aktiv;öffentlich genannt\n"
    "Jürgen Müller;jm@example.de;Mitglied;31.12.2019;ja;ja\n"
    "Ada King;ada@example.org;Mitglied;;;\n"
    "Zora Zwiebel;not-an-address;Gast;;;\n"
).encode()


def test_an_organizer_imports_a_member_list_from_a_phone(chromium, live_server, tmp_path):
    owner = OrganizerFactory(
        role=Membership.Role.OWNER, player__name="Olive Owner", player__user__username="owner"
    )
    club = owner.club
    MembershipFactory(
        club=club, player__name="Ada King", player__email="ada@example.org", role="guest"
    )
    upload = tmp_path / "mitglieder.csv"
    upload.write_bytes(FILE)

    context = chromium.new_context(viewport=PHONE, locale="en-US")
    page = context.new_page()
    page.goto(f"{live_server.url}/manage/clubs/{club.slug}/members/")
    page.get_by_label("Username").fill("owner")
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Log in").click()
    page.locator("#member-import").click()
    expect(page.get_by_role("heading", name="Import members")).to_be_visible()
    page.get_by_label("Member list (.csv, .xlsx or .ods)").set_input_files(str(upload))
    page.get_by_role("button", name="Show the preview").click()

    expect(page.get_by_role("heading", name="Import preview")).to_be_visible()
    expect(page.locator("#import-summary")).to_contain_text(
        "1 new, 1 changed, 0 unchanged, 1 refused"
    )
    rows = page.locator("tbody tr")
    expect(rows.nth(0)).to_contain_text("new member")
    expect(rows.nth(1)).to_contain_text("role: guest → member")
    expect(rows.nth(2)).to_contain_text("is no e-mail address")
    page.wait_for_load_state("load")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    if os.environ.get("KNOCK_SCREENSHOTS"):
        page.screenshot(path=os.environ["KNOCK_SCREENSHOTS"] + "/import.png", full_page=True)
    assert not club.memberships.filter(player__name="Jürgen Müller").exists()

    page.get_by_role("button", name="Take 2 rows").click()
    expect(page.get_by_role("heading", name="Members")).to_be_visible()
    expect(page.get_by_text("Member list imported: 1 added, 1 changed.")).to_be_visible()
    expect(page.locator("table")).to_contain_text("Jürgen Müller")
    assert club.memberships.get(player__name="Ada King").role == "member"
    assert not club.memberships.filter(player__name="Zora Zwiebel").exists()
    context.close()
