"""Write a tournament (by its short name) or a club night (by its id) as one JSON
archive, to a file or to standard output."""

import json

from django.core.management.base import BaseCommand, CommandError
from django.core.serializers.json import DjangoJSONEncoder

from clubs.models import ClubNight
from tournaments.archive.export import night_export, tournament_export
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Export a tournament or a club night as a JSON archive."

    def add_arguments(self, parser):
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--tournament", help="the tournament's short name (slug)")
        which.add_argument("--night", type=int, help="the club night's id")
        parser.add_argument("--output", "-o", help="file to write (default: standard output)")

    def handle(self, *, tournament=None, night=None, output=None, **options):
        if tournament:
            found = Tournament.objects.select_related("club").filter(slug=tournament).first()
            if found is None:
                raise CommandError(f"There is no tournament {tournament!r}.")
            export = tournament_export
        else:
            found = ClubNight.objects.select_related("club").filter(pk=night).first()
            if found is None:
                raise CommandError(f"There is no club night {night}.")
            export = night_export
        data = export(found)
        text = json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, indent=1)
        if output:
            with open(output, "w", encoding="utf-8") as file:
                file.write(text)
        else:
            self.stdout.write(text)
