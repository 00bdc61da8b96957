"""Bring back a tournament or a club night from a JSON archive made by
export_archive (or downloaded from the API)."""

from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club
from tournaments.archive.refusals import archive_loads
from tournaments.archive.restore import archive_import


class Command(BaseCommand):
    help = "Import a tournament or club night from a JSON archive."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--club", help="the club's short name to import into")

    def handle(self, *, file, club=None, **options):
        target = None
        if club:
            target = Club.objects.filter(slug=club).first()
            if target is None:
                raise CommandError(f"There is no club {club!r}.")
        try:
            with open(file, "rb") as handle:
                data = archive_loads(handle.read())
            made = archive_import(data=data, club=target)
        except (OSError, ValueError, RecursionError) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Imported {made} into {made.club}.")
