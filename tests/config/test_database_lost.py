"""PostgreSQL drops a connection in the middle of a hand's entry (a restart, a
failover, an administrator): the phone is told to try again (503, never a 500),
nothing of the hand is stored, and the same form sent again stores it once."""

import os
from unittest import mock

import psycopg
import pytest
from django.db import connection
from django.urls import reverse

from scoring.models import AuditRecord, Hand
from scoring.services import hands
from tests.factories import start_party

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="needs PostgreSQL (DATABASE_URL)",
    ),
]


def drop_own_connection() -> None:
    """Ends this process's database session from another connection, as
    pg_terminate_backend does to every session in a restart."""
    pid = connection.connection.info.backend_pid
    params = {**connection.get_connection_params(), "autocommit": True}
    with psycopg.connect(**params) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


def entry(seat, key):
    data = {"number": 1, "ending": "knock", "knocker": 0}
    return data | {"knocker_deadwood": 3, "defender_deadwood": 21, "key": key}


@pytest.mark.parametrize("path", ["page", "api"])
def test_a_connection_lost_mid_entry_stores_nothing_and_the_same_form_stores_it_once(client, path):
    party = start_party()
    seat = party.seats.get(position=0)
    audit = hands._audit

    def audit_then_lose_the_connection(*args, **kwargs):
        audit(*args, **kwargs)  # the hand and its record are written, not committed
        drop_own_connection()

    def send():
        if path == "api":
            url = f"/api/tables/{seat.token}/hands"
            body = {"number": 1, "ending": "knock", "knocker": 0, "key": "tap-1"}
            body |= {"knocker_deadwood": 3, "defender_deadwood": 21}
            return client.post(url, body, content_type="application/json")
        return client.post(reverse("seat:table-enter", args=[seat.token]), entry(seat, "tap-1"))

    with mock.patch.object(hands, "_audit", audit_then_lose_the_connection):
        lost = send()

    assert lost.status_code == 503
    assert lost["Retry-After"] == "5"
    if path == "api":
        assert lost.json()["code"] == "database_unavailable"
    else:
        assert "nothing was saved" in lost.text
    connection.close()  # the next request connects again, as a server's next one does
    assert Hand.objects.filter(party=party).count() == 0
    assert AuditRecord.objects.filter(party=party, hand__isnull=False).count() == 0

    again = send()
    assert again.status_code in (201, 302)
    assert Hand.objects.filter(party=party).count() == 1
    assert AuditRecord.objects.filter(party=party, action="enter").count() == 1
