"""Two phones play a short party on the seat pages; the organizer settles a dispute."""

import pytest
from playwright.sync_api import expect

from scoring.engine.rules import RULESETS
from scoring.models import Hand
from tests.browser.conftest import PHONE
from tests.factories import OrganizerFactory, start_party

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RULES = RULESETS["classic"].but(target=50)


def tap_cards(page, target, cards):
    page.locator(f"#pick-{target}").click()
    for card in cards:
        page.locator(f"#card-{card}").click()


def enter_quick(page, ending, knocker, defender_deadwood, knocker_deadwood=None):
    form = page.locator("#quick-entry")
    form.locator(f"input[name=ending][value={ending}]").check()
    form.locator(f"input[name=knocker][value='{knocker}']").check()
    if knocker_deadwood is not None:
        form.locator("#id_knocker_deadwood").fill(str(knocker_deadwood))
    form.locator("#id_defender_deadwood").fill(str(defender_deadwood))
    form.locator("#enter-hand").click()


def log_in(page, username, password):
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


def test_two_phones_play_a_party_and_the_organizer_settles_a_dispute(phone):
    party = start_party(rules=RULES)
    a, b = party.seats.order_by("position")
    organizer = OrganizerFactory(club=party.club).player.user
    alice, bob = phone(a.get_absolute_url()), phone(b.get_absolute_url())
    # Nothing sticks out sideways on a 360-pixel phone.
    assert alice.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # Hand 1: Alice taps the cards; the page shows what the rules engine makes of them.
    alice.get_by_text("Enter from the cards").click()
    alice.locator("#id_cards_knocker").select_option(str(a.position))
    tap_cards(alice, "knocker", ["AS", "2S", "3S", "7H", "7D", "7C", "9S", "TS", "JS", "3D"])
    tap_cards(alice, "defender", ["KC", "KD", "KH", "4D", "5D", "6D", "2C", "8H", "9H", "JD"])
    expect(alice.locator("#preview")).to_contain_text("29")
    assert alice.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    alice.locator("#enter-cards").click()
    expect(alice.locator(".messages")).to_contain_text("Hand 1 entered")

    # Bob's phone shows the pending hand by itself; he confirms it.
    expect(bob.locator("#confirm")).to_be_visible()
    expect(bob.locator("#pending-hand")).to_contain_text("+26")
    bob.locator("#confirm").click()
    expect(bob.locator(".messages")).to_contain_text("Hand 1 confirmed")
    expect(alice.get_by_role("heading", name="Hand 2")).to_be_visible()

    # Hand 2: the phones disagree about Bob's deadwood after a gin.
    enter_quick(alice, "gin", knocker=a.position, defender_deadwood=30)
    expect(bob.locator("#pending-hand")).to_be_visible()
    enter_quick(bob, "gin", knocker=a.position, defender_deadwood=40)
    for page in (alice, bob):
        expect(page.get_by_role("heading", name="Hand 2 is disputed")).to_be_visible()

    # The organizer takes the other side's version, with a reason.
    desk = phone("/login/?next=" + f"/manage/parties/{party.pk}/")
    log_in(desk, organizer.username, "correct horse battery")
    hand = party.hands.get(number=2)
    desk.locator(f"#hand-{hand.pk}-resolve-reason").fill("Counted again at the table: 40.")
    desk.locator(f"#hand-{hand.pk}-accept-counter").click()
    expect(desk.locator(f"#hand-{hand.pk} [data-hand-status]")).to_have_text("confirmed")

    # Both phones show the same final settlement (seed 000): hand 1 wrote 29 - 3 = 26,
    # the gin 40 + 20 = 60; Alice reached 50 with 86 and writes 86 + 2 boxes × 20
    # + game 100 + shutout 100 (Bob wrote nothing) = 326 against Bob's 0.
    gin = 60
    totals = ["326", "0"]
    for page in (alice, bob):
        expect(page.get_by_role("heading", name="Party over")).to_be_visible()
        expect(page.locator(".settlement tfoot td.num")).to_have_text(totals)
    hand.refresh_from_db()
    assert (hand.status, hand.points, hand.defender_deadwood) == (Hand.Status.CONFIRMED, gin, 40)
