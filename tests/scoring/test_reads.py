"""`scoring.reads`: the seat page's and the writes' reads, their SQL made once, give
the very instances the ORM gives (every field, the same related objects, nothing
deferred), send the very SQL, and the party's read under its lock still locks it."""

import threading

import pytest
from django.db import DatabaseError, connection, connections, transaction
from django.db.models.sql.compiler import SQLCompiler
from django.test.utils import CaptureQueriesContext

from scoring import reads
from scoring.engine.rules import RULESETS
from scoring.models import Hand, Party, Seat
from scoring.services.hands import hand_confirm, hand_decide, hand_enter
from scoring.services.knocks import Result
from scoring.services.parties import party_cancel
from tests.factories import UserFactory, start_party, whole_table_party

pytestmark = pytest.mark.django_db


def knock(side, mine=3, theirs=21):
    return Result("knock", knocker=side, knocker_deadwood=mine, defender_deadwood=theirs)


def fresh():
    return start_party()


def pending():
    party = start_party()
    a, _ = party.seats.order_by("position")
    hand_enter(seat=a, number=1, entry=knock(0))
    return party


def confirmed_and_disputed():
    party = start_party()
    a, b = party.seats.order_by("position")
    hand_enter(seat=a, number=1, entry=knock(0))
    hand_confirm(seat=b, number=1, version=1)
    hand_enter(seat=a, number=2, entry=knock(0, 2, 30))
    hand_enter(seat=b, number=2, entry=knock(1, 5, 9))
    assert party.hands.get(number=2).status == Hand.Status.DISPUTED
    return party


def decided():
    party = confirmed_and_disputed()
    hand = party.hands.get(number=2)
    director = UserFactory(is_superuser=True)
    hand_decide(hand=hand, user=director, entry=knock(0, 1, 12), reason="recount")
    return party


def finished():
    party = start_party(rules=RULESETS["classic"].but(target=10))
    a, b = party.seats.order_by("position")
    hand_enter(seat=a, number=1, entry=knock(0, 0, 40))
    hand_confirm(seat=b, number=1, version=1)
    assert Party.objects.get(pk=party.pk).status == Party.Status.FINISHED
    return party


def cancelled():
    party = pending()
    party_cancel(party=party, user=UserFactory(is_superuser=True), reason="wrong table")
    return party


def rotation():
    party = start_party(format="rotation", players=3)
    seats = list(party.seats.order_by("position"))
    hand_enter(seat=seats[0], number=1, entry=knock(0))
    return party


def partners():
    return start_party(format="partners", players=4)


def whole_table():
    return whole_table_party("chinchon", pending=True)


STATES = [
    fresh,
    pending,
    confirmed_and_disputed,
    decided,
    finished,
    cancelled,
    rotation,
    partners,
    whole_table,
]


def held(obj, depth=3):
    """Everything an instance holds, to compare: its class, each attribute with its
    type, its database and state, and the related objects it carries, alike."""
    assert obj.get_deferred_fields() == set()
    state = obj._state
    related = state.fields_cache
    return (
        type(obj),
        {name: (type(value), value) for name, value in vars(obj).items() if name != "_state"},
        state.db,
        state.adding,
        {
            name: held(value, depth - 1) if value is not None and depth else value
            for name, value in related.items()
        },
    )


def both(read, orm):
    """What the read and the ORM give, and the SQL each sent."""
    with CaptureQueriesContext(connection) as by_read:
        mine = read()
    with CaptureQueriesContext(connection) as by_orm:
        theirs = orm()
    return mine, theirs, [q["sql"] for q in by_read], [q["sql"] for q in by_orm]


@pytest.mark.parametrize("state", STATES, ids=lambda state: state.__name__)
def test_a_table_read_by_a_token_is_the_orms(state):
    party = state()
    for token in party.seats.values_list("token", flat=True):
        mine, theirs, sql, orm_sql = both(
            lambda token=token: reads.table(token),
            lambda token=token: list(
                Seat.objects.select_related("party", "player")
                .filter(party__seats__token=token)
                .order_by("position")
            ),
        )
        assert [held(s) for s in mine] == [held(s) for s in theirs]
        assert sql == orm_sql
        assert len(sql) == 1
        # Each seat its own copy of the party, as select_related gives.
        assert len({id(s.party) for s in mine}) == len(mine)


@pytest.mark.parametrize("state", STATES, ids=lambda state: state.__name__)
def test_a_seat_read_by_its_token_is_the_orms(state):
    party = state()
    for token in party.seats.values_list("token", flat=True):
        mine, theirs, sql, orm_sql = both(
            lambda token=token: reads.seat(token),
            lambda token=token: Seat.objects.select_related("party", "player").get(token=token),
        )
        assert held(mine) == held(theirs)
        assert sql == orm_sql


@pytest.mark.parametrize("state", STATES, ids=lambda state: state.__name__)
def test_a_partys_seats_and_hands_are_its_related_managers(state):
    party = Party.objects.get(pk=state().pk)

    seats, orm_seats, sql, orm_sql = both(
        lambda: reads.seats(party),
        lambda: list(party.seats.select_related("player").order_by("position")),
    )
    assert [held(s) for s in seats] == [held(s) for s in orm_seats]
    assert sql == orm_sql
    assert all(seat.party is party for seat in seats + orm_seats)

    hands, orm_hands, sql, orm_sql = both(
        lambda: reads.hands(party), lambda: list(party.hands.order_by("number", "table"))
    )
    assert [held(h) for h in hands] == [held(h) for h in orm_hands]
    assert sql == orm_sql
    assert all(hand.party is party for hand in hands + orm_hands)

    hands, orm_hands, sql, orm_sql = both(
        lambda: reads.hands(party, entered_by=True),
        lambda: list(party.hands.select_related("entered_by__player").order_by("number", "table")),
    )
    assert [held(h) for h in hands] == [held(h) for h in orm_hands]
    assert sql == orm_sql
    assert all(hand.party is party for hand in hands + orm_hands)


@pytest.mark.parametrize("state", STATES, ids=lambda state: state.__name__)
def test_a_party_read_under_its_lock_is_the_orms(state):
    pk = state().pk
    with transaction.atomic():
        mine, theirs, sql, orm_sql = both(
            lambda: reads.party_locked(pk),
            lambda: Party.objects.select_for_update().get(pk=pk),
        )
    assert held(mine) == held(theirs)
    assert sql == orm_sql


def test_what_is_not_there_is_read_as_nothing():
    party = start_party()
    token = "x" * len(party.seats.first().token)

    assert reads.table(token) == []
    assert reads.seat(token) is None
    with transaction.atomic(), pytest.raises(Party.DoesNotExist):
        reads.party_locked(party.pk + 1000)
    assert reads.hands(party) == []


def test_a_read_compiles_its_sql_once(monkeypatch):
    party = pending()
    token = party.seats.first().token
    first = party.seats.get(position=0).player
    with transaction.atomic():
        reads.party_locked(party.pk)
    reads.table(token), reads.seat(token), reads.seats(party), reads.hands(party)
    reads.hands(party, entered_by=True)

    def compiled(*args, **kwargs):
        raise AssertionError("compiled again")

    monkeypatch.setattr(SQLCompiler, "as_sql", compiled)
    with transaction.atomic():
        assert reads.party_locked(party.pk).pk == party.pk
    assert len(reads.table(token)) == 2
    assert reads.seat(token).token == token
    assert len(reads.seats(party)) == 2
    assert [hand.number for hand in reads.hands(party)] == [1]
    assert [hand.entered_by.player for hand in reads.hands(party, entered_by=True)] == [first]


postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks: PostgreSQL (SQLite has none)"
)


@postgresql
@pytest.mark.django_db(transaction=True)
def test_the_locked_read_refuses_to_run_outside_a_transaction():
    party = start_party()
    with pytest.raises(transaction.TransactionManagementError):
        Party.objects.select_for_update().get(pk=party.pk)
    with pytest.raises(transaction.TransactionManagementError):
        reads.party_locked(party.pk)


@postgresql
@pytest.mark.django_db(transaction=True)
def test_the_locked_read_holds_the_partys_row_until_the_commit():
    party = start_party()

    def lock_elsewhere():
        try:
            with transaction.atomic():
                Party.objects.select_for_update(nowait=True).get(pk=party.pk)
            return "locked"
        except DatabaseError:
            return "refused"
        finally:
            connections.close_all()

    def in_thread():
        answer = []
        thread = threading.Thread(target=lambda: answer.append(lock_elsewhere()))
        thread.start()
        thread.join(timeout=30)
        return answer

    with transaction.atomic():
        reads.party_locked(party.pk)
        assert in_thread() == ["refused"]
    assert in_thread() == ["locked"]
