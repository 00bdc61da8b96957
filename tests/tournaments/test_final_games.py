"""Who won each game of a match of the final (`final.matches.game_sides`), read
from the games' results (`scoring.results.Result`): the winning side, and a game
that ended tied goes to the side that reached the target, the one with the game
bonus (Gin Rummy's settlement, seed 000)."""

from types import SimpleNamespace

from scoring.results import Result
from tournaments.final.matches import game_sides

ADA, BEN = 1, 2


def result(pk, *, finished=True, sides=((BEN,), (ADA,)), winners=(), game_bonuses=(0, 0)):
    return Result(
        pk=pk,
        finished=finished,
        cancelled=False,
        over=finished,
        hands=1,
        pending=False,
        disputed=False,
        points={},
        plus_minus={},
        places={},
        won=frozenset(),
        paid={},
        sides=sides,
        winners=frozenset(winners),
        game_bonuses=game_bonuses,
    )


# Ada is the match's first side, Ben its second.
MATCH = SimpleNamespace(first=SimpleNamespace(player_id=ADA), second=SimpleNamespace(player_id=BEN))


def games(*pks):
    return [SimpleNamespace(party_id=pk) for pk in pks]


def test_each_game_goes_to_the_match_side_of_its_winning_party_side():
    results = {10: result(10, winners=[1]), 11: result(11, winners=[0])}
    assert game_sides(MATCH, games(10, 11), results) == [0, 1]


def test_a_tied_game_goes_to_the_side_with_the_game_bonus():
    results = {
        10: result(10, game_bonuses=(100, 0)),  # Ben reached the target
        11: result(11, game_bonuses=(0, 100)),  # Ada did
    }
    assert game_sides(MATCH, games(10, 11), results) == [1, 0]


def test_a_game_still_played_or_missing_decides_nothing_yet():
    results = {10: result(10, winners=[1]), 11: result(11, finished=False)}
    assert game_sides(MATCH, games(10, 11), results) is None
    assert game_sides(MATCH, games(10, 12), results) is None
