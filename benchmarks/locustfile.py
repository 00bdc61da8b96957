"""One page under load: ``BENCH_PATH`` (see benchmarks/public.py)."""

import os

from locust import HttpUser, constant, task


class Reader(HttpUser):
    wait_time = constant(0)

    @task
    def read(self):
        self.client.get(os.environ["BENCH_PATH"], name="page")
