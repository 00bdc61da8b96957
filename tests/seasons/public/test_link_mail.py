"""A player's own page reaches him by mail: its link is sent when he joins a club
with an address, and again from the public "send my link again" page, which
answers the same for every address and is throttled."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from clubs import services
from clubs.models import Membership
from seasons.models import PlayerLink
from tests.factories import ClubFactory, MembershipFactory

pytestmark = pytest.mark.django_db

AGAIN = reverse("public:player-link-again")


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """What a write leaves for after its commit (the mail's task) runs, as a real
    request's commit would."""

    def run(action, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return action(*args, **kwargs)

    return run


def shown(page) -> str:
    """The page without what differs at every answer (the CSRF token, the nonce)."""
    return re.sub(r'(value|nonce)="[^"]*"', "", page.text)


def own_link(message) -> str:
    return re.search(r"https?://[^/\s]+(/me/[^/\s]+/)", message.body).group(1)


def test_a_member_added_with_an_address_is_mailed_the_link_to_his_own_page(
    client, organizer, committed
):
    club = organizer.club
    committed(
        client.post,
        reverse("manage:member-add", args=[club.slug]),
        {"name": "Ada Whitcombe", "email": "ada@example.org", "role": "member"},
    )

    (message,) = mail.outbox
    assert message.to == ["ada@example.org"]
    assert club.name in message.subject
    page = client.get(own_link(message))
    assert page.status_code == 200
    assert "Ada Whitcombe" in page.text
    assert AGAIN in message.body


def test_members_added_without_an_address_or_as_the_demo_adds_them_get_what_they_can(committed):
    club = ClubFactory()
    committed(services.member_add, club=club, name="No Address")
    committed(services.member_add, club=club, name="Bernard Okafor", email="bo@example.org")
    assert [m.to for m in mail.outbox] == [["bo@example.org"]]
    # Added again (the demo loaded twice): no second mail.
    committed(services.member_add, club=club, name="Bernard Okafor", email="bo@example.org")
    assert len(mail.outbox) == 1


def test_the_link_asked_for_again_is_the_one_the_player_has(client, committed):
    member = MembershipFactory(player__email="Ada@Example.org")
    committed(client.post, AGAIN, {"email": "ada@example.org"})
    committed(client.post, AGAIN, {"email": "ada@example.org"})

    first, second = mail.outbox
    assert first.to == ["Ada@Example.org"]
    assert own_link(first) == own_link(second)
    link = PlayerLink.objects.get(player=member.player)
    assert own_link(first) == f"/me/{link.token}/"


def test_the_page_answers_the_same_for_a_known_and_an_unknown_address(client, committed):
    MembershipFactory(player__email="ada@example.org")
    known = committed(client.post, AGAIN, {"email": "ada@example.org"})
    unknown = committed(client.post, AGAIN, {"email": "nobody@example.org"})

    assert known.status_code == unknown.status_code == 200
    assert shown(known) == shown(unknown)
    assert [m.to for m in mail.outbox] == [["ada@example.org"]]


def test_a_left_member_is_not_mailed(client, committed):
    MembershipFactory(player__email="gone@example.org", active=False)
    committed(client.post, AGAIN, {"email": "gone@example.org"})
    assert mail.outbox == []


def test_one_network_asking_too_often_is_told_to_wait(client, settings, committed):
    settings.ACCOUNT_MAIL_LIMIT = 2
    answers = [
        committed(client.post, AGAIN, {"email": f"p{n}@example.org"}).status_code for n in range(3)
    ]
    assert answers == [200, 200, 429]


def test_one_address_is_mailed_a_few_times_whoever_asks(client, settings, committed):
    settings.ACCOUNT_MAIL_LIMIT = 2
    MembershipFactory(player__email="ada@example.org")
    for n in range(4):
        answer = committed(
            client.post, AGAIN, {"email": "ada@example.org"}, REMOTE_ADDR=f"198.51.100.{n}"
        )
        assert answer.status_code == 200
    assert len(mail.outbox) == 2


def test_a_bad_address_is_asked_again_in_words(client):
    answer = client.post(AGAIN, {"email": "not an address"})
    assert answer.status_code == 400
    assert "valid email" in answer.text
    assert Membership.objects.count() == 0


@pytest.mark.parametrize("typed", ["ada\x00@example.org", "\u202e@example.org", "a" * 300])
def test_hostile_input_is_a_form_error_never_a_500(client, typed):
    answer = client.post(AGAIN, {"email": typed})
    assert answer.status_code == 400
    assert mail.outbox == []
