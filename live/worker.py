"""The gunicorn worker of `live` (docker/compose.yaml, `make load`): uvicorn's,
set for thousands of streams on one event loop. py-spy on a worker holding a
crowd of 10,000 found its loop's time in uvicorn's h11 writing the events (30 %)
and in its check of each opening's proxy headers (12 %), until gunicorn killed
the worker for a missed heartbeat.

- httptools parses and writes HTTP in C, where h11 does it in Python.
- uvicorn leaves the proxy's headers alone: Django reads them itself behind the
  proxy (``BEHIND_PROXY``: ``SECURE_PROXY_SSL_HEADER``, `web.client`), so the
  check of every opening bought nothing.

The heartbeat is gunicorn's ``--timeout``, set in the command (120 s there): the
worker says it lives from its event loop, every half of it, so a loop that only
lags under a crowd's opening is not killed with all its streams, and a stuck
one still is."""

from uvicorn_worker import UvicornWorker


class StreamWorker(UvicornWorker):
    CONFIG_KWARGS = {"loop": "asyncio", "http": "httptools", "proxy_headers": False}
