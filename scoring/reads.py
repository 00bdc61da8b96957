"""The few reads every seat page and every write makes, with their SQL made once.

A seat page reads its table (the seat under a token, its party's seats, their
players and the party) and the party's hands; an entry or a confirmation reads
its seat, then the party under its lock, its seats and hands. Django makes each
query's SQL afresh on every call (`get_select`, `compile`, `quote_name`...),
which cost a seat page more of its processor time than the database did. Each
read here is made once per process and database (alias and vendor): its SQL,
where its parameters go, the columns' converters and the `select_related`
populators; a call only sends the SQL with its values and builds the instances
as Django's `ModelIterable` does (`Model.from_db`, the related objects set), so
they are the very instances the QuerySet would have given (tests/scoring/test_reads.py
compares them)."""

from collections.abc import Callable
from typing import NamedTuple

from django.db import connections, router
from django.db.models import Model, QuerySet
from django.db.models.query import MAX_GET_RESULTS, get_related_populators
from django.db.transaction import TransactionManagementError

from scoring.models import Hand, Party, Seat


class _Made(NamedTuple):
    """A query as a database runs it: the SQL, each parameter's value or its
    slot (the caller's value at that index), and how a row becomes an instance."""

    sql: str
    params: tuple
    slots: tuple
    locks: bool
    converters: tuple
    start: int
    end: int
    init_list: tuple
    populators: tuple


class Read:
    """One query of ``model``, made by ``build`` from stand-ins for its values
    (one per type in ``slots``), compiled once per database and then run with
    the caller's values. ``one``: as `QuerySet.get` (no ordering, at most
    `MAX_GET_RESULTS` rows)."""

    def __init__(self, model: type[Model], build: Callable[..., QuerySet], *slots, one=False):
        self.model, self.build, self.one = model, build, one
        # Values no caller ever sends: how each slot is found among the parameters.
        self.stand_ins = tuple(
            f"\x00slot {i}\x00" if kind is str else -1_000_000_000 - i
            for i, kind in enumerate(slots)
        )
        self.made: dict[tuple[str, str], _Made] = {}
        # Whether the query locks: then it asks the database written to, as
        # `QuerySet.db` chooses (known at the first call, when the models are).
        self.writes = None

    def __call__(self, *values, **hints) -> list:
        if self.writes is None:
            self.writes = bool(self.build(*self.stand_ins).query.select_for_update)
        alias = (router.db_for_write if self.writes else router.db_for_read)(self.model, **hints)
        connection = connections[alias]
        made = self.made.get((alias, connection.vendor))
        if made is None:
            made = self.made[alias, connection.vendor] = self._make(alias, connection)
        # What Django's compiler checks on every call: a lock holds only in a transaction.
        if made.locks and connection.get_autocommit():
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        params = [
            value if slot is None else values[slot]
            for value, slot in zip(made.params, made.slots, strict=True)
        ]
        with connection.cursor() as cursor:
            cursor.execute(made.sql, params)
            rows = cursor.fetchall()
        return self._instances(rows, made, alias, connection)

    def _make(self, alias, connection) -> _Made:
        query = self.build(*self.stand_ins).using(alias)
        if self.one:
            query = query.order_by()
            if (
                not query.query.select_for_update
                or connection.features.supports_select_for_update_with_limit
            ):
                query.query.set_limits(high=MAX_GET_RESULTS)
        compiler = query.query.get_compiler(using=alias)
        sql, params = compiler.as_sql()
        if compiler.annotation_col_map or compiler.has_extra_select:
            raise ValueError("a read builds its model's instances only")
        slots = tuple(self._slot(value) for value in params)
        if set(range(len(self.stand_ins))) - set(slots):
            raise ValueError("every value of a read must be one of its parameters")
        select, klass_info = compiler.select, compiler.klass_info
        converters = compiler.get_converters([column[0] for column in select[: compiler.col_count]])
        fields = klass_info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        return _Made(
            sql=sql,
            params=tuple(
                None if slot is not None else value
                for value, slot in zip(params, slots, strict=True)
            ),
            slots=slots,
            locks=bool(query.query.select_for_update and connection.features.has_select_for_update),
            converters=tuple((pos, *pair) for pos, pair in converters.items()),
            start=start,
            end=end,
            init_list=tuple(column[0].target.attname for column in select[start:end]),
            populators=tuple(get_related_populators(klass_info, select, alias)),
        )

    def _slot(self, value) -> int | None:
        for index, stand_in in enumerate(self.stand_ins):
            if type(value) is type(stand_in) and value == stand_in:
                return index
        return None

    def _instances(self, rows, made: _Made, alias, connection) -> list:
        # As `ModelIterable` and `SQLCompiler.apply_converters` build them.
        objects = []
        from_db = self.model.from_db
        for row in rows:
            if made.converters:
                row = list(row)
                for pos, functions, expression in made.converters:
                    value = row[pos]
                    for convert in functions:
                        value = convert(value, expression, connection)
                    row[pos] = value
            obj = from_db(alias, made.init_list, row[made.start : made.end])
            for populator in made.populators:
                populator.populate(row, obj)
            objects.append(obj)
        return objects


_table = Read(
    Seat,
    lambda token: (
        Seat.objects.select_related("party", "player")
        .filter(party__seats__token=token)
        .order_by("position")
    ),
    str,
)
_seat = Read(
    Seat,
    lambda token: Seat.objects.select_related("party", "player").filter(token=token),
    str,
    one=True,
)
_party_locked = Read(
    Party, lambda pk: Party.objects.select_for_update().filter(pk=pk), int, one=True
)
_seats = Read(
    Seat,
    lambda party: Seat.objects.select_related("player").filter(party=party).order_by("position"),
    int,
)
_hands = Read(Hand, lambda party: Hand.objects.filter(party=party).order_by("number", "table"), int)
_hands_entered = Read(
    Hand,
    lambda party: (
        Hand.objects.select_related("entered_by__player")
        .filter(party=party)
        .order_by("number", "table")
    ),
    int,
)


def table(token: str) -> list[Seat]:
    """Every seat of the party that has a seat under ``token``, in position order,
    with its player and party (each seat its own copy, as `select_related` gives)."""
    return _table(token)


def seat(token: str) -> Seat | None:
    """The seat under ``token`` with its party and player, or None."""
    found = _seat(token)
    return found[0] if found else None


def party_locked(pk: int) -> Party:
    """The party ``pk``, its row locked for the transaction (``select_for_update``)."""
    found = _party_locked(pk)
    if len(found) != 1:
        raise Party.DoesNotExist("Party matching query does not exist.")
    return found[0]


def seats(party: Party) -> list[Seat]:
    """``party.seats.select_related("player").order_by("position")``."""
    return _known(_seats(party.pk, instance=party), party)


def hands(party: Party, *, entered_by: bool = False) -> list[Hand]:
    """``party.hands.order_by("number", "table")``; ``entered_by``: with the seat
    that entered each, and its player (``select_related("entered_by__player")``)."""
    read = _hands_entered if entered_by else _hands
    return _known(read(party.pk, instance=party), party)


def _known(objects: list, party: Party) -> list:
    # What a related manager sets on each of its instances: the party asked from.
    for obj in objects:
        obj.party = party
    return objects
