import pytest
from django.urls import reverse

from clubs.models import Membership
from demo.loader import DEMO_PASSWORD, DEMO_USERNAME, load_demo
from scoring.services.parties import party_cancel
from tests.factories import (
    ClubFactory,
    ClubNightFactory,
    MembershipFactory,
    OrganizerFactory,
    UserFactory,
    start_night_party,
)

pytestmark = pytest.mark.django_db


def test_home_lists_clubs_with_member_counts(client):
    club = ClubFactory(name="Knickerbocker Whist Club")
    MembershipFactory.create_batch(3, club=club)

    response = client.get(reverse("home"))

    assert response.status_code == 200
    assert "Knickerbocker Whist Club" in response.text
    assert club.get_absolute_url() in response.text
    assert response.context["table"].rows[0].get_cell("member_count") == 3


@pytest.mark.parametrize("clubs", [1, 30])
def test_home_query_count_does_not_grow_with_clubs(client, django_assert_max_num_queries, clubs):
    for club in ClubFactory.create_batch(clubs):
        MembershipFactory.create_batch(2, club=club)
    with django_assert_max_num_queries(3):
        response = client.get(reverse("home"))
    assert response.status_code == 200


@pytest.mark.parametrize("members", [1, 40])
def test_club_page_query_count_does_not_grow_with_members(
    client, django_assert_max_num_queries, members
):
    club = ClubFactory()
    MembershipFactory.create_batch(members, club=club, listed=True)
    # The club, its members (counted and paged), its season, ratings and events,
    # and the games its parties play (the ratings open on the one played most).
    with django_assert_max_num_queries(11):
        response = client.get(club.get_absolute_url())
    assert response.status_code == 200
    assert len(response.context["table"].page.object_list) == members


def test_club_page_lists_members_by_name(client):
    club = ClubFactory()
    MembershipFactory(club=club, player__name="Zelda Zimmer", listed=True)
    MembershipFactory(club=club, player__name="Anton Abel", listed=True)

    text = client.get(club.get_absolute_url()).text

    assert text.index("Anton Abel") < text.index("Zelda Zimmer")


def test_club_page_names_only_members_who_agreed_to_be_listed(client):
    club = ClubFactory()
    MembershipFactory(club=club, player__name="Anton Abel", listed=True)
    MembershipFactory(club=club, player__name="Quiet Quentin", listed=False)
    MembershipFactory(club=club, player__name="Gone Greta", listed=True, active=False)
    MembershipFactory(
        club=club, player__name="Guest Gustav", listed=True, role=Membership.Role.GUEST
    )

    text = client.get(club.get_absolute_url()).text

    assert "Anton Abel" in text
    for hidden in ("Quiet Quentin", "Gone Greta", "Guest Gustav"):
        assert hidden not in text


def test_home_counts_active_members_not_guests(client):
    club = ClubFactory()
    MembershipFactory.create_batch(2, club=club)
    MembershipFactory(club=club, active=False)
    MembershipFactory(club=club, role=Membership.Role.GUEST)

    response = client.get(reverse("home"))

    assert response.context["table"].rows[0].get_cell("member_count") == 2


def test_a_hostile_member_name_is_shown_as_text(client):
    club = ClubFactory()
    MembershipFactory(club=club, player__name="<script>alert(1)</script>", listed=True)

    text = client.get(club.get_absolute_url()).text

    assert "<script>alert(1)</script>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text


def test_unknown_club_is_a_friendly_404(client):
    response = client.get("/clubs/no-such-club/")
    assert response.status_code == 404
    assert "There is no such page" in response.text


def test_page_number_out_of_range_is_not_a_server_error(client):
    club = ClubFactory()
    MembershipFactory(club=club, player__name="Anton Abel", listed=True)
    for page in ("999", "abc", "-1"):
        response = client.get(club.get_absolute_url(), {"page": page})
        assert response.status_code == 200
        assert "Anton Abel" in response.text


def test_demo_organizer_logs_in_with_the_printed_password(client):
    load_demo()
    response = client.post(
        reverse("login"), {"username": DEMO_USERNAME, "password": DEMO_PASSWORD}, follow=True
    )
    assert response.context["user"].is_authenticated
    assert response.context["user"].player.memberships.get().role == Membership.Role.OWNER


def test_wrong_password_shows_an_error_not_a_crash(client):
    UserFactory(username="ada")
    response = client.post(reverse("login"), {"username": "ada", "password": "nope"})
    assert response.status_code == 200
    assert not response.context["user"].is_authenticated
    assert "Please enter a correct username and password" in response.text


def test_logout_ends_the_session(client):
    organizer = OrganizerFactory()
    client.force_login(organizer.player.user)
    client.post(reverse("logout"))
    assert "_auth_user_id" not in client.session


def test_german_is_chosen_from_the_browser(client):
    response = client.get(reverse("home"), headers={"accept-language": "de"})
    assert 'lang="de"' in response.text
    assert "Anmelden" in response.text


def test_language_switch_remembers_the_choice(client):
    client.post(reverse("set_language"), {"language": "de", "next": "/"})
    assert 'lang="de"' in client.get(reverse("home")).text
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert 'lang="en"' in client.get(reverse("home")).text


def test_after_login_an_organizer_lands_on_their_clubs(client):
    OrganizerFactory(player__user__username="cora", club__name="Cora's Club")
    response = client.post(
        reverse("login"), {"username": "cora", "password": "correct horse battery"}, follow=True
    )
    assert response.redirect_chain[-1][0] == reverse("manage:club-list")
    assert [row.record.name for row in response.context["table"].rows] == ["Cora's Club"]


def test_a_next_page_from_the_login_form_goes_first(client):
    OrganizerFactory(player__user__username="cora")
    response = client.post(
        reverse("login"),
        {"username": "cora", "password": "correct horse battery", "next": "/clubs/x/"},
    )
    assert response.url == "/clubs/x/"


def test_a_cancelled_party_is_not_counted_on_the_clubs_page(client):
    night = ClubNightFactory(name="Friday")
    start_night_party(night)
    party_cancel(party=start_night_party(night), user=None, reason="Wrong players")

    page = client.get(night.club.get_absolute_url())

    assert [n.party_count for n in page.context["nights"]] == [1]
    assert "1 party" in page.text
