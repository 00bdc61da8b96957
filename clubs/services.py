"""Writes for clubs and their members, one transaction each."""

from django.contrib.auth import get_user_model
from django.db import transaction

from clubs.models import Club, Membership, Player


@transaction.atomic
def club_upsert(*, slug: str, name: str, city: str = "", founded: int | None = None) -> Club:
    club, _ = Club.objects.update_or_create(
        slug=slug, defaults={"name": name, "city": city, "founded": founded}
    )
    return club


@transaction.atomic
def member_add(
    *, club: Club, name: str, email: str = "", role: str = Membership.Role.MEMBER, since=None
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
    membership.save()
    return membership


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
