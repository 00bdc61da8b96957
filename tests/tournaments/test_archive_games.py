"""An archive holds Gin Rummy only, so far: a night with a party of another game
and a tournament of another game are refused whole (422 not_archivable in the API, an error from
the command), never written without their hands' scores."""

import pytest
from django.core.management import CommandError, call_command

from clubs.models import ClubNight
from tests.factories import ClubNightFactory, MembershipFactory, OrganizerFactory, start_game_party
from tests.tournaments.api.test_api import bearer
from tournaments import registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def keyholder(client):
    membership = OrganizerFactory(player__user__username="director")
    client.force_login(membership.player.user)
    key = client.post("/manage/api-keys/", {"name": "backup"}).context["key"]
    client.logout()
    return membership.club, key


def test_a_night_with_a_chinchon_party_is_refused_and_a_gin_night_is_not(client, keyholder):
    club, key = keyholder
    gin_night = ClubNightFactory(club=club)
    assert (
        client.get(f"/api/manage/nights/{gin_night.pk}/archive", **bearer(key)).status_code == 200
    )
    night: ClubNight = ClubNightFactory(club=club)
    start_game_party("chinchon", 3, night=night)
    answer = client.get(f"/api/manage/nights/{night.pk}/archive", **bearer(key))
    assert answer.status_code == 422
    assert answer.json()["code"] == "not_archivable"
    assert "only Gin Rummy" in answer.json()["detail"]
    with pytest.raises(CommandError, match="only Gin Rummy"):
        call_command("export_archive", night=night.pk)


def test_a_tournament_of_another_game_is_refused_before_any_round(client, keyholder):
    club, key = keyholder
    tournament = registration.tournament_create(
        club=club, name="Chinchón Open", game="chinchon", table_size=4
    )
    players = [MembershipFactory(club=club).player for _ in range(4)]
    registration.entrant_register(tournament=tournament, players=players)
    answer = client.get(f"/api/manage/tournaments/{tournament.slug}/archive", **bearer(key))
    assert answer.status_code == 422
    assert "only Gin Rummy" in answer.json()["detail"]
    with pytest.raises(CommandError, match="only Gin Rummy"):
        call_command("export_archive", tournament=tournament.slug)
