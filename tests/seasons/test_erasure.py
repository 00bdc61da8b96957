"""Erasing a player (DSGVO Art. 17): his name and contact go everywhere the club
keeps them, his links stop working, and every number stays as it was."""

import json

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, connection, transaction
from django.test import Client
from django.urls import reverse
from django.utils import translation

from clubs.invitations import invitation_create
from clubs.models import ApiToken, ClubRecord, Membership
from clubs.services import api_token_create
from scoring.models import AuditRecord, Party, Seat
from scoring.services.parties import party_start
from seasons.data import player_data
from seasons.erasure import ErasureRefused, player_erase
from seasons.models import PlayerLink, Rating, RatingChange, SeasonRecord
from seasons.selectors import season_lines
from tests.factories import ClubFactory, MembershipFactory, OrganizerFactory, UserFactory
from tests.seasons import everything
from tournaments.models import TournamentRecord
from tournaments.standings import standings_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def kept(organizer, after_commit):
    return everything.build(organizer, after_commit)


def numbers(kept) -> dict:
    """What the club's results say, by ids: the standings, the season table and
    the ratings with their history."""
    standings = standings_for(kept["tournament"])
    return {
        "standings": [
            (line.entrant.pk, line.place, line.points, line.games, line.won)
            for line in standings.lines
        ],
        "season": [
            (line.player, line.place, line.total, line.events)
            for line in season_lines(kept["season"], live=True)
        ],
        "ratings": sorted(
            Rating.objects.filter(club=kept["club"]).values_list(
                "player_id", "game", "mu", "sigma", "parties", "won"
            )
        ),
        "history": sorted(
            RatingChange.objects.filter(club=kept["club"]).values_list(
                "party_id", "player_id", "mu", "plus_minus", "boxes", "won"
            )
        ),
        "records": (
            ClubRecord.objects.count(),
            AuditRecord.objects.count(),
            TournamentRecord.objects.count(),
        ),
        "parties": sorted(Party.objects.values_list("pk", "status", "finished_at")),
    }


def erase(kept, who="ada"):
    return player_erase(club=kept["club"], player=kept[who], user=kept["organizer_user"])


@pytest.fixture
def owner_kept(kept, organizer):
    organizer.role = Membership.Role.OWNER
    organizer.save(update_fields=["role"])
    kept["organizer_user"] = organizer.player.user
    return kept


def every_word(kept) -> str:
    """Every word the club's records and rows keep, as one text."""
    words = [
        list(ClubRecord.objects.values_list("details", "username")),
        list(AuditRecord.objects.values_list("before", "after", "reason")),
        list(TournamentRecord.objects.values_list("details", flat=True)),
        list(SeasonRecord.objects.values_list("details", flat=True)),
        list(Party.objects.values_list("label", flat=True)),
    ]
    return json.dumps(words, cls=DjangoJSONEncoder, ensure_ascii=False)


def test_erasing_keeps_every_result_rating_and_record_as_it_was(owner_kept):
    before = numbers(owner_kept)

    erase(owner_kept)

    assert numbers(owner_kept) == before


def test_the_erased_player_is_a_numbered_former_member(owner_kept):
    assert erase(owner_kept) == "Former member 1"
    assert erase(owner_kept, "cleo") == "Former member 2"

    ada = owner_kept["ada"]
    ada.refresh_from_db()
    assert (ada.name, ada.email, ada.user) == ("Former member 1", "", None)
    membership = Membership.objects.get(player=ada)
    assert (membership.active, membership.listed) == (False, False)


def test_the_former_member_is_named_in_the_organizers_language(owner_kept):
    with translation.override("de"):
        assert erase(owner_kept) == "Ehemaliges Mitglied 1"


def test_his_old_name_and_login_are_in_no_record_any_more(owner_kept):
    assert "Ada Quill" in every_word(owner_kept)
    assert "adaq" not in every_word(owner_kept)  # no login of his yet: see below
    user = owner_kept["ada"].user
    ClubRecord.objects.create(action=ClubRecord.Action.LOGIN, user=user, username="adaq")

    erase(owner_kept)

    words = every_word(owner_kept)
    assert "Ada Quill" not in words and "adaq" not in words
    assert "Former member 1" in words
    # The others' names stand as they were.
    assert "Ben Ash" in words and "Dan Ives" in words


def test_the_admins_log_forgets_his_name_too(owner_kept):
    ada = owner_kept["ada"]
    entry = LogEntry.objects.log_actions(
        user_id=owner_kept["organizer_user"].pk, queryset=[ada], action_flag=CHANGE
    )[0]

    erase(owner_kept)

    entry.refresh_from_db()
    assert entry.object_repr == "Former member 1"


def test_the_erasure_is_recorded_without_the_old_name(owner_kept):
    erase(owner_kept)

    record = SeasonRecord.objects.get(action=SeasonRecord.Action.ERASED)
    assert record.details["player_id"] == owner_kept["ada"].pk
    assert record.details["as"] == "Former member 1"
    assert record.details["records"] > 0
    assert record.user == owner_kept["organizer_user"]
    assert "Ada" not in json.dumps(record.details)


def test_his_login_no_longer_opens_and_his_api_keys_are_revoked(owner_kept):
    user = owner_kept["ada"].user
    api_token_create(user=user, name="phone")

    erase(owner_kept)

    user.refresh_from_db()
    assert not user.is_active and user.username != "adaq" and user.email == ""
    assert not user.has_usable_password()
    he = Client()
    answer = he.post(reverse("login"), {"username": "adaq", "password": "correct horse battery"})
    assert answer.status_code == 200 and "_auth_user_id" not in he.session
    assert not ApiToken.objects.filter(user=user, revoked_at__isnull=True).exists()


def test_his_personal_and_seat_links_stop_working(owner_kept):
    ada = owner_kept["ada"]
    old_seats = set(Seat.objects.filter(player=ada).values_list("token", flat=True))

    erase(owner_kept)

    assert not PlayerLink.objects.filter(player=ada).exists()
    assert not Seat.objects.filter(token__in=old_seats).exists()
    assert Seat.objects.filter(player=ada).count() == len(old_seats)


def test_his_data_afterwards_holds_his_results_and_not_his_name(owner_kept):
    erase(owner_kept)

    owner_kept["ada"].refresh_from_db()
    data = player_data(club=owner_kept["club"], player=owner_kept["ada"])
    text = json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False)
    assert "Ada Quill" not in text and "ada@quill.example" not in text
    assert data["rating_history"] and data["tournament_entries"]


def test_an_organizer_is_erased_by_the_owner_only(kept):
    kept["organizer_user"] = kept["club"].memberships.get(role="organizer").player.user
    helper = OrganizerFactory(club=kept["club"], player__name="Hal Port")

    with pytest.raises(ErasureRefused, match="only the owner"):
        player_erase(club=kept["club"], player=helper.player, user=kept["organizer_user"])
    helper.player.refresh_from_db()
    assert helper.player.name == "Hal Port"


def test_the_only_owner_is_not_erased(owner_kept):
    owner = owner_kept["club"].memberships.get(role="owner").player

    with pytest.raises(ErasureRefused, match="only owner"):
        player_erase(club=owner_kept["club"], player=owner, user=owner.user)

    second = MembershipFactory(
        club=owner_kept["club"], role="owner", player__user=UserFactory()
    ).player
    assert player_erase(club=owner_kept["club"], player=owner, user=second.user)
    assert Membership.objects.get(player=owner).role == Membership.Role.MEMBER


def test_a_player_another_club_keeps_is_not_erased_here(owner_kept):
    MembershipFactory(club=ClubFactory(), player=owner_kept["ada"])

    with pytest.raises(ErasureRefused, match="another club"):
        erase(owner_kept)
    owner_kept["ada"].refresh_from_db()
    assert owner_kept["ada"].name == "Ada Quill"


def test_a_player_is_erased_once(owner_kept):
    erase(owner_kept)

    with pytest.raises(ErasureRefused, match="erased already"):
        erase(owner_kept)
    assert SeasonRecord.objects.filter(action=SeasonRecord.Action.ERASED).count() == 1


@pytest.fixture
def postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("the records' guards are PostgreSQL's (set DATABASE_URL)")


def refused(query):
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        query()


def test_the_records_still_refuse_every_other_change(postgresql, owner_kept):
    record = ClubRecord.objects.filter(club=owner_kept["club"]).first()
    audit = AuditRecord.objects.first()

    refused(lambda: ClubRecord.objects.filter(pk=record.pk).update(details={}))
    refused(lambda: AuditRecord.objects.filter(pk=audit.pk).update(reason="x"))
    refused(lambda: TournamentRecord.objects.all().update(details={}))
    refused(lambda: ClubRecord.objects.filter(pk=record.pk).delete())


def test_the_erasures_path_changes_only_the_words(postgresql, owner_kept):
    record = ClubRecord.objects.filter(club=owner_kept["club"]).first()

    def with_redaction(change):
        def run():
            with connection.cursor() as cursor:
                cursor.execute("SELECT set_config('knock.redaction', 'on', true)")
            change()

        return run

    refused(with_redaction(lambda: ClubRecord.objects.filter(pk=record.pk).update(action="x")))
    refused(with_redaction(lambda: ClubRecord.objects.filter(pk=record.pk).delete()))
    refused(with_redaction(lambda: AuditRecord.objects.all().update(action="void", reason="x")))
    with transaction.atomic():
        with_redaction(lambda: ClubRecord.objects.filter(pk=record.pk).update(details={}))()
    # An erasure opens the path for its own rewriting only.
    erase(owner_kept)
    refused(lambda: ClubRecord.objects.filter(pk=record.pk).update(details={"a": 1}))


def test_a_player_who_sat_at_another_clubs_party_is_not_erased_here(owner_kept):
    other = ClubFactory()
    MembershipFactory(club=other, player=owner_kept["ben"])
    party = party_start(club=other, format="two", players=[owner_kept["ben"], owner_kept["dan"]])

    with pytest.raises(ErasureRefused, match="another club"):
        erase(owner_kept, "dan")
    assert party.seats.filter(player__name="Dan Ives").exists()


def test_the_invitations_mailed_to_him_keep_no_address(owner_kept):
    club, by = owner_kept["club"], owner_kept["organizer_user"]
    mailed, _ = invitation_create(club=club, by=by, email="ada@quill.example")
    other, _ = invitation_create(club=club, by=by, email="ben@ash.example")

    erase(owner_kept)

    mailed.refresh_from_db()
    other.refresh_from_db()
    assert (mailed.email, other.email) == ("", "ben@ash.example")
