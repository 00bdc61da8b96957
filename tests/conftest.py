import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from django.conf import settings
from django.core.cache import cache
from django.core.management import sql
from django.core.management.commands import flush
from django.core.servers.basehttp import ThreadedWSGIServer
from django.test.testcases import LiveServerThread
from django.utils import translation
from hypothesis import Phase
from hypothesis import settings as hypothesis_settings

from notices import delivery
from tests.factories import OrganizerFactory
from tests.mutants_db import TEMPLATE
from tests.servers import Inbox, PushService, free_port, vapid_key

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parent.parent

# Under pytest-xdist every worker is a process of its own with a test database of its
# own (pytest-django adds the worker's name to it). What the workers would otherwise
# share on one Redis is made theirs here, before anything touches the cache: the
# cache's keys and the live streams' channel (both named by the key prefix, see
# live/streams.py), and the queue a real Celery worker takes tasks from. The
# environment carries the prefix to the servers a test starts as subprocesses.
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")

# Hashing a test user's password the way the site does (PBKDF2, a million rounds)
# costs half a second of CPU, and most tests make an organizer: the suite's users
# get a quick hash. Servers a test starts as processes of their own keep the site's.
settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
if os.environ.get("REDIS_URL"):
    prefix = f"{os.environ.get('CACHE_KEY_PREFIX', 'knock')}-test-{WORKER}-{os.getpid()}"
    os.environ["CACHE_KEY_PREFIX"] = prefix
    settings.CACHES["default"]["KEY_PREFIX"] = prefix


class _AnswerAtOnce(ThreadedWSGIServer):
    """The test servers' sockets send without waiting (TCP_NODELAY). Django's
    development server writes an answer's headers and its body in two sends; on a
    connection kept open (the browser's, schemathesis') the body then waits for the
    client's delayed acknowledgement of the headers, 40 ms an answer. gunicorn and
    uvicorn, which serve the site, set the same option. And they take a burst of
    connections at once, as gunicorn does: with the development server's queue of
    10 the kernel reset some of the concurrency tests' connections under load."""

    request_queue_size = 128

    def get_request(self):
        connection, address = super().get_request()
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return connection, address


LiveServerThread.server_class = _AnswerAtOnce

# What the migrations' post_migrate handlers make (a content type and the permissions
# of every model) and no test changes: kept when a transactional test's database is
# emptied, instead of deleted and made anew after every such test.
KEPT_BY_FLUSH = {"django_content_type", "auth_permission"}


def _flush_after_a_test(style, connection, reset_sequences=True, allow_cascade=False):
    """The statements that empty the database after a transactional test (Django's
    flush command, which TransactionTestCase runs). On PostgreSQL, TRUNCATE makes
    each table and its indexes new files, whether it held a row or not: 1.6-2.7 s
    after each browser test on this machine, against tenths for DELETE of the few
    rows such a test writes. DELETE would meet the append-only tables' triggers and
    check every foreign key, so it runs as a replica does, with neither (a
    superuser's right, as CI's PostgreSQL user has). A test that left a table of
    more than SMALL rows (the demo's) is emptied by TRUNCATE still, which is then
    quicker, and so is the database of any other user. Every table but the kept
    ones ends empty, as before; a flush asked to reset the sequences (tests/demo)
    is Django's own."""
    if reset_sequences or allow_cascade:
        return sql.sql_flush(
            style, connection, reset_sequences=reset_sequences, allow_cascade=allow_cascade
        )
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    tables = [table for table in tables if table not in KEPT_BY_FLUSH]
    quoted = [connection.ops.quote_name(table) for table in tables]
    if connection.vendor == "postgresql" and _few_rows_and_superuser(connection, quoted):
        # One statement of them all: one round trip, not one a table.
        deletes = "; ".join(f"DELETE FROM {table}" for table in quoted)
        return [
            "SET LOCAL session_replication_role = replica; "
            f"{deletes}; SET LOCAL session_replication_role = DEFAULT"
        ]
    return connection.ops.sql_flush(style, tables, reset_sequences=False, allow_cascade=False)


SMALL = 1000


def _few_rows_and_superuser(connection, tables) -> bool:
    large = " OR ".join(f"EXISTS (SELECT 1 FROM {table} OFFSET {SMALL})" for table in tables)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT current_setting('is_superuser') = 'on' AND NOT ({large})")
        return cursor.fetchone()[0]


flush.sql_flush = _flush_after_a_test

# Tests never assert on wall-clock time, and a busy machine is no failure: the
# property tests have no per-example deadline.
hypothesis_settings.register_profile("suite", deadline=None)
# Under mutation testing (``make mutate`` names the mutant in MUTANT_UNDER_TEST) a
# property test only has to fail: shrinking the failing example to the smallest one
# would cost most of the run and tell nobody anything.
hypothesis_settings.register_profile(
    "mutation", phases=[Phase.explicit, Phase.reuse, Phase.generate], deadline=None
)
hypothesis_settings.load_profile("mutation" if os.environ.get("MUTANT_UNDER_TEST") else "suite")

# The services' mutation run starts every run of the tests from a copy of one
# migrated database (tests/mutants_db.py), instead of migrating one each time.
if os.environ.get(TEMPLATE):
    from tests.mutants_db import django_db_setup  # noqa: F401


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    """SQLite's test database is a file, not Django's shared in-memory one. In
    memory, the live server's threads and the test share one connection, and a
    second connection meets table locks that fail at once ("database table is
    locked") instead of waiting. A file gives every thread its own connection
    with the waiting, WAL and write lock the site itself runs on. On PostgreSQL, the
    commits do not wait for the disk."""
    test = settings.DATABASES["default"].setdefault("TEST", {})
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3") and not test.get("NAME"):
        test["NAME"] = str(tmp_path_factory.mktemp("database") / "knock-test.sqlite3")
    # A test's commits need not outlive a crash of PostgreSQL: not waiting for each
    # to reach the disk took 0.49 ms a commit to 0.13 here. What another connection
    # sees, and the locks, are the same.
    if settings.DATABASES["default"]["ENGINE"].endswith("postgresql"):
        options = settings.DATABASES["default"].setdefault("OPTIONS", {})
        options["options"] = "-c synchronous_commit=off"


def pytest_collection_modifyitems(config, items):
    """Worker tests need a real broker; on the embedded default tasks run eagerly.
    Browser tests need Debian's Chromium; CI requires it (KNOCK_REQUIRE_BROWSER)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        skip = pytest.mark.skip(reason="tasks run eagerly here (no REDIS_URL)")
        for item in items:
            if "worker" in item.keywords:
                item.add_marker(skip)
    if not CHROMIUM.exists():
        if os.environ.get("KNOCK_REQUIRE_BROWSER"):
            raise pytest.UsageError(f"{CHROMIUM} is missing and the browser tests are required")
        skip = pytest.mark.skip(reason=f"{CHROMIUM} is not installed (apt-get install chromium)")
        for item in items:
            if "browser" in item.keywords:
                item.add_marker(skip)


@pytest.fixture(scope="session")
def celery_worker(django_db_setup, django_db_blocker):
    """A real Celery worker, another process, on this test process's own database
    and queue. Started once in each test process, by its first test that needs
    it, and stopped at the end; its log is printed when it does not come up."""
    from django.db import connection

    from config.celery import app

    database = connection.settings_dict["NAME"]
    queue = f"knock-test-{WORKER}-{os.getpid()}"
    app.conf.task_default_queue = queue
    env = {
        **os.environ,
        "DATABASE_URL": os.environ["DATABASE_URL"].rsplit("/", 1)[0] + f"/{database}",
        # Each task closes its connection, so the test database can be dropped at the end.
        "CONN_MAX_AGE": "0",
        # What the worker sends (the board after a pairing) comes back to it.
        "CELERY_TASK_DEFAULT_QUEUE": queue,
    }
    log = Path(os.environ.get("TMPDIR", "/tmp")) / f"{queue}.log"
    with open(log, "w") as out:
        worker = subprocess.Popen(
            [
                str(Path(sys.executable).parent / "celery"),
                "-A",
                "config",
                "worker",
                "--concurrency=2",
                "--loglevel=INFO",
                "-Q",
                queue,
                "-n",
                f"{queue}@%h",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 60
    while "ready." not in log.read_text():
        if worker.poll() is not None or time.monotonic() > deadline:
            worker.kill()
            pytest.fail("the Celery worker did not start:\n" + log.read_text()[-3000:])
        time.sleep(0.1)
    worker.node = f"{queue}@{socket.gethostname()}"
    worker.queue = queue
    yield worker
    worker.terminate()
    worker.wait(timeout=30)
    log.unlink(missing_ok=True)


@pytest.fixture(autouse=True)
def tasks_in_process(request):
    """Tasks sent by a test (a round's pairing, a club's ratings) run in the test's
    process, even with a real broker: a worker could not see a test's uncommitted
    rows, and one still writing when a transactional test empties the database
    would stop it. Tests marked ``worker`` use the real worker."""
    from config.celery import app

    eager = app.conf.task_always_eager
    worker = None
    if "worker" not in request.keywords:
        app.conf.task_always_eager = True
    elif not eager:
        worker = request.getfixturevalue("celery_worker")
    yield
    app.conf.task_always_eager = eager
    if worker is not None:
        _wait_until_idle(app, worker)


def _queued(app, queue) -> int:
    """Messages waiting in the queue: with Redis an empty queue has no key at all,
    which a passive declaration answers as not found."""
    from amqp.exceptions import ChannelError

    with app.connection_for_read() as connection:
        try:
            return connection.default_channel.queue_declare(queue, passive=True).message_count
        except ChannelError:
            return 0


def _wait_until_idle(app, worker, seconds=60):
    """Before a worker test's database is emptied, the worker has finished what the
    test sent it: a task still writing (the ratings' follow-up) held row locks that
    deadlocked with the emptying's TRUNCATE."""
    inspect = app.control.inspect(destination=[worker.node], timeout=1)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        queued = _queued(app, worker.queue)
        # A worker too busy to answer within the second counts as busy.
        answers = [inspect.active(), inspect.reserved(), inspect.scheduled()]
        unanswered = any(worker.node not in (found or {}) for found in answers)
        busy = [task for found in answers for task in (found or {}).get(worker.node, [])]
        if not queued and not busy and not unanswered:
            return
        time.sleep(0.1)
    pytest.fail(f"the Celery worker was still busy after {seconds} s: {busy}")


@pytest.fixture(autouse=True)
def _site_language_after_each_test():
    """A request in German leaves German active in the thread (the locale middleware
    does not switch back), so the next test that calls a service would read German."""
    yield
    translation.deactivate()


@pytest.fixture
def organizer(client, db):
    """An organizer of a club, logged in as "director"."""
    membership = OrganizerFactory(player__user__username="director")
    client.force_login(membership.player.user)
    return membership


@pytest.fixture
def sent_twice(client):
    """Opens an organizer's create form (the page at ``page``) and sends it twice
    with the one-time key the page gave it, as a double click or the browser's
    resend does (to ``action``, else back to the page). ``data`` may be a function
    of no arguments, for a file that a post reads up. Returns both answers."""

    def send(page, data, action=None):
        found = re.search(r'name="form_key" value="([^"]+)"', client.get(page).text)
        assert found, "the form carries no key"
        fields = data if callable(data) else lambda: data
        return [
            client.post(action or page, {**fields(), "form_key": found.group(1)}) for _ in (1, 2)
        ]

    return send


def messages_after(client, response) -> list[str]:
    """The messages the page a redirect leads to shows."""
    return [str(m) for m in client.get(response["Location"]).context["messages"]]


@pytest.fixture(autouse=True)
def _public_pages_show_each_change_at_once(settings):
    """The public board is built at most every PUBLIC_REFRESH_SECONDS (10 in
    production); tests look right after each change (eager tasks build at once
    anyway). tests/tournaments/test_stored_board.py checks the countdown itself."""
    settings.PUBLIC_REFRESH_SECONDS = 0


@pytest.fixture
def smtp(settings):
    """Django sends through a real SMTP server on a free port: the notices, and the
    account mails (sign-up, invitations), also those the live server sends."""
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = controller.port
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_TIMEOUT = 5
    # A dead server an earlier test left on this port number is not this one.
    cache.delete(delivery.down_key())
    yield inbox
    controller.stop()


@pytest.fixture
def dead_smtp(settings):
    """A mail server that is down: nothing listens on its port."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = free_port()
    settings.EMAIL_TIMEOUT = 5


@pytest.fixture
def vapid(settings):
    """The site's VAPID key, made for the test: push is on."""
    settings.VAPID_PRIVATE_KEY = vapid_key()
    settings.VAPID_SUBJECT = "mailto:club@example.org"
    return settings.VAPID_PRIVATE_KEY


@pytest.fixture
def push_service(settings):
    """The push service, over plain HTTP on this machine: allowed for the test."""
    settings.PUSH_ENDPOINTS_HTTPS_ONLY = False
    service = PushService()
    yield service
    service.stop()


def cache_keys(containing: str = "") -> set[str]:
    """The keys this test process has in the cache (as stored: prefix and version
    included), on either backend; with Redis only its own."""
    from django.core.cache import cache

    if settings.CACHES["default"]["BACKEND"].endswith("RedisCache"):
        client = cache._cache.get_client(write=True)
        match = f"{cache.key_prefix}:*{containing}*"
        return {key.decode() for key in client.scan_iter(match=match, count=1000)}
    return {key for key in cache._cache if containing in key}


def clear_cache():
    """Empties the cache of this test process. With Redis only its own keys go
    (cache.clear() would empty the whole database: the other processes' keys and
    the broker's queues)."""
    from django.core.cache import cache

    if settings.CACHES["default"]["BACKEND"].endswith("RedisCache"):
        keys = cache_keys()
        if keys:
            cache._cache.get_client(write=True).delete(*keys)
    else:
        cache.clear()


@pytest.fixture(autouse=True)
def _a_cache_of_its_own():
    """Each test starts with an empty cache. A transactional test resets the
    database's sequences, so a later test's club or tournament may get the same
    primary key, and a page cached for the earlier one would answer for it."""
    clear_cache()
