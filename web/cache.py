"""Django's Redis cache with one Redis client per connection pool, not one per
call: Django makes a new `redis.Redis` for every get, set and incr, and redis-py
fills each new client's table of reply callbacks (some 200 entries), 0.18 ms of
processor time here, twice the time of the read itself. A seat page reads the
cache two or three times, every stream's opening and every task too. A client
over a pool is safe to share between threads (each command takes a connection
from the pool), and Django's caches are one per thread anyway."""

from django.core.cache.backends.redis import RedisCache as _DjangosRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class _KeptClients(RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(_DjangosRedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _KeptClients
