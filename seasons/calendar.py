"""A club's events as an iCalendar feed (RFC 5545), for calendar programs to
subscribe to: one feed per club, anyone's, and one per player's personal link.

A club night and a tournament are held on a date, with no hour stored, so each is
an all-day event on that date in the club's time zone (`Club.time_zone`), which
also says which nights are still to come. Only what the public may see goes in: the club's
nights and its published tournaments, their names and pages; never a player's
e-mail, and no other player's name.

The player's feed is his evenings, not the whole club's: the tournaments he is
entered in, the nights he sat at a table, and the nights to come (a night takes
no entries, so any night ahead may be his). Everything else is in the club's feed."""

from __future__ import annotations

import datetime
import zoneinfo
from urllib.parse import urlsplit

from django.conf import settings
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from icalendar import Calendar, Event

from clubs.models import Club, ClubNight, Player
from tournaments.models import Tournament
from tournaments.published import published

#: How far back a feed reaches: a calendar wants what is coming, and the last season.
PAST_DAYS = 400


def club_calendar(*, club: Club, today: datetime.date | None = None) -> bytes:
    """The club's feed: its nights and its published tournaments, from a little over
    a year ago on. Two queries."""
    since = (today or _today(club)) - datetime.timedelta(days=PAST_DAYS)
    nights = club.nights.filter(date__gte=since)
    tournaments = Tournament.objects.filter(published(), club=club, date__gte=since)
    return _calendar(club.name, club, nights, tournaments)


def player_calendar(*, club: Club, player: Player, today: datetime.date | None = None) -> bytes:
    """The player's feed at a club (his personal link): the published tournaments he
    is entered in, the nights he played at, and the club's nights to come."""
    today = today or _today(club)
    since = today - datetime.timedelta(days=PAST_DAYS)
    nights = club.nights.filter(
        Q(date__gte=today) | Q(date__gte=since, parties__seats__player=player)
    ).distinct()
    tournaments = Tournament.objects.filter(
        published(), club=club, date__gte=since, entrants__player=player
    ).distinct()
    name = gettext("%(club)s: my events") % {"club": club.name}
    return _calendar(name, club, nights, tournaments)


def _calendar(name: str, club: Club, nights, tournaments) -> bytes:
    calendar = Calendar()
    calendar.add("prodid", "-//Knock//Club events//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", name)
    calendar.add("x-wr-timezone", club.time_zone)
    # A hint for how often to look again: nights and tournaments are planned days ahead.
    calendar.add("refresh-interval", datetime.timedelta(hours=6), parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", "PT6H")
    stamp = timezone.now().astimezone(datetime.UTC).replace(microsecond=0)
    for night in nights.order_by("date", "pk"):
        calendar.add_component(_night(night, club, stamp))
    for tournament in tournaments.order_by("date", "pk"):
        calendar.add_component(_tournament(tournament, club, stamp))
    return calendar.to_ical()


def _event(*, uid: str, title: str, date: datetime.date, url: str, stamp) -> Event:
    event = Event()
    # The row's kind and id under the site's host: the same event keeps its UID in
    # every feed and every fetch, so a calendar updates it instead of adding another.
    event.add("uid", f"{uid}@{_host()}")
    event.add("dtstamp", stamp)
    event.add("summary", title)
    event.add("dtstart", date)
    event.add("dtend", date + datetime.timedelta(days=1))
    event.add("transp", "TRANSPARENT")
    event.add("url", url)
    return event


def _night(night: ClubNight, club: Club, stamp) -> Event:
    event = _event(
        uid=f"club-night-{night.pk}",
        title=f"{night.name} · {club.name}",
        date=night.date,
        url=settings.SITE_URL + reverse("public:club-detail", args=[club.slug]),
        stamp=stamp,
    )
    event.add("categories", [gettext("Club night")])
    if club.city:
        event.add("location", club.city)
    return event


def _tournament(tournament: Tournament, club: Club, stamp) -> Event:
    event = _event(
        uid=f"tournament-{tournament.pk}",
        title=f"{tournament.name} · {club.name}",
        date=tournament.date,
        url=settings.SITE_URL + reverse("public:tournament-detail", args=[tournament.slug]),
        stamp=stamp,
    )
    event.add("categories", [gettext("Tournament")])
    event.add(
        "description",
        f"{tournament.get_game_display()} · {tournament.get_format_display()}",
    )
    if club.city:
        event.add("location", club.city)
    return event


def _today(club: Club) -> datetime.date:
    try:
        zone = zoneinfo.ZoneInfo(club.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = timezone.get_default_timezone()
    return timezone.localdate(timezone=zone)


def _host() -> str:
    return urlsplit(settings.SITE_URL).hostname or "knock"
