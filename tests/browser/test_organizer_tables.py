"""Every table an organizer reads, on a 360-pixel phone: the page does not scroll
sideways and no table is wider than its box, so nothing (a Revoke button, a last
column) is cut off. The pages are the demo's, so each table holds a real evening."""

import pytest

from clubs.models import Membership
from demo.loader import CUP, ROUND_ROBIN, SWISS, load_demo
from scoring.models import Party
from seasons.models import Season
from tests.browser.conftest import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# What sticks out: the page past the screen, or a table past the box it sits in. Only
# a log (the audit, the club record: a dozen columns by design) scrolls in a box of
# its own, one a keyboard reaches by Tab.
OVERFLOW = """() => {
  const out = [];
  const page = document.documentElement;
  const past = [...document.querySelectorAll('main *')]
    .filter(e => e.getBoundingClientRect().right > page.clientWidth)
    .map(e => `${e.tagName}.${e.className}`).slice(-4).join(' ');
  if (page.scrollWidth > page.clientWidth)
    out.push(`page ${page.scrollWidth} > ${page.clientWidth}: ${past}`);
  document.querySelectorAll('main table').forEach((table, i) => {
    const box = table.parentElement;
    if (box.matches('.scroll[tabindex]') && box.scrollWidth > box.clientWidth) return;
    const style = getComputedStyle(box);
    const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    if (table.offsetWidth > room)
      out.push(`table ${i} (${table.className}) ${table.offsetWidth} > ${room}: `
        + [...table.rows[0].cells].map(c => c.offsetWidth).join(' '));
  });
  return out;
}"""


def organizer_tables(demo):
    club = demo["club"]
    night = club.nights.get(name="Demo night")
    party = Party.objects.filter(night=night).first()
    season = Season.objects.filter(club=club).first()
    listed = Membership.objects.filter(club=club, listed=True).first().player
    swiss, robin, cup = SWISS["slug"], ROUND_ROBIN["slug"], CUP["slug"]
    return [
        "/manage/",
        "/manage/api-keys/",
        f"/manage/clubs/{club.slug}/",
        f"/manage/clubs/{club.slug}/members/",
        f"/manage/clubs/{club.slug}/organizers/",
        f"/manage/nights/{night.pk}/",
        f"/manage/nights/{night.pk}/results/",
        f"/manage/parties/{party.pk}/",
        f"/manage/tournaments/{swiss}/",
        f"/manage/tournaments/{swiss}/rounds/2/",
        f"/manage/tournaments/{swiss}/standings/",
        f"/manage/tournaments/{robin}/",
        f"/manage/tournaments/{robin}/standings/",
        f"/manage/tournaments/{cup}/",
        f"/manage/tournaments/{cup}/final/",
        f"/t/{swiss}/print/standings/",
        f"/t/{swiss}/print/pairings/",
        f"/t/{robin}/print/standings/",
        f"/manage/clubs/{club.slug}/players/",
        f"/manage/clubs/{club.slug}/players/{listed.pk}/",
        f"/manage/clubs/{club.slug}/seasons/",
        f"/manage/seasons/{season.pk}/",
    ]


def test_no_organizer_table_sticks_out_of_a_phone(chromium, live_server):
    demo = load_demo()
    paths = organizer_tables(demo)
    context = chromium.new_context(viewport=PHONE, locale="en-US", is_mobile=True)
    page = context.new_page()
    found = {}
    try:
        page.goto(live_server.url + "/login/")
        page.get_by_label("Username").fill(demo["username"])
        page.get_by_label("Password").fill(demo["password"])
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url("**/manage/**")
        # A key in the list, its Revoke button in the last column.
        page.goto(live_server.url + "/manage/api-keys/")
        page.locator("#id_name").fill("Club website")
        page.get_by_role("button", name="Make a key").click()
        page.wait_for_selector("#new-key")
        for path in paths:
            assert page.goto(live_server.url + path).ok, path
            page.wait_for_load_state("load")
            found[path] = page.evaluate(OVERFLOW)
    finally:
        context.close()
    failing = [f"{path}: {what}" for path, whats in found.items() for what in whats]
    assert not failing, "\n".join(failing)
