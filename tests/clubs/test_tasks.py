import os

import pytest
from django.core.cache import cache

from clubs.tasks import HEARTBEAT_KEY, heartbeat


def test_heartbeat_records_the_worker_in_the_cache():
    cache.delete(HEARTBEAT_KEY)
    result = heartbeat.delay().get(timeout=30)
    assert cache.get(HEARTBEAT_KEY) == result
    assert result["pid"] > 0


@pytest.mark.worker
def test_task_runs_on_a_separate_worker_process():
    """With REDIS_URL set, .delay() goes through Redis to a real worker."""
    cache.delete(HEARTBEAT_KEY)
    result = heartbeat.delay().get(timeout=60)
    assert result["pid"] != os.getpid()
    assert cache.get(HEARTBEAT_KEY) == result
