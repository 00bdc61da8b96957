"""The probe's races, one test each: an action sent many times at the same moment,
or twice, does once what it says. Each invariant is held by the database (a
constraint, or a row lock taken before the check), so the concurrent tests run
on PostgreSQL; SQLite has no row locks (``select_for_update`` is a no-op there)
and refuses a second writer at once instead of queueing it, so there they would
test SQLite, not Knock. The repeats one after the other run on both.

Every endpoint fired at through a live server: tests/test_race_harness.py."""

import threading
from concurrent.futures import ThreadPoolExecutor
from random import Random

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from clubs.models import ClubRecord, Membership, Player
from clubs.services import MemberRefused, api_token_create, api_token_revoke, member_create
from scoring import errors
from scoring.models import AuditRecord, Party
from scoring.services.hands import hand_decide, hand_enter
from scoring.services.knocks import Result
from scoring.services.parties import party_cancel, party_rematch, party_start
from seasons.models import PlayerLink, SeasonRecord
from seasons.services import SeasonRefused, guest_merge, player_link_issue
from tests.factories import (
    ClubFactory,
    ClubNightFactory,
    MembershipFactory,
    OrganizerFactory,
    UserFactory,
)
from tournaments import registration, rounds, tables
from tournaments.models import Tournament, TournamentRecord
from tournaments.records import TournamentError

TIMES = 8

concurrent = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks and queued writers: PostgreSQL"
)


def race(action, times=TIMES) -> list:
    """Runs ``action`` on ``times`` threads released at the same instant, each on
    its own database connection; returns what each returned or raised."""
    gate = threading.Barrier(times, timeout=60)

    def run(_):
        try:
            gate.wait()
            return action()
        except Exception as error:
            return error
        finally:
            connections.close_all()

    with ThreadPoolExecutor(times) as pool:
        return list(pool.map(run, range(times)))


def refused(results, kind=ValueError) -> list:
    unexpected = [r for r in results if isinstance(r, Exception) and not isinstance(r, kind)]
    assert unexpected == []
    return [r for r in results if isinstance(r, kind)]


# One name per club -------------------------------------------------------------


@pytest.mark.django_db
def test_a_name_taken_whatever_its_case_and_spacing_is_refused():
    club = ClubFactory()
    member_create(club=club, name="Anna Berg", by=None)
    with pytest.raises(MemberRefused):
        member_create(club=club, name="  anna   BERG ", by=None)


@concurrent
@pytest.mark.django_db(transaction=True)
def test_concurrent_adds_of_one_name_make_one_member():
    club = ClubFactory()
    names = iter(["Anna Berg", "anna berg", "Anna  Berg", "ANNA BERG"] * 2)
    lock = threading.Lock()

    def add():
        with lock:
            name = next(names)
        return member_create(club=club, name=name, role=Membership.Role.GUEST, by=None)

    results = race(add)

    assert len(refused(results, MemberRefused)) == TIMES - 1
    assert Membership.objects.filter(club=club).count() == 1


@concurrent
@pytest.mark.django_db(transaction=True)
def test_concurrent_guest_pastes_that_skip_duplicates_enter_a_name_once():
    club = ClubFactory()
    tournament = registration.tournament_create(club=club, name="Open")

    results = race(
        lambda: registration.entrant_register_guests(
            tournament=tournament, names="Zoe Quist\nOtto Lind", duplicates="skip"
        )
    )

    refused(results)
    names = sorted(tournament.entrants.values_list("player__name", flat=True))
    assert names == ["Otto Lind", "Zoe Quist"]


# One running party per player pair ----------------------------------------------


def _night_pair():
    night = ClubNightFactory()
    return night, [MembershipFactory(club=night.club).player for _ in range(2)]


@pytest.mark.django_db
def test_a_party_of_players_already_seated_at_the_night_is_refused_unless_anyway():
    night, players = _night_pair()
    party_start(club=night.club, night=night, format="two", players=players)

    with pytest.raises(errors.AlreadySeated) as refusal:
        party_start(club=night.club, night=night, format="two", players=players)
    assert players[0].name in str(refusal.value)
    party_start(club=night.club, night=night, format="two", players=players, anyway=True)
    assert night.parties.count() == 2


@concurrent
@pytest.mark.django_db(transaction=True)
def test_concurrent_starts_of_a_party_of_the_same_two_make_one_running_party():
    night, players = _night_pair()

    results = race(lambda: party_start(club=night.club, night=night, format="two", players=players))

    assert len(refused(results, errors.AlreadySeated)) == TIMES - 1
    assert night.parties.filter(status=Party.Status.RUNNING).count() == 1


# One rematch per party -------------------------------------------------------------


def _over_party():
    night, players = _night_pair()
    party = party_start(club=night.club, night=night, format="two", players=players)
    return party_cancel(party=party, user=None, reason="started by mistake")


@pytest.mark.django_db
def test_a_repeated_rematch_click_answers_with_the_rematch_already_made():
    party = _over_party()
    first, started = party_rematch(party=party, user=None, rng=Random(1))
    again, started_again = party_rematch(party=party, user=None, rng=Random(2))

    assert (started, started_again) == (True, False)
    assert again.pk == first.pk
    assert Party.objects.filter(night=party.night).count() == 2


@concurrent
@pytest.mark.django_db(transaction=True)
def test_concurrent_rematch_clicks_make_one_rematch():
    party = _over_party()

    results = race(lambda: party_rematch(party=party, user=None))

    refused(results)
    assert len({rematch.pk for rematch, _ in results}) == 1
    assert sum(started for _, started in results) == 1
    assert Party.objects.filter(night=party.night).count() == 2


# One forfeit per table -------------------------------------------------------------


def _playing_table(commit):
    club = ClubFactory()
    tournament = registration.tournament_create(club=club, name="Open")
    players = [MembershipFactory(club=club).player for _ in range(2)]
    registration.entrant_register(tournament=tournament, players=players)
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    # Its pairing runs after the commit.
    with commit(execute=True):
        round = rounds.round_start(tournament=tournament)
    from_round = next(v.table for v in tables.round_tables(round) if not v.table.bye)
    first, second = (s.entrant for s in from_round.seatings.order_by("side"))
    return tournament, from_round, first, second


@pytest.mark.django_db
def test_a_second_forfeit_of_a_table_of_either_player_is_refused_not_flipped(
    django_capture_on_commit_callbacks,
):
    tournament, table, first, second = _playing_table(django_capture_on_commit_callbacks)
    tables.table_forfeit(table=table, absent=first)

    for absent in (first, second):
        with pytest.raises(TournamentError) as refusal:
            tables.table_forfeit(table=table, absent=absent)
        assert first.player.name in str(refusal.value)
    table.refresh_from_db()
    assert table.absent == 0
    records = tournament.records.filter(action=TournamentRecord.Action.FORFEIT)
    assert records.count() == 1


@concurrent
@pytest.mark.django_db(transaction=True)
def test_concurrent_forfeits_of_a_table_record_one(django_capture_on_commit_callbacks):
    tournament, table, first, _ = _playing_table(django_capture_on_commit_callbacks)

    results = race(lambda: tables.table_forfeit(table=table, absent=first))

    assert len(refused(results, TournamentError)) == TIMES - 1
    assert tournament.records.filter(action=TournamentRecord.Action.FORFEIT).count() == 1


# One merge per guest --------------------------------------------------------------


def _guest_and_member():
    club = ClubFactory()
    guest = MembershipFactory(club=club, role=Membership.Role.GUEST).player
    member = MembershipFactory(club=club).player
    night = ClubNightFactory(club=club)
    other = MembershipFactory(club=club).player
    party_start(club=club, night=night, format="two", players=[guest, other])
    return club, guest, member


@pytest.mark.django_db
def test_a_repeated_guest_merge_is_a_no_op_that_says_so():
    club, guest, member = _guest_and_member()
    user = UserFactory()
    assert guest_merge(club=club, guest=guest, member=member, user=user) == 1

    with pytest.raises(SeasonRefused) as refusal:
        guest_merge(club=club, guest=guest, member=member, user=user)
    assert "already" in str(refusal.value)
    assert SeasonRecord.objects.filter(action=SeasonRecord.Action.MERGED).count() == 1


@concurrent
@pytest.mark.django_db(transaction=True)
def test_concurrent_merges_of_a_guest_merge_once():
    club, guest, member = _guest_and_member()
    user = UserFactory()

    results = race(lambda: guest_merge(club=club, guest=guest, member=member, user=user))

    assert len(refused(results, SeasonRefused)) == TIMES - 1
    assert SeasonRecord.objects.filter(action=SeasonRecord.Action.MERGED).count() == 1
    assert Player.objects.get(pk=guest.pk).seats.count() == 0


# One item per create form sent --------------------------------------------------


def same_form_at_once(user, page, data) -> list:
    """The organizer's create form sent ``TIMES`` times at the same moment with the
    one key its page gave it (a double click, a resend): each answer's status and
    where it leads."""
    data = {**data, "form_key": "one-showing-of-the-form"}

    def send():
        browser = Client()
        browser.force_login(user)
        answer = browser.post(page, data)
        return answer.status_code, answer.get("Location")

    return race(send)


@concurrent
@pytest.mark.django_db(transaction=True)
def test_a_tournament_form_sent_many_times_at_once_creates_one_tournament():
    organizer = OrganizerFactory()
    page = reverse("manage:tournament-create", args=[organizer.club.slug])
    fields = {"name": "Open", "date": "2026-11-28", "format": "swiss", "ruleset": "classic"}

    answers = same_form_at_once(
        organizer.player.user,
        page,
        fields | {"target": "100", "bye_value": "0", "forfeit_value": "100"},
    )

    tournament = Tournament.objects.get(club=organizer.club)
    detail = reverse("manage:tournament-detail", args=[tournament.slug])
    assert answers == [(302, detail)] * TIMES


@concurrent
@pytest.mark.django_db(transaction=True)
def test_a_member_form_sent_many_times_at_once_adds_one_member_and_refuses_no_name():
    organizer = OrganizerFactory()
    page = reverse("manage:member-add", args=[organizer.club.slug])

    answers = same_form_at_once(
        organizer.player.user, page, {"name": "Anna Berg", "role": "member"}
    )

    # The first goes back to the member list, as ever; the others to what it added.
    member = Membership.objects.get(club=organizer.club, player__name="Anna Berg")
    listed = reverse("manage:member-list", args=[organizer.club.slug])
    edit = reverse("manage:member-edit", args=[organizer.club.slug, member.pk])
    assert sorted(answers) == [(302, listed)] + [(302, edit)] * (TIMES - 1)


# Found by the harness (tests/test_race_harness.py) ---------------------------------


@pytest.mark.django_db
def test_a_void_sent_twice_voids_the_hand_once():
    night, players = _night_pair()
    party = party_start(club=night.club, night=night, format="two", players=players)
    first, _ = party.seats.order_by("position")
    hand = hand_enter(seat=first, number=1, entry=Result("knock", 0, 3, 21)).hand
    user = UserFactory()
    hand_decide(hand=hand, user=user, entry=None, reason="misdeal")

    with pytest.raises(errors.WrongDecision):
        hand_decide(hand=hand, user=user, entry=None, reason="misdeal")
    assert party.audit.filter(action=AuditRecord.Action.VOID).count() == 1


@pytest.mark.django_db
def test_a_pair_kept_apart_removed_twice_is_refused_with_a_message_not_a_500():
    club = ClubFactory()
    tournament = registration.tournament_create(club=club, name="Open")
    players = [MembershipFactory(club=club).player for _ in range(2)]
    first, second = registration.entrant_register(tournament=tournament, players=players)
    pair = registration.keep_apart_add(tournament=tournament, first=first, second=second)
    registration.keep_apart_remove(pair=pair)

    with pytest.raises(TournamentError):
        registration.keep_apart_remove(pair=pair)


@pytest.mark.django_db
def test_guests_sent_twice_through_the_api_are_entered_once(client):
    organizer = OrganizerFactory()
    key = api_token_create(user=organizer.player.user, name="site")[1]
    tournament = registration.tournament_create(club=organizer.club, name="Open")
    url = f"/api/manage/tournaments/{tournament.slug}/entrants"
    for _ in range(2):
        client.post(
            url,
            {"guests": ["Zoe Quist"]},
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {key}",
        )
    assert tournament.entrants.filter(player__name="Zoe Quist").count() == 1


@concurrent
@pytest.mark.django_db(transaction=True)
def test_concurrent_tournaments_of_one_name_get_slugs_of_their_own():
    club = ClubFactory()

    results = race(lambda: registration.tournament_create(club=club, name="Open"))

    refused(results)
    assert len({t.slug for t in results}) == TIMES


@concurrent
@pytest.mark.django_db(transaction=True)
def test_concurrent_personal_links_leave_one_link():
    club = ClubFactory()
    player = MembershipFactory(club=club).player
    user = UserFactory()

    results = race(lambda: player_link_issue(club=club, player=player, user=user))

    refused(results)
    assert PlayerLink.objects.filter(club=club, player=player).count() == 1


@concurrent
@pytest.mark.django_db(transaction=True)
def test_concurrent_revokes_of_a_key_record_one():
    user = UserFactory()
    token, _ = api_token_create(user=user, name="site")

    refused(race(lambda: api_token_revoke(token=token)))

    assert ClubRecord.objects.filter(action=ClubRecord.Action.KEY_REVOKED).count() == 1
