"""Writes for clubs and their members, one transaction each.

Every change to a club's nights and members, and every login, goes into the club's
append-only record (`ClubRecord`): who did it, from where, and what changed, in
words that stay true after the rows change."""

import datetime
import hashlib
import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext

from clubs import roster_rows
from clubs.models import ORGANIZING, ApiToken, Club, ClubRecord, Membership, Player
from clubs.names import same_name
from clubs.roster_rows import Verdict
from web.validators import validate_printable

#: The roles an organizer gives and takes in the member list; who organizes is the
#: owner's decision (`organizer_invite`, `organizer_revoke`).
PLAYING_ROLES = (Membership.Role.MEMBER, Membership.Role.GUEST)


class MemberRefused(ValueError):
    """A change to the member list that cannot be made; the message says why."""


class OrganizerInvitationTokens(PasswordResetTokenGenerator):
    """The one-time link that lets a committee member choose the password of their
    organizer login. Like a password-reset link it stops working once the password is
    set or after ``PASSWORD_RESET_TIMEOUT``; it also stops when the clubs the login
    organizes change, so a revoked invitation cannot be used."""

    key_salt = "clubs.services.OrganizerInvitationTokens"

    def _make_hash_value(self, user, timestamp):
        clubs = sorted(
            Membership.objects.filter(player__user=user, role__in=ORGANIZING).values_list(
                "club_id", flat=True
            )
        )
        return f"{super()._make_hash_value(user, timestamp)}{clubs}"


invitation_tokens = OrganizerInvitationTokens()


@transaction.atomic
def club_upsert(*, slug: str, name: str, city: str = "", founded: int | None = None) -> Club:
    club, _ = Club.objects.update_or_create(
        slug=slug, defaults={"name": name, "city": city, "founded": founded}
    )
    return club


#: What the apps above clubs do when a player joins a club with an address (the
#: seasons app mails him the link to his own page): ``callback(membership_id)``,
#: after the commit.
_joined: list = []


def after_member_joined(callback) -> None:
    if callback not in _joined:
        _joined.append(callback)


def _member_joined(membership: Membership) -> None:
    if not membership.player.email or not membership.active:
        return
    for callback in _joined:
        transaction.on_commit(lambda c=callback: c(membership.pk), robust=True)


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
def club_settings_change(*, club: Club, language: str, currency: str, by, address=None) -> Club:
    """Sets the language of the club's mails and the currency of its stakes; what
    changed goes into the club's record, as it is now."""
    club = _locked_club(club)
    before = {"language": club.language, "currency": club.currency}
    club.language, club.currency = language, currency
    changed = {key: value for key, value in before.items() if getattr(club, key) != value}
    if changed:
        club.save(update_fields=list(changed))
        club_record_add(
            ClubRecord.Action.SETTINGS,
            club=club,
            user=by,
            address=address,
            **{key: getattr(club, key) for key in changed},
        )
    return club


def _locked_club(club: Club) -> Club:
    """The club's row locked: every write that adds or renames one of its players
    queues here, so the check that a name is free holds until the commit."""
    return Club.objects.select_for_update().get(pk=club.pk)


@transaction.atomic
def member_add(
    *,
    club: Club,
    name: str,
    email: str = "",
    role: str = Membership.Role.MEMBER,
    since=None,
    listed: bool = False,
    user=None,
    address=None,
) -> Membership:
    """Adds a player to a club; a player of that name already in the club is kept,
    so running it twice changes nothing but the role, date and listing."""
    _locked_club(club)
    membership = club.memberships.select_related("player").filter(player__name=name).first()
    if membership is None:
        player = Player.objects.create(name=name, email=email)
        membership = Membership(player=player, club=club)
    membership.role = role
    membership.listed = listed
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
        _member_joined(membership)
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
def member_create(
    *,
    club: Club,
    name: str,
    email: str = "",
    role: str = Membership.Role.MEMBER,
    listed: bool = False,
    by,
) -> Membership:
    """A new player in the club's member list: a member, or a guest (a name is
    enough). Names are unique within a club, so a seat or a score sheet never
    leaves the table wondering which of two people it means."""
    name = name.strip()
    _refuse_role(role)
    _locked_club(club)
    _refuse_taken_name(club=club, name=name)
    player = Player.objects.create(name=name, email=email)
    membership = Membership.objects.create(player=player, club=club, role=role, listed=listed)
    club_record_add(ClubRecord.Action.MEMBER, club=club, user=by, player=name, role=role)
    _member_joined(membership)
    return membership


@transaction.atomic
def member_update(
    *, membership: Membership, name: str, email: str, role: str, listed: bool, by
) -> Membership:
    """Corrects a member's name or email, makes a guest a member (or back), and
    records whether they agreed to be listed. An organizer's role is not changed
    here: that is the owner's `organizer_invite` and `organizer_revoke`."""
    _locked_club(membership.club)
    membership = (
        Membership.objects.select_for_update(of=("self",))
        .select_related("player")
        .get(pk=membership.pk)
    )
    name = name.strip()
    if role != membership.role:
        if membership.organizes:
            raise MemberRefused(
                gettext("%(name)s organizes the club: only the owner changes that.")
                % {"name": membership.player.name}
            )
        _refuse_role(role)
    _refuse_taken_name(club=membership.club, name=name, keep=membership)
    player = membership.player
    player.name, player.email = name, email
    player.save(update_fields=["name", "email"])
    before = membership.role
    membership.role, membership.listed = role, listed
    membership.save(update_fields=["role", "listed"])
    _record_role(membership, before, by)
    return membership


@transaction.atomic
def member_deactivate(*, membership: Membership, by) -> Membership:
    """Takes a member off the list of players offered for new parties. Their parties,
    hands and results stay as they are: a player who has played is never deleted."""
    membership = (
        Membership.objects.select_for_update(of=("self",))
        .select_related("player")
        .get(pk=membership.pk)
    )
    if membership.organizes:
        raise MemberRefused(
            gettext("%(name)s organizes the club: the owner revokes that first.")
            % {"name": membership.player.name}
        )
    membership.active = False
    membership.save(update_fields=["active"])
    club_record_add(
        ClubRecord.Action.DEACTIVATED,
        club=membership.club,
        user=by,
        player=membership.player.name,
    )
    return membership


@transaction.atomic
def member_reactivate(*, membership: Membership, by) -> Membership:
    membership = (
        Membership.objects.select_for_update(of=("self",))
        .select_related("player")
        .get(pk=membership.pk)
    )
    membership.active = True
    membership.save(update_fields=["active"])
    club_record_add(
        ClubRecord.Action.REACTIVATED,
        club=membership.club,
        user=by,
        player=membership.player.name,
    )
    return membership


@transaction.atomic
def organizer_invite(*, membership: Membership, username: str = "", by) -> tuple[Membership, bool]:
    """Makes a member an organizer of this club, and of no other. A member without a
    login gets one under ``username`` with no password yet; returns the membership
    and whether the new organizer still has to set a password (with the link from
    `invitation_link_parts`). The login is never staff or superuser: the admin is for
    the site's superusers."""
    membership = (
        Membership.objects.select_for_update(of=("self",))
        .select_related("player__user")
        .get(pk=membership.pk)
    )
    player = membership.player
    if membership.organizes:
        raise MemberRefused(gettext("%(name)s already organizes the club.") % {"name": player.name})
    if not membership.active:
        raise MemberRefused(
            gettext("%(name)s is deactivated: reactivate them first.") % {"name": player.name}
        )
    if membership.role == Membership.Role.GUEST:
        raise MemberRefused(
            gettext("%(name)s is a guest: make them a member first.") % {"name": player.name}
        )
    user = player.user
    if user is None:
        username = username.strip()
        if not username:
            raise MemberRefused(gettext("Choose a user name for the new login."))
        User = get_user_model()
        if User.objects.filter(username__iexact=username).exists():
            raise MemberRefused(
                gettext("The user name %(username)s is taken; choose another.")
                % {"username": username}
            )
        user = User(username=username, email=player.email)
        user.set_unusable_password()
        user.save()
        player.user = user
        player.save(update_fields=["user"])
    before = membership.role
    membership.role = Membership.Role.ORGANIZER
    membership.active = True
    membership.save(update_fields=["role", "active"])
    _record_role(membership, before, by)
    return membership, not user.has_usable_password()


@transaction.atomic
def organizer_revoke(*, membership: Membership, by) -> Membership:
    """Takes an organizer's rights in this club away; they stay a member. Their
    login keeps whatever it has in other clubs, and an unused invitation link
    stops working."""
    membership = (
        Membership.objects.select_for_update(of=("self",))
        .select_related("player")
        .get(pk=membership.pk)
    )
    if membership.role == Membership.Role.OWNER:
        raise MemberRefused(
            gettext("%(name)s owns the club and stays its organizer.")
            % {"name": membership.player.name}
        )
    if membership.role != Membership.Role.ORGANIZER:
        raise MemberRefused(
            gettext("%(name)s does not organize the club.") % {"name": membership.player.name}
        )
    membership.role = Membership.Role.MEMBER
    membership.save(update_fields=["role"])
    _record_role(membership, Membership.Role.ORGANIZER, by)
    return membership


def invitation_link_parts(user) -> dict:
    """The two parts of an organizer's set-password link (``public:organizer-welcome``)."""
    return {
        "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
        "token": invitation_tokens.make_token(user),
    }


@transaction.atomic
def organizer_login_set(*, membership: Membership, username: str, password: str):
    """Gives an organizer a login with a known password (the demo's). The login
    reaches the organizer's own clubs only: never staff, never superuser."""
    User = get_user_model()
    user, _ = User.objects.get_or_create(username=username)
    user.is_staff = False
    user.is_superuser = False
    user.email = membership.player.email
    user.set_password(password)
    user.save()
    player = membership.player
    player.user = user
    player.save(update_fields=["user"])
    return user


def _record_role(membership: Membership, before: str, by) -> None:
    if before != membership.role:
        club_record_add(
            ClubRecord.Action.ROLE,
            club=membership.club,
            user=by,
            player=membership.player.name,
            before=before,
            after=membership.role,
        )


def _refuse_role(role: str) -> None:
    if role not in PLAYING_ROLES:
        raise MemberRefused(gettext("A player on the member list is a member or a guest."))


def _refuse_taken_name(*, club: Club, name: str, keep: Membership | None = None) -> None:
    """Refuses a name the club already has (`same_name`); the caller holds the
    club's lock (`_locked_club`), so no other request adds it meanwhile."""
    if not name:
        raise MemberRefused(gettext("Give the player's name."))
    others = club.memberships.exclude(pk=keep.pk if keep else None)
    wanted = same_name(name)
    if any(same_name(n) == wanted for n in others.values_list("player__name", flat=True)):
        raise MemberRefused(
            gettext(
                "%(club)s already has a player named %(name)s; add an initial or a "
                "nickname so the two can be told apart."
            )
            % {"club": club.name, "name": name}
        )


def token_digest(key: str) -> str:
    """What is stored of an API key: its SHA-256. The key is 256 random bits, so a
    plain hash is enough; no salt or slow hash is needed against guessing."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


@transaction.atomic
def api_token_create(*, user, name: str, address=None) -> tuple[ApiToken, str]:
    """A new personal API key for ``user``: the row, and the key, which is shown
    once and never stored. Like a login, it goes into the record (of no club: it
    reaches every club its owner organizes)."""
    name = (name or "").strip()
    if not name:
        raise ValueError(gettext("Give the key a name, e.g. the program that uses it."))
    if len(name) > ApiToken._meta.get_field("name").max_length:
        raise ValueError(gettext("The key's name is too long."))
    try:
        validate_printable(name)
    except ValidationError as error:
        raise ValueError(error.messages[0]) from error
    key = "knock_" + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(user=user, name=name, digest=token_digest(key), prefix=key[:12])
    club_record_add(
        ClubRecord.Action.KEY_MADE, user=user, address=address, key=name, prefix=token.prefix
    )
    return token, key


@transaction.atomic
def api_token_revoke(*, token: ApiToken, address=None) -> ApiToken:
    """The key stops working at once; the row stays, for the record. Revoked once:
    the row is locked first, so a revoke sent twice at once is recorded once."""
    token = ApiToken.objects.select_for_update().get(pk=token.pk)
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
        club_record_add(
            ClubRecord.Action.KEY_REVOKED,
            user=token.user,
            address=address,
            key=token.name,
            prefix=token.prefix,
        )
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


# ------------------------------------------------------------------ the member list in bulk


@transaction.atomic
def roster_import(
    *, club: Club, rows: list[dict], seen: str, filename: str, by, address=None
) -> list[Verdict]:
    """Takes the rows of an uploaded member list as its preview showed them: the
    club is locked, every row is judged again against the members as they are now,
    and only when that is what the organizer saw (``seen``, the preview's
    `roster_rows.fingerprint`) are the new members added and the others changed, all
    at once. Each added member, changed role and (de)activation is recorded as the
    member list's own pages record it, and the import once, with its counts."""
    _locked_club(club)
    members = club.memberships.select_related("player").select_for_update(of=("self",))
    verdicts = roster_rows.judge(rows, members=members, today=timezone.localdate())
    if roster_rows.fingerprint(verdicts) != seen:
        raise MemberRefused(
            gettext("The member list changed since the preview: look at the rows again.")
        )
    for verdict in verdicts:
        if verdict.kind == Verdict.NEW:
            _roster_add(club, verdict.values, by, address)
        elif verdict.changes:
            _roster_change(verdict.membership, verdict.values, by, address)
    counts = {
        kind: sum(v.kind == kind for v in verdicts) for kind in (Verdict.NEW, Verdict.REFUSED)
    }
    club_record_add(
        ClubRecord.Action.IMPORTED,
        club=club,
        user=by,
        address=address,
        file=filename[:200],
        added=counts[Verdict.NEW],
        changed=sum(v.changes for v in verdicts),
        refused=counts[Verdict.REFUSED],
    )
    return verdicts


def _roster_add(club: Club, values: dict, by, address) -> None:
    player = Player.objects.create(name=values["name"], email=values["email"])
    membership = Membership.objects.create(
        player=player,
        club=club,
        role=values["role"],
        since=values["since"],
        active=values["active"],
        listed=values["listed"],
    )
    club_record_add(
        ClubRecord.Action.MEMBER,
        club=club,
        user=by,
        address=address,
        player=player.name,
        role=values["role"],
    )
    _member_joined(membership)


def _roster_change(membership: Membership, values: dict, by, address) -> None:
    player = membership.player
    before_role, before_active = membership.role, membership.active
    player.name, player.email = values["name"], values["email"]
    player.save(update_fields=["name", "email"])
    for key in ("role", "since", "active", "listed"):
        setattr(membership, key, values[key])
    membership.save(update_fields=["role", "since", "active", "listed"])
    _record_role(membership, before_role, by)
    if membership.active != before_active:
        action = (
            ClubRecord.Action.REACTIVATED if membership.active else ClubRecord.Action.DEACTIVATED
        )
        club_record_add(action, club=membership.club, user=by, address=address, player=player.name)


def roster_export_record(*, club: Club, by, kind: str, address=None) -> None:
    """An export of the member list holds every member's e-mail: who took one, and
    when, is recorded."""
    club_record_add(ClubRecord.Action.EXPORTED, club=club, user=by, address=address, kind=kind)
