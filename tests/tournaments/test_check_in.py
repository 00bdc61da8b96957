"""Check-in at the door, through the services: many at once and undone, guests
checked in as they are typed, names already entered asked about, and players
checking themselves in with the door link. Every check-in is on the record."""

import pytest

from tests.factories import MembershipFactory, UserFactory
from tournaments import registration, rounds
from tournaments.models import CheckIn, Entrant
from tournaments.records import TournamentError
from tournaments.registration import DuplicateNames

pytestmark = pytest.mark.django_db


@pytest.fixture
def registered(club_with_members):
    """A tournament in registration with the given members entered, none checked in."""

    def make(names=("Anna", "Ben", "Carl")):
        club, players = club_with_members(*names)
        tournament = registration.tournament_create(club=club, name="Door Cup")
        registration.entrant_register(tournament=tournament, players=players)
        return tournament

    return make


@pytest.fixture
def club_with_members():
    def make(*names):
        memberships = [MembershipFactory(player__name=names[0])]
        club = memberships[0].club
        memberships += [MembershipFactory(club=club, player__name=n) for n in names[1:]]
        return club, [m.player for m in memberships]

    return make


def by_name(tournament):
    return {e.player.name: e for e in tournament.entrants.select_related("player")}


def test_many_entrants_are_checked_in_at_once_each_on_the_record(registered):
    tournament = registered()
    director = UserFactory()
    ids = [by_name(tournament)[n].pk for n in ("Anna", "Carl")]

    changed = registration.entrants_check_in(
        tournament=tournament, entrant_ids=ids, user=director, address="10.0.0.7"
    )

    assert sorted(str(e) for e in changed) == ["Anna", "Carl"]
    now = by_name(tournament)
    assert [now[n].checked_in for n in ("Anna", "Ben", "Carl")] == [True, False, True]
    assert now["Anna"].checked_in_by == Entrant.By.ORGANIZER and now["Anna"].checked_in_at
    records = CheckIn.objects.order_by("entrant__player__name")
    assert [(r.entrant.player.name, r.checked_in, r.by, r.user, r.address) for r in records] == [
        ("Anna", True, "organizer", director, "10.0.0.7"),
        ("Carl", True, "organizer", director, "10.0.0.7"),
    ]


def test_a_check_in_is_undone_until_round_one_is_paired_and_then_refused(registered):
    tournament = registered()
    everyone = [e.pk for e in by_name(tournament).values()]
    registration.entrants_check_in(tournament=tournament, entrant_ids=everyone)

    out = registration.entrants_check_in(
        tournament=tournament, entrant_ids=[by_name(tournament)["Ben"].pk], checked_in=False
    )

    assert [str(e) for e in out] == ["Ben"]
    ben = by_name(tournament)["Ben"]
    assert not ben.checked_in and ben.checked_in_by == "" and ben.checked_in_at is None
    assert list(CheckIn.objects.filter(entrant=ben).values_list("checked_in", flat=True)) == [
        True,
        False,
    ]
    rounds.round_start(tournament=tournament)
    with pytest.raises(TournamentError, match="Check-in is closed"):
        registration.entrants_check_in(tournament=tournament, entrant_ids=[ben.pk])


def test_checking_in_someone_already_in_changes_and_records_nothing(registered):
    tournament = registered()
    anna = by_name(tournament)["Anna"]
    registration.entrants_check_in(tournament=tournament, entrant_ids=[anna.pk])

    again = registration.entrants_check_in(tournament=tournament, entrant_ids=[anna.pk])

    assert again == []
    assert CheckIn.objects.count() == 1


def test_another_tournaments_entrant_cannot_be_checked_in_here(registered):
    here, there = registered(), registered(("Dora",))
    dora = by_name(there)["Dora"]

    with pytest.raises(TournamentError, match="Only entrants of this tournament"):
        registration.entrants_check_in(tournament=here, entrant_ids=[dora.pk])
    with pytest.raises(TournamentError, match="Tick the entrants"):
        registration.entrants_check_in(tournament=here, entrant_ids=[])
    assert not CheckIn.objects.exists()


def test_guests_typed_at_the_door_are_checked_in_as_they_are_entered(registered):
    tournament = registered()

    entered = registration.entrant_register_guests(
        tournament=tournament, names="Eve\nFritz\n", check_in=True
    )

    assert all(e.checked_in for e in entered)
    now = by_name(tournament)
    assert now["Eve"].checked_in and now["Fritz"].checked_in_by == Entrant.By.ORGANIZER
    assert not now["Anna"].checked_in
    assert CheckIn.objects.filter(checked_in=True).count() == 2


def test_a_pasted_name_like_an_entrants_a_members_or_another_lines_is_asked_about(
    registered,
):
    tournament = registered(("Anna Berg", "Ben"))
    MembershipFactory(club=tournament.club, player__name="Carl Cox")  # a member, not entered

    with pytest.raises(DuplicateNames) as asked:
        registration.entrant_register_guests(
            tournament=tournament,
            names="  anna   BERG \nDora\ncarl cox\nDORA\nEve",
            duplicates="ask",
        )

    clashes = [(c.name, c.kind, c.same) for c in asked.value.clashes]
    assert clashes == [
        ("anna   BERG", "entrant", "Anna Berg"),
        ("carl cox", "member", "Carl Cox"),
        ("DORA", "twice", "Dora"),
    ]
    assert "anna   BERG, carl cox, DORA" in str(asked.value)
    assert tournament.entrants.count() == 2  # nothing entered


def test_skipping_the_clashing_names_enters_only_the_new_ones(registered):
    tournament = registered(("Anna",))

    registration.entrant_register_guests(
        tournament=tournament, names="ANNA\nDora\ndora\nEve", duplicates="skip"
    )

    assert sorted(by_name(tournament)) == ["Anna", "Dora", "Eve"]


def test_entering_them_anyway_makes_two_people_of_one_name(registered):
    tournament = registered(("Anna",))

    registration.entrant_register_guests(tournament=tournament, names="Anna", duplicates="enter")

    assert [e.player.name for e in tournament.entrants.all()] == ["Anna", "Anna"]


def test_a_player_checks_himself_in_with_the_door_link_once(registered):
    tournament = registration.door_link_issue(tournament=registered())
    ben = by_name(tournament)["Ben"]

    registration.entrant_check_in_self(tournament=tournament, entrant_id=ben.pk, address="10.0.0.9")

    ben.refresh_from_db()
    assert ben.checked_in and ben.checked_in_by == Entrant.By.SELF
    record = CheckIn.objects.get()
    assert (record.by, record.user, record.address) == ("self", None, "10.0.0.9")
    with pytest.raises(TournamentError, match="Ben is already checked in"):
        registration.entrant_check_in_self(tournament=tournament, entrant_id=ben.pk)
    with pytest.raises(TournamentError, match="Choose your name"):
        registration.entrant_check_in_self(tournament=tournament, entrant_id=999999)


def test_self_check_in_closes_with_its_link_and_when_round_one_is_paired(registered):
    tournament = registration.door_link_issue(tournament=registered())
    first = tournament.door_token
    replaced = registration.door_link_issue(tournament=tournament)
    assert replaced.door_token and replaced.door_token != first

    registration.door_link_close(tournament=tournament)
    with pytest.raises(TournamentError, match="Self check-in is closed"):
        registration.entrant_check_in_self(
            tournament=tournament, entrant_id=by_name(tournament)["Anna"].pk
        )

    registration.door_link_issue(tournament=tournament)
    registration.entrants_check_in(
        tournament=tournament, entrant_ids=[e.pk for e in tournament.entrants.all()][:2]
    )
    rounds.round_start(tournament=tournament)
    with pytest.raises(TournamentError, match="Self check-in is closed"):
        registration.entrant_check_in_self(
            tournament=tournament, entrant_id=by_name(tournament)["Carl"].pk
        )
    with pytest.raises(TournamentError, match="Check-in is closed"):
        registration.door_link_issue(tournament=tournament)
