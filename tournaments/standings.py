"""Reads of what the rounds so far hold: every table and result (the history),
the plus/minus standings after the closed rounds, and the card draws that order
ties, each in a fixed number of queries however many entrants and rounds.

Parties come in through scoring's readers only: `party_scores` (kept, settled
again only where a party changed) for results and how far a table has come; the
other games' parties through
`tournaments.outcomes` beside them. A tournament of another game (issue 28) ranks
by points by place at its tables (`tournaments.engine.table_points`)."""

from __future__ import annotations

import dataclasses
import itertools
from collections import defaultdict
from dataclasses import dataclass, field
from typing import NamedTuple

from clubs.names import shown_names
from config.rows import plain_rows
from scoring.engine.cards import parse_card
from scoring.scores import PartyScore, party_scores
from tournaments.engine import knockout
from tournaments.engine.formats import format_of
from tournaments.engine.standings import (
    Bye,
    Forfeit,
    Place,
    Played,
    places,
    plus_minus,
)
from tournaments.engine.table_points import (
    AtTable,
    TableBye,
    TablePlace,
    bye_points,
    table_places,
    table_totals,
)
from tournaments.models import (
    Entrant,
    FinalStage,
    Round,
    Seating,
    Table,
    Tournament,
)
from tournaments.outcomes import GameOutcome, game_outcomes


class TableRow(NamedTuple):
    """A table of the history, as plain values with its round's number and status."""

    pk: int
    round_id: int
    round_number: int
    round_status: str
    number: int
    bye: bool
    absent: int | None
    party_id: int | None


class SeatingRow(NamedTuple):
    table_id: int
    entrant_id: int
    side: int


@dataclass
class History:
    """What the rounds so far hold: every table, who sat where, the results."""

    tables: list[TableRow]
    seated: dict[int, list[SeatingRow]]  # table id -> seatings by side
    # Gin Rummy's parties by id (cancelled ones left out): whether finished, and
    # each player's plus/minus.
    outcomes: dict[int, PartyScore]
    # The other games' parties (`tournaments.outcomes`), by party id.
    games: dict[int, GameOutcome] = field(default_factory=dict)

    def pairs(self, before: int | None = None) -> list[tuple[int, int]]:
        """Entrant id pairs that met (forfeits included: they were paired)."""
        return [
            (seats[0].entrant_id, seats[1].entrant_id)
            for table in self.tables
            if not table.bye and (before is None or table.round_number < before)
            for seats in [self.seated[table.pk]]
        ]

    def meetings(self, before: int | None = None) -> list[tuple[int, int]]:
        """Every two entrants who sat at one table (a table of two is its pair); a
        pair that met twice is listed twice."""
        return [
            pair
            for table in self.tables
            if not table.bye and (before is None or table.round_number < before)
            for pair in itertools.combinations(
                [seat.entrant_id for seat in self.seated[table.pk]], 2
            )
        ]

    def table_results(self, entrant_player: dict[int, int], closed_only: bool = True) -> list:
        """The results of a tournament at tables as its standings engine reads them
        (`table_points`): each finished party's places and margins, and the byes."""
        results = []
        for table in self.tables:
            if closed_only and table.round_status != Round.Status.CLOSED:
                continue
            ids = [seat.entrant_id for seat in self.seated[table.pk]]
            if table.bye:
                results.append(TableBye(ids[0]))
                continue
            outcome = self.games.get(table.party_id)
            if outcome is None or not outcome.finished:
                continue
            players = [entrant_player[pk] for pk in ids]
            results.append(
                AtTable(
                    tuple(ids),
                    tuple(outcome.places[p] for p in players),
                    tuple(outcome.margins[p] for p in players),
                )
            )
        return results

    def byes(self, before: int | None = None) -> list[int]:
        return [
            self.seated[table.pk][0].entrant_id
            for table in self.tables
            if table.bye and (before is None or table.round_number < before)
        ]

    def results(self, entrant_player: dict[int, int], closed_only: bool = True) -> list:
        """The results of the closed rounds as the standings engine reads them
        (``closed_only=False``: the finished tables of the rounds after them too)."""
        closed, later = self.results_split(entrant_player)
        return closed if closed_only else closed + later

    def results_split(self, entrant_player: dict[int, int]) -> tuple[list, list]:
        """The results of the closed rounds, and those of the finished tables of the
        rounds after them: the provisional standings add the second to the first,
        each read once."""
        closed, later = [], []
        for table in self.tables:
            found = closed if table.round_status == Round.Status.CLOSED else later
            seats = self.seated[table.pk]
            if table.bye:
                found.append(Bye(seats[0].entrant_id))
                continue
            first, second = seats[0].entrant_id, seats[1].entrant_id
            if table.absent is not None:
                present, absent = (second, first) if table.absent == 0 else (first, second)
                found.append(Forfeit(present=present, absent=absent))
                continue
            outcome = self.outcomes.get(table.party_id)
            if outcome is None or not outcome.finished:
                continue
            margin = outcome.plus_minus[entrant_player[first]]
            winner = None if margin == 0 else first if margin > 0 else second
            found.append(Played(first, second, winner, abs(margin)))
        return closed, later


def tournament_history(tournament: Tournament, *, with_outcomes: bool = True) -> History:
    """Every table of every round with its seatings (two queries), and the parties'
    outcomes (three more; Gin Rummy's only ``with_outcomes``, another game's always,
    `tournaments.outcomes`). Rows are read as plain values, never as models: a big
    tournament's history is tens of thousands of rows, read for every standings."""
    tables = Table.objects.filter(round__tournament=tournament).order_by("round__number", "number")
    rows = [
        TableRow(pk, round_id, round_number, status, number, bool(bye), absent, party)
        for pk, round_id, round_number, status, number, bye, absent, party in plain_rows(
            tables.values_list(
                "pk",
                "round_id",
                "round__number",
                "round__status",
                "number",
                "bye",
                "absent",
                "party_id",
            )
        )
    ]
    seated: dict[int, list[SeatingRow]] = defaultdict(list)
    seatings = Seating.objects.filter(round__tournament=tournament).order_by("table_id", "side")
    for row in plain_rows(seatings.values_list("table_id", "entrant_id", "side")):
        seated[row[0]].append(SeatingRow(*row))
    outcomes, games = {}, {}
    # The ids as a subquery: no list of thousands of ids is sent.
    parties = tables.filter(party__isnull=False).values("party_id")
    if tournament.plays_at_tables:
        # Read whatever ``with_outcomes`` says: it spares Gin Rummy's outcomes to a
        # reader that makes them from the parties' scores (the board).
        games = game_outcomes(parties, cancelled=False)
    elif with_outcomes:
        outcomes = {pk: s for pk, s in party_scores(parties).items() if not s.cancelled}
    return History(rows, seated, outcomes, games)


def kept_apart(tournament: Tournament) -> list[tuple[int, int]]:
    return list(tournament.apart.values_list("first_id", "second_id"))


@dataclass(frozen=True)
class StandingsLine:
    place: int
    shared: bool
    entrant: Entrant
    points: int
    games: int
    draw: str  # the cards drawn, as shown ("K♥"), or ""
    withdrawn: bool
    won: int = 0
    byes: int = 0
    # At tables of another game: the game score (the sum of the margins), the
    # tiebreak after the points.
    score: int = 0

    @property
    def parties(self) -> int:
        """Games at a table: parties played and forfeits, byes not counted."""
        return self.games - self.byes


@dataclass
class Standings:
    lines: list[StandingsLine]
    after_round: int  # the last closed round
    draws: list[dict] = field(default_factory=list)


def show_cards(cards) -> str:
    """Cards as players read them: "K♥", "10♣"."""
    symbols = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
    shown = []
    for text in cards:
        card = parse_card(text)
        rank = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K"}.get(card.rank, str(card.rank))
        shown.append(f"{rank}{symbols[card.suit]}")
    return " ".join(shown)


def draws_by_entrant(draws: list[dict]) -> dict[int, tuple]:
    """Stored draws as the engine compares them: entrant id -> tuple of cards."""
    return {d["entrant"]: tuple(parse_card(c) for c in d["cards"]) for d in draws}


def standings_for(tournament: Tournament) -> Standings:
    """The standings after the last closed round: plus/minus points, places shared
    on equal points unless a card draw separates them (the draw that orders the
    next round, or the final draw). Seven queries, whatever the size."""
    entrants = list(tournament.entrants.select_related("player").order_by("player__name", "pk"))
    rounds = list(tournament.round_set.order_by("number"))
    return standings_from(tournament, entrants, rounds, tournament_history(tournament))


def standings_from(
    tournament: Tournament, entrants, rounds, history: History, *, live: bool = False
) -> Standings:
    """`standings_for` from rows already loaded. ``live``: the tables of the round
    being played count as soon as they are finished (provisional standings for the
    spectators). A card draw orders tied entrants while they stand on the points
    they drew on: the draw that paired the round being played still separates
    those it separated, one place each, and a tie that a finished table made
    anew is shared until the draw for the next round is made."""
    closed = [r for r in rounds if r.status == Round.Status.CLOSED]
    if tournament.plays_at_tables:
        return _table_standings(tournament, entrants, history, closed, live)
    players = _players(entrants)
    ids = [e.pk for e in entrants]
    values = {"bye_value": tournament.bye_value, "forfeit_value": tournament.forfeit_value}
    closed_results, later = history.results_split(players)
    # The points a draw stored without them was made on: those after the closed rounds.
    drawn_on = plus_minus(ids, closed_results, **values)
    results, totals = closed_results, drawn_on
    if live:
        results = closed_results + later
        now = plus_minus(ids, later, **values)
        totals = {pk: points + now[pk] for pk, points in drawn_on.items()}
    draws = []
    if tournament.status == Tournament.Status.FINISHED:
        draws = tournament.final_draws
    elif closed and len(rounds) > len(closed):
        draws = rounds[len(closed)].draws
    games, won, byes = defaultdict(int), defaultdict(int), defaultdict(int)
    for result in results:
        for entrant in _entrants_of(result):
            games[entrant] += 1
        if isinstance(result, Bye):
            byes[result.entrant] += 1
        elif isinstance(result, Forfeit):
            won[result.present] += 1
        elif result.winner is not None:
            won[result.winner] += 1
    by_id = {e.pk: e for e in entrants}
    lines = [
        _line(place, by_id[place.entrant], games[pk], won[pk], byes[pk])
        for place in places(totals, _standing_draws(draws, totals, drawn_on))
        for pk in [place.entrant]
    ]
    return Standings(lines, closed[-1].number if closed else 0, draws)


def _table_standings(tournament, entrants, history: History, closed, live: bool) -> Standings:
    """`standings_from` of a tournament at tables: points by place, then the game
    score, then parties won (`table_points`); equal on all three share the place."""
    by_id = {e.pk: e for e in entrants}
    lines = [
        _table_line(place, by_id[place.total.entrant])
        for place in table_places(table_totals_of(tournament, entrants, history, live=live))
    ]
    return Standings(lines, closed[-1].number if closed else 0)


def table_totals_of(tournament: Tournament, entrants, history: History, *, live=False) -> list:
    """Each entrant's `table_points.TableTotal` after the closed rounds (``live``:
    the finished tables of the round being played too), in the order given."""
    results = history.table_results(_players(entrants), closed_only=not live)
    found = table_totals(
        [e.pk for e in entrants], results, bye_points=bye_points(tournament.table_size)
    )
    return list(found.values())


def _table_line(place: TablePlace, entrant: Entrant) -> StandingsLine:
    total = place.total
    return StandingsLine(
        place.place,
        place.shared,
        entrant,
        total.points,
        total.games,
        "",
        entrant.withdrawn_after is not None,
        total.won,
        total.byes,
        total.score,
    )


def _standing_draws(draws: list[dict], totals: dict, drawn_on: dict) -> dict[int, tuple]:
    """The draws of entrants who still stand on the points they drew on."""
    return {
        d["entrant"]: tuple(parse_card(c) for c in d["cards"])
        for d in draws
        if d["entrant"] in totals
        and d.get("points", drawn_on.get(d["entrant"])) == totals[d["entrant"]]
    }


def _line(place: Place, entrant: Entrant, games: int, won: int, byes: int) -> StandingsLine:
    draw = show_cards(str(c) for c in place.draw) if place.draw else ""
    return StandingsLine(
        place.place,
        place.shared,
        entrant,
        place.points,
        games,
        draw,
        entrant.withdrawn_after is not None,
        won,
        byes,
    )


def _players(entrants) -> dict[int, int]:
    return {e.pk: e.player_id for e in entrants}


def _entrants_of(result) -> tuple:
    if isinstance(result, Played):
        return (result.first, result.second)
    if isinstance(result, Forfeit):
        return (result.present, result.absent)
    return (result.entrant,)


def _totals(tournament: Tournament, entrants, history: History) -> dict[int, int]:
    return plus_minus(
        [e.pk for e in entrants],
        history.results(_players(entrants)),
        bye_value=tournament.bye_value,
        forfeit_value=tournament.forfeit_value,
    )


def tournament_totals(tournament: Tournament) -> tuple[dict[int, int], History, list[Entrant]]:
    """Plus/minus points of every entrant after the closed rounds, with the
    history they came from (for pairing)."""
    entrants = list(tournament.entrants.order_by("pk"))
    history = tournament_history(tournament)
    return _totals(tournament, entrants, history), history, entrants


@dataclass(frozen=True)
class DrawGroup:
    """One tie's card draw as the room hears it: who drew what, and where."""

    points: int | None  # the points they were tied on (None: not known)
    venue: bool  # drawn at the venue, else Knock's draw
    shown: str  # "Anna K♥, Ben 7♣", best first


def draw_groups(
    draws: list[dict],
    entrants: dict[int, Entrant],
    points: dict[int, int] | None = None,
    names: dict[int, str] | None = None,
) -> list[DrawGroup]:
    """A card draw tie by tie, each with where it was drawn. A draw stored without
    its points (before they were kept) takes them from ``points`` (entrant id ->
    the points it was drawn on); without those either, a run of draws of one
    kind reads as one tie. ``names``: entrant id -> his name as the reader may see
    it (the public board's), else the full name."""
    points = points or {}
    groups: list[tuple[tuple, list[dict]]] = []
    for d in draws:
        if d["entrant"] not in entrants:
            continue
        tie = d.get("points", points.get(d["entrant"]))
        key = (tie, d["by"])
        if groups and groups[-1][0] == key:
            groups[-1][1].append(d)
        else:
            groups.append((key, [d]))
    return [
        DrawGroup(tie, by == "venue", draws_shown(members, entrants, names))
        for (tie, by), members in groups
    ]


def round_draw_points(round: Round, standings: Standings | None = None) -> dict[int, int]:
    """The points a round's stored draw was made on, for draws stored without
    them: kept with the round once paired, else the standings now."""
    if round.points:
        return points_at(round)
    return {line.entrant.pk: line.points for line in standings.lines} if standings else {}


def draws_shown(
    draws: list[dict], entrants: dict[int, Entrant], names: dict[int, str] | None = None
) -> str:
    """A card draw as the room hears it: "Anna K♥, Ben 7♣"."""
    names = names or {}
    return ", ".join(
        f"{names.get(d['entrant']) or entrants[d['entrant']]} {show_cards(d['cards'])}"
        for d in draws
        if d["entrant"] in entrants
    )


def round_places(round: Round) -> dict[int, int]:
    """Each entrant's place in the standings a round was paired from (entrant id
    -> place): the one rule for the places in brackets, on the organizer's and on
    the public pages. Ties were separated by the card draw before pairing (at
    tables of another game by game score, parties won and lot), so the places
    are one each, in the order the pairing read them. A round
    paired by lot or by the round-robin schedule was not paired from standings:
    no places."""
    if round.how not in (Round.How.SWISS, Round.How.FEWEST_REMATCHES, Round.How.TABLES):
        return {}
    return {pk: i for i, pk in enumerate(round.standings, start=1)}


def points_at(round: Round) -> dict[int, int]:
    # Stored with the standings when the round is paired.
    return {int(pk): points for pk, points in (round.points or {}).items()}


# --------------------------------------------------------------------------- after a final


@dataclass(frozen=True)
class FinalLine:
    """One line of the final standings: ``reached`` the knockout round's key an
    entrant went out in ("final" for the runner-up; "champion"; "" for those who did
    not qualify), ``line`` his line of the qualifying standings (``None`` in a
    knockout tournament), ``name`` his name as the reader may see it
    (`clubs.names.shown_name`)."""

    place: int
    shared: bool
    entrant: Entrant
    reached: str
    line: StandingsLine | None
    name: str = ""


CHAMPION = "champion"


def round_key(stage: FinalStage, round: int, third_place: bool = False) -> str:
    """A knockout round's key (`knockout.round_name`), or "third-place"."""
    if third_place:
        return knockout.THIRD_PLACE
    rounds = knockout.round_count(len(stage.seeds))
    return knockout.round_name(2 ** (rounds - round))


def final_order(
    tournament: Tournament, lines: list[StandingsLine], entrants: dict[int, Entrant]
) -> list[FinalLine] | None:
    """The order once the final is decided (``None`` before, or without a final):
    its players first, by how far they came (`knockout.final_places`; the
    semi-finals' losers share third unless they played for it), then everyone else
    as the qualifying standings ``lines`` place them. Every standings surface —
    the final's page, the public standings, the print, the wall screen, the CSV
    and the API — orders by it. One query (the matches) once decided."""
    stage = getattr(tournament, "final_stage", None)
    if stage is None or stage.status != FinalStage.Status.FINISHED:
        return None
    by_entrant = {line.entrant.pk: line for line in lines}
    reached = dict.fromkeys(stage.seeds, 1)
    champion = third_winner = third_loser = None
    rounds = knockout.round_count(len(stage.seeds))
    for m in stage.matches.all():
        if m.third_place:
            third_winner = m.winner_id
            third_loser = m.first_id if m.winner_id == m.second_id else m.second_id
            continue
        for pk in (m.first_id, m.second_id):
            if pk is not None:
                reached[pk] = max(reached[pk], m.round)
        if m.round == rounds:
            champion = m.winner_id
    groups = knockout.final_places(stage.seeds, reached, third_winner, third_loser, champion)
    result = []
    for group in groups:
        place = len(result) + 1
        for pk in group:
            if pk == champion:
                key = CHAMPION
            elif pk in (third_winner, third_loser):
                key = knockout.THIRD_PLACE
            else:
                key = round_key(stage, reached[pk])
            result.append(FinalLine(place, len(group) > 1, entrants[pk], key, by_entrant.get(pk)))
    qualified = set(stage.seeds)
    previous = None
    for x in (x for x in lines if x.entrant.pk not in qualified):
        tied = previous is not None and x.shared and x.place == previous.place
        place = result[-1].place if tied else len(result) + 1
        if tied and not result[-1].shared:
            result[-1] = dataclasses.replace(result[-1], shared=True)
        result.append(FinalLine(place, tied, x.entrant, "", x))
        previous = x
    return result


def final_standings(tournament: Tournament, *, public: bool) -> list[FinalLine]:
    """The final standings (`final_order`); before the final is decided, the
    qualifying standings alone. Names as ``public`` or the organizers see them."""
    lines = []
    if format_of(tournament.format).plays_rounds:
        lines = standings_for(tournament).lines
    entrants = {e.pk: e for e in tournament.entrants.select_related("player")}
    found = final_order(tournament, lines, entrants)
    if found is None:
        found = [FinalLine(x.place, x.shared, x.entrant, "", x) for x in lines]
    names = shown_names(tournament.club_id, [line.entrant.player for line in found], public=public)
    return [dataclasses.replace(x, name=names[x.entrant.player_id]) for x in found]
