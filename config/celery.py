"""The Celery app. With no REDIS_URL, tasks run eagerly in the calling process."""

import os

from celery import Celery, signals
from django.db import close_old_connections

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("knock")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# The final's tasks live with the final (tournaments/final/), not in the app's tasks.py.
app.autodiscover_tasks(["tournaments.final"])

# Celery's Django fixup closes every database connection before and after each
# task unless told to reuse them: the worker then opened a new PostgreSQL
# connection, a new server process, for every task (8 % of its time under `make
# load`'s 500 tables, where a party's every change is a task). They are kept as
# Django keeps a request's (CONN_MAX_AGE, or the pool), and checked before and
# after each task as around a request: one the database dropped is replaced.
app.conf.CELERY_DB_REUSE_MAX = 1000


@signals.task_prerun.connect
@signals.task_postrun.connect
def _as_around_a_request(**kwargs) -> None:
    if not getattr(kwargs["task"].request, "is_eager", False):
        close_old_connections()
