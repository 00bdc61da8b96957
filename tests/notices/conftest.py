"""The club, players and tournament whose events the notices tell of; the SMTP
server and the push service they are told through are tests/servers.py's
(fixtures ``smtp``, ``vapid``, ``push_service`` in tests/conftest.py)."""

import pytest

from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result
from tests.factories import ClubFactory, MembershipFactory
from tournaments import registration, rounds


@pytest.fixture
def club(db):
    return ClubFactory(name="Gin Club")


@pytest.fixture
def members(club):
    def make(*names):
        return [
            MembershipFactory(
                club=club, player__name=n, player__email=f"{n.lower()}@example.org"
            ).player
            for n in names
        ]

    return make


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Runs a service and what it schedules after its commit, as a request does:
    the hooks, and the notices' tasks (eager here)."""

    def call(service, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return service(**kwargs)

    return call


@pytest.fixture
def paired(club, members, committed):
    """A one-round Swiss of Anna and Ben, round 1 paired (their party started)."""
    anna, ben = members("Anna", "Ben")
    tournament = registration.tournament_create(club=club, name="Spring Open", rounds=1)
    registration.entrant_register(tournament=tournament, players=[anna, ben])
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    round = committed(rounds.round_start, tournament=tournament)
    round.refresh_from_db()
    return tournament, round


def play_out(committed, party, winner):
    """``winner`` goes gin until the party is over, the other confirms each hand."""
    seats = {s.player_id: s for s in party.seats.all()}
    mine = seats[winner.pk]
    theirs = next(s for s in seats.values() if s.pk != mine.pk)
    number = 1
    party.refresh_from_db()
    while party.status == "running":
        result = Result("gin", knocker=mine.position, knocker_deadwood=0, defender_deadwood=90)
        entered = committed(hand_enter, seat=mine, number=number, entry=result).hand
        committed(hand_confirm, seat=theirs, number=number, version=entered.version)
        number += 1
        party.refresh_from_db()
    return party
