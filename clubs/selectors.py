"""Reads for the clubs pages. Each returns everything its page needs in a fixed
number of queries."""

from django.db.models import Count, Q, QuerySet
from django.shortcuts import get_object_or_404

from clubs.models import ApiToken, Club, ClubNight, Membership, Player


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


def recent_nights(*, club_ids=None, since=None, limit: int | None = None) -> list[ClubNight]:
    """Club nights since ``since``, newest first, each with its number of parties."""
    query = ClubNight.objects.select_related("club").annotate(party_count=Count("parties"))
    if club_ids is not None:
        query = query.filter(club_id__in=club_ids)
    if since is not None:
        query = query.filter(date__gte=since)
    query = query.order_by("-date", "-pk")
    return list(query[:limit] if limit else query)


def api_tokens(*, user) -> QuerySet[ApiToken]:
    return ApiToken.objects.filter(user=user).order_by("revoked_at", "-created_at")


def api_token_of(*, user, token_id: int) -> ApiToken:
    return get_object_or_404(ApiToken, user=user, pk=token_id)
