"""A player's data on a phone: the organizer downloads it, erases the player after
typing his name, and the public pages then show the former member, never his name."""

import contextlib
import json
import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from clubs.models import Membership
from tests.browser.conftest import PHONE
from tests.seasons import everything

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, username, password):
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


def fits(page) -> bool:
    page.wait_for_load_state("load")
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def shot(page, name):
    if os.environ.get("KNOCK_SCREENSHOTS"):
        page.screenshot(path=f"{os.environ['KNOCK_SCREENSHOTS']}/{name}.png", full_page=True)


def test_the_organizer_downloads_then_erases_and_the_public_pages_forget_the_name(phone, organizer):
    organizer.role = Membership.Role.OWNER
    organizer.save(update_fields=["role"])
    # A transactional test runs what a commit schedules at each commit, as production.
    kept = everything.build(organizer, contextlib.nullcontext)
    club, ada = kept["club"], kept["ada"]

    page = phone(f"/manage/clubs/{club.slug}/players/{ada.pk}/")
    log_in(page, "director", "correct horse battery")
    expect(page.get_by_role("heading", name="Ada Quill", exact=True)).to_be_visible()
    with page.expect_download() as download:
        page.get_by_role("button", name="Download the player's data").click()
    data = json.loads(Path(download.value.path()).read_text())
    assert data["player"]["email"] == "ada@quill.example"
    assert fits(page)

    page.get_by_role("link", name="Erase the player…").click()
    expect(page.get_by_role("heading", name="Erase Ada Quill?")).to_be_visible()
    assert fits(page)
    shot(page, "player_erase")
    page.get_by_label("The player's name, to confirm").fill("Ada Quil")
    page.get_by_role("button", name="Erase the player").click()
    expect(page.get_by_text("That is not the player's name")).to_be_visible()
    page.get_by_label("The player's name, to confirm").fill("Ada Quill")
    page.get_by_role("button", name="Erase the player").click()
    expect(page.get_by_role("heading", name="Former member 1", exact=True)).to_be_visible()
    expect(page.get_by_text("This player was erased.")).to_be_visible()

    base = page.url.split("/manage/")[0]
    for path in (
        f"/clubs/{club.slug}/",
        f"/clubs/{club.slug}/seasons/{kept['season'].pk}/",
        "/t/cup/",
        "/t/cup/crosstable/",
    ):
        page.goto(base + path)
        expect(page.locator("main")).not_to_contain_text("Ada Quill")
        expect(page.locator("main")).not_to_contain_text("A. Q.")
        assert fits(page), path
    shot(page, "after_erasure_crosstable")
    answer = page.goto(base + f"/me/{kept['link'].token}/")
    assert answer.status == 404
