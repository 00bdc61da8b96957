"""An outside probe for `make load`: one plain client in a thread of the test's
own process (not the load generator's), asking a few pages one at a time while
the load runs. It measures what the site answers under load without the load
generator's own waits: on 2026-11-28 locust timed a public page at 2–3 s that this
probe, in the same run, was answered in 10–50 ms."""

from __future__ import annotations

import threading
import time
import urllib.request

from benchmarks.load_figures import percentile

#: Seconds between two rounds of the probe's asks.
EVERY = 0.5


class Probe:
    def __init__(self, site: str, paths: dict[str, str]):
        self.site, self.paths = site, paths
        self.times: dict[str, list[float]] = {label: [] for label in paths}
        self.errors = 0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.done.wait(EVERY):
            for label, path in self.paths.items():
                request = urllib.request.Request(
                    self.site + path, headers={"X-Forwarded-Proto": "https"}
                )
                started = time.perf_counter()
                try:
                    with urllib.request.urlopen(request, timeout=30) as response:
                        response.read()
                except OSError:  # an HTTP error too: counted, not timed
                    self.errors += 1
                    continue
                self.times[label].append((time.perf_counter() - started) * 1000)

    def stop(self) -> None:
        self.done.set()
        self.thread.join(35)
        parts = [
            f"{label} p50 {percentile(t, 0.5):.0f} / p95 {percentile(t, 0.95):.0f} ms"
            for label, t in self.times.items()
        ]
        print(
            f"    an outside probe (one request at a time, every {EVERY} s, not through "
            f"locust): {'; '.join(parts)}; errors {self.errors}"
        )
