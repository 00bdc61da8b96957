"""A player's data on request (DSGVO Art. 15 and 17): the download recorded, and
the erasure.

Erasing a player replaces who he was, never what he played. His name becomes
"Former member N" (N counts the club's erasures, so two erased players stay apart
on a table or a season line); his e-mail goes; his login is closed (deactivated,
renamed, its password and API keys unusable: the row stays, since the records
name the login that did each thing); his personal link and seat links stop
working; his memberships end up unlisted and inactive. Every party, hand, result,
rating, standing and record keeps its rows and numbers: they refer to him by ids,
which stay.

The records, though, also keep names in words (`details`, an audit record's
before/after and reason), written so that they stay true when rows change. Those
words would keep his old name where an organizer (or the admin) reads it, so the
erasure rewrites them: his name, wherever it stands in the club's records, becomes
the same "Former member N". This is the one change an append-only record admits,
and only on this path: on PostgreSQL the records' triggers refuse every UPDATE and
DELETE unless the transaction has set ``knock.redaction`` (`_redacting`), and even
then refuse an UPDATE that touches anything but those words (migration
seasons 0008): who did what, when, from where, to which row, stays as written.
The erasure itself is recorded (who erased which player id, how many records
were rewritten), without the old name.

Beyond the records, his name is rewritten where an organizer typed it into a
night's, a tournament's or a season's name (and a tournament's address made
from it), and the login-attempt log (django-axes: the name typed, the address
and the browser) forgets his login. What the apps above keep of him (the
notices sent, his phones) is erased by their own steps (`after_erasure`).
docs/operators.md says what an erasure keeps, and why."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.admin.models import LogEntry
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext

from clubs.models import (
    ORGANIZING,
    ApiToken,
    Club,
    ClubNight,
    ClubRecord,
    Invitation,
    Membership,
    Player,
)
from live import counters
from scoring import changes
from scoring.models import AuditRecord, Party, Seat
from scoring.services.seats import new_token
from seasons.data import mentions, names_in_text
from seasons.models import PlayerLink, Season, SeasonRecord
from tournaments.models import Entrant, Round, Tournament, TournamentRecord
from tournaments.records import tournament_changed


class ErasureRefused(ValueError):
    """A player who cannot be erased now; the message says why and what to do."""


@dataclass(frozen=True)
class Erased:
    """Who was erased, for the steps of the apps above (`after_erasure`): his row
    (already renamed), the name he had and has now, and the addresses he had."""

    club: Club
    player: Player
    old_name: str
    new_name: str
    addresses: frozenset[str]

    @property
    def named(self) -> re.Pattern:
        return names_in_text(self.old_name)


#: The apps above seasons (notices) keep words and rows of a player too; they
#: register what erases them here at start-up, since seasons cannot import them.
_steps: list[Callable[[Erased], None]] = []


def after_erasure(step: Callable[[Erased], None]) -> None:
    """``step(erased)`` runs inside every erasure's transaction, after the
    records are rewritten: what it fails to erase, nothing is."""
    if step not in _steps:
        _steps.append(step)


def _record(club: Club, action: str, *, user, address, details: dict) -> None:
    SeasonRecord.objects.create(
        club=club,
        action=action,
        user=user if getattr(user, "is_authenticated", False) else None,
        address=address,
        details=details,
    )


@transaction.atomic
def player_data_sent(*, club: Club, player: Player, user=None, address=None, own=False) -> None:
    """Records that the player's data was downloaded: by an organizer (``user``)
    or by the player himself through his personal link (``own``)."""
    _record(
        club,
        SeasonRecord.Action.DATA_SENT,
        user=user,
        address=address,
        details={"player_id": player.pk, "by": "player" if own else "organizer"},
    )


def erased(*, club: Club, player: Player) -> bool:
    """Whether the player was erased at the club (his erasure is in its record)."""
    return SeasonRecord.objects.filter(
        club=club, action=SeasonRecord.Action.ERASED, details__player_id=player.pk
    ).exists()


@transaction.atomic
def player_erase(*, club: Club, player: Player, user, address=None) -> str:
    """Erases the player at the club and returns the name he now has.

    Refused for an organizer unless the owner (or a superuser) asks, for the
    club's only owner, and for a player another club also keeps (his data there
    is that club's to erase: a player row is shared)."""
    club = Club.objects.select_for_update().get(pk=club.pk)
    player = Player.objects.select_for_update(of=("self",)).select_related("user").get(pk=player.pk)
    memberships = list(Membership.objects.select_for_update().filter(player=player))
    _refuse(club, player, memberships, user)
    old_name, number = player.name, _next_number(club)
    new_name = gettext("Former member %(number)s") % {"number": number}
    while club.memberships.exclude(player=player).filter(player__name__iexact=new_name).exists():
        number += 1
        new_name = gettext("Former member %(number)s") % {"number": number}
    login = player.user.get_username() if player.user is not None else ""
    # The invitations mailed to him or taken by his login keep no address of his.
    addresses = {a for a in (player.email, getattr(player.user, "email", "")) if a}
    invited = (
        Q(email__in=addresses) | Q(accepted_by=player.user)
        if player.user
        else Q(email__in=addresses)
    )
    Invitation.objects.filter(invited).update(email="")
    if player.user is not None:
        _close_login(player.user)
    player.name, player.email, player.user = new_name, "", None
    player.save(update_fields=["name", "email", "user"])
    for membership in memberships:
        if membership.role in ORGANIZING:
            membership.role = Membership.Role.MEMBER
        membership.active = membership.listed = False
        membership.save(update_fields=["role", "active", "listed"])
    PlayerLink.objects.filter(player=player).delete()
    tokens = _revoke_seats(player)
    rewritten = _redact(club, old_name, new_name, login)
    _rename_events(club, old_name, new_name)
    _forget_login_attempts({login, *addresses} - {""})
    gone = Erased(club, player, old_name, new_name, frozenset(addresses))
    for step in _steps:
        step(gone)
    _record(
        club,
        SeasonRecord.Action.ERASED,
        user=user,
        address=address,
        details={"player_id": player.pk, "as": new_name, "number": number, "records": rewritten},
    )
    _refresh_pages(club, player, tokens)
    return new_name


def _refuse(club: Club, player: Player, memberships: list[Membership], user) -> None:
    here = next((m for m in memberships if m.club_id == club.pk), None)
    others = [m for m in memberships if m.club_id != club.pk]
    if here is None:
        raise ErasureRefused(gettext("This player is not a member of the club."))
    if erased(club=club, player=player):
        raise ErasureRefused(gettext("This player is erased already."))
    elsewhere = (
        Seat.objects.filter(player=player).exclude(party__club=club).exists()
        or Entrant.objects.filter(player=player).exclude(tournament__club=club).exists()
    )
    if others or elsewhere:
        raise ErasureRefused(
            gettext(
                "%(name)s also plays at another club, which keeps that data there: "
                "ask the site's administrator to erase the player everywhere."
            )
            % {"name": player.name}
        )
    if here.organizes and not _is_owner(user, club):
        raise ErasureRefused(
            gettext("%(name)s organizes the club: only the owner erases an organizer.")
            % {"name": player.name}
        )
    if here.role == Membership.Role.OWNER:
        owners = club.memberships.filter(role=Membership.Role.OWNER).exclude(player=player)
        if not owners.exists():
            raise ErasureRefused(
                gettext("%(name)s is the club's only owner: make another member owner first.")
                % {"name": player.name}
            )


def _is_owner(user, club: Club) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return (
        user.is_superuser
        or club.memberships.filter(player__user=user, role=Membership.Role.OWNER).exists()
    )


def _next_number(club: Club) -> int:
    return 1 + SeasonRecord.objects.filter(club=club, action=SeasonRecord.Action.ERASED).count()


def _close_login(user) -> None:
    """The login can no longer be used and keeps nothing that names him; the row
    stays, because the records point at the login that did each thing."""
    user.username = f"former-{user.pk}-{secrets.token_hex(4)}"
    user.email = user.first_name = user.last_name = ""
    user.is_active = user.is_staff = user.is_superuser = False
    user.set_unusable_password()
    user.save()
    ApiToken.objects.filter(user=user, revoked_at__isnull=True).update(revoked_at=timezone.now())


def _revoke_seats(player: Player) -> list[str]:
    """Each of his seats gets a new link nobody holds; returns the old ones, whose
    pages are told to look again."""
    old = []
    for seat in Seat.objects.filter(player=player):
        old.append(seat.token)
        seat.token = new_token()
        seat.save(update_fields=["token"])
    return old


def _redacting(on: bool) -> None:
    """Opens (or closes again) the redaction path through the records' triggers: a
    setting of this transaction only, closed as soon as the words are rewritten.
    SQLite has no triggers to open."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT set_config('knock.redaction', %s, true)", ["on" if on else ""])


def _replaced(value, pattern, new: str):
    if isinstance(value, str):
        return pattern.sub(new, value)
    if isinstance(value, dict):
        return {_replaced(k, pattern, new): _replaced(v, pattern, new) for k, v in value.items()}
    if isinstance(value, list):
        return [_replaced(v, pattern, new) for v in value]
    return value


def _rewrite(rows, pattern, new: str, fields: tuple[str, ...]) -> int:
    """Rewrites the words of each row that names him; returns the rows changed."""
    changed = 0
    for row in rows.values("pk", *fields).iterator():
        if mentions([row[f] for f in fields], pattern):
            rows.model.objects.filter(pk=row["pk"]).update(
                **{f: _replaced(row[f], pattern, new) for f in fields}
            )
            changed += 1
    return changed


def _redact(club: Club, old_name: str, new_name: str, login: str) -> int:
    """Every word of the club's records (and his logins') that holds his old name
    or login name now holds his new name. Returns the records rewritten."""
    _redacting(True)
    pattern = names_in_text(old_name)
    count = _rewrite(ClubRecord.objects.filter(club=club), pattern, new_name, ("details",))
    count += _rewrite(SeasonRecord.objects.filter(club=club), pattern, new_name, ("details",))
    count += _rewrite(
        TournamentRecord.objects.filter(tournament__club=club), pattern, new_name, ("details",)
    )
    count += _rewrite(
        AuditRecord.objects.filter(party__club=club),
        pattern,
        new_name,
        ("before", "after", "reason"),
    )
    if login:
        # The name typed at his logins (and failed ones): they belong to no club.
        count += ClubRecord.objects.filter(club__isnull=True, username=login).update(username="")
    _redacting(False)
    # Text that is no record but may quote him: a party's label, a round's problem,
    # what the admin's own log says it changed.
    _rewrite(
        LogEntry.objects.filter(object_repr__contains=old_name), pattern, new_name, ("object_repr",)
    )
    _rewrite(Party.objects.filter(club=club), pattern, new_name, ("label",))
    _rewrite(Round.objects.filter(tournament__club=club), pattern, new_name, ("problem",))
    return count


def _rename_events(club: Club, old_name: str, new_name: str) -> None:
    """A night, a tournament or a season the organizer named after him ("Zelda's
    farewell") is shown on the club's public page and calendar beside records
    that say "Former member N": its name says so too, and a tournament's address
    made from his name is made from the new one (its old address stops working)."""
    pattern = names_in_text(old_name)
    _rewrite(ClubNight.objects.filter(club=club), pattern, new_name, ("name",))
    _rewrite(Season.objects.filter(club=club), pattern, new_name, ("name",))
    _rewrite(Tournament.objects.filter(club=club), pattern, new_name, ("name",))
    old_slug, new_slug = slugify(old_name), slugify(new_name)
    if not old_slug:
        return
    in_slug = re.compile(rf"(?<![a-z0-9]){re.escape(old_slug)}(?![a-z0-9])")
    for tournament in Tournament.objects.filter(club=club, slug__contains=old_slug):
        if not in_slug.search(tournament.slug):
            continue
        slug = base = in_slug.sub(new_slug, tournament.slug)[:60]
        number = 1
        while Tournament.objects.filter(slug=slug).exclude(pk=tournament.pk).exists():
            number += 1
            slug = f"{base[: 60 - len(str(number)) - 1]}-{number}"
        Tournament.objects.filter(pk=tournament.pk).update(slug=slug)


def _forget_login_attempts(names: set[str]) -> None:
    """The login-attempt log (django-axes) keeps the name typed at each login, with
    the address and the browser it came from: his lines go (a lock on his closed
    login with them)."""
    if not names:
        return
    typed = Q()
    for name in names:
        typed |= Q(username__iexact=name)
    for log in (AccessAttempt, AccessFailureLog, AccessLog):
        log.objects.filter(typed).delete()


def _refresh_pages(club: Club, player: Player, tokens: list[str]) -> None:
    """After the commit, every cached page that showed his name is made again:
    the club's scores' counter moves (the public pages' caches follow it), each
    of his tournaments' stored boards is built anew, his old seat pages look again."""
    counters.bump_after_commit(changes.club_key(club.pk))
    changes.seats_changed(tokens)
    nights = Party.objects.filter(seats__player=player, night__isnull=False)
    for night_id in set(nights.values_list("night_id", flat=True)):
        changes.night_changed(night_id)
    played = Tournament.objects.filter(Q(entrants__player=player), club=club).distinct()
    for tournament_id in played.values_list("pk", flat=True):
        tournament_changed(tournament_id)
