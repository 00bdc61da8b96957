"""An organizer's season, from the pages: he defines it, plays a club night and a
tournament in it, and sees the season table and a player's page change as hands are
confirmed."""

import datetime

import pytest
from django.urls import reverse

from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.nights import night_create
from seasons.selectors import season_events, season_lines
from tests.factories import MembershipFactory
from tests.seasons.conftest import gin, play_party
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
