"""The finished parties of the other games (Chinchón, Canasta, Blaue Vierzehn,
Cruzo; seed 003) as the ratings and the seasons read them: a read of many parties
at once, in three queries however many, with each party's totals, places and
winners derived from its confirmed hands by the game's engine, as the party's own
sheet (`scoring.services.game_sheet`) derives them."""

from dataclasses import dataclass

from django.db.models import QuerySet

from scoring.engine.games import GAMES
from scoring.engine.games.game import HandScore, margins, places, side_totals
from scoring.models import Hand, Party, Seat


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


def game_results(party_ids) -> dict[int, GameResult]:
    """The results of the parties of other games among ``party_ids`` (ids, or a
    query of them), cancelled ones left out; Gin Rummy's are `party_sheets`'."""
    ids = party_ids if isinstance(party_ids, QuerySet) else list(party_ids)
    if not isinstance(ids, QuerySet) and not ids:
        return {}
    query = (
        Party.objects.filter(pk__in=ids)
        .exclude(game=Party.Game.GIN_RUMMY)
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
    for party_id, scores, details in rows.order_by("party_id", "number", "table").values_list(
        "party_id", "scores", "details"
    ):
        if party_id in hands and scores is not None:
            hands[party_id].append(HandScore(tuple(scores), (details or {}).get("facts", {})))
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
            places=tuple(places(totals, engine.lower_wins)),
            margins=tuple(margins(totals, engine.lower_wins)),
            winners=outcome.winners,
            hands=tuple(hands[pk]),
        )
    return results
