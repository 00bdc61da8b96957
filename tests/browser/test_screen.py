"""The wall screen shows every entrant and every table, each on some slide fully
inside the screen, on a 1280×720 and a 1920×1080 screen, for a small club night's
field and for a championship, long names without spaces included.

Set KNOCK_SCREENSHOTS to a folder to keep a screenshot of every slide."""

import os

import pytest
from playwright.sync_api import expect

from clubs.models import Membership, Player
from demo.big import big_tournament
from tournaments.models import Round
from tournaments.records import tournament_changed

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = [(1280, 720), (1920, 1080)]
# The longest name a player may have (80 characters), with no space to wrap at.
LONG = ("Wolfeschlegelsteinhausenbergerdorffvoralternwarengewissenhaftschaferswessen" * 2)[:80]

# The rows of the slide shown, each with whether it is wholly inside the viewport:
# the row and each of its cells, nothing of a cell cut off sideways, nothing hidden.
ROWS_INSIDE = """() => {
  const inside = (r) =>
    r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  const shown = document.querySelectorAll("[data-slide]:not([hidden])");
  const rows = [...shown].flatMap((s) => [
    ...s.querySelectorAll("tr[data-entrant], tr[data-table], tr[data-season-player]"),
  ]);
  return rows.map((row) => ({
    entrant: row.dataset.entrant || null,
    table: row.dataset.table || null,
    season: row.dataset.seasonPlayer || null,
    inside: row.checkVisibility() && inside(row.getBoundingClientRect()) &&
      [...row.cells].every(
        (c) => inside(c.getBoundingClientRect()) && c.scrollWidth <= c.clientWidth
      ),
  }));
}"""


def in_play(entrants: int):
    """A tournament of ``entrants`` in its second round, a few with the longest names."""
    tournament = big_tournament(entrants=entrants, rounds=2)
    Round.objects.filter(tournament=tournament, number=2).update(status=Round.Status.PLAYING)
    players = tournament.entrants.values_list("player_id", flat=True).order_by("pk")
    # Members who agreed to be listed: the screen shows their names in full.
    Membership.objects.bulk_create(
        Membership(club=tournament.club, player_id=pk, listed=True) for pk in players
    )
    long_named = [players[0], players[1], players[entrants // 2]]
    for i, pk in enumerate(long_named):
        Player.objects.filter(pk=pk).update(name=f"{i}{LONG}"[:80])
    return tournament


@pytest.mark.parametrize("entrants", [8, 20, 200])
def test_every_entrant_and_every_table_is_on_some_slide_inside_the_screen(
    chromium, live_server, entrants
):
    tournament = in_play(entrants)
    everyone = {str(pk) for pk in tournament.entrants.values_list("pk", flat=True)}
    tables = {str(n) for n in range(1, entrants // 2 + 1)}
    sizes = {}

    for width, height in SCREENS:
        context = chromium.new_context(viewport={"width": width, "height": height}, locale="en-US")
        page = context.new_page()
        # ?slide=1 holds the first slide: the keyboard steps through them, no timer.
        page.goto(f"{live_server.url}/t/{tournament.slug}/screen/?slide=1")
        box = page.locator("#screen")
        expect(box).to_have_attribute("data-shown", "1")
        count = int(box.get_attribute("data-slides"))
        seconds = box.get_attribute("data-seconds")
        sizes[width] = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")

        seen_entrants, seen_tables, cut = set(), set(), []
        for k in range(1, count + 1):
            expect(box).to_have_attribute("data-shown", str(k))
            for row in page.evaluate(ROWS_INSIDE):
                if not row["inside"]:
                    cut.append((k, row))
                elif row["entrant"]:
                    seen_entrants.add(row["entrant"])
                elif row["table"]:
                    seen_tables.add(row["table"])
            if os.environ.get("KNOCK_SCREENSHOTS"):
                shot = f"{os.environ['KNOCK_SCREENSHOTS']}/screen-{entrants}-{width}-{k}.png"
                page.screenshot(path=shot)
            page.keyboard.press("ArrowRight")
        # After the last slide the first comes again.
        expect(box).to_have_attribute("data-shown", "1")
        context.close()

        assert cut == [], f"{width}×{height}: rows cut off"
        assert seen_entrants == everyone, f"{width}×{height}: entrants never seen"
        assert seen_tables == tables, f"{width}×{height}: tables never seen"
        if entrants <= 8:
            assert count == 2  # the standings, then the round: one slide each
            assert seconds == "8"  # a few rows: the shortest time
    # The type is sized to the screen: larger on the larger one.
    assert sizes[1920] > sizes[1280] * 1.4


@pytest.mark.parametrize("entrants", [8, 200])
def test_every_line_of_the_club_s_season_table_is_on_some_slide_inside_the_screen(
    chromium, live_server, entrants
):
    from django.utils import timezone

    from scoring.models import Party
    from seasons.models import Season
    from seasons.services import ratings_rebuild

    tournament = in_play(entrants)
    today = timezone.localdate()
    # The made-up parties carry no time of finishing, which the ratings fold by.
    Party.objects.filter(club=tournament.club).update(finished_at=timezone.now())
    Season.objects.create(
        club=tournament.club, name="Winter season", starts=today, ends=today, published=True
    )
    ratings_rebuild(club_id=tournament.club_id)
    everyone = {str(pk) for pk in tournament.entrants.values_list("player_id", flat=True)}

    for width, height in SCREENS:
        context = chromium.new_context(viewport={"width": width, "height": height}, locale="en-US")
        page = context.new_page()
        page.goto(f"{live_server.url}/t/{tournament.slug}/screen/?slide=1")
        box = page.locator("#screen")
        expect(box).to_have_attribute("data-shown", "1")
        count = int(box.get_attribute("data-slides"))
        seen, cut, headings = set(), [], set()
        for k in range(1, count + 1):
            expect(box).to_have_attribute("data-shown", str(k))
            for row in page.evaluate(ROWS_INSIDE):
                if not row["inside"]:
                    cut.append((k, row))
                elif row["season"]:
                    seen.add(row["season"])
                    headings.add(page.locator("[data-slide]:not([hidden]) h2").inner_text())
            if os.environ.get("KNOCK_SCREENSHOTS"):
                shot = f"{os.environ['KNOCK_SCREENSHOTS']}/season-{entrants}-{width}-{k}.png"
                page.screenshot(path=shot)
            page.keyboard.press("ArrowRight")
        context.close()

        assert cut == [], f"{width}×{height}: rows cut off"
        assert seen == everyone, f"{width}×{height}: season lines never seen"
        assert all(h.startswith("Winter season") for h in headings)


def test_a_slide_is_held_by_its_number_and_the_keys_step_both_ways(chromium, live_server):
    tournament = in_play(200)
    context = chromium.new_context(viewport={"width": 1280, "height": 720}, locale="en-US")
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{tournament.slug}/screen/?slide=3")
    box = page.locator("#screen")
    expect(box).to_have_attribute("data-shown", "3")
    count = int(box.get_attribute("data-slides"))
    assert count > 3
    # Each slide says which of its group's slides it is.
    expect(page.locator("[data-slide]:not([hidden]) [data-page]")).to_have_text(
        "3/" + str(page.locator("[data-slide]:has(tr[data-entrant])").count())
    )
    # A full slide stays longer than the shortest (8 seconds), never over 20.
    assert 8 < int(box.get_attribute("data-seconds")) <= 20
    page.keyboard.press("ArrowLeft")
    expect(box).to_have_attribute("data-shown", "2")
    page.keyboard.press("PageDown")
    page.keyboard.press("PageDown")
    expect(box).to_have_attribute("data-shown", "4")
    context.close()


def test_an_update_is_split_again_and_the_slide_shown_stays(chromium, live_server):
    tournament = in_play(200)
    context = chromium.new_context(viewport={"width": 1920, "height": 1080}, locale="en-US")
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{tournament.slug}/screen/?slide=2")
    page.evaluate("window.knockMarker = 1")  # gone if the page reloads
    box = page.locator("#screen")
    expect(box).to_have_attribute("data-shown", "2")
    count = box.get_attribute("data-slides")
    entrant = page.locator("[data-slide]:not([hidden]) tr[data-entrant]").first
    pk = int(entrant.get_attribute("data-entrant"))

    player = tournament.entrants.get(pk=pk).player
    Player.objects.filter(pk=player.pk).update(name="Renamed " + player.name)
    tournament_changed(tournament.pk)

    expect(page.locator(f"[data-slide]:not([hidden]) tr[data-entrant='{pk}']")).to_contain_text(
        "Renamed"
    )
    expect(box).to_have_attribute("data-shown", "2")
    assert box.get_attribute("data-slides") == count
    assert page.locator("[data-group]").count() == 0  # every group split into slides
    assert page.evaluate("window.knockMarker") == 1
    context.close()
