"""A round's tables made: the pairing that the task runs (`round_pair`, and its
catch-up), the card draws that order tied entrants, and each table seated with its
two-player party of `scoring` — or, in a tournament of another game (issue 28),
its table of three to six with one party of that game (`_pair_at_tables`).

Every round's random choices (lots, card draws, the parties' seat draws) come
from the seed stored on the round."""

from __future__ import annotations

import dataclasses
from random import Random

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from scoring.engine.cards import InvalidCard, parse_card
from scoring.engine.games import GAMES
from scoring.engine.rules import RULESETS
from scoring.labels import table_label
from scoring.services.parties import party_start
from tournaments.engine.formats import RoundPlan, ScheduleComplete, format_of
from tournaments.engine.pairing import NoPairing, standings_order, tied_groups
from tournaments.engine.schedules import TableGame
from tournaments.engine.standings import (
    group_card_draw,
)
from tournaments.engine.table_points import (
    TablePlace,
    byes_needed,
    lowest_without_bye,
    table_places,
)
from tournaments.engine.tables import TableLine, explain, seat_tables
from tournaments.history import tournament_history
from tournaments.models import (
    Entrant,
    Round,
    Seating,
    Table,
    Tournament,
)
from tournaments.planned import plan_first, plan_kept
from tournaments.records import TournamentError, tournament_changed
from tournaments.standings import (
    draws_by_entrant,
    kept_apart,
    table_totals_of,
    tournament_totals,
)


def playing_in(entrants, number: int) -> list[Entrant]:
    """Who is paired in round ``number``: checked in, joined, not withdrawn."""
    return [
        e
        for e in entrants
        if e.checked_in and e.joined_round <= number and e.withdrawn_after is None
    ]


def rounds_pair_waiting() -> int:
    """Pairs every round still being paired: the catch-up for a pairing whose task
    never reached a worker (the broker was away) or went down with its worker.
    Each round is paired in its own transaction, and only once (`round_pair`).
    Returns how many rounds this call paired."""
    waiting = Round.objects.filter(status=Round.Status.PAIRING).values_list("pk", flat=True)
    paired = 0
    for round_id in list(waiting):
        paired += round_pair(round_id=round_id).status != Round.Status.PAIRING
    return paired


@transaction.atomic
def round_pair(*, round_id: int, fewest_rematches: bool = False) -> Round:
    """Pair a round that is being paired: what the pairing task runs.

    Safe to run twice: a round already paired is returned as it is (the round's
    row is locked first, and the tables' unique constraints would refuse a second
    pairing anyway). With no pairing free of rematches, the round is marked stuck
    with the reason, and the organizer chooses to end or to pair with the fewest
    rematches."""
    round = Round.objects.select_for_update().select_related("tournament__club").get(pk=round_id)
    if round.status != Round.Status.PAIRING:
        return round
    fewest_rematches = fewest_rematches or round.how == Round.How.FEWEST_REMATCHES
    tournament = round.tournament
    tournament_changed(tournament.pk)
    if tournament.plays_at_tables:
        return _pair_at_tables(round)
    totals, history, entrants = tournament_totals(tournament)
    active = playing_in(entrants, round.number)
    by_id = {e.pk: e for e in entrants}
    ids = sorted(e.pk for e in active)
    tournament_format = format_of(tournament.format)
    if round.number == 1:
        plan = tournament_format.first_round(ids, Random(round.seed))
    elif not tournament_format.pairs_from_standings:
        first = tournament.round_set.get(number=1)
        plan = _next_round(tournament_format, round, ids, first_order=first.standings)
    else:
        draws = tie_draws(round.seed, round.draws, {pk: totals[pk] for pk in ids})
        ranking = standings_order({pk: totals[pk] for pk in ids}, draws_by_entrant(draws))
        try:
            plan = _next_round(
                tournament_format,
                round,
                ids,
                ranking=ranking,
                played=history.pairs(),
                kept_apart=kept_apart(tournament),
                byes=history.byes(),
                fewest_rematches=fewest_rematches,
            )
        except NoPairing as error:
            round.status = Round.Status.STUCK
            round.problem = _names(str(error), by_id)
            round.standings, round.draws = ranking, draws
            round.save(update_fields=["status", "problem", "standings", "draws"])
            return round
        round.draws = draws
        round.points = {str(pk): totals[pk] for pk in ranking}
    if plan.order is not None:
        round.standings = plan.order
    _seat(round, plan, by_id)
    round.how = plan.how
    round.explanation = [line.as_dict() for line in plan.lines]
    round.status = Round.Status.PLAYING
    round.started_at = timezone.now()
    round.save()
    return round


def _names(message: str, by_id: dict[int, Entrant]) -> str:
    """The engine names entrants by id; the organizer reads names."""
    for pk in sorted(by_id, key=lambda pk: -len(str(pk))):
        message = message.replace(str(pk), str(by_id[pk].player))
    return message


def _next_round(tournament_format, round: Round, ids: list[int], **history) -> RoundPlan:
    """Round 2 or later from the format, in the organizer's words when a fixed
    schedule has been played out."""
    try:
        return tournament_format.next_round(round.number, ids, **history)
    except ScheduleComplete:
        raise TournamentError(gettext("The round robin is complete.")) from None


def _seat(round: Round, pairing: RoundPlan, by_id: dict[int, Entrant]) -> None:
    """Tables in board order, byes last, each game with its party."""
    tournament = round.tournament
    number = 0
    for first, second in pairing.pairs:
        number += 1
        table = Table.objects.create(round=round, number=number)
        Seating.objects.bulk_create(
            [
                Seating(round=round, table=table, entrant_id=first, side=0),
                Seating(round=round, table=table, entrant_id=second, side=1),
            ]
        )
        table.party = table_party(tournament, round, number, by_id[first], by_id[second])
        table.save(update_fields=["party"])
    for entrant in pairing.byes:
        number += 1
        table = Table.objects.create(round=round, number=number, bye=True)
        Seating.objects.create(round=round, table=table, entrant_id=entrant, side=0)


def table_party(tournament: Tournament, round: Round, number: int, first, second):
    rules = dataclasses.replace(RULESETS[tournament.ruleset], target=tournament.target)
    return party_start(
        club=tournament.club,
        format="two",
        players=[first.player, second.player],
        rules=rules,
        confirmation_required=tournament.confirmation_required,
        label=table_label(tournament.name, round.number, number),
        # The seat draw is replayable from the round's seed.
        rng=Random(f"{round.seed}-{number}"),
    )


def table_game(tournament: Tournament) -> TableGame:
    """The tournament's game as its tables are seated: the players per table and
    the numbers of players a table of that game may have."""
    return TableGame(tournament.table_size, GAMES[tournament.game].table_sizes)


def _pair_at_tables(round: Round) -> Round:
    """Seat a round of a tournament of another game at tables of its size: in a
    format that seats from the standings (Swiss), the fewest repeat meetings,
    then the standings (`engine.tables.seat_tables`); in one with a fixed
    schedule (round robin), the schedule's tables (`_schedule_at_tables`).

    The ranking: round 1 is drawn by lot, as Gin Rummy's first round (the
    entrants in the order they entered, shuffled from the round's seed); later
    rounds follow the standings (points, game score, parties won:
    `engine.table_points`), equal entrants in the order of that same lot. Pairs
    who sat at one table before count as met, and so do pairs kept apart (the
    explanation names them as met before).

    Byes: the tables' sizes differ by at most one; where a smaller table is one
    the game is not played at (Blaue Vierzehn at tables of four with 5 entrants
    would seat 3 and 2), the lowest-placed entrants who have had no bye sit out,
    one after another, until every table plays (`table_points.byes_needed`,
    `lowest_without_bye`); when all have had one, the lowest placed of those with
    the fewest. A bye scores `table_points.bye_points`.

    Each table seats its entrants in standings order (``Seating.side`` is the
    seat), and plays one party of the game with the tournament's options and
    confirmation setting; the first seat deals first. Why each table is as it is
    (`engine.tables.explain`) is stored on the round."""
    tournament = round.tournament
    entrants = list(tournament.entrants.select_related("player").order_by("pk"))
    tournament_format = format_of(tournament.format)
    active = playing_in(entrants, round.number)
    by_id = {e.pk: e for e in entrants}
    if tournament_format.plans_ahead:
        return _planned_at_tables(round, [e.pk for e in active], by_id)
    if not tournament_format.pairs_from_standings:
        return _schedule_at_tables(round, tournament_format, [e.pk for e in active], by_id)
    history = tournament_history(tournament)
    drawn = sorted(e.pk for e in active)
    Random(round.seed).shuffle(drawn)
    standing = {}
    if round.number == 1:
        ranking, how, points = drawn, Round.How.LOT, {}
    else:
        totals = {t.entrant: t for t in table_totals_of(tournament, entrants, history)}
        ranking = sorted(drawn, key=lambda pk: tuple(-value for value in totals[pk].key))
        how, points = Round.How.TABLES, {str(pk): totals[pk].points for pk in ranking}
        # The places the standings show: the lot that orders a tie for the cut
        # does not part those who share one.
        standing = {place.total.entrant: place for place in table_places(totals.values())}
    size = tournament.table_size
    count = byes_needed(len(ranking), size, GAMES[tournament.game].table_sizes)
    byes = lowest_without_bye(ranking, history.byes(), count)
    seated = [pk for pk in ranking if pk not in byes]
    met = history.meetings() + kept_apart(tournament)
    seating = seat_tables(seated, size, met)
    _seat_tables(round, seating, sorted(byes, key=ranking.index), by_id)
    lines = [_table_line(line, standing) for line in explain(ranking, seating, met)]
    round.standings, round.points, round.how = ranking, points, how
    round.explanation = lines + [{"kind": "bye", "entrant": pk} for pk in byes]
    round.status = Round.Status.PLAYING
    round.started_at = timezone.now()
    round.save()
    return round


def _seat_tables(round: Round, seating: list[tuple], byes: list[int], by_id: dict) -> None:
    """The round's tables in order, each seated in seat order with its party of
    the game, then one table for each bye."""
    tournament = round.tournament
    for number, seats in enumerate(seating, start=1):
        table = Table.objects.create(round=round, number=number)
        Seating.objects.bulk_create(
            Seating(round=round, table=table, entrant_id=pk, side=seat)
            for seat, pk in enumerate(seats)
        )
        table.party = game_table_party(tournament, round, number, [by_id[pk] for pk in seats])
        table.save(update_fields=["party"])
    for number, pk in enumerate(byes, start=len(seating) + 1):
        table = Table.objects.create(round=round, number=number, bye=True)
        Seating.objects.create(round=round, table=table, entrant_id=pk, side=0)


def _schedule_at_tables(round: Round, tournament_format, ids: list[int], by_id: dict) -> Round:
    """Seat a round of a round robin at tables from its fixed schedule
    (`formats.RoundRobin.first_tables`, `next_tables`).

    Round 1 draws who is which point of the schedule by lot, from the round's
    seed, over the field fixed at the start (`rounds.round_start` keeps it on the
    round: an entrant withdrawn while the round waited for its pairing leaves
    a seat empty rather than a field without a schedule); the order drawn is
    kept with round 1 and every later round follows it. Those who play the
    round sit where the schedule puts them; a table with a seat left empty by a
    withdrawal plays short, or, when too few are left for the game, its
    players sit out with a bye. Each table's explanation names it the
    schedule's, with who withdrew from it."""
    tournament = round.tournament
    game = table_game(tournament)
    try:
        if round.number == 1:
            field = round.standings or ids
            plan = tournament_format.first_tables(field, game, Random(round.seed), playing=ids)
        else:
            first = tournament.round_set.get(number=1)
            plan = tournament_format.next_tables(
                round.number, ids, first_order=first.standings, game=game
            )
    except ScheduleComplete:
        raise TournamentError(gettext("The round robin is complete.")) from None
    _seat_tables(round, plan.tables, plan.byes, by_id)
    if plan.order is not None:
        round.standings = plan.order
    round.points, round.how = {}, Round.How.SCHEDULE
    round.explanation = [
        {"kind": "schedule", "number": number, "seats": list(seats), "absent": list(absent)}
        for number, (seats, absent) in enumerate(zip(plan.tables, plan.absent, strict=True), 1)
    ] + [
        {"kind": "planned_bye" if pk in plan.out else "schedule_bye", "entrant": pk}
        for pk in plan.byes
    ]
    round.status = Round.Status.PLAYING
    round.started_at = timezone.now()
    round.save()
    return round


def _planned_at_tables(round: Round, ids: list[int], by_id: dict) -> Round:
    """Seat a round of an evening planned ahead (`tournaments.planned`): round 1
    draws the order by lot from the round's seed and plans every round (kept on
    the tournament, the order on round 1); a later round is seated as planned,
    re-planned first when those who play it are not those it was planned for
    (`plan_kept`). Each table's explanation names it the plan's; who sits out a
    round sits out as planned (a bye)."""
    tournament = round.tournament
    if round.number == 1:
        round.standings = plan_first(tournament, ids, round.seed)
        tournament.save(update_fields=["plan"])
        entry = tournament.plan[0]
    else:
        entry = plan_kept(tournament, round.number, ids)
    _seat_tables(round, [tuple(table) for table in entry["tables"]], entry["byes"], by_id)
    round.points, round.how = {}, Round.How.PLANNED
    round.explanation = [
        {"kind": "planned", "number": number, "seats": list(seats)}
        for number, seats in enumerate(entry["tables"], start=1)
    ] + [{"kind": "planned_bye", "entrant": pk} for pk in entry["byes"]]
    round.status = Round.Status.PLAYING
    round.started_at = timezone.now()
    round.save()
    return round


def _table_line(line: TableLine, standing: dict[int, TablePlace]) -> dict:
    """A table's explanation as stored on the round (`Round.explanation`): each
    seat's place as the standings it was seated from show it (``standing``; the
    place in the ranking where there were none, at round 1), and whether shared."""
    here = [standing.get(pk) for pk in line.seats]
    return {
        "kind": "table",
        "number": line.number,
        "seats": list(line.seats),
        "places": [at.place if at else place for at, place in zip(here, line.places, strict=True)],
        "shared": [bool(at and at.shared) for at in here],
        "repeats": line.repeats,
        "met_before": [list(met) for met in line.met_before],
        "cut_repeats": line.cut_repeats,
        "moved_away": list(line.moved_away),
        "moved_in": list(line.moved_in),
    }


def game_table_party(tournament: Tournament, round: Round, number: int, entrants: list):
    """The party of another game at a table: its players in seat order, the
    tournament's options and confirmation setting."""
    return party_start(
        club=tournament.club,
        game=tournament.game,
        players=[entrant.player for entrant in entrants],
        options=tournament.game_options,
        confirmation_required=tournament.confirmation_required,
        label=table_label(tournament.name, round.number, number),
    )


def tie_draws(seed: int, stored: list[dict], totals: dict[int, int]) -> list[dict]:
    """The card draws that order the tied entrants (seed 000: "so wird durch
    Kartenziehen eine Reihenfolge festgelegt"), group by group from the top, each
    stored as ``{"entrant", "cards", "by", "points"}`` (``points``: the tie).

    A group keeps the draw stored for it, Knock's or the venue's, as long as
    every member has one of the same kind (a member who withdrew leaves the
    others' order as it was); a draw stored before the points were kept with it
    counts as made on these points. Any other group gets Knock's draw from the
    round's seed and that group alone (`group_card_draw`): entering one group's
    cards at the venue changes no other group's cards or order."""
    by_entrant = {d["entrant"]: d for d in stored}
    draws = []
    for group in tied_groups(totals):
        points = totals[group[0]]
        kept = [by_entrant.get(pk) for pk in group]
        if _keeps(kept, points):
            entries = sorted(kept, key=_venue_key, reverse=True)
        else:
            entries = [
                {"entrant": pk, "cards": [str(c) for c in cards], "by": "knock"}
                for pk, cards in group_card_draw(seed, group)
            ]
        draws.extend({**entry, "points": points} for entry in entries)
    return draws


def _keeps(kept: list[dict | None], points: int) -> bool:
    """Whether a tied group's stored draws still order it: one each, of one kind,
    made on these points, no two the same."""
    if any(d is None or d.get("points", points) != points for d in kept):
        return False
    return len({d["by"] for d in kept}) == 1 and len({_venue_key(d) for d in kept}) == len(kept)


def venue_card(text: str):
    try:
        return parse_card(text)
    except InvalidCard:
        raise TournamentError(
            gettext("“%(text)s” is not a card: write rank and suit, e.g. KH or 10♣.")
            % {"text": text}
        ) from None


def _venue_key(draw: dict):
    return tuple(parse_card(c) for c in draw["cards"])
