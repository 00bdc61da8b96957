"""A round's tables while it is played: forfeits and taking them back, players
swapped by hand; and the reads of the tables (how far each party has come, who
sits where, the printed table cards)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext

from scoring.models import AuditRecord, Party, Seat
from scoring.results import Result, party_results
from scoring.services.parties import party_cancel, party_forfeit_taken_back
from tournaments.engine.explain import (
    BY_HAND,
    Line,
)
from tournaments.history import tournament_history
from tournaments.models import (
    Entrant,
    Round,
    Seating,
    Table,
    Tournament,
    TournamentRecord,
)
from tournaments.outcomes import SeatScore, seat_scores
from tournaments.records import TournamentError, record, tournament_changed
from tournaments.seating import table_party
from tournaments.standings import kept_apart, show_cards


def check_two_at_a_table(tournament: Tournament) -> None:
    """Forfeits and swaps by hand are made for tables of two (Gin Rummy); a table
    of another game is played, or the round undone and paired again."""
    if tournament.plays_at_tables:
        raise TournamentError(
            gettext(
                "At tables of %(game)s nobody can be marked absent or swapped yet: undo "
                "the round and pair it again without them."
            )
            % {"game": tournament.get_game_display()}
        )


@transaction.atomic
def table_forfeit(*, table: Table, absent: Entrant, user=None, address=None) -> Table:
    """A no-show: the table is over, the entrant who came scores the forfeit value
    and the absent one loses it. The table's party is removed if no hand was
    played (nobody will play it). One forfeit per table: the table's row is locked
    first, and a forfeit already recorded (of either player) is refused, so a
    repeat records nothing and never turns the table round; take it back first."""
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("round", "party")
        .get(pk=table.pk)
    )
    if table.round.status != Round.Status.PLAYING:
        raise TournamentError(gettext("This round is not being played."))
    tournament_changed(table.round.tournament_id)
    check_two_at_a_table(table.round.tournament)
    if table.bye:
        raise TournamentError(gettext("A bye has no opponent to forfeit."))
    if table.absent is not None:
        gone = table.seatings.select_related("entrant__player").get(side=table.absent)
        raise TournamentError(
            gettext(
                "Table %(number)s is already a forfeit: %(name)s did not come. To change "
                "it, take the forfeit back first."
            )
            % {"number": table.number, "name": gone.entrant}
        )
    side = table.seatings.filter(entrant=absent).values_list("side", flat=True).first()
    if side is None:
        raise TournamentError(gettext("%(name)s does not play at this table.") % {"name": absent})
    party = table.party
    if party is not None and party.hands.exists():
        raise TournamentError(
            gettext("Hands have been played at this table: its party decides the result.")
        )
    table.absent = side
    table.party = None
    table.save(update_fields=["absent", "party"])
    if party is not None:
        party_cancel(
            party=party,
            user=user,
            reason=gettext("No-show: the table is a forfeit."),
            forfeit={
                "absent": absent.player_id,
                "points": table.round.tournament.forfeit_value,
            },
        )
    record(
        table.round.tournament,
        TournamentRecord.Action.FORFEIT,
        user=user,
        address=address,
        round=table.round.number,
        table=table.number,
        absent=str(absent),
        # Taken back, that party's seat links say so (`table_forfeit_undo`).
        party=party.pk if party is not None else None,
    )
    return table


@transaction.atomic
def table_forfeit_undo(*, table: Table, user=None, address=None) -> Table:
    """Take back a forfeit ("… did not come" was wrong, or the player turned up)
    while its round is played: the table plays again, with a party whose seats are
    drawn from the round's seed as before (same seats, same first dealer; new seat
    links, so its table cards are printed again). Once the round is closed the
    forfeit stands: the standings and the next round were made from it."""
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("round__tournament__club")
        .get(pk=table.pk)
    )
    round = table.round
    if round.status != Round.Status.PLAYING:
        raise TournamentError(
            gettext("Round %(number)s is closed: its forfeits stand.") % {"number": round.number}
        )
    tournament_changed(round.tournament_id)
    if table.absent is None:
        raise TournamentError(
            gettext("Table %(number)s has no forfeit to take back.") % {"number": table.number}
        )
    seatings = list(table.seatings.select_related("entrant__player").order_by("side"))
    absent = seatings[table.absent].entrant
    forfeit = (
        round.tournament.records.filter(
            action=TournamentRecord.Action.FORFEIT,
            details__round=round.number,
            details__table=table.number,
        )
        .order_by("-at", "-pk")
        .first()
    )
    stopped = forfeit.details.get("party") if forfeit else None
    if stopped is not None:  # its old seat links say the forfeit was taken back
        party = Party.objects.get(pk=stopped)
        party_forfeit_taken_back(party=party, user=user, address=address)
    table.absent = None
    table.party = table_party(
        round.tournament, round, table.number, seatings[0].entrant, seatings[1].entrant
    )
    table.save(update_fields=["absent", "party"])
    record(
        round.tournament,
        TournamentRecord.Action.FORFEIT_UNDONE,
        user=user,
        address=address,
        round=round.number,
        table=table.number,
        absent=str(absent),
    )
    return table


@transaction.atomic
def tables_swap(*, round: Round, first: Entrant, second: Entrant, user=None) -> list[str]:
    """Swap two entrants between tables by hand, before either table has played a
    hand. Returns warnings: the swap is made even if it makes a rematch, but the
    organizer is told."""
    round = Round.objects.select_for_update().select_related("tournament__club").get(pk=round.pk)
    if round.status != Round.Status.PLAYING:
        raise TournamentError(gettext("This round is not being played."))
    tournament_changed(round.tournament_id)
    check_two_at_a_table(round.tournament)
    seats = {s.entrant_id: s for s in round.seatings.select_related("table__party")}
    if first.pk not in seats or second.pk not in seats:
        raise TournamentError(gettext("Both must play in this round."))
    a, b = seats[first.pk], seats[second.pk]
    if a.table_id == b.table_id:
        raise TournamentError(gettext("They already play at the same table."))
    for seat in (a, b):
        party = seat.table.party
        if seat.table.absent is not None or (party and party.hands.exists()):
            raise TournamentError(
                gettext("Table %(number)s has started: it cannot be changed.")
                % {"number": seat.table.number}
            )
    table_a, table_b = a.table, b.table
    Seating.objects.filter(pk__in=[a.pk, b.pk]).delete()
    Seating.objects.bulk_create(
        [
            Seating(round=round, table=table_b, entrant=first, side=b.side),
            Seating(round=round, table=table_a, entrant=second, side=a.side),
        ]
    )
    tournament = round.tournament
    entrants = {e.pk: e for e in tournament.entrants.select_related("player")}
    history = tournament_history(tournament, with_outcomes=False)
    met = {frozenset(p) for p in history.pairs(before=round.number)}
    apart = {frozenset(p) for p in kept_apart(tournament)}
    warnings = []
    lines = {}
    for table in sorted((table_a, table_b), key=lambda t: t.number):
        seatings = list(Seating.objects.filter(table=table).order_by("side"))
        ids = [s.entrant_id for s in seatings]
        if table.party is not None:
            old = table.party
            table.party = None
            table.save(update_fields=["party"])
            reason = gettext("Players swapped by hand: the table starts again.")
            party_cancel(party=old, user=user, reason=reason)
        if not table.bye:
            table.party = table_party(
                tournament, round, table.number, entrants[ids[0]], entrants[ids[1]]
            )
            table.save(update_fields=["party"])
            if frozenset(ids) in met | apart:
                warnings.append(
                    gettext("%(first)s and %(second)s have met before: this is a rematch.")
                    % {"first": entrants[ids[0]], "second": entrants[ids[1]]}
                )
        second_id = None if table.bye else ids[1]
        lines[table.number] = Line(ids[0], second_id, BY_HAND, (), frozenset(ids) in met | apart)
    round.explanation = [
        lines[number].as_dict() if number in lines else line
        for number, line in enumerate(round.explanation, start=1)
    ]
    round.save(update_fields=["explanation"])
    return warnings


@dataclass(frozen=True)
class TableView:
    table: Table
    entrants: list[Entrant]  # by side
    # The party's result so far (`scoring.results.party_results`), None at a bye
    # or a forfeit.
    score: Result | None

    @property
    def scores(self) -> list[int | None]:
        """Each entrant's running points, in table order (None before a party).
        By player: the party's sides follow its seat draw, not the table's sides."""
        points = self.score.points if self.score else {}
        return [points.get(e.player_id) for e in self.entrants]

    @property
    def seat_lines(self) -> list[tuple[Entrant, SeatScore]]:
        """At a table of another game: each entrant in seat order with the table's
        total, and once over his margin, place and tournament points."""
        players = [e.player_id for e in self.entrants]
        return list(zip(self.entrants, seat_scores(players, self.score), strict=True))

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
    party has come. Five queries, whatever the number of tables (eight at tables
    of another game)."""
    tables = list(round.tables.select_related("party").order_by("number"))
    seated = defaultdict(list)
    query = round.seatings.select_related("entrant__player").order_by("table_id", "side")
    for seating in query:
        seated[seating.table_id].append(seating.entrant)
    scores = party_results(t.party_id for t in tables if t.party_id)
    views = [TableView(t, seated[t.pk], scores.get(t.party_id)) for t in tables]
    return sorted(views, key=lambda v: (not (v.score and v.score.disputed), v.table.number))


def table_for_manage(slug: str, number: int, table: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round__tournament__club"),
        round__tournament__slug=slug,
        round__number=number,
        number=table,
    )


def table_entrants(table: Table) -> list[Entrant]:
    return [s.entrant for s in table.seatings.select_related("entrant__player").order_by("side")]


def table_absent(table: Table) -> Entrant | None:
    """Who did not come to a forfeited table (None: no forfeit)."""
    if table.absent is None:
        return None
    seated = table_entrants(table)
    return seated[table.absent] if table.absent < len(seated) else None


@dataclass(frozen=True)
class TableCard:
    """What a table card prints: the table, its players in seat order with the
    card each drew and whether he deals first, and each seat's link."""

    table: Table
    seats: list[Seat]
    drawn: list[tuple[Seat, str]]  # each seat with the card it drew, as shown
    dealer: Seat | None

    def company(self, seat: Seat) -> str:
        """Whom ``seat`` plays, in one line: "against B" at a table of two, "with B,
        C and D" at a table of another game (everyone there plays everyone)."""
        others = [str(s.player) for s in self.seats if s.pk != seat.pk]
        if len(others) == 1:
            return gettext("against %(name)s") % {"name": others[0]}
        names = gettext("%(some)s and %(last)s") % {
            "some": ", ".join(others[:-1]),
            "last": others[-1],
        }
        return gettext("with %(names)s") % {"names": names}


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
