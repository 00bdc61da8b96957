import pytest

from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result
from tests.factories import ClubFactory, MembershipFactory
from tournaments import registration, rounds, tables


def play_out(table, winner, deadwood=90):
    """The winner goes gin against ``deadwood`` until the party is over; the
    loser confirms each hand. Returns the party."""
    party = table.party
    seats = {s.player_id: s for s in party.seats.all()}
    mine = seats[winner.player_id]
    theirs = next(s for s in seats.values() if s.pk != mine.pk)
    number = 1
    party.refresh_from_db()
    while party.status == "running":
        result = Result(
            "gin", knocker=mine.position, knocker_deadwood=0, defender_deadwood=deadwood
        )
        entered = hand_enter(seat=mine, number=number, entry=result).hand
        hand_confirm(seat=theirs, number=number, version=entered.version)
        number += 1
        party.refresh_from_db()
    return party


def seated(round):
    """The round's tables as names: [("Anna", "Ben"), ("Carl", None)] in table order."""
    views = sorted(tables.round_tables(round), key=lambda v: v.table.number)
    return [tuple(str(e) for e in v.entrants) + ((None,) if v.table.bye else ()) for v in views]


def entrant(tournament, name):
    return tournament.entrants.get(player__name=name)


@pytest.fixture
def club(db):
    return ClubFactory()


@pytest.fixture
def members(club):
    def make(*names):
        # Listed: these tests read the names on the public pages too (the privacy of
        # the unlisted is tests/config/test_privacy.py's).
        return [MembershipFactory(club=club, player__name=n, listed=True).player for n in names]

    return make


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Runs a service and what it schedules after commit (the pairing task,
    eager here), as a request would."""

    def call(service, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return service(**kwargs)

    return call


@pytest.fixture
def started(club, members, committed):
    """A Swiss tournament of the given members, all checked in, round 1 paired."""

    def make(names, **options):
        tournament = registration.tournament_create(club=club, name="Spring Open", **options)
        registration.entrant_register(tournament=tournament, players=members(*names))
        for e in tournament.entrants.all():
            registration.entrant_check_in(entrant=e)
        round = committed(rounds.round_start, tournament=tournament)
        round.refresh_from_db()
        tournament.refresh_from_db()
        return tournament, round

    return make


@pytest.fixture
def confirmed(django_capture_on_commit_callbacks):
    """Plays one hand at a table as a request would: entered by the table's first
    entrant (gin against ``deadwood``), confirmed by the other, each committed with
    what it schedules after the commit."""

    def play(table, number=1, deadwood=30, knock=None):
        party = table.party
        seats = list(party.seats.order_by("position"))
        first_player = table.seatings.get(side=0).entrant.player_id
        mine = next(s for s in seats if s.player_id == first_player)
        theirs = next(s for s in seats if s.pk != mine.pk)
        result = Result(
            "gin", knocker=mine.position, knocker_deadwood=0, defender_deadwood=deadwood
        )
        if knock is not None:  # (knocker's deadwood, defender's deadwood)
            result = Result("knock", mine.position, *knock)
        with django_capture_on_commit_callbacks(execute=True):
            entered = hand_enter(seat=mine, number=number, entry=result).hand
        with django_capture_on_commit_callbacks(execute=True):
            hand_confirm(seat=theirs, number=number, version=entered.version)
        return mine, theirs

    return play


def first_table(round):
    return next(v.table for v in tables.round_tables(round) if not v.table.bye)
