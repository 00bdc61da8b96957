"""The audit log cannot be rewritten: nothing it refers to can be deleted while it
exists, and on PostgreSQL the database itself refuses to change or delete a record,
whoever asks (CI runs this file on PostgreSQL too)."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import ProtectedError

from clubs.models import ClubRecord
from clubs.services import login_record
from scoring.models import AuditRecord
from scoring.services.hands import hand_decide, hand_enter
from scoring.services.knocks import Result
from tests.factories import UserFactory, start_party

pytestmark = pytest.mark.django_db


@pytest.fixture
def postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("the trigger is PostgreSQL's (set DATABASE_URL)")


def played_party():
    party = start_party()
    a, _ = party.seats.order_by("position")
    hand = hand_enter(seat=a, number=1, entry=Result("knock", 0, 3, 21)).hand
    return party, hand


def test_a_party_with_a_record_cannot_be_deleted():
    party, _ = played_party()
    with pytest.raises(ProtectedError):
        party.delete()
    assert AuditRecord.objects.filter(party=party).count() == 2


def test_a_hand_with_a_record_cannot_be_deleted():
    _, hand = played_party()
    with pytest.raises(ProtectedError):
        hand.delete()


def test_a_user_named_in_a_record_cannot_be_deleted():
    _, hand = played_party()
    user = UserFactory()
    hand_decide(hand=hand, user=user, entry=None, reason="misdeal")
    with pytest.raises(ProtectedError):
        user.delete()


def refused(sql: str, params=()):
    with (
        pytest.raises(IntegrityError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(sql, params)


def test_postgresql_refuses_to_change_or_delete_an_audit_record(postgresql):
    party, _ = played_party()
    record = AuditRecord.objects.filter(party=party).last()

    refused("UPDATE scoring_auditrecord SET reason = 'nothing happened' WHERE id = %s", [record.pk])
    refused("DELETE FROM scoring_auditrecord WHERE id = %s", [record.pk])
    with pytest.raises(IntegrityError), transaction.atomic():
        AuditRecord.objects.filter(pk=record.pk).update(after=None)

    assert AuditRecord.objects.get(pk=record.pk).after == record.after
    assert AuditRecord.objects.filter(party=party).count() == 2


def test_postgresql_refuses_to_change_or_delete_a_club_record(postgresql):
    login_record(username="intruder", address="203.0.113.9", succeeded=False)
    record = ClubRecord.objects.get()

    refused("UPDATE clubs_clubrecord SET username = 'someone' WHERE id = %s", [record.pk])
    refused("DELETE FROM clubs_clubrecord WHERE id = %s", [record.pk])

    assert ClubRecord.objects.get().username == "intruder"
