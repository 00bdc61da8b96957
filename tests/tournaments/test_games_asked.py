"""A tournament asks its game (`scoring.engine.games.GAMES`) what it needs to
know, never which game it is: a game registered beside the five, with no party
formats of its own and no card draw for ties, is created, seated at tables and
ranked as the other games at tables are."""

import pytest

from scoring.engine.games import ENTRY_GAMES, GAMES
from scoring.engine.games.blaue_vierzehn import BlaueVierzehn
from tests.factories import MembershipFactory
from tournaments import registration, rounds
from tournaments.records import TournamentError
from tournaments.tables import round_tables

pytestmark = pytest.mark.django_db


class Fourteens(BlaueVierzehn):
    """Blaue Vierzehn's rules under a name and key of their own."""

    key = "fourteens"
    name = "Fourteens"


@pytest.fixture
def fourteens(monkeypatch):
    game = Fourteens()
    monkeypatch.setitem(GAMES, game.key, game)
    monkeypatch.setitem(ENTRY_GAMES, game.key, game)
    return game


def test_a_game_without_party_formats_is_played_at_tables_with_no_card_draw(
    club, committed, fourteens
):
    tournament = registration.tournament_create(
        club=club, name="Fourteens Open", game="fourteens", table_size=4
    )
    players = [MembershipFactory(club=club).player for _ in range(8)]
    registration.entrant_register(tournament=tournament, players=players)
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    committed(rounds.round_start, tournament=tournament)

    assert tournament.plays_at_tables and not tournament.draws_for_ties
    round = tournament.round_set.get(number=1)
    tables = [view for view in round_tables(round) if not view.table.bye]
    assert [len(view.entrants) for view in tables] == [4, 4]
    assert {view.table.party.game for view in tables} == {"fourteens"}
    with pytest.raises(TournamentError, match="no cards are drawn"):
        rounds.standings_draw_enter(tournament=tournament, cards={})


def test_a_game_with_party_formats_is_played_two_at_a_table_by_its_name(club):
    with pytest.raises(TournamentError, match="Gin Rummy is played two at a table"):
        registration.tournament_create(club=club, name="Open", table_size=4)
