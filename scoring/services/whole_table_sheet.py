"""Where a party played at one whole table stands (Chinchón, Canasta, Blaue
Vierzehn, Cruzo): one party's sheet for its pages (`game_sheet`), and many parties'
results for what reads them in bulk (`table_results`: a night's results, a
tournament's tables and standings, the ratings). A read, kept beside the writes of
`scoring.services.hands` because both derive the party's totals the same way, from
its confirmed hands through the game's engine (`standing_of`, never stored)."""

from dataclasses import dataclass

from django.db.models import QuerySet

from scoring.engine.games import ENTRY_GAMES, GAMES
from scoring.engine.games.game import (
    Game,
    HandScore,
    Outcome,
    finishing_places,
    margins,
    side_totals,
)
from scoring.models import Hand, Party, Seat


def game_of(party: Party) -> Game:
    """The engine of the party's game (`GAMES`)."""
    return GAMES[party.game]


def hand_score(hand: Hand) -> HandScore:
    """What a stored hand scored, as the engine gave it."""
    return HandScore(tuple(hand.scores), hand.facts)


def confirmed_scores(hands) -> list[HandScore]:
    """The scores of the confirmed hands, in order: only these count."""
    return [hand_score(h) for h in hands if h.status == Hand.Status.CONFIRMED]


def side_count(seats) -> int:
    return 1 + max(seat.side for seat in seats)


@dataclass(frozen=True)
class Standing:
    """Each side's ``totals`` over the confirmed hands, the game's ``outcome``, the
    ``places`` at the table (the winners first, `finishing_places`) and the
    ``margins`` each side won or lost by (`margins`)."""

    totals: tuple[int, ...]
    outcome: Outcome
    places: tuple[int, ...]
    margins: tuple[int, ...]


def standing_of(game: Game, options: dict, count: int, scored: list[HandScore]) -> Standing:
    """Where a party of ``count`` sides stands after the ``scored`` hands: the one
    derivation every page, result and rating of these parties reads."""
    totals = side_totals(scored, count)
    outcome = game.standing(scored, count, options)
    return Standing(
        tuple(totals),
        outcome,
        finishing_places(totals, outcome.winners, game.lower_wins),
        tuple(margins(totals, game.lower_wins)),
    )


@dataclass(frozen=True)
class GameSheet:
    """A party of another game as it stands.

    ``sides``: each side's seats (by side number); ``totals``: each side's total
    over the confirmed hands; ``hands``: every hand row, in order (pending and
    disputed ones included, for the table to see); ``outcome``: over, the winning
    sides, the sides out (La Conga); ``places`` and ``margins`` by side, as the
    standings and the seasons will take them; ``lower_wins`` for the columns'
    reading."""

    party: Party
    game: Game
    options: dict
    sides: list[list[Seat]]
    totals: list[int]
    hands: list[Hand]
    outcome: Outcome
    places: list[int]
    margins: list[int]
    lower_wins: bool


def game_sheet(party: Party) -> GameSheet:
    """The sheet of ``party`` in two queries, however many hands."""
    seats = list(party.seats.select_related("player").order_by("position"))
    hands = list(
        party.hands.select_related(
            "entered_by__player", "confirmed_by__player", "decided_by__player"
        ).order_by("number", "table")
    )
    return sheet_of(party, seats, hands)


def sheet_of(party: Party, seats: list[Seat], hands: list[Hand]) -> GameSheet:
    """The sheet from the party's seats (in seat order) and hands (in order), as
    loaded: no query."""
    game = game_of(party)
    count = side_count(seats)
    standing = standing_of(game, party.rules, count, confirmed_scores(hands))
    return GameSheet(
        party=party,
        game=game,
        options=party.rules,
        sides=[[s for s in seats if s.side == side] for side in range(count)],
        totals=list(standing.totals),
        hands=hands,
        outcome=standing.outcome,
        places=list(standing.places),
        margins=list(standing.margins),
        lower_wins=game.lower_wins,
    )


@dataclass(frozen=True)
class TableResult:
    """A party as many-party reads take it, by player id: its ``game`` (key) and
    ``status``; each side's players (``sides``, by side number) and ``players`` in
    seat order; the `Standing`'s ``totals``, ``places``, ``margins`` (by side) and
    the winning sides (``winners``) once the game says it is ``over``; the
    confirmed ``hands``' scores in order; whether a hand waits for confirmation
    (``pending``) or is ``disputed``."""

    pk: int
    game: str
    status: str
    sides: tuple[tuple[int, ...], ...]
    players: tuple[int, ...]
    totals: tuple[int, ...]
    places: tuple[int, ...]
    margins: tuple[int, ...]
    over: bool
    winners: frozenset
    hands: tuple[HandScore, ...]
    pending: bool
    disputed: bool

    @property
    def finished(self) -> bool:
        return self.status == Party.Status.FINISHED

    @property
    def cancelled(self) -> bool:
        return self.status == Party.Status.CANCELLED

    def side_of(self, player: int) -> int:
        return next(n for n, side in enumerate(self.sides) if player in side)

    def by_player(self, values) -> dict[int, int]:
        """``values`` by side (totals, places, margins) as each player's, in seat
        order."""
        side = {p: n for n, players in enumerate(self.sides) for p in players}
        return {p: values[side[p]] for p in self.players}


def table_results(party_ids, *, cancelled: bool = True) -> dict[int, TableResult]:
    """The parties played at one whole table among ``party_ids`` (ids, or a query of
    them; the others are left out), each as it stands, in three queries however
    many: their rows, seats and hands, read as plain values. ``cancelled=False``
    leaves cancelled parties out."""
    ids = party_ids if isinstance(party_ids, QuerySet) else list(party_ids)
    if not isinstance(ids, QuerySet) and not ids:
        return {}
    query = Party.objects.filter(pk__in=ids, game__in=list(ENTRY_GAMES)).order_by()
    if not cancelled:
        query = query.exclude(status=Party.Status.CANCELLED)
    return _results(list(query.values_list("pk", "game", "rules", "status")))


def table_results_of(parties: list[Party]) -> dict[int, TableResult]:
    """`table_results` of parties already loaded (the others among them left out),
    in two queries: their seats and hands."""
    return _results([(p.pk, p.game, p.rules, p.status) for p in parties if p.game in ENTRY_GAMES])


def _results(parties: list[tuple]) -> dict[int, TableResult]:
    if not parties:
        return {}
    wanted = [pk for pk, *_ in parties]
    seats: dict[int, list[tuple[int, int]]] = {pk: [] for pk in wanted}
    rows = Seat.objects.filter(party_id__in=wanted).order_by("party_id", "position")
    for party_id, side, player in rows.values_list("party_id", "side", "player_id"):
        seats[party_id].append((side, player))
    hands: dict[int, list[tuple[str, list, dict]]] = {pk: [] for pk in wanted}
    rows = Hand.objects.filter(party_id__in=wanted).order_by("party_id", "number", "table")
    for party_id, status, scores, facts in rows.values_list(
        "party_id", "status", "scores", "facts"
    ):
        hands[party_id].append((status, scores, facts))
    return {
        pk: _result(pk, game, rules, status, seats[pk], hands[pk])
        for pk, game, rules, status in parties
        if seats[pk]
    }


def _result(pk, key, rules, status, seats, hands) -> TableResult:
    count = 1 + max(side for side, _player in seats)
    scored = [
        HandScore(tuple(scores), facts or {})
        for state, scores, facts in hands
        if state == Hand.Status.CONFIRMED and scores is not None
    ]
    standing = standing_of(GAMES[key], rules, count, scored)
    waiting = {state for state, _scores, _facts in hands}
    return TableResult(
        pk=pk,
        game=key,
        status=status,
        sides=tuple(tuple(player for side, player in seats if side == n) for n in range(count)),
        players=tuple(player for _side, player in seats),
        totals=standing.totals,
        places=standing.places,
        margins=standing.margins,
        over=standing.outcome.over,
        winners=standing.outcome.winners,
        hands=tuple(scored),
        pending=Hand.Status.PENDING in waiting,
        disputed=Hand.Status.DISPUTED in waiting,
    )
