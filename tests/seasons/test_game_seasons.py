"""A season of one game, or of all games (issue 28): a Gin Rummy season counts
Gin Rummy's parties as before; a season of another game counts that game's; a
season of all games places each party of a night at its own table and scores by
place only."""

from datetime import date

import pytest
from django.urls import reverse

from seasons.models import Season
from seasons.selectors import season_lines
from seasons.services import SeasonRefused, season_change, season_create
from tests.seasons.conftest import play_game_party, play_party

pytestmark = pytest.mark.django_db

#: Seat 1 closes with a Chinchón: the party is won at once.
CHINCHON = {"closer": 0, "chinchon": True, "penalties": [0, 50, 60]}


def new_season(club, user, **fields):
    return season_create(
        club=club,
        user=user,
        name=fields.pop("name", "Autumn games"),
        starts=date(2026, 9, 1),
        ends=date(2026, 12, 31),
        **{"counts": "both", "scheme": "places", "place_points": [10, 8, 6], **fields},
    )


@pytest.fixture
def games_night(season_club, after_commit):
    """At the season's night, besides its two Gin parties: a Chinchón party Cleo
    wins before Ada and Ben, in that order."""
    club, ada, ben, cleo = (season_club[k] for k in ("club", "ada", "ben", "cleo"))
    with after_commit():
        play_game_party(
            club,
            "chinchon",
            [cleo, ada, ben],
            [{"closer": 0, "penalties": [0, 50, 60]}] * 2,
            night=season_club["night"],
        )
    return season_club


def totals(season):
    return {line.player: line.total for line in season_lines(season, live=True)}


def test_a_gin_season_counts_gin_parties_only_as_before(games_night):
    season, ada, ben, cleo = (games_night[k] for k in ("season", "ada", "ben", "cleo"))
    assert season.game == "gin_rummy"
    lines = {line.player: line for line in season_lines(season, live=True)}
    # The Gin night as it was: Ada won one party and lost one, Ben and Cleo one each.
    assert set(lines) == {ada.pk, ben.pk, cleo.pk}
    assert lines[ada.pk].events == 1
    assert lines[ben.pk].total < 0 < lines[cleo.pk].total


def test_a_chinchon_season_counts_the_chinchon_parties(games_night, organizer):
    club, ada, ben, cleo = (games_night[k] for k in ("club", "ada", "ben", "cleo"))
    season = new_season(club, organizer.player.user, game="chinchon")
    assert totals(season) == {cleo.pk: 10, ada.pk: 8, ben.pk: 6}


def test_a_season_of_all_games_places_each_party_at_its_own_table(games_night, organizer):
    club, ada, ben, cleo = (games_night[k] for k in ("club", "ada", "ben", "cleo"))
    season = new_season(club, organizer.player.user, game="all")
    # Gin: Ada beat Ben (10, 8), Cleo beat Ada (10, 8); Chinchón: Cleo, Ada, Ben.
    assert totals(season) == {cleo.pk: 20, ada.pk: 26, ben.pk: 14}
    events = {line.player: line.events for line in season_lines(season, live=True)}
    assert events == {ada.pk: 3, ben.pk: 2, cleo.pk: 2}


def test_a_season_of_all_games_is_scored_by_place_only(games_night, organizer):
    club, user = games_night["club"], organizer.player.user
    with pytest.raises(SeasonRefused, match="by place"):
        new_season(club, user, game="all", scheme="plus_minus", place_points=[])
    season = new_season(club, user, game="all")
    with pytest.raises(SeasonRefused, match="by place"):
        season_change(season=season, user=user, scheme="plus_minus")


def test_the_season_form_offers_the_game_and_refuses_plus_minus_for_all(client, season_club):
    club = season_club["club"]
    url = reverse("manage:season-list", args=[club.slug])
    form = {
        "name": "All of it",
        "starts": "2026-10-01",
        "ends": "2026-10-31",
        "counts": "both",
        "game": "all",
        "scheme": "plus_minus",
        "minimum_events": "0",
    }
    page = client.post(url, form)
    assert page.status_code == 200 and not Season.objects.filter(name="All of it").exists()
    assert 'name="game"' in page.content.decode()
    page = client.post(url, {**form, "scheme": "places", "place_points": "3-2-1"})
    assert page.status_code == 302
    season = Season.objects.get(name="All of it")
    assert season.game == "all"
    html = client.get(reverse("manage:season-detail", args=[season.pk])).content.decode()
    assert "all games" in html


def test_a_season_of_another_game_counts_no_gin_tournament(season_club, organizer, after_commit):
    from tournaments.registration import tournament_create

    club, ada, ben = (season_club[k] for k in ("club", "ada", "ben"))
    tournament_create(club=club, name="Open", date=date(2026, 10, 10))
    with after_commit():
        play_party(club, [ada, ben], winner=ada)
    season = new_season(club, organizer.player.user, game="cruzo")
    assert season_lines(season, live=True) == []


def test_a_gin_party_kept_before_places_were_is_placed_by_plus_minus(games_night, organizer):
    from seasons.models import RatingChange

    club = games_night["club"]
    season = new_season(club, organizer.player.user, game="all")
    before = totals(season)
    RatingChange.objects.filter(club=club, game="gin_rummy").update(place=None)
    assert totals(season) == before
