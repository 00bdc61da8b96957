"""The seat page on a 360-pixel phone: the quick entry asks only what the chosen
ending needs, a hand once entered waits behind "Correct this hand", and names
without a space break instead of widening the page (the public standings too)."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, paired_tables
from tests.factories import ClubFactory, MembershipFactory, start_party
from tournaments import registration, rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = "Maximilianewilhelminevonhohenzollernsigmaringen"


def fits(page):
    """Nothing sticks out sideways (measured once the style sheets are in)."""
    page.wait_for_load_state("load")
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_quick_entry_asks_only_what_the_ending_needs(phone):
    party = start_party()
    a = party.seats.order_by("position").first()
    page = phone(a.get_absolute_url())
    form = page.locator("#quick-entry")
    knocker_deadwood = form.locator("#quick-knocker-deadwood")
    defender_deadwood = form.locator("#quick-defender-deadwood")
    who = form.locator("#quick-knocker legend")

    form.locator("input[name=ending][value=knock]").check()
    expect(who).to_have_text("Who knocked?")
    expect(knocker_deadwood).to_be_visible()
    expect(defender_deadwood.locator("label")).to_have_text(
        "Opponent's deadwood (after laying off)"
    )
    # A number typed for a knock is not sent once the hand turns out to be gin.
    form.locator("#id_knocker_deadwood").fill("5")

    form.locator("input[name=ending][value=gin]").check()
    expect(who).to_have_text("Who went gin?")
    expect(knocker_deadwood).to_be_hidden()
    expect(defender_deadwood.locator("label")).to_have_text(
        "Opponent's deadwood (no laying off on gin)"
    )
    expect(page.get_by_text("after laying off")).to_have_count(0)

    form.locator("input[name=ending][value=no_game]").check()
    expect(form.locator("#quick-knocker")).to_be_hidden()
    expect(defender_deadwood).to_be_hidden()
    expect(form.locator("#quick-rulings")).to_be_hidden()

    form.locator("input[name=ending][value=gin]").check()
    form.locator(f"input[name=knocker][value='{a.position}']").check()
    form.locator("#id_defender_deadwood").fill("21")
    form.locator("#enter-hand").click()
    expect(page.locator(".messages")).to_contain_text("Hand 1 entered")
    hand = party.hands.get(number=1)
    assert (hand.ending, hand.knocker_deadwood, hand.defender_deadwood) == ("gin", 0, 21)

    # The same phone now shows what it entered and waits; a correction is a choice.
    expect(page.locator("#pending-hand")).to_contain_text("Waiting for the other side")
    expect(page.locator("#quick-entry")).to_be_hidden()
    correct = page.get_by_text("Correct this hand")
    expect(correct).to_be_visible()
    correct.click()
    expect(page.locator("#quick-entry")).to_be_visible()
    assert fits(page)


def test_a_name_without_a_space_breaks_on_the_seat_page_and_the_public_standings(phone):
    club = ClubFactory(name="Door Club")
    players = [
        MembershipFactory(club=club, player__name=name, listed=True).player
        for name in (LONG, "Bea Bo")
    ]
    tournament = registration.tournament_create(club=club, name="Autumn Cup", slug="autumn-cup")
    registration.entrant_register(tournament=tournament, players=players)
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    views = paired_tables(rounds.round_start(tournament=tournament))
    seat = views[0].table.party.seats.get(player__name=LONG)

    page = phone(seat.get_absolute_url())
    expect(page.locator(".party-line")).to_contain_text("Autumn Cup · Round 1 · Table 1")
    assert fits(page)

    standings = phone(f"/t/{tournament.slug}/")
    expect(standings.locator("table.standings")).to_contain_text(LONG)
    assert fits(standings)
