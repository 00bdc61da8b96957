"""How a table's party ended, whatever the game: the one place a tournament asks.

Gin Rummy's parties are read by scoring's `party_outcomes` (plus/minus) and
`party_scores` (how far a table has come); the parties played at one whole table
by `table_results`, the one read of them that a night's results and the ratings
take too: totals from the confirmed hands, the winners from the game's
`standing`, the places at the table and the margins. `table_scores` gives both
kinds in the one shape the round's tables show (`scoring.scores.PartyScore`).

Each reader makes three queries, however many parties (ids, or a query of them)."""

from __future__ import annotations

from typing import NamedTuple

from scoring.scores import PartyScore, party_scores
from scoring.services.whole_table_sheet import TableResult, table_results
from tournaments.engine.table_points import place_points


def table_scores(party_ids) -> dict[int, PartyScore]:
    """Every party's score by player, Gin Rummy's (`party_scores`) and the other
    games' alike: for another game ``points`` are the running totals and
    ``plus_minus`` the margins. Three queries when every party is Gin Rummy's,
    six otherwise, however many parties."""
    ids = list(party_ids)
    scores = party_scores(ids)
    others = [pk for pk in ids if pk not in scores]
    for pk, result in table_results(others).items():
        scores[pk] = outcome_score(result)
    return scores


def outcome_score(result: TableResult) -> PartyScore:
    """A party at one whole table in the shape of `table_scores`: ``points`` the
    running totals; once finished ``plus_minus`` the margins and ``places`` the
    places at the table."""
    return PartyScore(
        finished=result.finished,
        hands=len(result.hands),
        points=result.by_player(result.totals),
        plus_minus=result.by_player(result.margins) if result.finished else {},
        pending=result.pending,
        disputed=result.disputed,
        cancelled=result.cancelled,
        places=result.by_player(result.places) if result.finished else {},
    )


class SeatScore(NamedTuple):
    """One player at a table of another game as its round shows him: the side's
    running ``total``, and once the party is over his ``margin``, ``place`` at the
    table and the tournament points it ``earned`` (`table_points.place_points`)."""

    total: int | None
    margin: int | None
    place: int | None
    earned: int | None


def seat_scores(players: list[int], score: PartyScore | None) -> list[SeatScore]:
    """Each of ``players`` (ids, in seat order) at a table whose party stands at
    ``score`` (`table_scores`); all empty before a party or after its cancelling."""
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
