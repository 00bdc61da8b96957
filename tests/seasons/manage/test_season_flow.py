"""An organizer's season, from the pages: he defines it, plays a club night and a
tournament in it, and sees the season table and a player's page change as hands are
confirmed. A season of one game, or of all games (issue 28): a Gin Rummy season
counts Gin Rummy's parties as before; a season of another game counts that game's;
a season of all games places each party of a night at its own table and scores by
place only."""

import datetime
from datetime import date

import pytest
from django.urls import reverse

from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.nights import night_create
from seasons.models import Season
from seasons.selectors import season_events, season_lines
from seasons.services import SeasonRefused, season_change, season_create
from tests.factories import MembershipFactory
from tests.seasons.conftest import gin, play_game_party, play_party
from tournaments import registration, rounds, seating

pytestmark = pytest.mark.django_db


def totals(client, season_id):
    rows = client.get(reverse("manage:season-detail", args=[season_id])).context["rows"]
    return {row["name"]: row["line"].total for row in rows}


def test_a_night_and_a_tournament_both_count_as_their_hands_are_confirmed(
    client, organizer, after_commit
):
    club = organizer.club
    ada, ben = (MembershipFactory(club=club, player__name=n).player for n in ("Ada", "Ben"))
    client.post(
        reverse("manage:season-list", args=[club.slug]),
        {
            "name": "Autumn",
            "starts": "2026-09-01",
            "ends": "2026-12-31",
            "counts": "both",
            "scheme": "places",
            "place_points": "10-8",
            "minimum_events": "0",
        },
    )
    season_id = club.seasons.get().pk
    assert totals(client, season_id) == {}

    night = night_create(club=club, name="Tuesday", date=datetime.date(2026, 10, 6))
    with after_commit():
        play_party(club, [ada, ben], winner=ada, night=night)
    assert totals(client, season_id) == {"Ada": 10, "Ben": 8}

    tournament = registration.tournament_create(
        club=club, name="Cup", slug="cup", format="round_robin", date=datetime.date(2026, 10, 10)
    )
    registration.entrant_register(tournament=tournament, players=[ada, ben])
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    round = rounds.round_start(tournament=tournament)
    seating.round_pair(round_id=round.pk)
    party = round.tables.get().party
    seats = {seat.player_id: seat for seat in party.seats.all()}
    with after_commit():
        hand_enter(seat=seats[ben.pk], number=1, entry=gin(seats[ben.pk].position, 20))
    # Entered, not yet confirmed, the party not over: nothing changes.
    assert totals(client, season_id) == {"Ada": 10, "Ben": 8}
    with after_commit():
        hand_confirm(seat=seats[ada.pk], number=1, version=1)
        hand_enter(seat=seats[ben.pk], number=2, entry=gin(seats[ben.pk].position, 90))
        hand_confirm(seat=seats[ada.pk], number=2, version=1)
    assert totals(client, season_id) == {"Ada": 18, "Ben": 18}
    page = client.get(reverse("manage:season-player", args=[club.slug, ben.pk]))
    assert page.context["stats"].parties == 2
    assert page.context["stats"].gin_rate.of == 3


def test_a_tournament_where_a_player_only_had_a_bye_is_an_event_for_him(
    client, organizer, after_commit
):
    club = organizer.club
    ada, ben, cy = (
        MembershipFactory(club=club, player__name=n).player for n in ("Ada", "Ben", "Cy")
    )
    client.post(
        reverse("manage:season-list", args=[club.slug]),
        {
            "name": "Autumn",
            "starts": "2026-09-01",
            "ends": "2026-12-31",
            "counts": "tournaments",
            "scheme": "plus_minus",
            "minimum_events": "1",
        },
    )
    season = club.seasons.get()
    tournament = registration.tournament_create(
        club=club, name="Cup", slug="cup", format="round_robin", date=datetime.date(2026, 10, 10)
    )
    registration.entrant_register(tournament=tournament, players=[ada, ben, cy])
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    round = rounds.round_start(tournament=tournament)
    seating.round_pair(round_id=round.pk)
    bye = round.tables.get(bye=True).seatings.get().entrant.player

    events = season_events(season)

    assert [event.results.get(bye.pk) for event in events] == [0]
    line = next(line for line in season_lines(season, live=True) if line.player == bye.pk)
    assert (line.events, line.needed) == (1, 0)


# ------------------------------------------------------------ seasons by game

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


def line_totals(season):
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
    assert line_totals(season) == {cleo.pk: 10, ada.pk: 8, ben.pk: 6}


def test_a_season_of_all_games_places_each_party_at_its_own_table(games_night, organizer):
    club, ada, ben, cleo = (games_night[k] for k in ("club", "ada", "ben", "cleo"))
    season = new_season(club, organizer.player.user, game="all")
    # Gin: Ada beat Ben (10, 8), Cleo beat Ada (10, 8); Chinchón: Cleo, Ada, Ben.
    assert line_totals(season) == {cleo.pk: 20, ada.pk: 26, ben.pk: 14}
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
    before = line_totals(season)
    RatingChange.objects.filter(club=club, game="gin_rummy").update(place=None)
    assert line_totals(season) == before
