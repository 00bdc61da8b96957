"""A Celery worker keeps its PostgreSQL connection from task to task, as a web
process keeps it from request to request (CONN_MAX_AGE): Celery's own Django
fixup would close it around every task, and the next task would open a new one,
a new server process (config/celery.py)."""

import os
from types import SimpleNamespace

import pytest
from celery import signals
from celery.fixups.django import DjangoWorkerFixup
from django.db import connection

from config.celery import app

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="needs PostgreSQL (DATABASE_URL): SQLite's connection is never closed",
    ),
]


class Task:
    """A task as the worker runs it (not eagerly)."""

    request = SimpleNamespace(is_eager=False)


def run_task(fixup, task):
    """What a worker does around a task: the fixup's calls and the signals."""
    fixup.on_task_prerun(sender=task)
    signals.task_prerun.send(sender=task, task=task, task_id="t", args=(), kwargs={})
    with connection.cursor() as cursor:
        cursor.execute("select pg_backend_pid()")
        (pid,) = cursor.fetchone()
    fixup.on_task_postrun(sender=task)
    signals.task_postrun.send(sender=task, task=task, task_id="t", args=(), kwargs={})
    return pid


@pytest.fixture
def kept_for_a_minute():
    """The connection as compose.yaml's worker has it: kept 60 s, no pool."""
    connection.close()
    before = connection.settings_dict["CONN_MAX_AGE"], connection.settings_dict.get("OPTIONS")
    connection.settings_dict["CONN_MAX_AGE"] = 60
    connection.settings_dict["OPTIONS"] = {
        k: v for k, v in (before[1] or {}).items() if k != "pool"
    }
    yield
    connection.close()
    connection.settings_dict["CONN_MAX_AGE"], connection.settings_dict["OPTIONS"] = before


def test_one_connection_serves_task_after_task(kept_for_a_minute):
    fixup = DjangoWorkerFixup(app)
    task = Task()

    pids = {run_task(fixup, task) for _ in range(5)}

    assert len(pids) == 1


def test_a_connection_the_database_dropped_is_replaced_before_the_next_task(
    kept_for_a_minute,
):
    fixup = DjangoWorkerFixup(app)
    task = Task()
    first = run_task(fixup, task)
    with connection.cursor() as cursor:
        # (The database drops it: as a restart or an operator would.)
        cursor.execute("select 1")
    connection.connection.close()

    assert run_task(fixup, task) != first
