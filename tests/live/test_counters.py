"""The counters a commit moves (live/counters.py), as the streams hear them: the
same numbers and the same messages whether they are moved one by one (the
embedded default: the process's memory) or all in one trip to Redis, the cache
and the channel on one server. Each test runs on both."""

import logging
import os

import pytest
import redis
from django.core.cache import cache
from django.db import transaction

from live import counters, streams
from tests.live.test_streams import REDIS_TEST_URL, redis_up

pytestmark = pytest.mark.django_db

#: A fresh start, the same on either way (`counters.fresh_start` is the clock's).
START = 1_764_400_000_123_456_789


def redis_cache(location: str, prefix: str) -> dict:
    return {
        "default": {
            "BACKEND": "web.cache.RedisCache",
            "LOCATION": location,
            "KEY_PREFIX": prefix,
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }


class Heard:
    """What the streams are told: by this process's memory, or through Redis
    publish/subscribe (a subscriber of the channel, as a `live` process is)."""

    def __init__(self, monkeypatch, way):
        self.way = way
        self.told = []
        if way == "memory":
            monkeypatch.setattr(streams.hub, "deliver", lambda k, v: self.told.append((k, v)))
        else:
            self.pubsub = redis.Redis.from_url(REDIS_TEST_URL).pubsub(
                ignore_subscribe_messages=True
            )
            self.pubsub.subscribe(streams.channel())
            self.pubsub.get_message(timeout=5)  # the subscription's confirmation

    def all(self, count: int) -> list[tuple[str, int]]:
        """The first ``count`` messages heard; then nothing more for a while."""
        if self.way == "redis":
            while len(self.told) < count:
                message = self.pubsub.get_message(timeout=5)
                assert message is not None, f"heard only {self.told}"
                value, _, key = message["data"].decode().partition(" ")
                self.told.append((key, int(value)))
            assert self.pubsub.get_message(timeout=0.2) is None
        return self.told

    def close(self):
        if self.way == "redis":
            self.pubsub.close()


@pytest.fixture(params=["memory", "redis"])
def heard(request, settings, monkeypatch):
    """The counters in the process's memory, told in memory (no REDIS_URL); or in
    Redis (db 12), told on the channel of the same server."""
    yield from hearing(request.param, request, settings, monkeypatch)


@pytest.fixture
def heard_through_redis(request, settings, monkeypatch):
    yield from hearing("redis", request, settings, monkeypatch)


def hearing(way, request, settings, monkeypatch):
    monkeypatch.setattr(counters, "fresh_start", lambda: START)
    if way == "redis":
        if not redis_up():
            pytest.skip("no Redis at 127.0.0.1:6379")
        settings.REDIS_URL = REDIS_TEST_URL
        prefix = f"counters-test-{os.getpid()}-{request.node.name}"
        settings.CACHES = redis_cache(REDIS_TEST_URL, prefix)
    else:
        settings.REDIS_URL = ""
        settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    found = Heard(monkeypatch, way)
    yield found
    found.close()
    cache.clear() if way == "memory" else cache.delete_many(["a", "b", "c"])


def test_a_commits_counters_move_as_one_by_one_and_are_heard_in_order(
    heard, django_capture_on_commit_callbacks
):
    cache.set("a", 5, None)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        counters.bump_after_commit("a")
        counters.bump_after_commit("b", 60)  # never moved: a fresh start
        counters.bump_after_commit("a")
        counters.bump_after_commit("c")
        assert (heard.told, cache.get("a")) == ([], 5)  # not before the commit
    assert heard.all(4) == [("a", 6), ("b", START), ("a", 7), ("c", START)]
    assert cache.get_many(["a", "b", "c"]) == {"a": 7, "b": START, "c": START}
    if heard.way == "redis":  # a fresh start kept for its timeout, or for good
        client = cache._cache.get_client(write=True)
        ttl = {key: client.ttl(cache.make_and_validate_key(key)) for key in "abc"}
        assert ttl["a"] == ttl["c"] == -1
        assert 0 < ttl["b"] <= 60


def test_a_savepoint_rolled_back_moves_none_of_its_counters(
    heard, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        counters.bump_after_commit("a")
        with transaction.atomic():
            counters.bump_after_commit("b")
            transaction.set_rollback(True)
        counters.bump_after_commit("c")
    assert heard.all(2) == [("a", START), ("c", START)]
    assert cache.get("b") is None


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_a_counter_moves_at_once(heard):
    counters.bump_after_commit("a")
    assert heard.all(1) == [("a", START)]
    assert counters.move([("a", None), ("b", 60)]) == [START + 1, START]
    assert heard.all(3)[1:] == [("a", START + 1), ("b", START)]


def test_the_boards_counter_keeps_its_order_move_ready_told(heard):
    cache.set("a", 5, None)

    def ready(number):
        assert (cache.get("a"), heard.told) == (number, [])

    assert counters.bump("a", ready=ready) == 6
    assert heard.all(1) == [("a", 6)]


def test_what_a_commit_tells_is_gathered_once_each_after_the_moves(
    heard, django_capture_on_commit_callbacks
):
    calls = []

    def broken(items):
        raise RuntimeError("a callback's bug")

    def told(items):
        calls.append((items, list(heard.all(2))))

    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        counters.gather_after_commit(broken, 1)
        counters.gather_after_commit(told, ("party", 1))
        counters.bump_after_commit("a")
        counters.gather_after_commit(told, ("scores", 2))
        counters.gather_after_commit(told, ("party", 1))  # once
        counters.bump_after_commit("b")
        assert calls == []
    # Once, with every item, after the counters moved; the broken one stopped nothing.
    assert calls == [([("party", 1), ("scores", 2)], [("a", START), ("b", START)])]


def test_a_transaction_rolled_back_moves_and_tells_nothing(
    heard, django_capture_on_commit_callbacks
):
    calls = []
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        counters.bump_after_commit("a")
        counters.gather_after_commit(calls.append, "x")
        transaction.set_rollback(True)
    assert (calls, heard.all(0), cache.get("a")) == ([], [], None)


@pytest.mark.parametrize("one_trip", [True, False])
def test_with_the_cache_down_a_commit_moves_nothing_and_still_tells(
    one_trip, settings, caplog, django_capture_on_commit_callbacks
):
    """Nothing listens at port 1. In one trip (the channel on the cache's server)
    or one by one, the moves are logged as lost and the rest goes on."""
    down = "redis://127.0.0.1:1/0"
    settings.CACHES = redis_cache(down, "down")
    settings.REDIS_URL = down if one_trip else ""
    calls = []
    with (
        caplog.at_level(logging.WARNING, logger="live.counters"),
        django_capture_on_commit_callbacks(execute=True),
        transaction.atomic(),
    ):
        counters.bump_after_commit("a")
        counters.bump_after_commit("b", 60)
        counters.gather_after_commit(calls.append, "x")
    assert calls == [["x"]]
    assert "cache unavailable" in caplog.text
    assert counters.move([("a", None)]) == [None]


def test_with_redis_a_commits_counters_move_in_one_trip(
    heard_through_redis, monkeypatch, django_capture_on_commit_callbacks
):
    heard = heard_through_redis
    counters.move([])  # the script is known to Redis from now on
    client = cache._cache.get_client(write=True)
    trips = []
    sent = client.execute_command
    monkeypatch.setattr(
        client, "execute_command", lambda *a, **k: trips.append(a[0]) or sent(*a, **k)
    )
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        for key in "abc":
            counters.bump_after_commit(key, 60)
    assert trips == ["EVALSHA"]
    assert heard.all(3) == [("a", START), ("b", START), ("c", START)]
