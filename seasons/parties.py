"""A finished party as the ratings read it, of every game: Gin Rummy's from its
settlement (`party_sheets`), the other games' (Chinchón, Canasta, Blaue Vierzehn,
Cruzo; seed 003) from `game_results`, a read of many parties at once, in three
queries however many, with each party's totals, places and winners derived from
its confirmed hands by the game's engine, as the party's own sheet
(`scoring.services.whole_table_sheet`) derives them."""

from dataclasses import dataclass

from django.db.models import QuerySet

from scoring.engine.games import ENTRY_GAMES, GAMES
from scoring.engine.games.game import HandScore, margins, places, side_totals
from scoring.models import Hand, Party, Seat
from seasons.engine.ratings import RatedParty, games_from_payments, rated_match


@dataclass(frozen=True)
class GameResult:
    """A party of another game as it ended: its game, each side's players (by side
    number), totals, places (1 best, shared when equal), margins, the winning
    sides, and each confirmed hand's scores and facts in order."""

    pk: int
    game: str
    finished: bool
    sides: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    places: tuple[int, ...]
    margins: tuple[int, ...]
    winners: frozenset
    hands: tuple[HandScore, ...]

    def side_of(self, player: int) -> int:
        return next(n for n, side in enumerate(self.sides) if player in side)


def placed(totals, winners, lower_wins: bool) -> list[int]:
    """Each side's place at the table: by its total (`places`), except that the
    party's winners come first where the game ended it otherwise (a Chinchón wins
    the party at once, whatever the totals); the rest follow by their totals."""
    ranked = places(totals, lower_wins)
    if not winners or all(ranked[side] == 1 for side in winners):
        return ranked
    rest = [side for side in range(len(totals)) if side not in winners]
    behind = places([totals[side] for side in rest], lower_wins)
    result = [1] * len(totals)
    for side, place in zip(rest, behind, strict=True):
        result[side] = len(winners) + place
    return result


def game_results(party_ids) -> dict[int, GameResult]:
    """The results of the parties of other games among ``party_ids`` (ids, or a
    query of them), cancelled ones left out; Gin Rummy's, whose hands are not the
    game's own entry, are `party_sheets`'."""
    ids = party_ids if isinstance(party_ids, QuerySet) else list(party_ids)
    if not isinstance(ids, QuerySet) and not ids:
        return {}
    query = (
        Party.objects.filter(pk__in=ids, game__in=list(ENTRY_GAMES))
        .exclude(status=Party.Status.CANCELLED)
        .order_by()
    )
    parties = {pk: (game, rules) for pk, game, rules in query.values_list("pk", "game", "rules")}
    sides: dict[int, dict[int, list[int]]] = {pk: {} for pk in parties}
    seats = Seat.objects.filter(party_id__in=ids).order_by("party_id", "position")
    for party_id, side, player in seats.values_list("party_id", "side", "player_id"):
        if party_id in sides:
            sides[party_id].setdefault(side, []).append(player)
    hands: dict[int, list[HandScore]] = {pk: [] for pk in parties}
    rows = Hand.objects.filter(party_id__in=ids, status=Hand.Status.CONFIRMED)
    for party_id, scores, facts in rows.order_by("party_id", "number", "table").values_list(
        "party_id", "scores", "facts"
    ):
        if party_id in hands and scores is not None:
            hands[party_id].append(HandScore(tuple(scores), facts or {}))
    results = {}
    for pk, (key, rules) in parties.items():
        if not sides[pk]:
            continue
        engine = GAMES[key]
        count = 1 + max(sides[pk])
        totals = side_totals(hands[pk], count)
        outcome = engine.standing(hands[pk], count, rules)
        results[pk] = GameResult(
            pk=pk,
            game=key,
            finished=outcome.over,
            sides=tuple(tuple(sides[pk].get(n, ())) for n in range(count)),
            totals=tuple(totals),
            places=tuple(placed(totals, outcome.winners, engine.lower_wins)),
            margins=tuple(margins(totals, engine.lower_wins)),
            winners=outcome.winners,
            hands=tuple(hands[pk]),
        )
    return results


def rated_party(pk: int, finished_at, state) -> RatedParty | None:
    if state is None or not state.outcome.finished:
        return None
    player = {seat.position: seat.player_id for seat in state.seats}
    games = games_from_payments(state.outcome.payments, player.__getitem__)
    won = frozenset(player[p] for p, amount in state.outcome.plus_minus.items() if amount > 0)
    players = frozenset(player.values())
    return RatedParty(key=pk, day=finished_at.date(), games=games, won=won, players=players)


def rated_game_party(pk: int, finished_at, result) -> tuple[RatedParty | None, dict]:
    """A finished party of another game as one match of its sides by place, and
    each player's result in the order of `CHANGE_FIELDS`: the side's margin as
    plus/minus, no boxes nor shutouts (Gin's), the opponents, the place."""
    if result is None or not result.finished:
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
