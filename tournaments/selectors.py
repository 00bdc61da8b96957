"""Reads for tournaments: standings, rounds and tables, each in a fixed number of
queries however many entrants and rounds.

Parties come in through scoring's readers only: `party_outcomes` for results,
`party_scores` for how far a table has come."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import NamedTuple

from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language, gettext

from clubs.models import Player
from scoring.engine.cards import parse_card
from scoring.engine.formats import PartyOutcome
from scoring.models import AuditRecord, Party, Seat
from scoring.selectors import PartyScore, party_outcomes, party_scores
from tournaments.engine.explain import (
    HAD_BYE,
    KEPT_APART,
    PLAYED,
    STRANDS,
    Line,
    describe,
    english_ordinal,
)
from tournaments.engine.formats import format_of
from tournaments.engine.standings import Bye, Forfeit, Place, Played, places, plus_minus
from tournaments.models import (
    Entrant,
    KeepApart,
    Round,
    Seating,
    Table,
    Tournament,
    TournamentRecord,
)

# --------------------------------------------------------------------------- history


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
    outcomes: dict[int, PartyOutcome]

    def pairs(self, before: int | None = None) -> list[tuple[int, int]]:
        """Entrant id pairs that met (forfeits included: they were paired)."""
        return [
            (seats[0].entrant_id, seats[1].entrant_id)
            for table in self.tables
            if not table.bye and (before is None or table.round_number < before)
            for seats in [self.seated[table.pk]]
        ]

    def byes(self, before: int | None = None) -> list[int]:
        return [
            self.seated[table.pk][0].entrant_id
            for table in self.tables
            if table.bye and (before is None or table.round_number < before)
        ]

    def results(self, entrant_player: dict[int, int], closed_only: bool = True) -> list:
        """The results of the closed rounds as the standings engine reads them."""
        results = []
        for table in self.tables:
            if closed_only and table.round_status != Round.Status.CLOSED:
                continue
            seats = self.seated[table.pk]
            if table.bye:
                results.append(Bye(seats[0].entrant_id))
                continue
            first, second = seats[0].entrant_id, seats[1].entrant_id
            if table.absent is not None:
                present, absent = (second, first) if table.absent == 0 else (first, second)
                results.append(Forfeit(present=present, absent=absent))
                continue
            outcome = self.outcomes.get(table.party_id)
            if outcome is None or not outcome.finished:
                continue
            margin = outcome.plus_minus[entrant_player[first]]
            winner = None if margin == 0 else first if margin > 0 else second
            results.append(Played(first, second, winner, abs(margin)))
        return results


def tournament_history(tournament: Tournament, *, with_outcomes: bool = True) -> History:
    """Every table of every round with its seatings (two queries), and the parties'
    outcomes (three more). Rows are read as plain values, never as models: a big
    tournament's history is tens of thousands of rows, read for every standings."""
    tables = Table.objects.filter(round__tournament=tournament).order_by("round__number", "number")
    rows = [
        TableRow(*row)
        for row in tables.values_list(
            "pk",
            "round_id",
            "round__number",
            "round__status",
            "number",
            "bye",
            "absent",
            "party_id",
        )
    ]
    seated: dict[int, list[SeatingRow]] = defaultdict(list)
    seatings = Seating.objects.filter(round__tournament=tournament).order_by("table_id", "side")
    for row in seatings.values_list("table_id", "entrant_id", "side"):
        seated[row[0]].append(SeatingRow(*row))
    outcomes = {}
    if with_outcomes:
        # The ids as a subquery: no list of thousands of ids is sent.
        outcomes = party_outcomes(tables.filter(party__isnull=False).values("party_id"))
    return History(rows, seated, outcomes)


def kept_apart(tournament: Tournament) -> list[tuple[int, int]]:
    return list(tournament.apart.values_list("first_id", "second_id"))


# --------------------------------------------------------------------------- standings


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
    players = _players(entrants)
    ids = [e.pk for e in entrants]
    values = {"bye_value": tournament.bye_value, "forfeit_value": tournament.forfeit_value}
    results = history.results(players, closed_only=not live)
    totals = plus_minus(ids, results, **values)
    # The points a draw stored without them was made on: those after the closed rounds.
    drawn_on = plus_minus(ids, history.results(players), **values) if live else totals
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


# --------------------------------------------------------------------------- rounds and tables


@dataclass(frozen=True)
class TableView:
    table: Table
    entrants: list[Entrant]  # by side
    # The party's running score (`scoring.selectors.party_scores`), None at a bye or
    # a forfeit.
    score: PartyScore | None

    @property
    def scores(self) -> list[int | None]:
        """Each entrant's running points, in table order (None before a party).
        By player: the party's sides follow its seat draw, not the table's sides."""
        points = self.score.points if self.score else {}
        return [points.get(e.player_id) for e in self.entrants]

    @property
    def lines(self) -> list[tuple[Entrant, int | None]]:
        """Each entrant with his running points, in table order."""
        return list(zip(self.entrants, self.scores, strict=True))

    @property
    def untouched(self) -> bool:
        """No hand entered and no forfeit: the table may still be changed."""
        if self.table.absent is not None:
            return False
        score = self.score
        return score is None or not (score.hands or score.pending or score.disputed)

    @property
    def finished(self) -> bool:
        return (
            self.table.bye
            or self.table.absent is not None
            or bool(self.score and self.score.finished)
        )


def round_tables(round: Round) -> list[TableView]:
    """A round's tables, the disputed first, each with its entrants and how far its
    party has come. Five queries, whatever the number of tables."""
    tables = list(round.tables.select_related("party").order_by("number"))
    seated = defaultdict(list)
    query = round.seatings.select_related("entrant__player").order_by("table_id", "side")
    for seating in query:
        seated[seating.table_id].append(seating.entrant)
    scores = party_scores(t.party_id for t in tables if t.party_id)
    views = [TableView(t, seated[t.pk], scores.get(t.party_id)) for t in tables]
    return sorted(views, key=lambda v: (not (v.score and v.score.disputed), v.table.number))


def tournament_by_slug(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("club", "final_stage"), slug=slug)


def tournament_rounds(tournament: Tournament) -> list[Round]:
    return list(tournament.round_set.order_by("number"))


def tournament_round(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(
        Round.objects.select_related("tournament__club"), tournament=tournament, number=number
    )


def round_for_manage(slug: str, number: int) -> Round:
    return get_object_or_404(
        Round.objects.select_related("tournament__club", "tournament__final_stage"),
        tournament__slug=slug,
        number=number,
    )


def table_for_manage(slug: str, number: int, table: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round__tournament__club"),
        round__tournament__slug=slug,
        round__number=number,
        number=table,
    )


def entrant_for_manage(slug: str, pk: int) -> Entrant:
    return get_object_or_404(
        Entrant.objects.select_related("tournament__club", "player"),
        tournament__slug=slug,
        pk=pk,
    )


def table_entrants(table: Table) -> list[Entrant]:
    return [s.entrant for s in table.seatings.select_related("entrant__player").order_by("side")]


def table_absent(table: Table) -> Entrant | None:
    """Who did not come to a forfeited table (None: no forfeit)."""
    if table.absent is None:
        return None
    seated = table_entrants(table)
    return seated[table.absent] if table.absent < len(seated) else None


def round_forfeits(round: Round) -> list[Entrant]:
    """Who did not come in a round, by table: the forfeits an undo drops."""
    query = round.seatings.select_related("table", "entrant__player").order_by("table__number")
    return [s.entrant for s in query if s.table.absent == s.side]


def reinstate_refusal(tournament: Tournament, entrant: Entrant) -> str:
    """Why a withdrawn entrant cannot be reinstated now ("" if he can): once a round
    has been paired without him he would come back having missed a round nobody
    can give him (`services.entrant_reinstate`); in a final being played, once the
    match he gave away cannot be taken back. Up to four queries."""
    # The final is built on this module: imported here, not at the top.
    from tournaments import knockout

    stage = knockout.final_playing_with(entrant) if entrant.withdrawn_after is not None else None
    if stage is not None:
        return knockout.reinstate_refusal_in_final(stage, entrant)
    if tournament.status == Tournament.Status.FINISHED:
        return gettext("The tournament is finished.")
    if entrant.withdrawn_after is None:
        return gettext("%(name)s has not withdrawn.") % {"name": entrant}
    rounds = tournament.round_set.filter(number__gte=entrant.joined_round)
    pairing = rounds.filter(status=Round.Status.PAIRING).first()
    if pairing is not None:
        return gettext("Round %(number)s is being paired: try again when it is done.") % {
            "number": pairing.number
        }
    missed = (
        rounds.filter(status__in=[Round.Status.PLAYING, Round.Status.CLOSED])
        .exclude(seatings__entrant=entrant)
        .order_by("number")
        .first()
    )
    if missed is not None:
        return gettext(
            "Round %(number)s was paired without %(name)s: he can no longer be reinstated."
        ) % {"number": missed.number, "name": entrant}
    return ""


def keep_apart_for_manage(slug: str, pk: int) -> KeepApart:
    return get_object_or_404(
        KeepApart.objects.select_related("tournament__club", "first__player", "second__player"),
        tournament__slug=slug,
        pk=pk,
    )


def tournament_records(tournament: Tournament, limit: int = 50) -> list[TournamentRecord]:
    """The latest lines of the tournament's record, newest first, with who did it."""
    query = tournament.records.select_related("user").order_by("-at", "-pk")
    return list(query[:limit])


def club_tournaments(club) -> list[Tournament]:
    return list(club.tournaments.order_by("-date", "-pk"))


def rounds_planned(tournament: Tournament, entrants: list[Entrant]) -> int:
    """The rounds the tournament will have: as set, or once started as fixed then,
    else from the seed's table for the entrants checked in so far (a round robin:
    everyone once)."""
    if tournament.rounds:
        return tournament.rounds
    count = sum(e.checked_in for e in entrants)
    return schedule_length(tournament, count) if count >= 2 else 0


def schedule_length(tournament: Tournament, count: int) -> int:
    """Rounds for ``count`` entrants: a full round robin, or the seed's table for Swiss."""
    return format_of(tournament.format).round_count(count)


def checked_in_count(tournament: Tournament) -> int:
    return tournament.entrants.filter(checked_in=True).count()


def swiss_rounds_warning(tournament: Tournament, count: int | None = None) -> str:
    """What the organizer should know when a Swiss is given more rounds than its
    entrants can play without rematches ("" if nothing): ``count`` entrants can meet
    at most count - 1 opponents (with an odd number one more round, each sitting
    out once: `round_robin`'s length). Without ``count`` (at creation), how many
    entrants the rounds need, beside the seed's table (seed 000: 3 rounds for 5-8
    entrants, 4 for 9-16, 5 for 17-32). The round that cannot be paired later
    offers to end the tournament or pair with the fewest rematches."""
    rounds = tournament.rounds
    tournament_format = format_of(tournament.format)
    if not tournament_format.can_get_stuck or not rounds:
        return ""
    usual = gettext("The usual number is 3 rounds for 5–8 entrants, 4 for 9–16, 5 for 17–32.")
    if count is None:
        needed = tournament_format.entrants_needed(rounds)
        if needed is None:
            return ""
        return (
            gettext(
                "%(rounds)s rounds of Swiss need at least %(needed)s entrants: n entrants "
                "can meet at most n−1 opponents."
            )
            % {"rounds": rounds, "needed": needed}
            + " "
            + usual
        )
    most = tournament_format.rounds_without_rematch(count)
    if rounds <= most:
        return ""
    return (
        gettext(
            "%(count)s entrants can meet at most %(opponents)s opponents: only %(most)s of "
            "the %(rounds)s rounds can be paired without a rematch. After that you will "
            "be asked to end the tournament or pair with the fewest rematches."
        )
        % {"count": count, "opponents": max(count - 1, 0), "most": most, "rounds": rounds}
        + " "
        + usual
    )


def latest_round(tournament: Tournament) -> Round | None:
    return tournament.round_set.order_by("-number").first()


def members_not_entered(tournament: Tournament) -> QuerySet[Player]:
    """The club's members who have not entered yet: who the organizer may register
    (a queryset, for the form's choices)."""
    return (
        Player.objects.filter(memberships__club=tournament.club)
        .exclude(entries__tournament=tournament)
        .order_by("name", "pk")
    )


class Clash(NamedTuple):
    """A pasted guest's name (line ``line`` of the paste, blank lines left out)
    that looks like someone already there: ``kind`` "entrant" (entered already),
    "member" (a member of the club: tick him instead) or "twice" (an earlier line
    of the same paste); ``same`` is that name as it is written there."""

    line: int
    name: str
    kind: str
    same: str


def same_name(name: str) -> str:
    """What two names must share to be the same: case and spacing do not count
    ("anna  berg" is "Anna Berg")."""
    return " ".join(name.split()).casefold()


def guest_clashes(tournament: Tournament, names: list[str]) -> list[Clash]:
    """The pasted names that equal an entrant's, a club member's or an earlier
    line's (`same_name`), in the paste's order. Two queries, however many names."""
    entered = {
        same_name(name): name for name in tournament.entrants.values_list("player__name", flat=True)
    }
    members = {
        same_name(name): name
        for name in Player.objects.filter(memberships__club=tournament.club_id).values_list(
            "name", flat=True
        )
    }
    seen: dict[str, str] = {}
    clashes = []
    for line, name in enumerate(names):
        key = same_name(name)
        if key in entered:
            clashes.append(Clash(line, name, "entrant", entered[key]))
        elif key in seen:
            clashes.append(Clash(line, name, "twice", seen[key]))
        elif key in members:
            clashes.append(Clash(line, name, "member", members[key]))
        seen.setdefault(key, name)
    return clashes


def tournament_by_door_token(token: str) -> Tournament:
    """The tournament whose self check-in link this is (a 404 for any other token,
    a replaced or closed one too)."""
    return get_object_or_404(Tournament.objects.select_related("club"), door_token=token)


def check_in_count(entrants: list[Entrant]) -> dict[str, int]:
    """How many are checked in, and how (on their phones or by the organizer)."""
    checked = [e for e in entrants if e.checked_in]
    by_self = sum(e.checked_in_by == Entrant.By.SELF for e in checked)
    return {"in": len(checked), "self": by_self, "total": len(entrants)}


@dataclass(frozen=True)
class Clock:
    ends_at: datetime
    minutes_left: int  # rounded up; 0 once time is up

    @property
    def over(self) -> bool:
        return self.minutes_left <= 0


def round_clock(round: Round, now: datetime) -> Clock | None:
    """The round's time limit, when the tournament sets one: when it ends and how
    many minutes are left."""
    minutes = round.tournament.round_minutes
    if not minutes or round.started_at is None or round.status != Round.Status.PLAYING:
        return None
    ends_at = round.started_at + timedelta(minutes=minutes)
    seconds = (ends_at - now).total_seconds()
    return Clock(ends_at, max(0, -int(-seconds // 60)))


def venue_draw_groups(tournament: Tournament, standings: Standings) -> list[list[StandingsLine]]:
    """The tied groups of entrants who play on, when the next round waits to be
    paired: who draws cards at the venue (`services.standings_draw_enter`)."""
    waiting = latest_round(tournament)
    if waiting is None or waiting.status not in (Round.Status.PENDING, Round.Status.STUCK):
        return []
    by_points = defaultdict(list)
    for line in standings.lines:
        if line.entrant.checked_in and not line.withdrawn:
            by_points[line.points].append(line)
    return [group for group in by_points.values() if len(group) > 1]


@dataclass(frozen=True)
class DrawGroup:
    """One tie's card draw as the room hears it: who drew what, and where."""

    points: int | None  # the points they were tied on (None: not known)
    venue: bool  # drawn at the venue, else Knock's draw
    shown: str  # "Anna K♥, Ben 7♣", best first


def draw_groups(
    draws: list[dict], entrants: dict[int, Entrant], points: dict[int, int] | None = None
) -> list[DrawGroup]:
    """A card draw tie by tie, each with where it was drawn. A draw stored without
    its points (before they were kept) takes them from ``points`` (entrant id ->
    the points it was drawn on); without those either, a run of draws of one
    kind reads as one tie."""
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
        DrawGroup(tie, by == "venue", draws_shown(members, entrants))
        for (tie, by), members in groups
    ]


def round_draw_points(round: Round, standings: Standings | None = None) -> dict[int, int]:
    """The points a round's stored draw was made on, for draws stored without
    them: kept with the round once paired, else the standings now."""
    if round.points:
        return _points_at(round)
    return {line.entrant.pk: line.points for line in standings.lines} if standings else {}


def draws_shown(draws: list[dict], entrants: dict[int, Entrant]) -> str:
    """A card draw as the room hears it: "Anna K♥, Ben 7♣"."""
    return ", ".join(
        f"{entrants[d['entrant']]} {show_cards(d['cards'])}"
        for d in draws
        if d["entrant"] in entrants
    )


@dataclass(frozen=True)
class TableCard:
    """What a table card prints: the table, its players in seat order with the
    card each drew and whether he deals first, and each seat's link."""

    table: Table
    seats: list[Seat]
    drawn: list[tuple[Seat, str]]  # each seat with the card it drew, as shown
    dealer: Seat | None


def round_cards(round: Round) -> list[TableCard]:
    """The table cards of a round's games (byes have none). Four queries."""
    tables = [t for t in round.tables.select_related("party").order_by("number") if t.party_id]
    ids = [t.party_id for t in tables]
    seats = defaultdict(list)
    for seat in Seat.objects.filter(party_id__in=ids).select_related("player"):
        seats[seat.party_id].append(seat)
    starts = AuditRecord.objects.filter(party_id__in=ids, action=AuditRecord.Action.START)
    draws = {record.party_id: record.after.get("draws", {}) for record in starts}
    cards = []
    for table in tables:
        party_seats = sorted(seats[table.party_id], key=lambda s: s.position)
        drawn = []
        for seat in party_seats:
            card = draws.get(table.party_id, {}).get(str(seat.player))
            drawn.append((seat, show_cards([card]) if card else ""))
        dealer = next((s for s in party_seats if s.position == table.party.first_dealer), None)
        cards.append(TableCard(table, party_seats, drawn, dealer))
    return cards


def tournament_entrants(tournament: Tournament) -> list[Entrant]:
    return list(tournament.entrants.select_related("player").order_by("player__name", "pk"))


def keep_apart_pairs(tournament: Tournament) -> list[KeepApart]:
    return list(tournament.apart.select_related("first__player", "second__player"))


# --------------------------------------------------------------------------- explanations


def _phrases() -> dict[str, str]:
    """The explanation's phrases in the reader's language (see `engine.explain`)."""
    return {
        "pair": gettext("{first} plays {second}"),
        "bye": gettext("{first} has the bye"),
        "lot": gettext("drawn by lot"),
        "schedule": gettext("round-robin schedule"),
        "by_hand": gettext("paired by hand"),
        "lowest": gettext("lowest placed without one"),
        PLAYED: gettext("{other} already played {leader}"),
        KEPT_APART: gettext("{other} is kept apart from {leader}"),
        STRANDS: gettext("{other} would leave others without a new opponent"),
        HAD_BYE: gettext("{other} already had one"),
        "rematch": gettext("a rematch: no pairing without one was possible"),
        "join": "; ",
    }


def round_places(round: Round) -> dict[int, int]:
    """Each entrant's place in the standings a round was paired from (entrant id
    -> place): the one rule for the places in brackets, on the organizer's and on
    the public pages. Ties were separated by the card draw before pairing, so
    the places are one each, in the order the Swiss rule read them. A round
    paired by lot or by the round-robin schedule was not paired from standings:
    no places."""
    if round.how not in (Round.How.SWISS, Round.How.FEWEST_REMATCHES):
        return {}
    return {pk: i for i, pk in enumerate(round.standings, start=1)}


def round_explanation(round: Round, entrants: dict[int, Entrant]) -> list[str]:
    """One sentence per table, e.g. "Anna (1., +212) plays Ben (3., +90): Carl
    (2., +150) already played Anna". Places and points are those the round was
    paired from (`round_places`); ``entrants`` maps ids to entrants (names loaded)."""
    place = round_places(round)
    points = _points_at(round)

    def name(pk):
        return str(entrants[pk]) if pk in entrants else "?"

    def label(pk):
        if pk not in place:
            return name(pk)
        return gettext("%(name)s (%(place)s, %(points)+d)") % {
            "name": name(pk),
            "place": ordinal(place[pk]),
            "points": points.get(pk, 0),
        }

    phrases = _phrases()
    return [
        describe(Line.from_dict(line), name=name, label=label, phrases=phrases)
        for line in round.explanation
    ]


def _points_at(round: Round) -> dict[int, int]:
    # Stored with the standings when the round is paired.
    return {int(pk): points for pk, points in (round.points or {}).items()}


def ordinal(n: int) -> str:
    if get_language() and not get_language().startswith("en"):
        return f"{n}."
    return english_ordinal(n)


# --------------------------------------------------------------------------- the public


def published() -> Q:
    """A tournament the public may see: at least one of its parts is published."""
    return Q(public_pairings=True) | Q(public_standings=True) | Q(public_results=True)


def public_tournament(slug: str) -> Tournament:
    """A tournament by its slug, or a 404 when nothing of it is published."""
    # With its final, if any: the pages' tabs link to it without a query of their own.
    return get_object_or_404(
        Tournament.objects.select_related("club", "final_stage").filter(published()), slug=slug
    )


def public_entrant(tournament: Tournament, entrant_id: int) -> Entrant:
    return get_object_or_404(
        Entrant.objects.select_related("player"), tournament=tournament, pk=entrant_id
    )


def recent_tournaments(
    *, club_ids=None, club_slug=None, since=None, limit: int | None = None
) -> list[Tournament]:
    """Published tournaments, running ones and those since ``since``, newest first."""
    query = Tournament.objects.filter(published()).select_related("club")
    if club_ids is not None:
        query = query.filter(club_id__in=club_ids)
    if club_slug is not None:
        query = query.filter(club__slug=club_slug)
    if since is not None:
        query = query.filter(Q(date__gte=since) | Q(status=Tournament.Status.RUNNING))
    query = query.order_by("-date", "-pk")
    return list(query[:limit] if limit else query)


def entrant_parties(tournament: Tournament, entrant: Entrant) -> list[Table]:
    """The tables an entrant sat at, by round, with their rounds."""
    return list(
        Table.objects.filter(seatings__entrant=entrant, round__tournament=tournament)
        .select_related("round")
        .order_by("round__number")
    )


def tournament_party(tournament: Tournament, party_id: int) -> Party:
    """A party played at one of the tournament's tables, or a 404."""
    return get_object_or_404(
        Party.objects.select_related("club"),
        pk=party_id,
        tournament_table__round__tournament=tournament,
    )


def tournament_table(tournament: Tournament, table_id: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round"), pk=table_id, round__tournament=tournament
    )


def record_text(record: TournamentRecord) -> str:
    """One line of the tournament's record in the reader's language."""
    d, action = record.details, TournamentRecord.Action
    texts = {
        action.FORFEIT: gettext("Round %(round)s, table %(table)s: %(absent)s did not come."),
        action.FORFEIT_UNDONE: gettext(
            "Round %(round)s, table %(table)s: the forfeit of %(absent)s is taken back."
        ),
        action.WITHDRAWN: gettext("%(entrant)s withdrew after round %(after)s."),
        action.REINSTATED: gettext("%(entrant)s is reinstated."),
        action.APART: gettext("%(first)s and %(second)s are kept apart."),
        action.APART_REMOVED: gettext("%(first)s and %(second)s may meet again."),
        action.ROUND_UNDONE: gettext("Round %(round)s is undone."),
        action.FINISHED: gettext("The tournament is finished."),
        action.VENUE_DRAW: gettext("After round %(round)s, cards drawn at the venue: %(cards)s."),
    }
    try:
        return texts[record.action] % d
    except (KeyError, TypeError):
        return record.get_action_display()
