import pytest
from django.test import Client
from django.urls import reverse

from clubs.invitations import invitation_create, invitation_revoke
from clubs.models import Membership
from tests.clubs.conftest import link_in
from tests.factories import OrganizerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return OrganizerFactory(role=Membership.Role.OWNER, player__name="Olga")


@pytest.fixture
def key(owner):
    return invitation_create(club=owner.club, by=owner.player.user)[1]


def url(key):
    return reverse("public:invitation", args=[key])


def test_a_visitor_is_offered_to_sign_up_or_log_in_and_come_back(client, owner, key):
    page = client.get(url(key))

    assert page.status_code == 200
    assert owner.club.name in page.text
    assert f"{reverse('signup')}?next={url(key)}" in page.text
    assert f"{reverse('login')}?next=" in page.text
    assert client.post(url(key)).status_code == 200
    assert owner.club.memberships.count() == 1


def test_a_logged_in_person_accepts_and_organizes_the_club(client, owner, key):
    cora = UserFactory(first_name="Cora Clay")
    client.force_login(cora)

    response = client.post(url(key), follow=True)

    assert response.redirect_chain[-1][0] == reverse("manage:club-detail", args=[owner.club.slug])
    assert "You organize" in response.text
    assert owner.club.memberships.get(player__user=cora).role == Membership.Role.ORGANIZER


def test_a_used_link_gives_a_clear_page(client, owner, key):
    client.force_login(UserFactory())
    client.post(url(key))

    again = Client().get(url(key))

    assert again.status_code == 404
    assert "This invitation no longer works" in again.text


def test_a_revoked_link_gives_a_clear_page(client, owner):
    invitation, key = invitation_create(club=owner.club, by=owner.player.user)
    invitation_revoke(invitation=invitation, by=owner.player.user)
    client.force_login(UserFactory())

    for response in (client.get(url(key)), client.post(url(key))):
        assert response.status_code == 404
        assert "This invitation no longer works" in response.text
    assert owner.club.memberships.count() == 1


def test_a_wrong_link_gives_a_clear_page(client):
    response = client.get(url("no-such-key"))
    assert response.status_code == 404
    assert "This invitation no longer works" in response.text


def test_the_owner_opening_his_own_link_is_told_why_not(client, owner, key):
    client.force_login(owner.player.user)

    response = client.post(url(key))

    assert response.status_code == 400
    assert "You already organize" in response.text


def test_signing_up_from_an_invitation_ends_in_the_club(client, owner, key, committed, mailoutbox):
    committed(client.post, reverse("signup"), {"email": "cora@example.org", "next": url(key)})
    confirm = link_in(mailoutbox[0], "/signup/")

    newcomer = Client()
    chosen = {"name": "Cora Clay", "password": "a long new secret 42"}
    landed = newcomer.post(confirm, chosen, follow=True)
    accepted = newcomer.post(url(key), follow=True)

    assert landed.redirect_chain[-1][0] == url(key)
    assert "Accept the invitation" in landed.text
    assert "You organize" in accepted.text
    cora = owner.club.memberships.get(player__name="Cora Clay")
    assert cora.role == Membership.Role.ORGANIZER
    assert cora.player.user.email == "cora@example.org"


def test_the_invitation_page_is_not_kept_by_the_browser(client, key):
    assert "no-store" in client.get(url(key))["Cache-Control"]
