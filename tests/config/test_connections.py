"""PostgreSQL keeps enough connections free under the operators' guide's threaded server:
many requests, each on a new thread, leave no connection open behind them. (With
connections kept for 60 s, this run ended in "too many clients": each finished
thread's connection stayed open until the garbage collector found it.)"""

import os
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.request import urlopen

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent.parent
REQUESTS = 240

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="needs PostgreSQL (DATABASE_URL)",
    ),
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def open_connections(database: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            [database],
        )
        return cursor.fetchone()[0]


def serve(database: str) -> tuple[subprocess.Popen, str]:
    """runserver on the test's database, in the server's own environment as the
    operators' guide starts it (connections not kept: each request's from the pool)."""
    env = {key: value for key, value in os.environ.items() if key != "CONN_MAX_AGE"}
    env["DATABASE_URL"] = os.environ["DATABASE_URL"].rsplit("/", 1)[0] + f"/{database}"
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    site = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            urlopen(site + "/", timeout=10).read()
            return server, site
        except OSError:
            if time.monotonic() > deadline:
                server.terminate()
                raise AssertionError("runserver did not answer within a minute") from None
            time.sleep(0.2)


def test_a_threaded_server_leaves_no_connections_open_behind_its_requests():
    database = connection.settings_dict["NAME"]
    before = open_connections(database)
    server, site = serve(database)
    try:
        home = site + "/"

        def visit(_):
            with urlopen(home, timeout=60) as response:
                return response.status

        with ThreadPoolExecutor(20) as pool:
            assert set(pool.map(visit, range(REQUESTS))) == {200}

        assert open_connections(database) - before <= 2
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_pooled_connection_the_database_dropped_is_replaced_not_handed_to_a_request():
    """The pool's idle connections, ended by the database (a restart, an
    administrator's cleanup): the next requests get fresh ones and answer."""
    database = connection.settings_dict["NAME"]
    server, site = serve(database)
    try:

        def health(_=None) -> int:
            with urlopen(site + "/health/", timeout=30) as response:
                return response.status

        with ThreadPoolExecutor(4) as pool:
            assert set(pool.map(health, range(8))) == {200}
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = %s AND pid <> pg_backend_pid()",
                [database],
            )
            assert cursor.fetchone()[0] >= 1
        assert [health() for _ in range(4)] == [200] * 4
    finally:
        server.terminate()
        server.wait(timeout=30)
