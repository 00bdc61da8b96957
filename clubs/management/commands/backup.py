"""A copy of the whole database in BACKUP_DIR, and the backups past their time
removed (clubs/backups.py; docker/compose.yaml runs it on a schedule)."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from clubs.backups import BackupError, backup_make, backups_prune


class Command(BaseCommand):
    help = (
        "Back up the database into BACKUP_DIR, then remove the backups older than "
        "BACKUP_KEEP_DAYS days (the newest BACKUP_KEEP_COPIES are always kept)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--dir", help="the directory to write to (default: BACKUP_DIR)")

    def handle(self, *args, dir=None, **options):
        directory = Path(dir) if dir else settings.BACKUP_DIR
        now = timezone.now()
        try:
            path = backup_make(directory=directory, now=now)
        except (BackupError, OSError) as error:
            raise CommandError(f"No backup made: {error}") from None
        removed = backups_prune(
            directory=directory,
            now=now,
            keep_days=settings.BACKUP_KEEP_DAYS,
            keep_copies=settings.BACKUP_KEEP_COPIES,
        )
        self.stdout.write(f"Backed up to {path} ({path.stat().st_size:,} bytes).")
        for old in removed:
            self.stdout.write(f"Removed {old.name}.")
