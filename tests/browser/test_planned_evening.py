"""An evening planned ahead in the browser, on the organizer's phone: thirteen
Blaue Vierzehn players at tables of four for four rounds. The organizer creates
it, starts it, reads the whole evening on the round page (nobody meets anyone
twice), opens every player's card to print, plays round 1 and pairs round 2,
which is seated exactly as planned.

Registration and the tables' hands go through the services the pages call, so
the walk stays short on a small machine."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import close, reload
from tests.factories import MembershipFactory, OrganizerFactory
from tests.tournaments.test_table_tournaments import blaue_vierzehn
from tournaments import registration, tables
from tournaments.models import Round, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
NAMES = ["Ana", "Bea", "Carmen", "Diego", "Elena", "Félix", "Gema", "Hugo", "Inés", "Jorge"]
NAMES += ["Lola", "Marta", "Nico"]
#: One deal's points at a table of three and of four (56 in all, fewest wins).
POINTS = {3: [10, 18, 28], 4: [8, 12, 16, 20]}


@pytest.fixture
def organizer_phone(chromium, live_server):
    """The organizer's phone, logged in."""
    organizer = OrganizerFactory(player__name="Olga").player.user
    context = chromium.new_context(viewport=PHONE, locale="en-US", is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(live_server.url + "/login/?next=/manage/")
    page.get_by_label("Username").fill(organizer.username)
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your clubs")).to_be_visible()
    yield page
    close(context)


def fits(page):
    page.wait_for_load_state("load")
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def seated(tournament, number):
    round = Round.objects.get(tournament=tournament, number=number)
    views = sorted(tables.round_tables(round), key=lambda v: v.table.number)
    return [[e.pk for e in view.entrants] for view in views if not view.table.bye], views


def test_thirteen_play_an_evening_planned_ahead_at_tables_of_four(organizer_phone, live_server):
    page = organizer_phone
    club = Tournament._meta.get_field("club").related_model.objects.get()
    players = [MembershipFactory(club=club, player__name=n, listed=True).player for n in NAMES]

    page.goto(live_server.url + f"/manage/clubs/{club.slug}/tournaments/")
    page.locator("#id_name").fill("Mixer")
    page.locator("input[name=format][value=planned]").check()
    page.locator("#id_rounds").fill("4")
    page.locator("input[name=game][value=blaue_vierzehn]").check()
    page.locator("#id_table_size").fill("4")
    page.locator("[name=blaue_vierzehn_deals]").fill("1")
    page.locator("#tournament-create").click()
    expect(page.locator(".messages")).to_contain_text("Tournament “Mixer” created")
    tournament = Tournament.objects.get(name="Mixer")
    assert (tournament.format, tournament.game, tournament.table_size) == (
        "planned",
        "blaue_vierzehn",
        4,
    )

    registration.entrant_register(tournament=tournament, players=players)
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    reload(page)
    expect(page.locator("#check-in-count")).to_contain_text("13 of 13 entrants checked in.")
    page.locator("#start").click()

    # Round 1: one table of four and three of three, and the whole evening below.
    expect(page.locator("#round-tables .board")).to_have_count(4)
    plan = page.locator("#plan")
    expect(plan.locator("#plan-repeats")).to_contain_text("Nobody meets anyone twice this evening.")
    for number in range(1, 5):
        expect(plan.locator(f"#plan-round-{number}")).to_be_visible()
    expect(plan.locator(".plan-tables").first.locator("li")).to_have_count(4)
    expect(page.locator("#explanation")).to_contain_text("as planned for the evening")
    assert fits(page)  # nothing sticks out sideways on the organizer's phone
    tournament.refresh_from_db()
    first, views = seated(tournament, 1)
    assert first == tournament.plan[0]["tables"]

    # Every player's card for the evening, to print: one card each, four rounds.
    page.locator("#plan-cards").click()
    cards = page.locator(".plan-card")
    expect(cards).to_have_count(13)
    for card in cards.all():
        expect(card.locator("tbody tr")).to_have_count(4)
    nico = cards.filter(has=page.get_by_role("heading", name="Nico", exact=True))
    expect(nico.locator("tbody td:first-child")).to_have_text(["1", "2", "3", "4"])
    assert fits(page)
    page.emulate_media(media="print")
    expect(page.locator("[data-print]")).to_be_hidden()
    expect(cards.first).to_be_visible()
    page.emulate_media(media="screen")
    page.go_back()

    # Round 1 is played (through the services), closed and round 2 paired on the
    # phone: seated exactly as the plan said at the start.
    for view in views:
        blaue_vierzehn(view.table.party, POINTS[len(view.entrants)])
    reload(page)
    expect(page.locator("#unfinished")).to_contain_text("Every table is finished")
    page.locator("#close").click()
    expect(page.get_by_role("heading", name="Standings")).to_be_visible()
    page.locator("#pair").click()
    expect(page.locator("#round-tables .board")).to_have_count(4)
    second, _ = seated(tournament, 2)
    assert second == tournament.plan[1]["tables"]
    expect(page.locator("#plan-round-1")).to_contain_text("paired")
    expect(page.locator("#plan-round-2")).to_contain_text("paired")
