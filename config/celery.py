"""The Celery app. With no REDIS_URL, tasks run eagerly in the calling process."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("knock")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# The final's tasks live with the final (tournaments/final/), not in the app's tasks.py.
app.autodiscover_tasks(["tournaments.final"])
