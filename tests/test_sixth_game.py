"""A sixth game costs one module: a small made-up game, registered for this test
only, is played through a club night with confirmation at the table's phones, a
Swiss at tables of three, a season table, the ratings, the API and an archive
round trip, with nothing outside this test knowing it."""

import json
from collections.abc import Mapping, Sequence
from datetime import date

import pytest
from django.core.serializers.json import DjangoJSONEncoder

from scoring.engine.games import ENTRY_GAMES, GAMES
from scoring.engine.games.game import (
    EntryError,
    Figure,
    FigureKind,
    HandScore,
    Option,
    Outcome,
    each_alone,
    majority_of_others,
    mean,
    ranked_winners,
    side_totals,
)
from scoring.engine.games.game import Problem as _
from scoring.models import Party
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.parties import party_start
from scoring.services.whole_table_sheet import game_sheet
from seasons.models import Rating
from seasons.selectors import season_lines
from seasons.services import season_create
from tests.factories import ClubFactory, ClubNightFactory, MembershipFactory
from tournaments import registration, rounds
from tournaments.archive.export import tournament_export
from tournaments.archive.restore import archive_import
from tournaments.models import Tournament
from tournaments.standings import standings_for
from tournaments.tables import round_tables

pytestmark = pytest.mark.django_db


class Tally:
    """Each player's points entered per hand; the lowest total after the hands
    agreed wins."""

    key = "tally"
    name = "Tally"
    table_sizes = (2, 3, 4, 5, 6)
    lower_wins = True
    options = {"hands": Option(2)}
    figures = {"average_points": FigureKind(_("Average points per hand"), False, "hands")}
    draws_for_ties = False
    formats: Mapping = {}
    confirmations_needed = staticmethod(majority_of_others)

    def sides(self, players: int, options: Mapping) -> list[tuple[int, ...]]:
        return each_alone(self, players)

    def hand(self, entry: Mapping, totals: Sequence[int], options: Mapping) -> HandScore:
        points = entry.get("points")
        if (
            not isinstance(points, list)
            or len(points) != len(totals)
            or not all(isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in points)
        ):
            raise EntryError(_("Give every player's points, whole numbers of 0 or more."))
        return HandScore(tuple(points))

    def standing(self, hands: Sequence[HandScore], sides: int, options: Mapping) -> Outcome:
        if len(hands) < options["hands"]:
            return Outcome(False)
        return Outcome(True, ranked_winners(side_totals(hands, sides), True))

    def record(self, hands, places, parties) -> dict[str, Figure]:
        return {"average_points": mean([h.scores[h.side] for h in hands])}


@pytest.fixture
def tally(monkeypatch):
    game = Tally()
    monkeypatch.setitem(GAMES, game.key, game)
    monkeypatch.setitem(ENTRY_GAMES, game.key, game)
    return game


def members(club, count):
    return [MembershipFactory(club=club).player for _ in range(count)]


def as_file(data: dict) -> dict:
    return json.loads(json.dumps(data, cls=DjangoJSONEncoder))


def test_a_sixth_game_is_played_at_a_club_night_with_confirmation_by_phone(
    tally, client, django_capture_on_commit_callbacks
):
    club = ClubFactory()
    night = ClubNightFactory(club=club)
    ada, ben, cleo = members(club, 3)
    with django_capture_on_commit_callbacks(execute=True):
        party = party_start(club=club, night=night, game="tally", players=[ada, ben, cleo])
    seats = list(party.seats.order_by("position"))

    for number, points in ((1, [3, 9, 1]), (2, [4, 0, 8])):
        entered = client.post(
            f"/api/tables/{seats[0].token}/game/hands",
            {"number": number, "entry": {"points": points}},
            content_type="application/json",
        )
        assert entered.status_code == 201, entered.content
        assert entered.json()["outcome"] == "entered"
        version = entered.json()["hand"]["version"]
        for seat, action in ((seats[1], "noted"), (seats[2], "confirmed")):
            confirmed = client.post(
                f"/api/tables/{seat.token}/game/hands/{number}/confirm",
                {"version": version},
                content_type="application/json",
            )
            assert confirmed.status_code == 200, confirmed.content
            assert confirmed.json()["outcome"] == action

    refused = client.post(
        f"/api/tables/{seats[0].token}/game/hands",
        {"number": 3, "entry": {"points": [1, "x", 2]}},
        content_type="application/json",
    )
    assert refused.status_code in (409, 422) and refused.json()

    party.refresh_from_db()
    sheet = game_sheet(party)
    assert party.status == Party.Status.FINISHED
    assert sheet.totals == [7, 9, 9]
    assert sheet.places == [1, 2, 2]
    page = client.get(f"/table/{seats[1].token}/")
    assert page.status_code == 200
    assert ada.name in page.content.decode() and 'name="points_0"' not in page.content.decode()

    running = party_start(club=club, night=night, game="tally", players=[ada, ben, cleo])
    form = client.get(f"/table/{running.seats.get(position=0).token}/").content.decode()
    assert 'name="points_0"' in form and 'name="points_2"' in form


def test_a_sixth_game_s_entry_is_checked_against_its_own_fields(tally, client):
    """Tally declares no entry of its own: the API takes each player's points, as
    the seat's form does, and refuses what else is sent, by field."""
    club = ClubFactory()
    party = party_start(club=club, night=None, game="tally", players=members(club, 3))
    seat = party.seats.get(position=0)
    for entry, field in (
        ({"points": [1, 2, 3], "bonus": 4}, "entry.bonus"),
        ({"points": [1, 2, 40000]}, "entry.points.2"),
    ):
        refused = client.post(
            f"/api/tables/{seat.token}/hands",
            {"number": 1, "entry": entry},
            content_type="application/json",
        )
        assert refused.status_code == 422
        assert [error["field"] for error in refused.json()["errors"]] == [field]
    assert not party.hands.exists()


def test_a_sixth_game_runs_a_swiss_at_tables_of_three_with_a_season_and_ratings(
    tally, django_capture_on_commit_callbacks
):
    club = ClubFactory()
    owner = MembershipFactory(club=club, role="owner").player.user

    def committed(service, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return service(**kwargs)

    tournament = registration.tournament_create(
        club=club, name="Tally Swiss", game="tally", table_size=3, rounds=2
    )
    players = members(club, 6)
    registration.entrant_register(tournament=tournament, players=players)
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    committed(rounds.round_start, tournament=tournament)
    round = tournament.round_set.get(number=1)
    for view in round_tables(round):
        party = view.table.party
        seats = list(party.seats.order_by("position"))
        for number in (1, 2):
            outcome = hand_enter(
                seat=seats[0], number=number, entry={"points": [1, 5, 9][: len(seats)]}
            )
            for seat in seats[1:]:
                if outcome.action == "confirmed":
                    break
                outcome = committed(
                    hand_confirm, seat=seat, number=number, version=outcome.hand.version
                )
    standings = standings_for(Tournament.objects.get(pk=tournament.pk))
    assert len(standings.lines) == 6

    season = season_create(
        club=club,
        user=owner,
        name="Tally season",
        starts=date(2000, 1, 1),
        ends=date(2100, 12, 31),
        counts="both",
        scheme="places",
        place_points=[10, 8, 6],
        game="tally",
    )
    lines = season_lines(season, live=True)
    assert {line.player for line in lines} == {p.pk for p in players}
    assert max(line.total for line in lines) > min(line.total for line in lines)

    ratings = Rating.objects.filter(club=club, game="tally")
    assert ratings.count() == 6

    data = as_file(tournament_export(Tournament.objects.get(pk=tournament.pk)))
    copy = archive_import(data=data, club=ClubFactory())
    assert copy.game == "tally"
    assert [p.game for p in Party.objects.filter(tournament_table__round__tournament=copy)] == [
        "tally",
        "tally",
    ]
