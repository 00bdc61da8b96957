"""Speed measurements, run with ``python -m benchmarks`` (``make bench``)."""

import atexit
import functools
import os
import shutil
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
        path = os.path.join(folder, "bench.sqlite3")
        fresh_database(path)
        env = {
            **os.environ,
            "SQLITE_PATH": path,
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


def fresh_database(path: str) -> None:
    """A freshly migrated SQLite file at ``path``: a copy of one migrated once a run.
    Migrating takes some 5 s of a core, and five benchmarks start on a fresh file."""
    shutil.copyfile(_migrated(), path)


@functools.cache
def _migrated() -> str:
    folder = tempfile.mkdtemp(prefix="knock-bench-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    path = os.path.join(folder, "migrated.sqlite3")
    env = {**os.environ, "SQLITE_PATH": path, "DJANGO_SETTINGS_MODULE": "config.settings"}
    env.pop("DATABASE_URL", None)
    # Closed before the process ends, so that the write-ahead log is in the file.
    migrate = (
        "import django; django.setup(); from django.core.management import call_command; "
        "from django.db import connections; call_command('migrate', verbosity=0); "
        "connections.close_all()"
    )
    subprocess.run([sys.executable, "-c", migrate], cwd=ROOT, env=env, check=True)
    if os.path.exists(f"{path}-wal"):
        raise RuntimeError(f"{path}: the write-ahead log was left beside the file")
    return path
