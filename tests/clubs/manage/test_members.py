import pytest
from django.urls import reverse

from clubs.models import Membership, Player
from tests.conftest import messages_after
from tests.factories import ClubNightFactory, MembershipFactory

pytestmark = pytest.mark.django_db


def list_url(club, **query):
    url = reverse("manage:member-list", args=[club.slug])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def edit_url(membership):
    return reverse("manage:member-edit", args=[membership.club.slug, membership.pk])


def names(response):
    return [row.record.player.name for row in response.context["table"].page.object_list]


def test_the_member_list_finds_members_by_part_of_their_name_or_email(client, organizer):
    club = organizer.club
    MembershipFactory(club=club, player__name="Ada Lovelace")
    MembershipFactory(club=club, player__name="Bob Byte", player__email="bob@lace.org")
    MembershipFactory(club=club, player__name="Cy Young")

    assert names(client.get(list_url(club, q="LACE"))) == ["Ada Lovelace", "Bob Byte"]


def test_deactivated_members_show_only_when_asked_for(client, organizer):
    club = organizer.club
    MembershipFactory(club=club, player__name="Gone Greta", active=False)

    assert "Gone Greta" not in names(client.get(list_url(club)))
    assert "Gone Greta" in names(client.get(list_url(club, inactive="on")))


@pytest.mark.parametrize("members", [1, 60])
def test_member_list_query_count_does_not_grow_with_members(
    client, organizer, django_assert_max_num_queries, members
):
    MembershipFactory.create_batch(members, club=organizer.club)
    with django_assert_max_num_queries(8):
        response = client.get(list_url(organizer.club))
    assert response.status_code == 200
    assert len(names(response)) == min(members + 1, 50)


def test_a_hostile_name_is_escaped_in_the_member_list(client, organizer):
    MembershipFactory(club=organizer.club, player__name="<script>alert(1)</script>")
    text = client.get(list_url(organizer.club)).text
    assert "<script>alert(1)</script>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text


def test_an_organizer_adds_a_member_who_agreed_to_be_listed(client, organizer):
    response = client.post(
        reverse("manage:member-add", args=[organizer.club.slug]),
        {"name": "Dora Diaz", "email": "dora@example.org", "role": "member", "listed": "on"},
    )
    assert response.status_code == 302
    membership = organizer.club.memberships.get(player__name="Dora Diaz")
    assert (membership.role, membership.listed, membership.active) == ("member", True, True)
    assert "Dora Diaz" in client.get(organizer.club.get_absolute_url()).text


def test_a_second_player_of_the_same_name_is_refused_with_a_message(client, organizer):
    MembershipFactory(club=organizer.club, player__name="Dora Diaz")
    response = client.post(
        reverse("manage:member-add", args=[organizer.club.slug]),
        {"name": "Dora Diaz", "role": "member"},
    )
    assert response.status_code == 200
    assert "already has a player named Dora Diaz" in response.text
    assert organizer.club.memberships.filter(player__name="Dora Diaz").count() == 1


def test_a_guest_becomes_a_member_on_the_edit_page(client, organizer):
    guest = MembershipFactory(club=organizer.club, player__name="Wanda", role=Membership.Role.GUEST)
    response = client.post(edit_url(guest), {"name": "Wanda Walker", "email": "", "role": "member"})
    assert response.status_code == 302
    guest.refresh_from_db()
    assert (guest.player.name, guest.role, guest.listed) == ("Wanda Walker", "member", False)


def test_the_edit_page_does_not_offer_an_organizer_s_role(client, organizer):
    response = client.get(edit_url(organizer))
    assert "role" not in response.context["form"].fields
    client.post(edit_url(organizer), {"name": "Renamed", "role": "guest"})
    organizer.refresh_from_db()
    assert (organizer.player.name, organizer.role) == ("Renamed", "organizer")


def test_a_deactivated_member_is_no_longer_offered_for_a_party(client, organizer):
    night = ClubNightFactory(club=organizer.club)
    member = MembershipFactory(club=organizer.club, player__name="Gone Greta")
    night_url = reverse("manage:night-detail", args=[night.pk])

    def offered():
        return list(client.get(night_url).context["form"].fields["players"].queryset)

    assert member.player in offered()

    response = client.post(
        reverse("manage:member-deactivate", args=[organizer.club.slug, member.pk])
    )

    assert response.status_code == 302
    assert member.player not in offered()
    assert Player.objects.filter(pk=member.player_id).exists()
    client.post(reverse("manage:member-reactivate", args=[organizer.club.slug, member.pk]))
    assert member.player in offered()


def test_an_organizer_cannot_be_deactivated_from_the_list(client, organizer):
    response = client.post(
        reverse("manage:member-deactivate", args=[organizer.club.slug, organizer.pk]),
        follow=True,
    )
    assert "the owner revokes that first" in response.text
    organizer.refresh_from_db()
    assert organizer.active


def test_another_club_s_member_is_not_found_under_this_club_s_address(client, organizer):
    elsewhere = MembershipFactory(player__name="Foreign Fred")
    url = reverse("manage:member-edit", args=[organizer.club.slug, elsewhere.pk])
    assert client.get(url).status_code == 404
    assert client.post(url, {"name": "Hijacked", "role": "member"}).status_code == 404
    elsewhere.player.refresh_from_db()
    assert elsewhere.player.name == "Foreign Fred"


def test_a_guest_added_at_the_door_comes_back_ticked_on_the_night_page(client, organizer):
    night = ClubNightFactory(club=organizer.club)
    night_url = reverse("manage:night-detail", args=[night.pk])
    guest_url = reverse("manage:guest-add", args=[organizer.club.slug])
    assert f"{guest_url}?next=" in client.get(night_url).text

    response = client.post(guest_url, {"name": "Walk-in Wanda", "next": night_url})

    guest = organizer.club.memberships.get(player__name="Walk-in Wanda")
    assert guest.role == Membership.Role.GUEST
    assert response.status_code == 302
    assert response.url == f"{night_url}?guest={guest.player_id}"
    form = client.get(response.url).context["form"]
    assert form["players"].value() == [str(guest.player_id)]


def test_the_guest_page_does_not_send_anyone_to_another_site(client, organizer):
    response = client.post(
        reverse("manage:guest-add", args=[organizer.club.slug]),
        {"name": "Walk-in Wanda", "next": "https://evil.example/"},
    )
    assert response.url == list_url(organizer.club)


def test_a_party_with_a_deactivated_member_is_refused_on_the_server(client, organizer):
    night = ClubNightFactory(club=organizer.club)
    active = MembershipFactory(club=organizer.club)
    gone = MembershipFactory(club=organizer.club, active=False)

    response = client.post(
        reverse("manage:night-detail", args=[night.pk]),
        {"format": "two", "players": [active.player_id, gone.player_id]},
    )

    assert response.status_code == 200
    assert response.context["form"].errors["players"]
    assert not night.parties.exists()


def test_the_add_member_form_sent_twice_adds_one_member_and_shows_it(client, organizer, sent_twice):
    first, second = sent_twice(
        reverse("manage:member-add", args=[organizer.club.slug]),
        {"name": "Dora Diaz", "role": "member"},
    )

    membership = organizer.club.memberships.get(player__name="Dora Diaz")
    assert first.status_code == 302
    assert second["Location"] == reverse(
        "manage:member-edit", args=[organizer.club.slug, membership.pk]
    )
    assert "This form was already sent: here is what it made." in messages_after(client, second)
