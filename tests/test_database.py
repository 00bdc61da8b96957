import threading
import time

import pytest
from django.db import connection, connections, transaction

HOLD = 0.5


@pytest.fixture
def second_database(tmp_path, django_db_blocker):
    """A SQLite file with the site's own settings (WAL, IMMEDIATE, timeout) under an
    alias of its own; each thread opens its own connection to it, as the server's
    request threads do."""
    alias = "probe"
    connections.settings[alias] = {
        **connections.settings["default"],
        "NAME": str(tmp_path / "knock.sqlite3"),
    }
    with django_db_blocker.unblock():
        with connections[alias].cursor() as cursor:
            cursor.execute("CREATE TABLE sheet (hand integer PRIMARY KEY)")
        yield alias
        connections[alias].close()
    del connections.settings[alias]


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite settings only")
def test_sqlite_waits_for_the_write_lock_instead_of_failing(second_database):
    # Two phones enter a hand at the same moment: each reads the sheet, then writes
    # the next hand. The second waits for the first to commit and then reads the
    # sheet with the first one's hand on it: no "database is locked" (a 500 for the
    # player), and no hand numbered twice.
    alias = second_database
    holding = threading.Event()

    def next_hand():
        with connections[alias].cursor() as cursor:
            cursor.execute("SELECT COUNT(*) FROM sheet")
            (count,) = cursor.fetchone()
            cursor.execute("INSERT INTO sheet VALUES (%s)", [count + 1])

    def enter_slowly():
        with transaction.atomic(using=alias):
            next_hand()
            holding.set()
            time.sleep(HOLD)
        connections[alias].close()

    first = threading.Thread(target=enter_slowly)
    first.start()
    assert holding.wait(10)
    started = time.monotonic()
    with transaction.atomic(using=alias):
        next_hand()
    waited = time.monotonic() - started
    first.join()

    with connections[alias].cursor() as cursor:
        cursor.execute("SELECT hand FROM sheet ORDER BY hand")
        assert [hand for (hand,) in cursor.fetchall()] == [1, 2]
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone() == ("wal",)  # readers never wait for a writer
    assert waited >= HOLD / 2
