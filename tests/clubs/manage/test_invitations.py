import re

import pytest
from django.test import Client
from django.urls import reverse

from clubs.invitations import invitation_accept, invitation_create
from clubs.models import ClubRecord, Invitation, Membership
from tests.factories import OrganizerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner(client):
    membership = OrganizerFactory(role=Membership.Role.OWNER, player__name="Olga")
    client.force_login(membership.player.user)
    return membership


def list_url(club):
    return reverse("manage:invitation-list", args=[club.slug])


def test_an_invitation_by_link_shows_its_link_once(client, owner):
    response = client.post(list_url(owner.club), {"email": ""}, follow=True)

    text = " ".join(str(m) for m in response.context["messages"])
    link = re.search(r"http://\S+(/invitations/\S+/)", text).group(1)
    assert Client().get(link).status_code == 200
    assert link not in client.get(list_url(owner.club)).text
    assert owner.club.invitations.get().email == ""


def test_an_invitation_by_email_is_mailed_and_listed_for_the_owner(
    client, owner, committed, mailoutbox
):
    response = committed(
        client.post, list_url(owner.club), {"email": "cora@example.org"}, follow=True
    )

    assert "on its way" in response.text
    assert [mail.to for mail in mailoutbox] == [["cora@example.org"]]
    assert "cora@example.org" in response.text
    assert "http://" not in response.text.split("<main>")[1]  # the key stays in the mail


def test_a_wrong_address_is_refused_beside_the_form(client, owner, mailoutbox):
    response = client.post(list_url(owner.club), {"email": "not an address"})

    assert response.status_code == 400
    assert "valid email" in response.text
    assert not Invitation.objects.exists()


def test_the_owner_takes_an_invitation_back(client, owner):
    invitation, key = invitation_create(club=owner.club, by=owner.player.user)

    response = client.post(
        reverse("manage:invitation-revoke", args=[owner.club.slug, invitation.pk]), follow=True
    )

    assert "taken back" in response.text
    assert Client().get(reverse("public:invitation", args=[key])).status_code == 404
    assert owner.club.records.filter(action=ClubRecord.Action.INVITE_REVOKED).count() == 1


def test_taking_back_twice_says_it_is_no_longer_open(client, owner):
    invitation, _key = invitation_create(club=owner.club, by=owner.player.user)
    url = reverse("manage:invitation-revoke", args=[owner.club.slug, invitation.pk])
    client.post(url)

    response = client.post(url, follow=True)

    assert "no longer open" in response.text
    assert owner.club.records.filter(action=ClubRecord.Action.INVITE_REVOKED).count() == 1


def test_a_plain_organizer_cannot_invite_or_take_back(client, owner):
    invitation, _key = invitation_create(club=owner.club, by=owner.player.user)
    organizer = OrganizerFactory(club=owner.club)
    client.force_login(organizer.player.user)

    assert client.get(list_url(owner.club)).status_code == 403
    assert client.post(list_url(owner.club), {"email": ""}).status_code == 403
    revoke = reverse("manage:invitation-revoke", args=[owner.club.slug, invitation.pk])
    assert client.post(revoke).status_code == 403
    assert Invitation.objects.filter(revoked_at__isnull=True).count() == 1


def test_another_club_owner_finds_nothing(client, owner):
    invitation, _key = invitation_create(club=owner.club, by=owner.player.user)
    other = OrganizerFactory(role=Membership.Role.OWNER)
    client.force_login(other.player.user)

    assert client.get(list_url(owner.club)).status_code == 404
    revoke = reverse("manage:invitation-revoke", args=[other.club.slug, invitation.pk])
    assert client.post(revoke).status_code == 404


def test_the_invitation_list_costs_the_same_queries_for_many(
    client, owner, django_assert_max_num_queries
):
    def count():
        with django_assert_max_num_queries(12) as queries:
            assert client.get(list_url(owner.club)).status_code == 200
        return len(queries)

    invitation_create(club=owner.club, by=owner.player.user)
    few = count()
    for n in range(15):
        _invitation, key = invitation_create(
            club=owner.club, by=owner.player.user, email=f"p{n}@x.org"
        )
        if n % 2:
            invitation_accept(key=key, user=UserFactory(first_name=f"P {n}"))
    assert count() == few
