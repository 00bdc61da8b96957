"""Background work for clubs. Tasks are thin: they take ids and call services."""

import os
import socket

from celery import shared_task
from django.core.cache import cache
from django.utils import timezone

HEARTBEAT_KEY = "worker-heartbeat"


@shared_task
def heartbeat() -> dict:
    """Records that a worker is alive (beat runs it every minute; /health/ reads it)."""
    beat = {
        "host": socket.gethostname(),
        "pid": os.getpid(),
        "at": timezone.now().isoformat(),
    }
    cache.set(HEARTBEAT_KEY, beat, timeout=None)
    return beat
