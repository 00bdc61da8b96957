import datetime

import pytest
from django.utils import timezone

from clubs.invitations import (
    InvitationRefused,
    invitation_accept,
    invitation_create,
    invitation_of,
    invitation_revoke,
)
from clubs.models import ClubRecord, Invitation, Membership
from tests.factories import MembershipFactory, OrganizerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return OrganizerFactory(role=Membership.Role.OWNER, player__name="Olga")


def test_an_invitation_accepted_makes_an_organizer_of_that_club(owner):
    _invitation, key = invitation_create(club=owner.club, by=owner.player.user)
    cora = UserFactory(first_name="Cora Clay")

    membership = invitation_accept(key=key, user=cora)

    assert membership.club == owner.club
    assert membership.role == Membership.Role.ORGANIZER
    assert membership.player.user == cora
    assert membership.player.name == "Cora Clay"


def test_an_invitation_works_once(owner):
    _invitation, key = invitation_create(club=owner.club, by=owner.player.user)
    invitation_accept(key=key, user=UserFactory())

    with pytest.raises(InvitationRefused, match="no longer works"):
        invitation_accept(key=key, user=UserFactory())
    assert invitation_of(key) is None


def test_an_invitation_taken_back_no_longer_works(owner):
    invitation, key = invitation_create(club=owner.club, by=owner.player.user)
    invitation_revoke(invitation=invitation, by=owner.player.user)

    with pytest.raises(InvitationRefused, match="no longer works"):
        invitation_accept(key=key, user=UserFactory())
    assert Membership.objects.filter(club=owner.club).count() == 1


def test_an_invitation_expires_after_its_days(owner, settings):
    invitation, key = invitation_create(club=owner.club, by=owner.player.user)
    days = datetime.timedelta(days=settings.INVITATION_DAYS)
    assert invitation.expires_at - invitation.made_at == pytest.approx(
        days, abs=datetime.timedelta(seconds=5)
    )

    Invitation.objects.filter(pk=invitation.pk).update(
        expires_at=timezone.now() - datetime.timedelta(seconds=1)
    )

    assert invitation_of(key) is None
    with pytest.raises(InvitationRefused):
        invitation_accept(key=key, user=UserFactory())


def test_a_member_who_accepts_becomes_an_organizer_in_place(owner):
    member = MembershipFactory(club=owner.club, player__user=UserFactory(), active=False)
    _invitation, key = invitation_create(club=owner.club, by=owner.player.user)

    membership = invitation_accept(key=key, user=member.player.user)

    assert membership.pk == member.pk
    assert (membership.role, membership.active) == (Membership.Role.ORGANIZER, True)


def test_an_organizer_cannot_spend_an_invitation_on_himself(owner):
    _invitation, key = invitation_create(club=owner.club, by=owner.player.user)

    with pytest.raises(InvitationRefused, match="already organize"):
        invitation_accept(key=key, user=owner.player.user)
    assert invitation_of(key) is not None


def test_a_name_the_club_has_already_is_refused(owner):
    MembershipFactory(club=owner.club, player__name="Cora Clay")
    _invitation, key = invitation_create(club=owner.club, by=owner.player.user)

    with pytest.raises(InvitationRefused, match="already has a player named"):
        invitation_accept(key=key, user=UserFactory(first_name="cora  clay"))
    assert invitation_of(key) is not None


def test_a_spent_or_taken_back_invitation_cannot_be_taken_back(owner):
    invitation, key = invitation_create(club=owner.club, by=owner.player.user)
    invitation_accept(key=key, user=UserFactory())

    with pytest.raises(InvitationRefused, match="no longer open"):
        invitation_revoke(invitation=invitation, by=owner.player.user)


def test_each_step_is_in_the_club_record_without_the_address(owner, committed, mailoutbox):
    by = owner.player.user
    invitation, key = committed(invitation_create, club=owner.club, by=by, email="cora@example.org")
    second, _ = invitation_create(club=owner.club, by=by)
    invitation_revoke(invitation=second, by=by)
    cora = UserFactory(first_name="Cora")
    invitation_accept(key=key, user=cora)

    records = list(owner.club.records.values_list("action", "user", "details"))
    actions = [action for action, _user, _details in records]
    assert actions == [
        ClubRecord.Action.INVITED,
        ClubRecord.Action.INVITED,
        ClubRecord.Action.INVITE_REVOKED,
        ClubRecord.Action.MEMBER,
        ClubRecord.Action.INVITE_TAKEN,
    ]
    assert records[0][2]["by_email"] is True
    assert records[-1][1:] == (cora.pk, {"player": "Cora", "made": invitation.made_at.isoformat()})
    assert "cora@example.org" not in str(records)
    assert [mail.to for mail in mailoutbox] == [["cora@example.org"]]


def test_the_mailed_invitation_is_written_in_the_club_language(owner, committed, mailoutbox):
    owner.club.language = "de"
    owner.club.save()

    committed(invitation_create, club=owner.club, by=owner.player.user, email="cora@example.org")

    assert "Olga" in mailoutbox[0].body
    assert mailoutbox[0].subject == f"Organisieren Sie {owner.club.name} auf Knock"
    assert "/invitations/" in mailoutbox[0].body
