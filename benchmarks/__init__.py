"""Speed measurements, run with ``python -m benchmarks`` (``make bench``)."""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def in_own_process(module: str, *, without_redis: bool = False) -> None:
    """Runs ``python -m <module> measure`` in a process of its own, on a fresh
    SQLite file: another benchmark may have set Django up on its own database.
    ``without_redis``: the in-process cache and streams, as a laptop runs them."""
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **os.environ,
            "SQLITE_PATH": os.path.join(folder, "bench.sqlite3"),
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }
        env.pop("DATABASE_URL", None)
        if without_redis:
            env.pop("REDIS_URL", None)
        subprocess.run([sys.executable, "-m", module, "measure"], cwd=ROOT, env=env, check=True)


def migrated() -> None:
    """Django set up on the benchmark's fresh database, migrated."""
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
