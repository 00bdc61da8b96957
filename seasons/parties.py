"""A finished party as the ratings read it, of every game: Gin Rummy's from its
settlement (`party_sheets`), the parties played at one whole table from
`table_results` (`scoring.services.whole_table_sheet`), a read of many parties at
once, in three queries however many, with each party's totals, places and winners
derived from its confirmed hands by the game's engine, as the party's own sheet
derives them."""

from scoring.selectors import party_sheets
from scoring.services.whole_table_sheet import TableResult, table_results
from seasons.engine.ratings import RatedParty, games_from_payments, rated_match


def rated_parties(finished: dict) -> dict[int, tuple[RatedParty, dict]]:
    """The finished parties among ``finished`` (their finishing times by id) that a
    rating takes, each as the match it rates (`RatedParty`) and each player's
    result in the order of `CHANGE_FIELDS`; a party whose sheet says it is not
    over (or a cancelled one) is left out. Each kind of party is read by its own
    reader, which leaves out the other kind: Gin Rummy's settled from its columns
    (`party_sheets`), a party at one whole table from its scores (`table_results`).
    Three queries for each kind there is, however many parties."""
    rated = {}
    for pk, state in party_sheets(list(finished), cancelled=False).items():
        party = rated_party(pk, finished[pk], state)
        if party is not None:
            rated[pk] = (party, party_results(state))
    for pk, result in table_results(list(finished), cancelled=False).items():
        party, results = rated_game_party(pk, finished[pk], result)
        if party is not None:
            rated[pk] = (party, results)
    return rated


def rated_party(pk: int, finished_at, state) -> RatedParty | None:
    if state is None or not state.outcome.finished:
        return None
    player = {seat.position: seat.player_id for seat in state.seats}
    games = games_from_payments(state.outcome.payments, player.__getitem__)
    won = frozenset(player[p] for p, amount in state.outcome.plus_minus.items() if amount > 0)
    players = frozenset(player.values())
    return RatedParty(key=pk, day=finished_at.date(), games=games, won=won, players=players)


def rated_game_party(
    pk: int, finished_at, result: TableResult | None
) -> tuple[RatedParty | None, dict]:
    """A finished party of another game as one match of its sides by place, and
    each player's result in the order of `CHANGE_FIELDS`: the side's margin as
    plus/minus, no boxes nor shutouts (Gin's), the opponents, the place."""
    if result is None or not result.over:
        return None, {}
    won = [p for side in result.winners for p in result.sides[side]]
    party = rated_match(pk, finished_at.date(), result.sides, result.places, won)
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
                result.places[side],
            )
    return party, results


def party_results(state) -> dict:
    """Each player's result of a finished party, by player id, in the order of
    `CHANGE_FIELDS`: his plus/minus, his side's boxes, whether his side shut the
    other out or was shut out (seed 000: the loser scored nothing), and what each
    opponent paid him (``games``), and his place by plus/minus (equal ones share it)."""
    player = {seat.position: seat.player_id for seat in state.seats}
    sides = state.outcome.sides
    shutout = any(side.shutout_bonus > 0 for side in sides)
    paid = {p: state.outcome.plus_minus.get(p, 0) for p in player}
    ordered = sorted(paid.values(), reverse=True)
    results = {}
    for seat in state.seats:
        games = []
        for payment in state.outcome.payments:
            if seat.position in payment.payee:
                games += [[player[p], payment.amount] for p in payment.payer]
            elif seat.position in payment.payer:
                games += [[player[p], -payment.amount] for p in payment.payee]
        mine = sides[seat.side]
        results[seat.player_id] = (
            state.outcome.plus_minus.get(seat.position, 0),
            mine.boxes,
            mine.shutout_bonus > 0,
            shutout and mine.shutout_bonus == 0 and mine.points == 0,
            games,
            ordered.index(paid[seat.position]) + 1,
        )
    return results
