import pytest

from clubs.founding import ClubRefused, club_create, slug_suggestion
from clubs.models import ClubRecord, Membership
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db


def found(user, **fields):
    data = {"name": "Café Pik", "slug": "cafe-pik", "language": "de"}
    return club_create(**{**data, "time_zone": "Europe/Vienna", **fields}, by=user)


def test_the_maker_of_a_club_owns_it_and_plays_under_his_name():
    user = UserFactory(first_name="Nora Nash", email="nora@example.org")

    club = found(user)

    owner = club.memberships.get()
    assert owner.role == Membership.Role.OWNER
    assert owner.player.user == user
    assert owner.player.name == "Nora Nash"
    assert (club.language, club.time_zone) == ("de", "Europe/Vienna")


def test_a_new_club_is_recorded_with_its_owner():
    user = UserFactory(first_name="Nora")

    club = found(user)

    records = list(club.records.values_list("action", "user", "details"))
    assert records[0][:2] == (ClubRecord.Action.FOUNDED, user.pk)
    assert records[0][2]["slug"] == "cafe-pik"
    assert records[1][:2] == (ClubRecord.Action.MEMBER, user.pk)
    assert records[1][2] == {"player": "Nora", "role": "owner"}


def test_a_taken_address_is_refused_with_a_free_one_offered():
    ClubFactory(slug="cafe-pik")
    ClubFactory(slug="cafe-pik-2")

    with pytest.raises(ClubRefused, match="cafe-pik-3 is free") as refusal:
        found(UserFactory())

    assert refusal.value.field == "slug"


def test_the_suggested_address_is_made_from_the_name_and_free():
    assert slug_suggestion("Café Pik  am Markt") == "cafe-pik-am-markt"
    ClubFactory(slug="cafe-pik")
    assert slug_suggestion("Café Pik") == "cafe-pik-2"
    assert slug_suggestion("♠♠♠") == "club"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"time_zone": "Mars/Olympus"}, "time zone"),
        ({"language": "fr"}, "English or German"),
        ({"slug": "Café Pik"}, "small letters"),
        ({"name": "  "}, "club's name"),
    ],
)
def test_a_club_with_a_wrong_field_is_refused_and_nothing_is_written(fields, message):
    with pytest.raises(ClubRefused, match=message):
        found(UserFactory(), **fields)

    assert not Membership.objects.exists()
    assert not ClubRecord.objects.exists()


def test_an_organizer_who_founds_a_second_club_plays_there_as_the_same_player():
    user = UserFactory()
    first = found(user)
    second = found(user, slug="second")

    assert first.memberships.get().player == second.memberships.get().player
