"""A finished party as the ratings read it, of every game, through the one read
of a party's result (`scoring.results.party_results`): many parties at once, in a
few queries however many, Gin Rummy's from its kept score (the settlement's
payments, boxes and shutouts), a party at one whole table from its confirmed
hands, with its totals, places and winners as the game's engine derives them."""

from scoring.results import Result, party_results
from scoring.services.keeping import FormatTables, WholeTable
from seasons.engine.ratings import RatedParty, games_from_payments, rated_match


def rated_parties(finished: dict) -> dict[int, tuple[RatedParty, dict]]:
    """The finished parties among ``finished`` (their finishing times by id) that a
    rating takes, each as the match it rates (`RatedParty`) and each player's
    result in the order of `CHANGE_FIELDS`; a party whose sheet says it is not
    over (or a cancelled one) is left out. Each keeping's parties are rated their
    own way (`RATED`)."""
    rated = {}
    for pk, result in party_results(list(finished), cancelled=False).items():
        if not result.over:
            continue
        party, results = RATED[result.keeping](pk, finished[pk], result)
        rated[pk] = (party, results)
    return rated


def rated_party(pk: int, finished_at, result: Result) -> tuple[RatedParty, dict]:
    """A finished Gin Rummy party as its settlement's games, who paid whom
    (`games_from_payments`), and each player's result (`player_results`)."""
    games = games_from_payments(result.payments, lambda player: player)
    won = frozenset(result.won)
    players = frozenset(result.players)
    party = RatedParty(key=pk, day=finished_at.date(), games=games, won=won, players=players)
    return party, player_results(result)


def rated_game_party(pk: int, finished_at, result: Result) -> tuple[RatedParty, dict]:
    """A finished party of another game as one match of its sides by place, and
    each player's result in the order of `CHANGE_FIELDS`: the side's margin as
    plus/minus, no boxes nor shutouts (Gin's), the opponents, the place."""
    won = [p for side in result.winners for p in result.sides[side]]
    party = rated_match(pk, finished_at.date(), result.sides, result.side_places, won)
    everyone = [p for side in result.sides for p in side]
    results = {}
    for side, players in enumerate(result.sides):
        opponents = [[p, 0] for p in everyone if p not in players]
        for player in players:
            results[player] = (
                result.margins[side],
                0,
                False,
                False,
                opponents,
                result.side_places[side],
            )
    return party, results


#: How each keeping's finished parties are rated: Gin Rummy's by its payments,
#: one game between each payer and payee; a whole table's as one match by place.
RATED = {FormatTables: rated_party, WholeTable: rated_game_party}


def player_results(result: Result) -> dict:
    """Each player's result of a finished Gin Rummy party, by player id, in the
    order of `CHANGE_FIELDS`: the plus/minus, the side's boxes, whether the side
    shut the other out or was shut out (seed 000: the loser scored nothing), what
    each opponent paid (``games``), and the place by plus/minus (equal ones share
    it)."""
    shutout = any(bonus > 0 for bonus in result.shutouts)
    paid = {p: result.plus_minus.get(p, 0) for p in result.players}
    ordered = sorted(paid.values(), reverse=True)
    results = {}
    for player in result.players:
        side = result.side_of(player)
        games = []
        for payment in result.payments:
            if player in payment.payee:
                games += [[p, payment.amount] for p in payment.payer]
            elif player in payment.payer:
                games += [[p, -payment.amount] for p in payment.payee]
        results[player] = (
            paid[player],
            result.boxes[side],
            result.shutouts[side] > 0,
            shutout and result.shutouts[side] == 0 and result.side_points[side] == 0,
            games,
            ordered.index(paid[player]) + 1,
        )
    return results
