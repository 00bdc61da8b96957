"""Makes every club's ratings (or one club's) again from its finished parties."""

from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club
from seasons.services import ratings_rebuild


class Command(BaseCommand):
    help = "Rebuild the ratings from the stored parties (all clubs, or --club SLUG)."

    def add_arguments(self, parser):
        parser.add_argument("--club", help="the club's short name")

    def handle(self, *args, club=None, **options):
        clubs = Club.objects.all()
        if club:
            clubs = clubs.filter(slug=club)
            if not clubs.exists():
                raise CommandError(f"No club with the short name {club!r}.")
        for each in clubs:
            count = ratings_rebuild(club_id=each.pk)
            self.stdout.write(f"{each.slug}: {count} parties rated")
