"""Copies of the whole database, kept in a directory for as long as the operator
says, and one brought back in place of the database (docs/operators.md, "Backups and restores").

SQLite is copied with its online backup API: a consistent copy while the site
goes on writing. PostgreSQL is copied by ``pg_dump`` in its custom format and
brought back by ``pg_restore`` in one transaction, so a restore that fails leaves
the database as it was. A backup is written under a temporary name and renamed
once whole: a copy cut short is never taken for a backup.

What a restore does besides the rows: each app above clubs that keeps something
outside the database, or something the restored rows must not do again, registers
a step with `after_restore` (notices: nothing waiting is sent twice). A restore
into the site's own database also forgets the shared cache, whose counters and
boards describe the data as it was before."""

from __future__ import annotations

import datetime
import os
import re
import shutil
import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db import DEFAULT_DB_ALIAS, connections

#: A backup's file name: when it was made (UTC) and what made it.
NAME = re.compile(r"^knock-(\d{8}T\d{6}Z)\.(sqlite3|pgdump)$")
STAMP = "%Y%m%dT%H%M%SZ"
SUFFIX = {"sqlite": "sqlite3", "postgresql": "pgdump"}


class BackupError(Exception):
    """A backup or restore that could not be made, with what to do about it."""


_steps: list[Callable[[str], None]] = []


def after_restore(step: Callable[[str], None]) -> None:
    """``step(alias)`` runs after every restore, on the restored database's
    connection alias."""
    if step not in _steps:
        _steps.append(step)


def engine_of(settings_dict: dict) -> str:
    engine = settings_dict["ENGINE"]
    if engine.endswith("sqlite3"):
        return "sqlite"
    if engine.endswith("postgresql"):
        return "postgresql"
    raise BackupError(f"Backups are made of SQLite and PostgreSQL databases, not {engine}.")


# --------------------------------------------------------------------------- backing up


def backup_make(*, directory: Path, now: datetime.datetime, alias: str = DEFAULT_DB_ALIAS) -> Path:
    """A copy of the database in ``directory``, named by ``now`` (UTC)."""
    settings_dict = connections[alias].settings_dict
    engine = engine_of(settings_dict)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"knock-{now.astimezone(datetime.UTC):{STAMP}}.{SUFFIX[engine]}"
    partial = path.with_name(path.name + ".partial")
    try:
        if engine == "sqlite":
            _sqlite_copy(settings_dict["NAME"], partial)
        else:
            _run(
                "pg_dump",
                ["--format=custom", f"--file={partial}", settings_dict["NAME"]],
                settings_dict,
            )
        partial.rename(path)
    finally:
        partial.unlink(missing_ok=True)
    return path


def backups_prune(*, directory: Path, now: datetime.datetime, keep_days: int, keep_copies: int):
    """The backups removed: those older than ``keep_days`` days, the newest
    ``keep_copies`` always kept (backups that stopped never leave none). Only
    files named as backups are looked at."""
    found = sorted(
        (
            (datetime.datetime.strptime(match[1], STAMP).replace(tzinfo=datetime.UTC), path)
            for path in directory.iterdir()
            if (match := NAME.match(path.name))
        ),
        reverse=True,
    )
    oldest_kept = now - datetime.timedelta(days=keep_days)
    removed = [path for made, path in found[keep_copies:] if made < oldest_kept]
    for path in removed:
        path.unlink(missing_ok=True)
    return removed


def _sqlite_copy(source: str, target: Path) -> None:
    with sqlite3.connect(source, timeout=30) as reading, sqlite3.connect(target) as writing:
        reading.backup(writing)
    reading.close()
    writing.close()


# --------------------------------------------------------------------------- restoring


def backup_restore(*, file: Path, alias: str = DEFAULT_DB_ALIAS) -> None:
    """The database of ``alias`` replaced by the backup in ``file``, then every
    registered step run on it. The file is checked before anything is replaced."""
    connection = connections[alias]
    settings_dict = connection.settings_dict
    engine = engine_of(settings_dict)
    if not file.is_file():
        raise BackupError(f"There is no file {file}.")
    made_by = {"sqlite3": "sqlite", "pgdump": "postgresql"}.get(file.suffix.lstrip("."))
    if made_by != engine:
        raise BackupError(
            f"{file.name} is not a backup of a {engine} database "
            "(a backup is restored into a database of the kind it was made from)."
        )
    if engine == "sqlite":
        _sqlite_check(file)
        connection.close()
        _sqlite_copy(str(file), Path(settings_dict["NAME"]))
    else:
        _run("pg_restore", ["--list", str(file)], settings_dict)
        connection.close()
        _run(
            "pg_restore",
            [
                "--clean",
                "--if-exists",
                "--no-owner",
                "--no-privileges",
                "--single-transaction",
                "--exit-on-error",
                f"--dbname={settings_dict['NAME']}",
                str(file),
            ],
            settings_dict,
        )
    for step in _steps:
        step(alias)
    if alias == DEFAULT_DB_ALIAS:
        cache_forget()


def _sqlite_check(file: Path) -> None:
    try:
        with sqlite3.connect(f"file:{file}?mode=ro", uri=True) as reading:
            ok = reading.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            knock = reading.execute(
                "SELECT count(*) FROM sqlite_master WHERE name = 'django_migrations'"
            ).fetchone()[0]
        reading.close()
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{file.name} is not a SQLite database: {error}.") from None
    if not ok:
        raise BackupError(f"{file.name} is damaged (SQLite's integrity check failed).")
    if not knock:
        raise BackupError(f"{file.name} holds no Knock database.")


def cache_forget() -> None:
    """The shared cache's entries dropped: its counters start again above every
    number they reached (live.counters), so each open page fetches the restored
    state, and no board or page built from the data before the restore is shown.
    On Redis only the cache's own keys go (the Celery broker shares the server)."""
    cache = caches["default"]
    if isinstance(cache, RedisCache):
        # Django's Redis cache has no "delete by prefix": its client does.
        client = cache._cache.get_client(write=True)
        for key in client.scan_iter(match=f"{cache.key_prefix}:*", count=1000):
            client.delete(key)
    else:
        cache.clear()


def _run(program: str, arguments: list[str], settings_dict: dict) -> None:
    if shutil.which(program) is None:
        raise BackupError(
            f"{program} is not installed: install PostgreSQL's client programs, "
            "of the same major version as the server or newer."
        )
    options = settings_dict.get("OPTIONS", {})
    env = {
        **os.environ,
        "PGHOST": str(settings_dict.get("HOST") or ""),
        "PGPORT": str(settings_dict.get("PORT") or ""),
        "PGUSER": str(settings_dict.get("USER") or ""),
        "PGPASSWORD": str(settings_dict.get("PASSWORD") or ""),
    }
    if options.get("sslmode"):
        env["PGSSLMODE"] = str(options["sslmode"])
    done = subprocess.run([program, *arguments], env=env, capture_output=True, text=True)
    if done.returncode:
        reason = done.stderr.strip() or f"{program} ended with {done.returncode}"
        raise BackupError(f"{program} failed: {reason}")
