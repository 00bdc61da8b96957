"""A club's pages show its times in the club's own time zone (`Club.time_zone`), and
the next request, whatever its club, starts from the site's again."""

import re
import zoneinfo

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from clubs import services
from clubs.models import ClubRecord

pytestmark = pytest.mark.django_db


def shown_time(page) -> str:
    """The time of the night's line of the club record, as the page shows it."""
    found = re.search(
        r'data-record="night">\s*<td><time datetime="[^"]*">([^<]*)</time>', page.text
    )
    return found.group(1)


@pytest.mark.parametrize("zone", ["America/New_York", "Asia/Tokyo"])
def test_the_club_record_reads_in_the_clubs_time_zone(client, organizer, zone):
    club = organizer.club
    club.time_zone = zone
    club.save(update_fields=["time_zone"])
    services.club_record_add(ClubRecord.Action.NIGHT, club=club, night="Friday night")
    record = ClubRecord.objects.get(club=club, action=ClubRecord.Action.NIGHT)

    page = client.get(reverse("manage:club-detail", args=[club.slug]))

    there = record.at.astimezone(zoneinfo.ZoneInfo(zone)).strftime("%H:%M:%S")
    site = record.at.astimezone(zoneinfo.ZoneInfo(settings.TIME_ZONE)).strftime("%H:%M:%S")
    assert there != site
    assert shown_time(page).endswith(there)


def test_a_club_s_zone_ends_with_its_request(client, organizer):
    organizer.club.time_zone = "Asia/Tokyo"
    organizer.club.save(update_fields=["time_zone"])
    client.get(reverse("manage:club-detail", args=[organizer.club.slug]))
    assert timezone.get_current_timezone_name() == settings.TIME_ZONE


def test_a_zone_the_system_does_not_know_leaves_the_site_s(client, organizer):
    organizer.club.time_zone = "Mars/Olympus_Mons"
    organizer.club.save(update_fields=["time_zone"])
    assert client.get(reverse("manage:club-detail", args=[organizer.club.slug])).status_code == 200
