"""A party's result as every reader above scoring takes it, whatever the game
(`Result`): standings, boards, seasons, notices and the archive read many parties
at once through `party_results`, and never join two reads.

How a party comes to its result depends on how its hands are kept
(`scoring.services.keeping`), so each keeping names its own bulk read (`READS`),
never which game a party is:

- `FormatTables` (Gin Rummy's party formats): the kept score (`scores.party_scores`),
  settled again only where a party moved; its plus/minus is the settlement's, its
  sides the settlement's columns (points, boxes, totals with the bonuses) and who
  paid whom (what the ratings and the final read).
- `WholeTable` (a game at one whole table): `whole_table_sheet.table_results`, the
  totals, places and margins of the game's engine from the confirmed hands."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from django.db.models import QuerySet

from scoring.engine.formats import Payment
from scoring.engine.games.game import HandScore, player_margins
from scoring.models import Party
from scoring.scores import READ_SCORES, PartyScore, computed_scores, party_scores
from scoring.services.keeping import FormatTables, WholeTable, keeping_for
from scoring.services.whole_table_sheet import TableResult, table_results, table_results_of


@dataclass(frozen=True)
class Result:
    """A party as many-party reads take it.

    By player id, whatever the keeping: ``points`` (the side's running total),
    and once the party is finished ``plus_minus`` (the settlement's at Gin Rummy,
    the side's margin at another game), ``places`` (at another game; Gin Rummy's
    plus/minus tells), ``won`` (a plus, or a winning side) and ``paid`` (what the
    player wins or pays at a stake per point: the plus/minus at Gin Rummy, the
    player's share of the side's margin at another game, `player_margins`). How
    far it has come:
    ``finished``, ``cancelled``, ``over`` (the sheet says so), the ``hands``
    counted, a hand ``pending`` or ``disputed``.

    By side, whatever the keeping: ``sides`` (players, by side number),
    ``totals`` (bonuses included), ``side_places`` (once finished; Gin Rummy's by
    plus/minus, equal ones shared) and the winning ``winners``; ``players`` in
    seat order. A whole table's ``margins`` and its confirmed hands' scores
    (``scored``). Gin Rummy's settlement: each side's ``side_points`` (hand
    points), ``boxes``, ``game_bonuses`` (a tied game goes to the side that has
    it), ``shutouts`` (the shutout bonus), and the ``payments`` (`Payment`s of
    player ids: who pays whom how much). ``keeping``: the keeping that read it
    (`FormatTables`, `WholeTable`), for a reader that takes each keeping's
    parties its own way (the ratings: Gin Rummy's by its payments)."""

    pk: int
    finished: bool
    cancelled: bool
    over: bool
    hands: int
    pending: bool
    disputed: bool
    points: dict[int, int]
    plus_minus: dict[int, int]
    places: dict[int, int]
    won: frozenset[int]
    paid: dict[int, int]
    players: tuple[int, ...] = ()
    sides: tuple[tuple[int, ...], ...] = ()
    totals: tuple[int, ...] = ()
    side_places: tuple[int, ...] = ()
    margins: tuple[int, ...] = ()
    winners: frozenset[int] = frozenset()
    scored: tuple[HandScore, ...] = ()
    side_points: tuple[int, ...] = ()
    boxes: tuple[int, ...] = ()
    game_bonuses: tuple[int, ...] = ()
    shutouts: tuple[int, ...] = ()
    payments: tuple[Payment, ...] = ()
    keeping: type | None = None

    def side_of(self, player: int) -> int:
        return next(n for n, side in enumerate(self.sides) if player in side)

    def by_player(self, values) -> dict[int, int]:
        """``values`` by side (totals, side places, margins) as each player's, in
        seat order."""
        side = {p: n for n, players in enumerate(self.sides) for p in players}
        return {p: values[side[p]] for p in self.players}


def format_tables_result(pk: int, score: PartyScore) -> Result:
    """A party of party formats from its kept score: a player won with a plus, a
    side with a plus won; a side's place once finished is by its plus/minus."""
    side_results = [score.plus_minus.get(side[0], 0) if side else 0 for side in score.sides]
    side_places = tuple(1 + sum(o > mine for o in side_results) for mine in side_results)
    return Result(
        pk=pk,
        finished=score.finished,
        cancelled=score.cancelled,
        over=score.finished,
        hands=score.hands,
        pending=score.pending,
        disputed=score.disputed,
        points=score.points,
        plus_minus=score.plus_minus,
        places=score.places,
        won=frozenset(p for p, amount in score.plus_minus.items() if amount > 0),
        paid=score.plus_minus,
        players=tuple(score.points),
        sides=score.sides,
        totals=score.totals,
        side_places=side_places if score.finished else (),
        winners=frozenset(n for n, amount in enumerate(side_results) if amount > 0),
        side_points=score.side_points,
        boxes=score.boxes,
        game_bonuses=score.game_bonuses,
        shutouts=score.shutouts,
        payments=score.payments,
        keeping=FormatTables,
    )


def whole_table_result(result: TableResult) -> Result:
    """A party at one whole table from its standing: by player what its sides
    have, the margins and places once finished; won: a player of a winning side."""
    finished = result.finished
    return Result(
        pk=result.pk,
        finished=finished,
        cancelled=result.cancelled,
        over=result.over,
        hands=len(result.hands),
        pending=result.pending,
        disputed=result.disputed,
        points=result.by_player(result.totals),
        plus_minus=result.by_player(result.margins) if finished else {},
        places=result.by_player(result.places) if finished else {},
        won=frozenset(p for side in result.winners for p in result.sides[side]),
        paid=player_margins(result.sides, result.margins) if finished else {},
        players=result.players,
        sides=result.sides,
        totals=result.totals,
        side_places=result.places,
        margins=result.margins,
        winners=result.winners,
        scored=result.hands,
        keeping=WholeTable,
    )


#: The `Result` made of each kept score this process read, by party id, with the
#: score it was made of: a board reads the same thousands of unchanged scores at
#: every build (the same objects, `scores._read`), and making each a `Result`
#: again cost a sixth of the build. Used only for the very score it was made of,
#: so it is never out of date; the oldest go first past `READ_SCORES`.
_made: dict[int, tuple[PartyScore, Result]] = {}
_making = threading.Lock()


def _format_tables(ids) -> dict[int, Result]:
    results = {}
    for pk, score in party_scores(ids).items():
        made = _made.get(pk)
        if made is None or made[0] is not score:
            made = (score, format_tables_result(pk, score))
            _remember(pk, made)
        results[pk] = made[1]
    return results


def _remember(pk: int, made: tuple) -> None:
    # A threaded server's requests share ``_made``: one at a time changes it.
    with _making:
        _made.pop(pk, None)
        _made[pk] = made
        while len(_made) > READ_SCORES:
            del _made[next(iter(_made))]


def _whole_table(ids) -> dict[int, Result]:
    return {pk: whole_table_result(result) for pk, result in table_results(ids).items()}


def _format_tables_of(parties: list[Party]) -> dict[int, Result]:
    # Settled from the hands, as a night's few parties always were: three
    # queries, never the kept scores' four when one moved.
    scores = computed_scores([party.pk for party in parties])
    return {pk: format_tables_result(pk, score) for pk, score in scores.items()}


def _whole_table_of(parties: list[Party]) -> dict[int, Result]:
    return {pk: whole_table_result(result) for pk, result in table_results_of(parties).items()}


#: Each keeping's bulk read of its own parties among the ids it is given (the
#: others left out, cancelled ones read), by keeping: the order is the order
#: they are asked in.
READS = {FormatTables: _format_tables, WholeTable: _whole_table}
#: The same of parties already loaded, all of the keeping: Gin Rummy's settled
#: from the hands, as a club night reads them.
READS_OF = {FormatTables: _format_tables_of, WholeTable: _whole_table_of}


def keeping_of(game: str):
    """The keeping of the hands of ``game``'s parties (a game key), as
    `keeping_for` names a party's."""
    return keeping_for(Party(game=game))


def reads_of(game: str):
    """The bulk read of ``game``'s keeping (a game key)."""
    return READS[keeping_of(game)]


def party_results(party_ids, *, cancelled: bool = True, game: str | None = None) -> dict:
    """Every party's `Result` among ``party_ids`` (ids, or a query of them), by
    id; an id with no party is left out, and ``cancelled=False`` leaves cancelled
    parties out. Each keeping reads its own in a fixed number of queries however
    many parties (one or two for Gin Rummy's kept scores while nothing moved,
    three for a whole table). With ids, each keeping is asked only about the ids the ones
    before it left: parties of one keeping cost no query of the other once the
    first found them all. ``game``: every party is of this game (a tournament's),
    only its keeping is asked."""
    ids = party_ids if isinstance(party_ids, QuerySet) else list(party_ids)
    reads = [reads_of(game)] if game is not None else list(READS.values())
    results: dict[int, Result] = {}
    for read in reads:
        if isinstance(ids, QuerySet):
            results.update(read(ids))
            continue
        rest = [pk for pk in ids if pk not in results]
        if rest:
            results.update(read(rest))
    # Cancelled parties are read and left out here: a read that left them out
    # would hand them on to the next keeping's, a query more.
    return {pk: r for pk, r in results.items() if cancelled or not r.cancelled}


def party_results_of(parties: list[Party]) -> dict[int, Result]:
    """`party_results` of parties already loaded (cancelled ones read too; Gin
    Rummy's settled from the hands), each keeping asked about its own only: no
    query for a keeping without parties among them."""
    kept: dict = {}
    for party in parties:
        kept.setdefault(keeping_for(party), []).append(party)
    results: dict[int, Result] = {}
    for keeping, read in READS_OF.items():
        if keeping in kept:
            results.update(read(kept[keeping]))
    return results
