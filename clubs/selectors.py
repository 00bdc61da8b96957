"""Reads for the clubs pages. Each returns everything its page needs in a fixed
number of queries."""

from django.db.models import Count, Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone

from clubs.models import ORGANIZING, ApiToken, Club, ClubNight, ClubRecord, Membership, Player
from clubs.roster_rows import Verdict, judge

#: The memberships counted and shown as the club's members: active, not guests.
_MEMBERS = Q(memberships__active=True) & ~Q(memberships__role=Membership.Role.GUEST)


def club_list() -> QuerySet[Club]:
    return Club.objects.annotate(member_count=Count("memberships", filter=_MEMBERS)).order_by(
        "name"
    )


def club_by_slug(slug: str) -> Club:
    return get_object_or_404(Club, slug=slug)


def club_members(*, club: Club) -> QuerySet[Membership]:
    """The members a club shows the public: active ones who agreed to be listed."""
    return (
        club.memberships.select_related("player")
        .filter(active=True, listed=True)
        .exclude(role=Membership.Role.GUEST)
        .order_by("player__name")
    )


def member_list(*, club: Club, search: str = "", inactive: bool = False) -> QuerySet[Membership]:
    """The organizer's member list: everyone who belongs to the club, guests too,
    found by a part of their name or email; the deactivated only when asked for."""
    members = club.memberships.select_related("club", "player").order_by("player__name", "pk")
    if search:
        members = members.filter(
            Q(player__name__icontains=search) | Q(player__email__icontains=search)
        )
    if not inactive:
        members = members.filter(active=True)
    return members


def membership_for_manage(*, slug: str, pk: int) -> Membership:
    """One membership, looked up under its club, so a URL cannot pair one club's
    address with another club's member."""
    return get_object_or_404(
        Membership.objects.select_related("club", "player__user"), club__slug=slug, pk=pk
    )


def organizer_for_manage(*, slug: str, pk: int) -> Membership:
    """One of the club's organizers with a login (a 404 for anyone else)."""
    return get_object_or_404(
        Membership.objects.select_related("club", "player__user"),
        club__slug=slug,
        pk=pk,
        role__in=ORGANIZING,
        player__user__isnull=False,
    )


def organizer_candidates(*, club: Club) -> QuerySet[Membership]:
    """The members the owner may make organizers: active members, not guests."""
    return (
        club.memberships.select_related("player")
        .filter(active=True, role=Membership.Role.MEMBER)
        .order_by("player__name", "pk")
    )


def club_organizers(*, club: Club) -> QuerySet[Membership]:
    """The club's owner and organizers, owner first."""
    return (
        club.memberships.select_related("player__user")
        .filter(role__in=ORGANIZING)
        .order_by("-role", "player__name")
    )


def clubs_organized_by(*, user) -> QuerySet[Club]:
    """The clubs a user may run: every club for a superuser, else where they organize."""
    clubs = club_list()
    if user.is_superuser:
        return clubs
    return clubs.filter(
        pk__in=Membership.objects.filter(player__user=user, role__in=ORGANIZING).values("club")
    )


def role_in(*, user, club: Club) -> str | None:
    """The user's role in the club, or None when they have no place in it."""
    if not user.is_authenticated:
        return None
    return club.memberships.filter(player__user=user).values_list("role", flat=True).first()


def is_organizer(*, user, club: Club) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return role_in(user=user, club=club) in ORGANIZING


def is_owner(*, user, club: Club) -> bool:
    if not user.is_authenticated:
        return False
    return user.is_superuser or role_in(user=user, club=club) == Membership.Role.OWNER


def club_nights(*, club: Club) -> QuerySet[ClubNight]:
    """A club's nights, newest first, each with how many parties it holds."""
    return club.nights.annotate(party_count=Count("parties")).order_by("-date", "-pk")


def club_players(*, club: Club) -> QuerySet[Player]:
    """The players who may take a seat at the club's tables: its active members and
    guests; the deactivated keep their old parties but are not offered again."""
    return Player.objects.filter(memberships__club=club, memberships__active=True).order_by(
        "name", "pk"
    )


def club_records(*, club: Club, limit: int = 30) -> list[ClubRecord]:
    """The club's latest records, newest first, with who made each."""
    return list(club.records.select_related("user__player").order_by("-at", "-pk")[:limit])


def recent_nights(*, club_ids=None, since=None, limit: int | None = None) -> list[ClubNight]:
    """Club nights since ``since``, newest first, each with its number of parties
    (a cancelled party, scoring's ``Party.Status.CANCELLED``, counts nowhere)."""
    counted = ~Q(parties__status="cancelled")
    query = ClubNight.objects.select_related("club").annotate(
        party_count=Count("parties", filter=counted)
    )
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


def roster_members(*, club: Club) -> QuerySet[Membership]:
    """Everyone on the club's member list, the deactivated too, as the export and the
    import's preview compare them: with their players, in one query."""
    return club.memberships.select_related("player").order_by("player__name", "pk")


def roster_preview(*, club: Club, rows: list[dict]) -> list[Verdict]:
    """Each row of an uploaded member list as the import would take it (`roster.judge`)."""
    return judge(rows, members=roster_members(club=club), today=timezone.localdate())
