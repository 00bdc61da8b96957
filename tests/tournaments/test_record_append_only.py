"""The tournament's record cannot be rewritten: a tournament with records cannot be
deleted, and on PostgreSQL the database itself refuses to change or delete one
(run with DATABASE_URL to check the trigger)."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import ProtectedError

from tests.tournaments.conftest import entrant
from tournaments import registration
from tournaments.models import TournamentRecord

pytestmark = pytest.mark.django_db


@pytest.fixture
def recorded(club, members):
    tournament = registration.tournament_create(club=club, name="Spring Open")
    registration.entrant_register(tournament=tournament, players=members("Anna", "Ben"))
    pair = registration.keep_apart_add(
        tournament=tournament,
        first=entrant(tournament, "Anna"),
        second=entrant(tournament, "Ben"),
    )
    registration.keep_apart_remove(pair=pair)
    return tournament


def test_a_tournament_with_a_record_cannot_be_deleted(recorded):
    with pytest.raises(ProtectedError):
        recorded.delete()
    assert recorded.records.count() == 2


def refused(sql: str, params=()):
    with (
        pytest.raises(IntegrityError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(sql, params)


def test_postgresql_refuses_to_change_or_delete_a_tournament_record(recorded):
    if connection.vendor != "postgresql":
        pytest.skip("the trigger is PostgreSQL's (set DATABASE_URL)")
    record = TournamentRecord.objects.filter(tournament=recorded).last()

    refused("UPDATE tournaments_tournamentrecord SET action = 'apart' WHERE id = %s", [record.pk])
    refused("DELETE FROM tournaments_tournamentrecord WHERE id = %s", [record.pk])

    assert TournamentRecord.objects.get(pk=record.pk).action == "apart_removed"
