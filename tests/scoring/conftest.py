"""A live server for the concurrency tests, run the way production runs: requests
side by side, each on its own thread with its own database connection."""

import sqlite3
import threading
import traceback

import pytest
from django.core.signals import got_request_exception
from django.db import connections
from django.test.testcases import LiveServerThread


@pytest.fixture
def live_database(transactional_db, django_db_blocker, tmp_path):
    """A database that a server's own connections share with the test, committed
    as production commits: a transactional test.

    The default in-memory SQLite test database cannot be opened twice, so a live
    server would run every request on the test's one connection and nothing would
    really happen at the same time. On it, the test and the server get a WAL file
    instead, copied from the migrated test database; the rest of the suite keeps
    its fast in-memory database."""
    memory = connections["default"]
    if memory.vendor != "sqlite" or not memory.is_in_memory_db():
        yield
        return
    path = tmp_path / "knock.sqlite3"
    with django_db_blocker.unblock():
        memory.ensure_connection()
        copy = sqlite3.connect(path)
        memory.connection.backup(copy)
        copy.execute("PRAGMA journal_mode=WAL")
        copy.close()
        # Connections are made per thread from these settings: the server's threads
        # open the file too. The in-memory connection is put aside, not closed
        # (closing it would drop the suite's database).
        shared = connections.settings["default"]
        connections.settings["default"] = {**shared, "NAME": str(path)}
        connections["default"] = connections.create_connection("default")
        try:
            yield
        finally:
            connections["default"].close()
            connections.settings["default"] = shared
            connections["default"] = memory


class Meter:
    """Wraps the site to see what the server did: how many requests it ran at the
    same moment, and which database connection each request used."""

    def __init__(self, app):
        self.app = app
        self.lock = threading.Lock()
        self.running = 0
        self.peak = 0
        self.connections = []

    def __call__(self, environ, start_response):
        with self.lock:
            self.running += 1
            self.peak = max(self.peak, self.running)
            # Kept, not just counted, so that no two requests' objects share an id.
            self.connections.append(connections["default"])
        try:
            return self.app(environ, start_response)
        finally:
            with self.lock:
                self.running -= 1


@pytest.fixture
def live_site(live_database, settings):
    """A threaded server on its own port: one thread, and so one database
    connection, per request, closed when the request ends (what pytest-django's
    live_server does too, except that it shares an in-memory SQLite connection)."""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "127.0.0.1"]
    server = LiveServerThread("127.0.0.1", Meter, connections_override=None)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    if server.error:
        raise server.error
    server.url = f"http://127.0.0.1:{server.port}"
    server.meter = server.httpd.get_app()
    # A 500 page says nothing; the traceback says what broke.
    server.errors = []

    def record(sender, **kwargs):
        server.errors.append(traceback.format_exc())

    got_request_exception.connect(record)
    try:
        yield server
    finally:
        got_request_exception.disconnect(record)
        server.terminate()
