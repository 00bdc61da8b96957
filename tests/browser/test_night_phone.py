"""The pages of a club night on a 360-pixel phone, with long names: nothing sticks
out sideways. Screenshots go to the test's temporary folder."""

import pytest

from scoring.services import nights
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result
from tests.browser.conftest import PHONE
from tests.factories import (
    ClubNightFactory,
    OrganizerFactory,
    start_game_party,
    start_night_party,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = "Maximiliane Wilhelmine von Hohenzollern-Sigmaringen"


def fits(page):
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def log_in(page, next_path):
    page.goto(page.url.split("/login")[0] + f"/login/?next={next_path}")
    page.get_by_label("Username").fill("desk")
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Log in").click()


def test_the_night_pages_fit_a_phone(phone, tmp_path):
    organizer = OrganizerFactory(player__name="Dora Desk", player__user__username="desk")
    night = ClubNightFactory(club=organizer.club, name="Friday")
    nights.night_set_stake(night=night, stake="0.05")
    disputed = start_night_party(night, label="Table 1")
    a, b = disputed.seats.select_related("player").order_by("position")
    a.player.name = LONG
    a.player.save()
    hand_enter(seat=a, number=1, entry=Result("knock", a.position, 3, 21))
    hand_enter(seat=b, number=1, entry=Result("knock", b.position, 3, 21))
    finished = start_night_party(night, label="Table 2", seed=2)
    c, d = finished.seats.order_by("position")
    hand_enter(seat=c, number=1, entry=Result("gin", c.position, 0, 80))
    hand_confirm(seat=d, number=1, version=1)
    chouette = start_night_party(night, format="chouette", players=3, label="Table 3", seed=3)
    out = [s for s in chouette.seats.order_by("position") if s.side == 1][1]

    shots = {
        "seat-dispute": phone(a.get_absolute_url()),
        "seat-sitting-out": phone(out.get_absolute_url()),
        "seat-entry": phone(c.get_absolute_url()),
    }
    entry = phone(start_night_party(night, label="Table 4", seed=4).seats.first()
                  .get_absolute_url())  # fmt: skip
    entry.get_by_text("Enter from the cards").click()
    entry.locator("#quick-ruling summary").click()
    shots["seat-folded-open"] = entry
    # The other games' seat pages, at their largest tables, a long name first.
    for game, players in (("chinchon", 4), ("canasta", 6), ("blaue_vierzehn", 6), ("cruzo", 7)):
        seat = start_game_party(game, players).seats.select_related("player").first()
        seat.player.name = LONG
        seat.player.save()
        shots[f"seat-{game}"] = phone(seat.get_absolute_url())
    desk = phone("/")
    log_in(desk, f"/manage/nights/{night.pk}/results/")
    shots["night-results"] = desk
    party_page = phone("/")
    log_in(party_page, f"/manage/parties/{disputed.pk}/")
    shots["party"] = party_page
    for name, page in shots.items():
        page.wait_for_load_state()
        page.screenshot(path=str(tmp_path / f"{name}.png"), full_page=True)
        assert fits(page), name
    # The results need no sideways scrolling inside their box either.
    box = (
        shots["night-results"]
        .locator("#results")
        .evaluate("table => [table.scrollWidth, table.parentElement.clientWidth]")
    )
    assert box[0] <= box[1]
