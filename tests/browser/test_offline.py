"""A seat page that survives dead Wi-Fi: entries and confirmations wait on the phone,
survive a reload without network, and are stored exactly once when it comes back."""

import pytest
from playwright.sync_api import expect

from scoring.models import AuditRecord, Hand
from tests.browser.test_table import enter_quick
from tests.factories import start_party

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def kept_for_offline(page):
    """Waits until the service worker keeps a copy of the page."""
    page.wait_for_function(
        "caches.match(location.origin + location.pathname).then(r => !!r)", polling=200
    )


def test_a_phone_without_network_keeps_an_entry_and_a_confirmation_and_sends_them_once(phone):
    party = start_party()
    a, b = party.seats.order_by("position")
    alice, bob = phone(a.get_absolute_url()), phone(b.get_absolute_url())
    kept_for_offline(alice)
    kept_for_offline(bob)

    # Alice's Wi-Fi dies; she enters hand 1 all the same.
    alice.context.set_offline(True)
    enter_quick(alice, "knock", knocker=a.position, knocker_deadwood=3, defender_deadwood=21)
    expect(alice.locator("#outbox")).to_contain_text("Waiting to send — 1 hand")
    assert not Hand.objects.exists()

    # A reload without network opens the phone's copy, which says so, and the entry waits.
    alice.reload()
    expect(alice.locator("#offline-sheet")).to_be_visible()
    expect(alice.locator("#outbox")).to_contain_text("Waiting to send — 1 hand")
    expect(alice.get_by_role("heading", name="Hand 1", exact=True)).to_be_visible()

    # The network is back: the entry goes out by itself.
    alice.context.set_offline(False)
    expect(alice.locator(".messages")).to_contain_text("Hand 1 entered")
    expect(alice.locator("#outbox")).to_be_hidden()
    expect(alice.locator("#offline-sheet")).to_be_hidden()

    # Bob's phone shows the entry; then his network dies and he confirms it.
    expect(bob.locator("#confirm")).to_be_visible()
    bob.context.set_offline(True)
    bob.locator("#confirm").click()
    expect(bob.locator("#outbox")).to_contain_text("Waiting to send — 1 hand")
    bob.reload()
    expect(bob.locator("#offline-sheet")).to_be_visible()
    expect(bob.locator("#outbox")).to_contain_text("Waiting to send — 1 hand")
    bob.context.set_offline(False)
    expect(bob.locator(".messages")).to_contain_text("Hand 1 confirmed")
    expect(bob.get_by_role("heading", name="Hand 2")).to_be_visible()

    hand = Hand.objects.get()
    assert hand.status == Hand.Status.CONFIRMED
    assert AuditRecord.objects.filter(hand=hand, action=AuditRecord.Action.ENTER).count() == 1
    assert AuditRecord.objects.filter(hand=hand, action=AuditRecord.Action.CONFIRM).count() == 1
    assert not alice.evaluate("Object.keys(localStorage).filter(k => k.startsWith('knock-outbox'))")
