"""How a table's party ended, whatever the game: the one place a tournament asks.

Gin Rummy's parties are read by scoring's `party_outcomes` (plus/minus) and
`party_scores` (how far a table has come); the parties played at one whole table
by `table_results`, the one read of them that a night's results and the ratings
take too: totals from the confirmed hands, the winners from the game's
`standing`, the places at the table and the margins. `table_scores` gives both
kinds in the one shape the round's tables show (`scoring.scores.PartyScore`), and
`game_outcomes` what the standings of a tournament at tables take.

Each reader makes three queries, however many parties (ids, or a query of them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from scoring.scores import PartyScore, party_scores
from scoring.services.whole_table_sheet import TableResult, table_results
from tournaments.engine.table_points import place_points


@dataclass(frozen=True)
class GameOutcome:
    """A party of another game as a tournament reads it, by player id: ``players``
    in seat order; each one's ``total`` (the side's), ``place`` at the table and
    ``margin`` (`table_results`); ``hands`` confirmed, and whether one waits for
    confirmation or is disputed. ``finished``: the party is over (the game said
    so when its last hand was confirmed)."""

    finished: bool
    cancelled: bool
    players: tuple[int, ...]
    totals: dict[int, int]
    places: dict[int, int]
    margins: dict[int, int]
    hands: int
    pending: bool
    disputed: bool


def game_outcomes(party_ids, *, cancelled: bool = True) -> dict[int, GameOutcome]:
    """The other games' parties among ``party_ids`` (Gin Rummy's are left out),
    each as it stands. ``cancelled=False`` leaves cancelled parties out."""
    return {
        pk: _outcome(result) for pk, result in table_results(party_ids, cancelled=cancelled).items()
    }


def _outcome(result: TableResult) -> GameOutcome:
    def by_player(values) -> dict[int, int]:
        return {p: values[side] for side, players in enumerate(result.sides) for p in players}

    return GameOutcome(
        finished=result.finished,
        cancelled=result.cancelled,
        players=result.players,
        totals=by_player(result.totals),
        places=by_player(result.places),
        margins=by_player(result.margins),
        hands=len(result.hands),
        pending=result.pending,
        disputed=result.disputed,
    )


def table_scores(party_ids) -> dict[int, PartyScore]:
    """Every party's score by player, Gin Rummy's (`party_scores`) and the other
    games' alike: for another game ``points`` are the running totals and
    ``plus_minus`` the margins. Three queries when every party is Gin Rummy's,
    six otherwise, however many parties."""
    ids = list(party_ids)
    scores = party_scores(ids)
    others = [pk for pk in ids if pk not in scores]
    for pk, outcome in game_outcomes(others).items():
        scores[pk] = outcome_score(outcome)
    return scores


def outcome_score(outcome: GameOutcome) -> PartyScore:
    """Another game's party in the shape of `table_scores`: ``points`` the running
    totals; once finished ``plus_minus`` the margins and ``places`` the places at
    the table."""
    return PartyScore(
        finished=outcome.finished,
        hands=outcome.hands,
        points=outcome.totals,
        plus_minus=outcome.margins if outcome.finished else {},
        pending=outcome.pending,
        disputed=outcome.disputed,
        cancelled=outcome.cancelled,
        places=outcome.places if outcome.finished else {},
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
