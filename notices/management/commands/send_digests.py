"""Sends the season digests now: to every player who asked for one (all clubs,
or one club's)."""

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from clubs.models import Club
from notices.services import digests_send
from notices.tasks import send_notice


class Command(BaseCommand):
    help = "Send the season digests (all clubs, or --club SLUG); once a day at most."

    def add_arguments(self, parser):
        parser.add_argument("--club", help="the club's short name")

    def handle(self, *args, club=None, **options):
        clubs = Club.objects.order_by("pk")
        if club:
            clubs = clubs.filter(slug=club)
            if not clubs.exists():
                raise CommandError(f"No club with the short name {club!r}.")
        count = digests_send(today=timezone.localdate(), deliver=send_notice, clubs=clubs)
        self.stdout.write(f"{count} digests to send")
