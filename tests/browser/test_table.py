"""Two phones play a short party on the seat pages."""

import pytest
from playwright.sync_api import expect

from scoring.rules import RULESETS
from tests.factories import start_party

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def enter_knock(page, knocker, knocker_deadwood, defender_deadwood):
    page.get_by_label("Knock", exact=True).check()
    page.locator(f"input[name=knocker][value='{knocker}']").check()
    page.locator("#id_knocker_deadwood").fill(str(knocker_deadwood))
    page.locator("#id_defender_deadwood").fill(str(defender_deadwood))
    page.get_by_role("button", name="Enter hand").click()


def test_one_phone_enters_the_other_confirms(phone):
    party = start_party(rules=RULESETS["classic"].but(target=50))
    a, b = party.seats.order_by("position")
    alice, bob = phone(a.get_absolute_url()), phone(b.get_absolute_url())

    enter_knock(alice, knocker=0, knocker_deadwood=3, defender_deadwood=21)
    expect(alice.locator(".messages")).to_contain_text("Hand 1 entered")

    bob.reload()
    bob.get_by_role("button", name="Confirm").click()
    expect(bob.locator(".messages")).to_contain_text("Hand 1 confirmed")
    # Alice's page notices the confirmation by itself.
    expect(alice.get_by_role("heading", name="Hand 2")).to_be_visible()
