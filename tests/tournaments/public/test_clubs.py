import pytest
from django.urls import reverse

from clubs.models import Membership
from demo.loader import DEMO_PASSWORD, DEMO_USERNAME, load_demo
from tests.factories import ClubFactory, MembershipFactory, OrganizerFactory, UserFactory

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
    MembershipFactory.create_batch(members, club=club)
    with django_assert_max_num_queries(5):
        response = client.get(club.get_absolute_url())
    assert response.status_code == 200
    assert len(response.context["table"].page.object_list) == members


def test_club_page_lists_members_by_name(client):
    club = ClubFactory()
    MembershipFactory(club=club, player__name="Zelda Zimmer")
    MembershipFactory(club=club, player__name="Anton Abel")

    text = client.get(club.get_absolute_url()).text

    assert text.index("Anton Abel") < text.index("Zelda Zimmer")


def test_unknown_club_is_a_friendly_404(client):
    response = client.get("/clubs/no-such-club/")
    assert response.status_code == 404
    assert "There is no such page" in response.text


def test_page_number_out_of_range_is_not_a_server_error(client):
    club = ClubFactory()
    MembershipFactory(club=club, player__name="Anton Abel")
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
    assert response.context["user"].player.memberships.get().role == Membership.Role.ORGANIZER


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
