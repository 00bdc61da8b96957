"""The standings: plus/minus after the closed rounds (or, provisional, with the
finished tables of the round being played), places shared on equal points unless
a card draw separates them, and the card draws that order ties; after a final,
its order. Read from the kept results (`tournaments.kept`) in a fixed number of
queries however many entrants and rounds; `standings_from` recomputes the same
from the history (`tournaments.history`), which the kept ones always equal. A
tournament of another game (issue 28) ranks by points by place at its tables
(`tournaments.engine.table_points`)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from clubs.names import shown_names
from scoring.engine.cards import parse_card
from tournaments.engine import knockout
from tournaments.engine.formats import format_of
from tournaments.engine.standings import Place, places, plus_minus
from tournaments.engine.table_points import (
    TablePlace,
    TableTotal,
    bye_points,
    table_places,
    table_totals,
)
from tournaments.history import Counts, History, gin_counts, tournament_history
from tournaments.kept import Sums, kept_sums
from tournaments.models import Entrant, FinalStage, Round, Tournament


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
    next round, or the final draw). From the kept results (`tournaments.kept`), in
    a fixed number of queries, whatever the size."""
    entrants = list(tournament.entrants.select_related("player").order_by("player__name", "pk"))
    rounds = list(tournament.round_set.order_by("number"))
    return kept_standings(tournament, entrants, rounds)


def standings_from(
    tournament: Tournament, entrants, rounds, history: History, *, live: bool = False
) -> Standings:
    """`standings_for` recomputed from the history: what the kept standings
    (`tournaments.kept`) always equal. ``live``: the tables of the round being
    played count as soon as they are finished (provisional standings for the
    spectators)."""
    closed = [r for r in rounds if r.status == Round.Status.CLOSED]
    if tournament.plays_at_tables:
        totals = table_totals_of(tournament, entrants, history, live=live)
        return table_standings(entrants, closed, totals)
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
    return gin_standings(tournament, entrants, rounds, drawn_on, totals, gin_counts(results))


def gin_standings(
    tournament: Tournament, entrants, rounds, drawn_on: dict, totals: dict, counts: Counts
) -> Standings:
    """The plus/minus standings from each entrant's points: ``drawn_on`` after the
    closed rounds, ``totals`` now (the same, or with the round being played). A card
    draw orders tied entrants while they stand on the points they drew on: the draw
    that paired the round being played still separates those it separated, one
    place each, and a tie that a finished table made anew is shared until the draw
    for the next round is made."""
    closed = [r for r in rounds if r.status == Round.Status.CLOSED]
    draws = []
    if tournament.status == Tournament.Status.FINISHED:
        draws = tournament.final_draws
    elif closed and len(rounds) > len(closed):
        draws = rounds[len(closed)].draws
    games, won, byes = counts
    by_id = {e.pk: e for e in entrants}
    lines = [
        _line(place, by_id[place.entrant], games.get(pk, 0), won.get(pk, 0), byes.get(pk, 0))
        for place in places(totals, _standing_draws(draws, totals, drawn_on))
        for pk in [place.entrant]
    ]
    return Standings(lines, closed[-1].number if closed else 0, draws)


def table_standings(entrants, closed, totals: list[TableTotal]) -> Standings:
    """The standings of a tournament at tables from each entrant's
    `table_points.TableTotal`: points by place, then the game score, then parties
    won (`table_points`); equal on all three share the place."""
    by_id = {e.pk: e for e in entrants}
    lines = [_table_line(place, by_id[place.total.entrant]) for place in table_places(totals)]
    return Standings(lines, closed[-1].number if closed else 0)


def kept_standings(
    tournament: Tournament, entrants, rounds, *, live: bool = False, history: History | None = None
) -> Standings:
    """The standings from the kept results (`kept.kept_sums`): the same as
    `standings_from` recomputes from the history, in a fixed number of
    queries that read one row per entrant and round status. ``history``: read by
    the caller already, with its outcomes (the board's)."""
    closed_rounds = [r for r in rounds if r.status == Round.Status.CLOSED]
    closed, later = kept_sums(tournament, {e.pk: e.player_id for e in entrants}, history)
    ids = [e.pk for e in entrants]
    if tournament.plays_at_tables:
        value = bye_points(tournament.table_size)
        lines = [_now(closed, later, pk, live) for pk in ids]
        totals = [
            TableTotal(pk, s.points + value * s.byes, s.score, s.won, s.games, s.byes)
            for pk, s in zip(ids, lines, strict=True)
        ]
        return table_standings(entrants, closed_rounds, totals)
    bye, forfeit = tournament.bye_value, tournament.forfeit_value

    def points(s: Sums) -> int:
        return s.points + bye * s.byes + forfeit * s.forfeits

    drawn_on = {pk: points(closed.get(pk, Sums())) for pk in ids}
    now = {pk: _now(closed, later, pk, live) for pk in ids}
    totals = {pk: points(s) for pk, s in now.items()}
    counts = Counts(
        {pk: s.games for pk, s in now.items()},
        {pk: s.won for pk, s in now.items()},
        {pk: s.byes for pk, s in now.items()},
    )
    return gin_standings(tournament, entrants, rounds, drawn_on, totals, counts)


def _now(closed, later, pk, live: bool) -> Sums:
    found = Sums()
    found.add(closed.get(pk, Sums()))
    if live:
        found.add(later.get(pk, Sums()))
    return found


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
