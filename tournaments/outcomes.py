"""How a table's party ended, whatever the game: the one place a tournament asks.

Gin Rummy's parties are read by scoring's `party_outcomes` (plus/minus) and
`party_scores` (how far a table has come); those readers take Gin Rummy's parties
only. The other games' parties (issue 28) are read here, beside them, through
the same engine as their sheet (`scoring.services.whole_table_sheet`): totals from the
confirmed hands, the winners from the game's `standing`, the places at the table
and the margins. `table_scores` gives both kinds in the one shape the round's
tables show (`scoring.scores.PartyScore`), and `game_outcomes` what the
standings of a tournament at tables take.

Each reader makes three queries, however many parties (ids, or a query of them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from django.db.models import QuerySet

from scoring.engine.games import ENTRY_GAMES, GAMES
from scoring.engine.games.game import margins, side_totals
from scoring.models import Hand, Party, Seat
from scoring.scores import PartyScore, party_scores
from scoring.services.whole_table_sheet import confirmed_scores, side_count
from tournaments.engine.table_points import finishing_places, place_points


class _Seat(NamedTuple):
    position: int
    side: int
    player_id: int


class _Hand(NamedTuple):
    # The names `scoring.services.whole_table_sheet.hand_score` reads.
    status: str
    scores: list
    facts: dict


@dataclass(frozen=True)
class GameOutcome:
    """A party of another game as a tournament reads it, by player id: ``players``
    in seat order; each one's ``total`` (the side's), ``place`` at the table and
    ``margin`` (`finishing_places`, `margins`); ``hands`` confirmed, and whether
    one waits for confirmation or is disputed. ``finished``: the party is over
    (the game said so when its last hand was confirmed)."""

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
    ids = party_ids if isinstance(party_ids, QuerySet) else list(party_ids)
    if not isinstance(ids, QuerySet) and not ids:
        return {}
    query = Party.objects.filter(pk__in=ids, game__in=list(ENTRY_GAMES)).order_by()
    if not cancelled:
        query = query.exclude(status=Party.Status.CANCELLED)
    parties = list(query.values_list("pk", "game", "rules", "status"))
    if not parties:
        return {}
    wanted = [pk for pk, *_ in parties]
    seats: dict[int, list[_Seat]] = {pk: [] for pk in wanted}
    rows = Seat.objects.filter(party_id__in=wanted).order_by("party_id", "position")
    for party_id, position, side, player in rows.values_list(
        "party_id", "position", "side", "player_id"
    ):
        seats[party_id].append(_Seat(position, side, player))
    hands: dict[int, list[_Hand]] = {pk: [] for pk in wanted}
    rows = Hand.objects.filter(party_id__in=wanted).order_by("party_id", "number", "table")
    for party_id, status, scores, facts in rows.values_list(
        "party_id", "status", "scores", "facts"
    ):
        hands[party_id].append(_Hand(status, scores or [], facts or {}))
    return {
        pk: _outcome(GAMES[game], rules, status, seats[pk], hands[pk])
        for pk, game, rules, status in parties
    }


def _outcome(game, rules, status, seats: list[_Seat], hands: list[_Hand]) -> GameOutcome:
    count = side_count(seats)
    scored = confirmed_scores(hands)
    totals = side_totals(scored, count)
    winners = game.standing(scored, count, rules).winners
    places = finishing_places(totals, winners, game.lower_wins)
    margin = margins(totals, game.lower_wins)
    waiting = {h.status for h in hands}
    return GameOutcome(
        finished=status == Party.Status.FINISHED,
        cancelled=status == Party.Status.CANCELLED,
        players=tuple(seat.player_id for seat in seats),
        totals={seat.player_id: totals[seat.side] for seat in seats},
        places={seat.player_id: places[seat.side] for seat in seats},
        margins={seat.player_id: margin[seat.side] for seat in seats},
        hands=len(scored),
        pending=Hand.Status.PENDING in waiting,
        disputed=Hand.Status.DISPUTED in waiting,
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
