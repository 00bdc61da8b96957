import pytest
from django.conf import settings
from django.db import connection


@pytest.mark.django_db
@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite settings only")
def test_sqlite_waits_for_the_write_lock_instead_of_failing():
    options = settings.DATABASES["default"]["OPTIONS"]
    assert options["transaction_mode"] == "IMMEDIATE"
    assert options["timeout"] >= 20
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        mode = cursor.fetchone()[0]
    # The test database lives in memory unless SQLITE_TEST_PATH names a file.
    assert mode in ("wal", "memory")
