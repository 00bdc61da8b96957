"""Reads for the clubs pages. Each returns everything its page needs in a fixed
number of queries."""

from django.db.models import Count, Q, QuerySet
from django.shortcuts import get_object_or_404

from clubs.models import Club, ClubNight, ClubRecord, Membership, Player


def club_list() -> QuerySet[Club]:
    return Club.objects.annotate(member_count=Count("memberships")).order_by("name")


def club_by_slug(slug: str) -> Club:
    return get_object_or_404(Club, slug=slug)


def club_members(*, club: Club) -> QuerySet[Membership]:
    return club.memberships.select_related("player").order_by("player__name")


def clubs_organized_by(*, user) -> QuerySet[Club]:
    """The clubs a user may run: every club for a superuser, else where they organize."""
    clubs = club_list()
    if user.is_superuser:
        return clubs
    return clubs.filter(
        Q(memberships__player__user=user) & Q(memberships__role=Membership.Role.ORGANIZER)
    )


def is_organizer(*, user, club: Club) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return club.memberships.filter(player__user=user, role=Membership.Role.ORGANIZER).exists()


def club_nights(*, club: Club) -> QuerySet[ClubNight]:
    """A club's nights, newest first, each with how many parties it holds."""
    return club.nights.annotate(party_count=Count("parties")).order_by("-date", "-pk")


def club_players(*, club: Club) -> QuerySet[Player]:
    """The players who may take a seat at the club's tables: its members."""
    return Player.objects.filter(memberships__club=club).order_by("name", "pk")


def club_records(*, club: Club, limit: int = 30) -> list[ClubRecord]:
    """The club's latest records, newest first, with who made each."""
    return list(club.records.select_related("user").order_by("-at", "-pk")[:limit])
