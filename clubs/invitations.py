"""Invitations to organize a club: the owner makes one, as a link he passes on or
by e-mail; whoever opens it, logged in or after signing up, becomes an organizer
of that club. An invitation works once, for ``INVITATION_DAYS``, and not after the
owner takes it back. Only a hash of its key is kept, as for the API keys, so the
link is shown (or mailed) once. Each step goes into the club's record, without
the address it was mailed to."""

import datetime
import secrets

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext

from clubs.accounts import name_of, player_for
from clubs.mails import mail_send, site_link
from clubs.models import Club, ClubRecord, Invitation, Membership
from clubs.services import club_record_add, same_name, token_digest


class InvitationRefused(ValueError):
    """An invitation that cannot be made, taken back or accepted; the message says why."""


def invitation_link(key: str) -> str:
    return site_link("public:invitation", key=key)


@transaction.atomic
def invitation_create(*, club: Club, by, email: str = "") -> tuple[Invitation, str]:
    """A new invitation and its key (the link's last part, not stored). With an
    ``email``, the link is mailed there, in the club's language, after the commit."""
    key = secrets.token_urlsafe(32)
    invitation = Invitation.objects.create(
        club=club,
        email=email.strip(),
        digest=token_digest(key),
        made_by=by,
        expires_at=timezone.now() + datetime.timedelta(days=settings.INVITATION_DAYS),
    )
    club_record_add(
        ClubRecord.Action.INVITED,
        club=club,
        user=by,
        by_email=bool(invitation.email),
        expires=invitation.expires_at.isoformat(),
    )
    if invitation.email:
        context = {
            "club": club.name,
            "by": name_of(by),
            "link": invitation_link(key),
            "days": settings.INVITATION_DAYS,
        }
        transaction.on_commit(
            lambda: mail_send(
                to=invitation.email, template="invitation", context=context, language=club.language
            )
        )
    return invitation, key


@transaction.atomic
def invitation_revoke(*, invitation: Invitation, by) -> Invitation:
    """The owner takes an open invitation back: its link stops working at once."""
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if not invitation.is_open(timezone.now()):
        raise InvitationRefused(gettext("This invitation is no longer open."))
    invitation.revoked_at = timezone.now()
    invitation.save(update_fields=["revoked_at"])
    club_record_add(
        ClubRecord.Action.INVITE_REVOKED,
        club=invitation.club,
        user=by,
        made=invitation.made_at.isoformat(),
    )
    return invitation


def invitation_of(key: str) -> Invitation | None:
    """The open invitation of a link, with its club, or None for a link that does
    not work (wrong, used, taken back or too old)."""
    invitation = Invitation.objects.select_related("club").filter(digest=token_digest(key)).first()
    if invitation is None or not invitation.is_open(timezone.now()):
        return None
    return invitation


@transaction.atomic
def invitation_accept(*, key: str, user) -> Membership:
    """The person logged in as ``user`` accepts: he becomes an organizer of the
    club, as a new member or from the member (or guest) he already is there. The
    invitation is spent in the same transaction, its row locked first, so it
    makes one organizer even when it is accepted twice at once."""
    invitation = (
        Invitation.objects.select_for_update()
        .select_related("club")
        .filter(digest=token_digest(key))
        .first()
    )
    if invitation is None or not invitation.is_open(timezone.now()):
        raise InvitationRefused(
            gettext("This invitation no longer works: ask the club's owner for a new one.")
        )
    club = Club.objects.select_for_update().get(pk=invitation.club_id)
    player = player_for(user)
    membership = club.memberships.filter(player=player).first()
    if membership is not None and membership.organizes:
        raise InvitationRefused(gettext("You already organize %(club)s.") % {"club": club.name})
    if membership is None:
        names = club.memberships.values_list("player__name", flat=True)
        if any(same_name(n) == same_name(player.name) for n in names):
            raise InvitationRefused(
                gettext(
                    "%(club)s already has a player named %(name)s: ask the owner to "
                    "invite you from the member list."
                )
                % {"club": club.name, "name": player.name}
            )
        membership = Membership.objects.create(
            player=player, club=club, role=Membership.Role.ORGANIZER
        )
        club_record_add(
            ClubRecord.Action.MEMBER, club=club, user=user, player=player.name, role=membership.role
        )
    else:
        before = membership.role
        membership.role, membership.active = Membership.Role.ORGANIZER, True
        membership.save(update_fields=["role", "active"])
        club_record_add(
            ClubRecord.Action.ROLE,
            club=club,
            user=user,
            player=player.name,
            before=before,
            after=membership.role,
        )
    invitation.accepted_at, invitation.accepted_by = timezone.now(), user
    invitation.save(update_fields=["accepted_at", "accepted_by"])
    club_record_add(
        ClubRecord.Action.INVITE_TAKEN,
        club=club,
        user=user,
        player=player.name,
        made=invitation.made_at.isoformat(),
    )
    return membership


def club_invitations(*, club: Club) -> QuerySet[Invitation]:
    """The club's invitations, newest first, for its owner's page (one query)."""
    return club.invitations.select_related("accepted_by__player")


def invitation_for_manage(*, slug: str, pk: int) -> Invitation:
    return get_object_or_404(Invitation.objects.select_related("club"), club__slug=slug, pk=pk)
