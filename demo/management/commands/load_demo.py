from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from demo.loader import load_demo


class Command(BaseCommand):
    help = "Loads (or refreshes) the demo club and prints the organizer's login."

    def handle(self, *args, **options):
        if not settings.DEBUG:
            raise CommandError("The demo has a published password: load it only with DEBUG on.")
        demo = load_demo()
        running = demo["club"].parties.filter(status="running", format="two").first()
        seats = running.seats.select_related("player") if running else []
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo loaded: {demo['club'].name}.\n"
                f"Log in at {settings.SITE_URL}/login/ as "
                f"{demo['username']} / {demo['password']}"
            )
        )
        for seat in seats:
            self.stdout.write(
                f"Table link for {seat.player}: {settings.SITE_URL}/table/{seat.token}/"
            )
