"""Writes for clubs and their members, one transaction each."""

import datetime

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext

from clubs.models import Club, ClubNight, Membership, Player
from scoring.engine.rules import RULESETS
from scoring.errors import EntryError


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


@transaction.atomic
def night_create(
    *,
    club: Club,
    name: str,
    date: datetime.date,
    ruleset: str = "classic",
    confirmation_required: bool = True,
) -> ClubNight:
    """Opens a club night. Its rules and confirmation setting are copied onto every
    party started in it, so they are checked here, once, before any party needs them."""
    name = (name or "").strip()
    if not name:
        raise EntryError(gettext("Give the club night a name."))
    if len(name) > ClubNight._meta.get_field("name").max_length:
        raise EntryError(gettext("The club night's name is too long."))
    if not isinstance(date, datetime.date):
        raise EntryError(gettext("Give the club night a date."))
    if ruleset not in RULESETS:
        raise EntryError(gettext("There are no rules called “%(name)s”.") % {"name": ruleset})
    return ClubNight.objects.create(
        club=club,
        name=name,
        date=date,
        ruleset=ruleset,
        confirmation_required=confirmation_required,
    )
