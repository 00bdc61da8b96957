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


# Every word of four letters or more whose pieces stand on more than one line: a word
# broken in the middle ("Unentschie-/den"). Names may break where they must (a
# name without spaces wider than the phone), so the players' names are left out.
BROKEN_WORDS = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!element || element.closest("script, style, [hidden], .who, .name, code")) continue;
    if (!element.getClientRects().length) continue;
    for (const word of node.data.matchAll(/[\\p{L}\\p{N}]{4,}/gu)) {
      const range = document.createRange();
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0)
        .map((r) => Math.round(r.bottom)));
      if (lines.size > 1) broken.push(word[0]);
    }
  }
  return broken;
}"""


OVERFLOWING = """() => [...document.querySelectorAll("main label, main button, main .button")]
  .filter((e) => e.getClientRects().length && e.scrollWidth > e.clientWidth + 1)
  .map((e) => e.textContent.trim())"""


def test_no_word_is_broken_in_the_middle_on_a_german_phone(german, tmp_path):
    from tests.factories import start_game_party, start_night_party

    organizer = OrganizerFactory()
    night = ClubNightFactory(club=organizer.club, name="Freitagabend")
    gin = start_night_party(night, label="Tisch 1")
    canasta = start_game_party("canasta", 4, night=night, label="Tisch 2")
    pages = [
        ("/table/" + gin.seats.first().token + "/", None),
        ("/table/" + canasta.seats.first().token + "/", None),
        (f"/manage/nights/{night.pk}/", organizer.player.user),
    ]
    broken = {}
    for number, (path, user) in enumerate(pages):
        page = german(path, user=user, viewport=GERMAN_PHONE, phone=True)
        expect(page.locator("main")).to_be_visible()
        page.locator("details").evaluate_all("all => all.forEach((d) => { d.open = true; })")
        if words := page.evaluate(BROKEN_WORDS):
            broken[path] = words
        # ...and a word kept whole does not stick out of its box or widen the page.
        assert page.evaluate(OVERFLOWING) == [], path
        assert page.evaluate("document.documentElement.scrollWidth") <= GERMAN_PHONE["width"]
        page.screenshot(path=str(tmp_path / f"german-phone-{number}.png"), full_page=True)
    assert broken == {}
