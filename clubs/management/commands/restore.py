"""The database replaced by a backup that `manage.py backup` made; or, with
--into, another database filled from it (a drill, or a copy to look at)."""

from pathlib import Path

import dj_database_url
from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.utils import load_backend

from clubs.backups import BackupError, backup_restore, engine_of

#: The connection a restore --into opens, for as long as the restore lasts.
INTO = "restore-into"


class Command(BaseCommand):
    help = (
        "Replace the database with a backup made by `manage.py backup` (stop the site "
        "first), or fill another database from it with --into."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the backup file")
        parser.add_argument(
            "--into",
            metavar="DATABASE_URL",
            help="restore into this database instead of the site's (same kind: SQLite or "
            "PostgreSQL; a PostgreSQL one must exist)",
        )
        parser.add_argument(
            "--noinput", "--no-input", action="store_false", dest="interactive", default=True
        )

    def handle(self, *args, file, into=None, interactive=True, **options):
        alias = DEFAULT_DB_ALIAS
        if into:
            try:
                parsed = dj_database_url.parse(into)
            except ValueError as error:
                raise CommandError(f"--into is no database address: {error}") from None
            # A connection of this command's own, not one of the settings' databases.
            # (Django fills in a connection's defaults only for a set with a default.)
            filled = connections.configure_settings({DEFAULT_DB_ALIAS: parsed})[DEFAULT_DB_ALIAS]
            try:
                engine_of(filled)
            except BackupError as error:
                raise CommandError(f"Nothing restored: {error}") from None
            connections[INTO] = load_backend(filled["ENGINE"]).DatabaseWrapper(filled, INTO)
            alias = INTO
        name = connections[alias].settings_dict["NAME"]
        if interactive:
            answer = input(
                f"Every row of the database {name} is replaced by {file}.\nType 'yes' to go on: "
            )
            if answer != "yes":
                raise CommandError("Nothing restored.")
        try:
            backup_restore(file=Path(file), alias=alias)
        except BackupError as error:
            raise CommandError(f"Nothing restored: {error}") from None
        finally:
            if alias == INTO:
                connections[INTO].close()
                del connections[INTO]
        self.stdout.write(f"Restored {name} from {file}.")
