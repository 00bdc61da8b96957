"""Writes for clubs and their members, one transaction each.

Every change to a club's nights and members, and every login, goes into the club's
append-only record (`ClubRecord`): who did it, from where, and what changed, in
words that stay true after the rows change."""

from django.contrib.auth import get_user_model
from django.db import transaction

from clubs.models import Club, ClubRecord, Membership, Player


@transaction.atomic
def club_upsert(*, slug: str, name: str, city: str = "", founded: int | None = None) -> Club:
    club, _ = Club.objects.update_or_create(
        slug=slug, defaults={"name": name, "city": city, "founded": founded}
    )
    return club


def club_record_add(action, *, club=None, user=None, address=None, username="", **details):
    """Appends to the club's record (``club=None``: a login, which belongs to no
    club). ``details`` say what changed, in names and values, not row ids."""
    ClubRecord.objects.create(
        club=club,
        action=action,
        user=user if user is not None and user.is_authenticated else None,
        username=username[:150],
        address=address,
        details=details,
    )


@transaction.atomic
def member_add(
    *,
    club: Club,
    name: str,
    email: str = "",
    role: str = Membership.Role.MEMBER,
    since=None,
    user=None,
    address=None,
) -> Membership:
    """Adds a player to a club; a player of that name already in the club is kept,
    so running it twice changes nothing but the role and date."""
    membership = club.memberships.select_related("player").filter(player__name=name).first()
    if membership is None:
        player = Player.objects.create(name=name, email=email)
        membership = Membership(player=player, club=club)
    membership.role = role
    if since is not None:
        membership.since = since
    return membership_save(membership=membership, user=user, address=address)


@transaction.atomic
def membership_save(*, membership: Membership, user=None, address=None) -> Membership:
    """Stores a membership as given (a new member, or a new role or date) and
    records a new member or a changed role in the club's record."""
    stored = None
    if membership.pk is not None:
        stored = Membership.objects.select_for_update().filter(pk=membership.pk).first()
    membership.save()
    player = membership.player.name
    if stored is None:
        club_record_add(
            ClubRecord.Action.MEMBER,
            club=membership.club,
            user=user,
            address=address,
            player=player,
            role=membership.role,
        )
    elif stored.role != membership.role:
        club_record_add(
            ClubRecord.Action.ROLE,
            club=membership.club,
            user=user,
            address=address,
            player=player,
            before=stored.role,
            after=membership.role,
        )
    return membership


@transaction.atomic
def membership_end(*, membership: Membership, user=None, address=None) -> None:
    """A player leaves a club: the membership goes, the record of it stays."""
    club_record_add(
        ClubRecord.Action.LEFT,
        club=membership.club,
        user=user,
        address=address,
        player=membership.player.name,
        role=membership.role,
    )
    membership.delete()


def login_record(*, user=None, username: str = "", address=None, succeeded: bool) -> None:
    """A login, or an attempt that failed, with the name that was typed."""
    action = ClubRecord.Action.LOGIN if succeeded else ClubRecord.Action.LOGIN_FAILED
    club_record_add(action, user=user, username=username, address=address)


@transaction.atomic
def organizer_login_set(*, membership: Membership, username: str, password: str):
    """Gives an organizer a login (staff, so the admin is open to them)."""
    User = get_user_model()
    user, _ = User.objects.get_or_create(username=username)
    user.is_staff = True
    user.is_superuser = True
    user.email = membership.player.email
    user.set_password(password)
    user.save()
    player = membership.player
    player.user = user
    player.save(update_fields=["user"])
    return user
