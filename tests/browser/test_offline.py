"""A seat page that survives dead Wi-Fi: entries and confirmations wait on the phone,
survive a reload without network, and are stored exactly once when it comes back."""

import contextlib
import time

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from scoring.models import AuditRecord, Hand
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result
from tests.browser.test_table import enter_quick
from tests.factories import start_party

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def keeps(page, path) -> bool:
    """Whether the phone keeps a copy of ``path`` now. Asked with `evaluate`, which
    awaits the cache's answer: to `wait_for_function` the promise is truthy before
    it resolves, so a wait built on it returned at once, before the copy was kept."""
    while True:
        try:
            return page.evaluate(f"caches.match(location.origin + {path!r}).then(r => !!r)")
        except PlaywrightError:  # the page reloads meanwhile: ask the new one
            page.wait_for_load_state()


def kept_for_offline(page, deadline=30.0):
    """Waits until the service worker keeps a copy of the page."""
    path = page.evaluate("location.pathname")
    give_up = time.monotonic() + deadline
    while not keeps(page, path):
        assert time.monotonic() < give_up, f"the phone keeps no copy of {path}"
        page.wait_for_timeout(200)


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
    # The phone's copy is now that page; opened without network, its message is old
    # news and does not show.
    alice.context.set_offline(True)
    alice.reload()
    expect(alice.locator("#offline-sheet")).to_be_visible()
    expect(alice.locator("#pending-hand")).to_be_visible()
    expect(alice.locator(".messages")).to_be_hidden()
    alice.context.set_offline(False)

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
    # Alice's page took the confirmation in (it reloads itself on a change) and
    # keeps nothing waiting.
    expect(alice.get_by_role("heading", name="Hand 2")).to_be_visible()
    alice.wait_for_load_state()
    assert not alice.evaluate("Object.keys(localStorage).filter(k => k.startsWith('knock-outbox'))")


def test_a_waiting_confirmation_of_an_entry_changed_meanwhile_shows_the_new_entry(phone):
    party = start_party()
    a, b = party.seats.order_by("position")
    alice, bob = phone(a.get_absolute_url()), phone(b.get_absolute_url())
    kept_for_offline(bob)
    enter_quick(alice, "knock", knocker=a.position, knocker_deadwood=3, defender_deadwood=21)
    expect(bob.locator("#confirm")).to_be_visible()

    # Bob confirms without network; meanwhile Alice corrects her entry.
    bob.context.set_offline(True)
    bob.locator("#confirm").click()
    expect(bob.locator("#outbox")).to_contain_text("Waiting to send — 1 hand")
    alice.get_by_text("Correct this hand").click()
    enter_quick(alice, "knock", knocker=a.position, knocker_deadwood=3, defender_deadwood=25)
    # (Her first entry said "Hand 1 entered" too: the version tells the new one.)
    expect(alice.locator("#pending-hand")).to_have_attribute("data-version", "2")

    # Back online: the server refuses the old version, and Bob sees the new one.
    bob.context.set_offline(False)
    expect(bob.locator("#entry-changed")).to_be_visible()
    expect(bob.locator("#pending-hand")).to_have_attribute("data-version", "2")
    expect(bob.locator("#outbox")).to_be_hidden()
    assert Hand.objects.get().status == Hand.Status.PENDING


def test_the_phone_never_shows_a_replaced_link_and_keeps_nothing_of_the_organizer(
    phone, live_server
):
    from scoring.services.seats import seat_link_reissue

    party = start_party()
    a = party.seats.order_by("position").first()
    alice = phone(a.get_absolute_url())
    kept_for_offline(alice)

    seat_link_reissue(seat=a, user=None)
    alice.reload()
    # The network's 410 wins over the phone's copy, which is gone.
    expect(alice.get_by_role("heading", name="This link was replaced")).to_be_visible()
    assert not alice.evaluate("caches.match(location.href).then(r => !!r)")

    # The worker answers for /table/ only: the organizer's pages, opened on the same
    # phone, are never kept.
    alice.goto(live_server.url + "/manage/")
    alice.goto(live_server.url + "/login/?next=/manage/")
    kept = alice.evaluate(
        "caches.keys().then(ns => Promise.all(ns.map(n => caches.open(n).then(c => c.keys()))))"
        ".then(lists => lists.flat().map(r => new URL(r.url).pathname))"
    )
    assert kept, "the static files stay"
    assert all(path.startswith("/static/") for path in kept), kept


def test_a_waiting_hand_the_server_refuses_is_not_lost_without_a_word(phone):
    party = start_party()
    a = party.seats.order_by("position").first()
    alice = phone(a.get_absolute_url())

    # Without network the cards cannot be checked: the server finds them wrong later.
    alice.context.set_offline(True)
    alice.get_by_text("Enter from the cards").click()
    alice.locator("#id_cards_knocker").select_option(str(a.position))
    alice.locator("#id_knocker_cards").fill("AS 2S")
    alice.locator("#id_defender_cards").fill("KC KD")
    alice.locator("#enter-cards").click()
    expect(alice.locator("#outbox")).to_contain_text("Waiting to send — 1 hand")

    alice.context.set_offline(False)
    expect(alice.locator("#outbox-refused")).to_be_visible()
    expect(alice.locator("#outbox")).to_be_hidden()
    assert not Hand.objects.exists()


def test_a_confirmation_tapped_while_the_queue_goes_out_is_sent_once(phone):
    party = start_party()
    a, b = party.seats.order_by("position")
    alice = phone(a.get_absolute_url())
    # Bob's requests are held back below: Playwright's routing and a service worker
    # do not mix (a request the worker handles may pass the route, and closing the
    # phone hung once), and his waiting queue lives in the page, not in the worker.
    bob = phone(b.get_absolute_url(), service_workers="block")
    enter_quick(alice, "knock", knocker=a.position, knocker_deadwood=3, defender_deadwood=21)
    expect(bob.locator("#confirm")).to_be_visible()

    sent = []

    def slow_answer(route):
        sent.append(route.request.post_data)
        if len(sent) == 1:
            # While the tap's answer is on its way, the network comes back (or the
            # page's first check answers): the queue goes out.
            with contextlib.suppress(PlaywrightError):  # a second send reloads the page
                bob.evaluate(
                    "() => { window.dispatchEvent(new Event('online'));"
                    " return new Promise(r => setTimeout(r, 700)); }"
                )
        route.continue_()

    bob.route("**/confirm/", slow_answer)
    bob.locator("#confirm").click()
    expect(bob.locator(".messages")).to_contain_text("Hand 1 confirmed")
    expect(bob.get_by_role("heading", name="Hand 2")).to_be_visible()
    assert len(sent) == 1, sent
    assert AuditRecord.objects.filter(action=AuditRecord.Action.CONFIRM).count() == 1


# --- A shared phone keeps only what its own seats need ----------------------------

KEPT_SEATS = (
    "caches.keys().then(ns => Promise.all(ns.map(n => caches.open(n).then(c => c.keys()))))"
    ".then(lists => lists.flat().map(r => new URL(r.url).pathname)"
    ".filter(p => p.startsWith('/table/')))"
)


def let_go(page, path, deadline=30.0):
    """Waits, up to ``deadline`` seconds, until the phone keeps no copy of ``path``
    (the page learns it at its next poll, or its stream's; with the suite's six
    processes on two cores that took over ten seconds once)."""
    give_up = time.monotonic() + deadline
    while keeps(page, path):
        assert time.monotonic() < give_up, f"the phone still keeps {path}"
        page.wait_for_timeout(200)


def opens_offline(page, path) -> bool:
    """Whether ``path`` shows its sheet without network, from the worker's copy
    (which it keeps only with the server's Knock-Offline-Copy: keep). The browser's
    offline mode may reach a worker that starts for this very request a moment late,
    so the worker's fetch may still reach the server: its answer for a finished
    party or a replaced link does not say "keep", and counts as not opening."""
    page.context.set_offline(True)
    try:
        response = page.goto(page.url.split("/table/")[0] + path)
        assert response.from_service_worker, path
    except PlaywrightError:  # the browser's own "no internet" page
        return False
    finally:
        page.context.set_offline(False)
    return response.ok and response.headers.get("knock-offline-copy") == "keep"


def test_the_page_of_a_finished_party_leaves_the_phone(phone):
    party = start_party()
    a, b = party.seats.order_by("position")
    alice = phone(a.get_absolute_url())
    kept_for_offline(alice)

    # Gin against 90 is 110, past 100: the party ends; Alice's page learns it.
    hand_enter(seat=a, number=1, entry=Result("gin", a.position, 0, 90))
    hand_confirm(seat=b, number=1, version=1)
    expect(alice.get_by_role("heading", name="Party over")).to_be_visible()
    let_go(alice, a.get_absolute_url())

    assert not opens_offline(alice, a.get_absolute_url())


def test_a_replaced_link_leaves_the_phone_while_its_page_is_open(phone):
    from scoring.services.seats import seat_link_reissue

    party = start_party()
    a = party.seats.order_by("position").first()
    alice = phone(a.get_absolute_url())
    kept_for_offline(alice)

    old = a.get_absolute_url()
    seat_link_reissue(seat=a, user=None)
    let_go(alice, old)

    assert not opens_offline(alice, old)


def test_a_second_player_on_the_same_phone_never_gets_the_first_seats_page(phone, live_server):
    from scoring.services.seats import seat_link_reissue

    first, second = start_party(), start_party(seed=2)
    a = first.seats.order_by("position").first()
    c = second.seats.order_by("position").first()
    shared = phone(a.get_absolute_url())
    kept_for_offline(shared)
    # Alice leaves; her link is replaced while the phone is away from her page.
    shared.goto(live_server.url + "/")
    old = a.get_absolute_url()
    seat_link_reissue(seat=a, user=None)

    # Carl opens his own link on the same phone: only his page is kept, and the
    # worker drops Alice's, which the server says is gone.
    shared.goto(live_server.url + c.get_absolute_url())
    kept_for_offline(shared)
    let_go(shared, old)
    assert shared.evaluate(KEPT_SEATS) == [c.get_absolute_url()]

    # Without network, Carl's link opens Carl's page, never another seat's.
    assert opens_offline(shared, c.get_absolute_url())
    expect(shared.locator("#table")).to_have_attribute("data-page-url", c.get_absolute_url())
    assert not opens_offline(shared, old)
