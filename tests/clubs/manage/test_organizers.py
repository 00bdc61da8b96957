import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from clubs.models import Membership
from tests.factories import ClubFactory, MembershipFactory, OrganizerFactory

pytestmark = pytest.mark.django_db

PASSWORD = "a long new secret 42"


@pytest.fixture
def owner(client):
    membership = OrganizerFactory(role=Membership.Role.OWNER, player__user__password=None)
    client.force_login(membership.player.user)
    return membership


def invite(client, club, member, username="cora"):
    return client.post(
        reverse("manage:organizer-invite", args=[club.slug]),
        {"member": member.pk, "username": username},
        follow=True,
    )


def link_in(response) -> str:
    text = " ".join(str(m) for m in response.context["messages"])
    return re.search(r"http://testserver(/welcome/\S+/)", text).group(1)


def choose_password(browser, link):
    form_url = browser.get(link).url  # Django hides the token behind a redirect.
    return browser.post(
        form_url, {"new_password1": PASSWORD, "new_password2": PASSWORD}, follow=True
    )


def test_the_owner_gives_a_committee_member_a_login_for_this_club_only(client, owner):
    member = MembershipFactory(club=owner.club, player__name="Cora Clay")
    OrganizerFactory(club=ClubFactory(name="Other Club"))

    link = link_in(invite(client, owner.club, member))

    newcomer = Client()
    response = choose_password(newcomer, link)
    assert response.redirect_chain[-1][0] == reverse("manage:club-list")
    assert response.context["user"].username == "cora"
    clubs = [row.record.name for row in response.context["table"].rows]
    assert clubs == [owner.club.name]
    user = get_user_model().objects.get(username="cora")
    assert user.check_password(PASSWORD)
    assert not (user.is_staff or user.is_superuser)
    assert newcomer.get(reverse("manage:member-list", args=[owner.club.slug])).status_code == 200


def test_the_password_link_works_only_once(client, owner):
    member = MembershipFactory(club=owner.club)
    link = link_in(invite(client, owner.club, member))
    choose_password(Client(), link)

    response = Client().get(link, follow=True)

    assert "This link no longer works" in response.text


def test_a_revoked_invitation_link_no_longer_works(client, owner):
    member = MembershipFactory(club=owner.club)
    link = link_in(invite(client, owner.club, member))

    client.post(reverse("manage:organizer-revoke", args=[owner.club.slug, member.pk]))

    member.refresh_from_db()
    assert member.role == Membership.Role.MEMBER
    assert "This link no longer works" in Client().get(link, follow=True).text


def test_a_revoked_organizer_finds_nothing_of_the_club(client, owner):
    organizer = OrganizerFactory(club=owner.club, player__user__password=None)
    former = Client()
    former.force_login(organizer.player.user)
    url = reverse("manage:member-list", args=[owner.club.slug])
    assert former.get(url).status_code == 200

    client.post(reverse("manage:organizer-revoke", args=[owner.club.slug, organizer.pk]))

    assert former.get(url).status_code == 404


def test_the_owner_sees_the_link_again_until_it_is_used(client, owner):
    member = MembershipFactory(club=owner.club)
    invite(client, owner.club, member)
    response = client.post(
        reverse("manage:organizer-link", args=[owner.club.slug, member.pk]), follow=True
    )
    choose_password(Client(), link_in(response))
    assert get_user_model().objects.get(username="cora").check_password(PASSWORD)


def test_a_plain_organizer_sees_who_organizes_but_cannot_invite(client, owner):
    organizer = OrganizerFactory(club=owner.club, player__user__password=None)
    member = MembershipFactory(club=owner.club)
    client.force_login(organizer.player.user)

    page = client.get(reverse("manage:organizer-list", args=[owner.club.slug]))
    refused = invite(client, owner.club, member)

    assert owner.player.name in page.text
    assert page.context["form"] is None
    assert refused.status_code == 403
    assert "Only the owner" in refused.text
    member.refresh_from_db()
    assert member.role == Membership.Role.MEMBER


def test_a_taken_user_name_is_refused_beside_the_form(client, owner):
    OrganizerFactory(player__user__username="cora", player__user__password=None)
    member = MembershipFactory(club=owner.club)

    response = invite(client, owner.club, member, username="Cora")

    assert response.status_code == 400
    assert "is taken" in response.text
    member.refresh_from_db()
    assert member.role == Membership.Role.MEMBER


def test_a_guest_is_not_offered_as_an_organizer(client, owner):
    guest = MembershipFactory(club=owner.club, role=Membership.Role.GUEST)
    page = client.get(reverse("manage:organizer-list", args=[owner.club.slug]))
    assert guest not in page.context["form"].fields["member"].queryset
    assert invite(client, owner.club, guest).status_code == 400


def test_co_organizers_are_named_by_their_names_never_their_logins(client, owner):
    """A login's name is often its e-mail address (sign-up): a co-organizer reads
    the club's organizers by name, and no login of another."""
    signed_up = OrganizerFactory(club=owner.club, player__user__username="greta@example.org")
    new = MembershipFactory(club=owner.club, player__name="Cora Clay")
    invite(client, owner.club, new, username="cora.login@example.org")
    organizer = OrganizerFactory(club=owner.club)
    client.force_login(organizer.player.user)

    page = client.get(reverse("manage:organizer-list", args=[owner.club.slug])).text

    assert signed_up.player.name in page and "Cora Clay" in page
    for login in ("greta@example.org", "cora.login@example.org", owner.player.user.username):
        assert login not in page


def test_the_owner_sees_only_the_login_he_made_until_its_password_is_chosen(client, owner):
    """The owner hands a new login over with its password link, so he reads the
    name he typed for it until the password is chosen; an address a co-organizer
    signed up with stays his own."""
    OrganizerFactory(club=owner.club, player__user__username="greta@example.org")
    new = MembershipFactory(club=owner.club, player__name="Cora Clay")
    link = link_in(invite(client, owner.club, new, username="cora.login"))
    url = reverse("manage:organizer-list", args=[owner.club.slug])

    before = client.get(url).text
    choose_password(Client(), link)
    after = client.get(url).text

    assert "cora.login" in before and "greta@example.org" not in before
    assert "cora.login" not in after and "Cora Clay" in after
