"""The server side of a seat page without network: the service worker and the
manifest it is served with, and the answers a phone's waiting entries get when
they go out late (js/outbox.js sends them again with the same key)."""

import json

import pytest
from django.urls import reverse

from scoring.models import AuditRecord, Hand
from tests.factories import start_party

pytestmark = pytest.mark.django_db


def table_url(seat, name="table"):
    return reverse(f"seat:{name}", args=[seat.token])


KNOCK = {"ending": "knock", "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 21}


def test_the_worker_is_served_from_the_table_path_so_its_scope_covers_the_seat_pages(client):
    response = client.get("/table/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    # A new worker reaches the phones at once.
    assert "no-cache" in response["Cache-Control"]
    # It keeps seat pages and static files only: never the organizer's pages.
    assert "/static/" in response.text
    assert "manage" not in response.text.split('"use strict";')[1]


def test_the_seat_page_links_its_manifest_and_the_worker(client):
    seat = start_party().seats.first()
    page = client.get(table_url(seat)).text
    assert f'rel="manifest" href="{table_url(seat, "table-manifest")}"' in page
    assert 'data-worker="/table/sw.js"' in page
    assert "js/outbox.js" in page


def test_the_manifest_puts_the_seats_table_on_the_home_screen(client):
    seat = start_party().seats.first()
    response = client.get(table_url(seat, "table-manifest"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["start_url"] == table_url(seat)
    assert manifest["scope"] == table_url(seat)
    assert manifest["display"] == "standalone"
    assert seat.player.name in manifest["name"]
    assert manifest["icons"]


def test_a_replaced_seat_link_has_no_manifest(client):
    assert client.get("/table/not-a-real-token/manifest.webmanifest").status_code == 404


def test_an_entry_sent_again_with_its_key_is_stored_once_and_answered_like_the_first(client):
    party = start_party()
    a, _ = party.seats.order_by("position")
    data = {"number": 1, "key": "a" * 32, **KNOCK}
    first = client.post(table_url(a, "table-enter"), data)
    # The phone never heard the answer (the network died): it sends the same again.
    again = client.post(table_url(a, "table-enter"), data)

    # Both answer with the seat's page, which the outbox then shows.
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"] == table_url(a)
    assert party.hands.count() == 1
    assert AuditRecord.objects.filter(key="a" * 32).count() == 1
    assert "Hand 1 was already stored" in client.get(table_url(a)).text


def test_a_confirmation_sent_again_with_its_key_is_stored_once(client):
    party = start_party()
    a, b = party.seats.order_by("position")
    client.post(table_url(a, "table-enter"), {"number": 1, **KNOCK})
    data = {"number": 1, "version": 1, "key": "b" * 32}
    client.post(table_url(b, "table-confirm"), data)
    again = client.post(table_url(b, "table-confirm"), data)

    assert again.status_code == 302
    assert party.hands.get().status == Hand.Status.CONFIRMED
    assert AuditRecord.objects.filter(action=AuditRecord.Action.CONFIRM).count() == 1


def test_a_late_confirmation_of_an_entry_changed_meanwhile_is_refused_and_shows_the_new_one(
    client,
):
    party = start_party()
    a, b = party.seats.order_by("position")
    client.post(table_url(a, "table-enter"), {"number": 1, **KNOCK})
    # Bob confirmed version 1 without network; meanwhile Alice corrected her entry.
    client.post(table_url(a, "table-enter"), {"number": 1, **KNOCK, "defender_deadwood": 25})

    response = client.post(
        table_url(b, "table-confirm"), {"number": 1, "version": 1, "key": "c" * 32}, follow=True
    )

    assert response.status_code == 200
    hand = party.hands.get()
    assert hand.status == Hand.Status.PENDING
    assert hand.version == 2
    assert 'id="pending-hand" data-version="2"' in response.text
