"""The Redis cache (`web.cache`): Django's, keeping one client per pool."""

import secrets

import pytest
from django.conf import settings

from web.cache import RedisCache

URL = settings.REDIS_URL or "redis://127.0.0.1:6379/12"


@pytest.fixture
def cache():
    import redis

    try:
        redis.Redis.from_url(URL, socket_connect_timeout=0.5).ping()
    except redis.RedisError:
        pytest.skip(f"no Redis at {URL}")
    # A prefix of its own, and only its own keys deleted: the Redis may be the
    # one the other tests' processes use at the same time.
    prefix = f"knock-test-cache-{secrets.token_hex(4)}"
    found = RedisCache(URL, {"KEY_PREFIX": prefix, "OPTIONS": {"socket_timeout": 1}})
    yield found
    found.delete_many(["a", "b", "n"])


def test_it_reads_and_writes_as_django_s_own(cache):
    cache.set("a", {"hand": 1}, 30)
    cache.set("n", 5, 30)

    assert cache.get("a") == {"hand": 1}
    assert cache.incr("n") == 6
    assert cache.get_many(["a", "n", "missing"]) == {"a": {"hand": 1}, "n": 6}
    with pytest.raises(ValueError):
        cache.incr("missing")
    assert cache.add("n", 1) is False


def test_every_call_shares_one_client_per_pool(cache):
    first = cache._cache.get_client("a", write=True)

    cache.set("b", 1, 30)
    cache.get("b")

    assert cache._cache.get_client("b", write=True) is first
    assert cache._cache.get_client("b") is first  # one server: reads use the same pool
