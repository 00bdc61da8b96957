"""How a table's party ended, whatever the game: the one place a tournament asks.

Every party is read by scoring's one read of a party's result
(`scoring.results.party_results`): Gin Rummy's from its kept score (plus/minus,
how far a table has come), a party at one whole table from its confirmed hands
(totals, the winners from the game's `standing`, the places at the table and the
margins), in one shape (`Result`); here, what a round's tables show of it."""

from __future__ import annotations

from typing import NamedTuple

from scoring.results import Result
from tournaments.engine.table_points import place_points


class SeatScore(NamedTuple):
    """One player at a table of another game as its round shows him: the side's
    running ``total``, and once the party is over his ``margin``, ``place`` at the
    table and the tournament points it ``earned`` (`table_points.place_points`)."""

    total: int | None
    margin: int | None
    place: int | None
    earned: int | None


def seat_scores(players: list[int], score: Result | None) -> list[SeatScore]:
    """Each of ``players`` (ids, in seat order) at a table whose party stands at
    ``score`` (`party_results`); all empty before a party or after its cancelling."""
    if score is None or score.cancelled:
        return [SeatScore(None, None, None, None) for _ in players]
    places = [score.places.get(player) for player in players]
    over = score.finished and None not in places
    earned = place_points(places) if over else [None] * len(players)
    return [
        SeatScore(
            score.points.get(player),
            score.plus_minus.get(player) if over else None,
            place if over else None,
            points,
        )
        for player, place, points in zip(players, places, earned, strict=True)
    ]
