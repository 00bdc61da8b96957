"""Writes for clubs and their members, one transaction each."""

import datetime
import hashlib
import secrets

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from clubs.models import ApiToken, Club, Membership, Player


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


def token_digest(key: str) -> str:
    """What is stored of an API key: its SHA-256. The key is 256 random bits, so a
    plain hash is enough; no salt or slow hash is needed against guessing."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


@transaction.atomic
def api_token_create(*, user, name: str) -> tuple[ApiToken, str]:
    """A new personal API key for ``user``: the row, and the key, which is shown
    once and never stored."""
    name = (name or "").strip()
    if not name:
        raise ValueError(gettext("Give the key a name, e.g. the program that uses it."))
    if len(name) > ApiToken._meta.get_field("name").max_length:
        raise ValueError(gettext("The key's name is too long."))
    key = "knock_" + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(user=user, name=name, digest=token_digest(key), prefix=key[:12])
    return token, key


@transaction.atomic
def api_token_revoke(*, token: ApiToken) -> ApiToken:
    """The key stops working at once; the row stays, for the record."""
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    return token


def api_token_use(*, key: str):
    """The active user whose live API key this is, or None. Notes when the key was
    last used, at most once a minute, so a busy program does not cost a write on
    every request."""
    token = (
        ApiToken.objects.select_related("user")
        .filter(digest=token_digest(key), revoked_at__isnull=True, user__is_active=True)
        .first()
    )
    if token is None:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > datetime.timedelta(minutes=1):
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token.user
