import os
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation
from hypothesis import Phase
from hypothesis import settings as hypothesis_settings

from tests.factories import OrganizerFactory
from tests.mutants_db import TEMPLATE

CHROMIUM = Path("/usr/bin/chromium")

# Under mutation testing (``make mutate`` names the mutant in MUTANT_UNDER_TEST) a
# property test only has to fail: shrinking the failing example to the smallest one
# would cost most of the run and tell nobody anything.
hypothesis_settings.register_profile(
    "mutation", phases=[Phase.explicit, Phase.reuse, Phase.generate], deadline=None
)
if os.environ.get("MUTANT_UNDER_TEST"):
    hypothesis_settings.load_profile("mutation")

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
    with the waiting, WAL and write lock the site itself runs on."""
    test = settings.DATABASES["default"].setdefault("TEST", {})
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3") and not test.get("NAME"):
        test["NAME"] = str(tmp_path_factory.mktemp("database") / "knock-test.sqlite3")


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


@pytest.fixture(autouse=True)
def tasks_in_process(request):
    """Tasks sent by a test (a round's pairing, a club's ratings) run in the test's
    process, even with a real broker: a worker could not see a test's uncommitted
    rows, and one still writing when a transactional test empties the database
    would stop it. Tests marked ``worker`` use the real worker."""
    from config.celery import app

    eager = app.conf.task_always_eager
    if "worker" not in request.keywords:
        app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = eager


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


@pytest.fixture(autouse=True)
def _public_pages_show_each_change_at_once(settings):
    """The public board moves on at most every PUBLIC_REFRESH_SECONDS (10 in
    production); tests look right after each change. tests/tournaments/public/
    test_refresh.py checks the wait itself."""
    settings.PUBLIC_REFRESH_SECONDS = 0


@pytest.fixture(autouse=True)
def _a_cache_of_its_own():
    """Each test starts with an empty cache. A transactional test resets the
    database's sequences, so a later test's club or tournament may get the same
    primary key, and a page cached for the earlier one would answer for it. With
    Redis, only the cache's own keys go: the broker's queues share the database."""
    from django.core.cache import cache

    backend = settings.CACHES["default"]["BACKEND"]
    if backend.endswith("RedisCache"):
        client = cache._cache.get_client(write=True)
        keys = list(client.scan_iter(match=f"{cache.key_prefix}:*", count=1000))
        if keys:
            client.delete(*keys)
    else:
        cache.clear()
