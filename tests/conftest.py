import pytest
from django.conf import settings


def pytest_collection_modifyitems(config, items):
    """Worker tests need a real broker; on the embedded default tasks run eagerly."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        skip = pytest.mark.skip(reason="tasks run eagerly here (no REDIS_URL)")
        for item in items:
            if "worker" in item.keywords:
                item.add_marker(skip)
