import importlib

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db.models import ProtectedError

from clubs import services
from clubs.models import Membership, Player
from clubs.services import MemberRefused, invitation_tokens
from tests.factories import (
    MembershipFactory,
    OrganizerFactory,
    UserFactory,
    start_party,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return OrganizerFactory(role=Membership.Role.OWNER)


def test_a_guest_is_added_with_a_name_only(owner):
    guest = services.member_create(
        club=owner.club, name="  Walk-in Wanda ", role=Membership.Role.GUEST, by=None
    )
    assert (guest.player.name, guest.player.email) == ("Walk-in Wanda", "")
    assert guest.role == Membership.Role.GUEST
    assert guest.active and not guest.listed


def test_a_name_already_in_the_club_is_refused_in_any_case(owner):
    MembershipFactory(club=owner.club, player__name="Ada Lovelace")
    with pytest.raises(MemberRefused, match="already has a player named"):
        services.member_create(club=owner.club, name="ada lovelace", by=None)
    assert owner.club.memberships.count() == 2


def test_the_same_name_may_play_in_another_club(owner):
    MembershipFactory(player__name="Ada Lovelace")
    services.member_create(club=owner.club, name="Ada Lovelace", by=None)
    assert Player.objects.filter(name="Ada Lovelace").count() == 2


@pytest.mark.parametrize("role", [Membership.Role.ORGANIZER, Membership.Role.OWNER])
def test_the_member_list_does_not_make_organizers(owner, role):
    with pytest.raises(MemberRefused):
        services.member_create(club=owner.club, name="Sneaky", role=role, by=None)
    guest = MembershipFactory(club=owner.club, role=Membership.Role.GUEST)
    with pytest.raises(MemberRefused):
        services.member_update(
            membership=guest, name=guest.player.name, email="", role=role, listed=False, by=None
        )
    guest.refresh_from_db()
    assert guest.role == Membership.Role.GUEST


def test_a_guest_becomes_a_member_with_a_corrected_name(owner):
    guest = services.member_create(
        club=owner.club, name="Wanda", role=Membership.Role.GUEST, by=None
    )
    services.member_update(
        membership=guest,
        name="Wanda Walker",
        email="wanda@example.org",
        role=Membership.Role.MEMBER,
        listed=True,
        by=None,
    )
    guest.refresh_from_db()
    guest.player.refresh_from_db()
    assert (guest.player.name, guest.player.email) == ("Wanda Walker", "wanda@example.org")
    assert (guest.role, guest.listed) == (Membership.Role.MEMBER, True)


def test_renaming_onto_another_member_s_name_is_refused(owner):
    MembershipFactory(club=owner.club, player__name="Ada")
    bob = MembershipFactory(club=owner.club, player__name="Bob")
    with pytest.raises(MemberRefused):
        services.member_update(
            membership=bob, name="ADA", email="", role=bob.role, listed=False, by=None
        )
    bob.player.refresh_from_db()
    assert bob.player.name == "Bob"


def test_an_organizer_s_role_is_not_changed_in_the_member_list(owner):
    with pytest.raises(MemberRefused, match="only the owner"):
        services.member_update(
            membership=owner,
            name=owner.player.name,
            email="",
            role=Membership.Role.GUEST,
            listed=False,
            by=None,
        )
    owner.refresh_from_db()
    assert owner.role == Membership.Role.OWNER


def test_a_deactivated_member_keeps_their_party_and_can_come_back():
    party = start_party()
    membership = party.seats.first().player.memberships.get()

    services.member_deactivate(membership=membership, by=None)
    membership.refresh_from_db()
    assert not membership.active
    assert party.seats.filter(player=membership.player).exists()

    services.member_reactivate(membership=membership, by=None)
    membership.refresh_from_db()
    assert membership.active


def test_an_organizer_is_not_deactivated_before_the_owner_revokes(owner):
    organizer = OrganizerFactory(club=owner.club)
    for membership in (owner, organizer):
        with pytest.raises(MemberRefused):
            services.member_deactivate(membership=membership, by=None)
        membership.refresh_from_db()
        assert membership.active


def test_a_player_who_has_played_cannot_be_deleted():
    party = start_party()
    player = party.seats.first().player
    with pytest.raises(ProtectedError):
        player.delete()
    assert Player.objects.filter(pk=player.pk).exists()


def test_an_invited_member_gets_a_login_with_no_password_that_is_not_staff(owner):
    member = MembershipFactory(club=owner.club, player__email="cora@example.org")

    membership, needs_password = services.organizer_invite(
        membership=member, username="cora", by=owner.player.user
    )

    user = get_user_model().objects.get(username="cora")
    assert membership.role == Membership.Role.ORGANIZER
    assert needs_password
    assert member.player.__class__.objects.get(pk=member.player_id).user == user
    assert not user.has_usable_password()
    assert not user.is_staff
    assert not user.is_superuser
    assert user.email == "cora@example.org"


def test_a_member_with_a_login_is_made_organizer_without_a_new_password(owner):
    elsewhere = OrganizerFactory()
    member = MembershipFactory(club=owner.club, player=elsewhere.player)

    _, needs_password = services.organizer_invite(membership=member, username="", by=None)

    assert not needs_password
    assert elsewhere.player.user.check_password("correct horse battery")


@pytest.mark.parametrize(
    "setup, message",
    [
        ({"role": Membership.Role.GUEST}, "is a guest"),
        ({"active": False}, "is deactivated"),
        ({"role": Membership.Role.ORGANIZER}, "already organizes"),
    ],
)
def test_who_cannot_be_invited(owner, setup, message):
    member = MembershipFactory(club=owner.club, **setup)
    with pytest.raises(MemberRefused, match=message):
        services.organizer_invite(membership=member, username="newname", by=None)
    assert not get_user_model().objects.filter(username="newname").exists()


@pytest.mark.parametrize("username", ["", "  ", "TAKEN"])
def test_a_new_login_needs_a_free_user_name(owner, username):
    UserFactory(username="taken")
    member = MembershipFactory(club=owner.club)
    with pytest.raises(MemberRefused):
        services.organizer_invite(membership=member, username=username, by=None)
    member.refresh_from_db()
    assert member.role == Membership.Role.MEMBER
    assert member.player.user is None


def test_revoking_keeps_the_member_and_kills_the_unused_link(owner):
    member = MembershipFactory(club=owner.club)
    membership, _ = services.organizer_invite(membership=member, username="cora", by=None)
    user = get_user_model().objects.get(username="cora")
    token = invitation_tokens.make_token(user)
    assert invitation_tokens.check_token(user, token)

    services.organizer_revoke(membership=membership, by=None)

    membership.refresh_from_db()
    assert membership.role == Membership.Role.MEMBER
    assert not invitation_tokens.check_token(user, token)


def test_the_set_password_link_works_once(owner):
    member = MembershipFactory(club=owner.club)
    services.organizer_invite(membership=member, username="cora", by=None)
    user = get_user_model().objects.get(username="cora")
    token = invitation_tokens.make_token(user)

    user.set_password("a long new secret 42")
    user.save()

    assert not invitation_tokens.check_token(user, token)


def test_the_owner_cannot_be_revoked_nor_a_plain_member(owner):
    member = MembershipFactory(club=owner.club)
    for membership, message in ((owner, "owns the club"), (member, "does not organize")):
        with pytest.raises(MemberRefused, match=message):
            services.organizer_revoke(membership=membership, by=None)
    owner.refresh_from_db()
    assert owner.role == Membership.Role.OWNER


def test_the_demo_login_is_neither_staff_nor_superuser():
    membership = MembershipFactory(role=Membership.Role.OWNER)
    UserFactory(username="boss", is_staff=True, is_superuser=True)
    user = services.organizer_login_set(membership=membership, username="boss", password="x" * 12)
    assert not user.is_staff
    assert not user.is_superuser


def test_the_migration_takes_superuser_from_organizer_logins_and_makes_organizers_owners():
    migration = importlib.import_module(
        "clubs.migrations.0006_organizers_are_owners_not_superusers"
    )
    organizer = OrganizerFactory(player__user__is_superuser=True, player__user__is_staff=True)
    admin = UserFactory(is_superuser=True, is_staff=True)
    member = MembershipFactory(club=organizer.club)

    # The data steps use only the model registry, never the schema editor.
    migration.organizers_become_owners(apps, None)
    migration.organizer_logins_lose_superuser(apps, None)

    organizer.refresh_from_db()
    organizer.player.user.refresh_from_db()
    admin.refresh_from_db()
    member.refresh_from_db()
    assert organizer.role == Membership.Role.OWNER
    assert not organizer.player.user.is_superuser
    assert not organizer.player.user.is_staff
    assert admin.is_superuser and admin.is_staff
    assert member.role == Membership.Role.MEMBER
