"""An evening planned ahead (a format whose `TournamentFormat.plans_ahead`): the
plan kept on the tournament, made when round 1 is paired, re-planned for the
rounds not yet played when the field changes (a late entrant, a withdrawal, a
return), and read for the pages (every round's tables, each player's card, the
repeat meetings).

The plan is ``Tournament.plan``: one entry a round, ``{"tables": [[entrant id,
…] in seat order, …], "byes": [id, …]}``. What was played stays as it was
seated; the rounds from the first not yet paired are planned for those who
play them, counting the meetings of the tables played (`mixer.plan_evening`)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from random import Random

from django.utils.translation import gettext, ngettext

from clubs.names import shown_names
from scoring.engine.games import GAMES
from tournaments.engine.formats import format_of
from tournaments.engine.mixer import Meetings, PlannedRound, meetings
from tournaments.engine.schedules import TableGame
from tournaments.models import Entrant, Round, Seating, Tournament


def plans_ahead(tournament: Tournament) -> bool:
    return tournament.plays_at_tables and format_of(tournament.format).plans_ahead


def table_game(tournament: Tournament) -> TableGame:
    """The tournament's game as its tables are seated (as `seating.table_game`,
    which seats the rounds from this plan)."""
    return TableGame(tournament.table_size, GAMES[tournament.game].table_sizes)


def plan_first(tournament: Tournament, field: list[int], seed: int) -> list[dict]:
    """The evening planned when round 1 is paired: ``field`` (entrant ids) in an
    order drawn by lot from the round's ``seed``, every round planned; kept on the
    tournament (not saved here). Returns the order drawn."""
    order = sorted(field)
    Random(seed).shuffle(order)
    rounds = format_of(tournament.format).plan(order, table_game(tournament), tournament.rounds)
    tournament.plan = [_stored(round_) for round_ in rounds]
    return order


def plan_kept(tournament: Tournament, number: int, playing: list[int]) -> dict:
    """Round ``number`` of the plan for ``playing``, those who play it: as planned
    when it seats exactly them, else the rounds from ``number`` on re-planned for
    them (saved). ``number`` is 2 or later (round 1 is `plan_first`)."""
    plan = tournament.plan
    if (
        len(plan) >= number
        and _seats(plan[number - 1]) == set(playing)
        and len(plan) == (tournament.rounds)
    ):
        return plan[number - 1]
    replan(tournament, number, playing)
    return tournament.plan[number - 1]


def replan(tournament: Tournament, number: int, playing: list[int]) -> None:
    """Re-plan the rounds from ``number`` to the last for ``playing`` with the
    fewest repeat meetings, counting the tables of the rounds before ``number``;
    the plan of those rounds is kept. Saved."""
    first = tournament.round_set.filter(number=1).values_list("standings", flat=True).first()
    drawn = list(first or [])
    order = [pk for pk in drawn if pk in set(playing)]
    order += sorted(set(playing) - set(order))
    played, sat_out = _played(tournament, number)
    rest = tournament.rounds - number + 1
    kept = list(tournament.plan[: number - 1])
    kept += [{"tables": [], "byes": []}] * (number - 1 - len(kept))
    before = [entry["tables"] for entry in tournament.plan[number - 1 :]]
    new = (
        format_of(tournament.format).plan(
            order, table_game(tournament), rest, played=played, sat_out=sat_out, before=before
        )
        if rest > 0 and order
        else []
    )
    tournament.plan = kept + [_stored(round_) for round_ in new]
    tournament.save(update_fields=["plan"])


def plan_refresh(tournament: Tournament) -> None:
    """After the field changed (a late entrant, a withdrawal, a return): re-plan
    the rounds not yet paired for those who will play them, when the plan no
    longer seats exactly them. Nothing for a tournament that does not plan ahead
    or whose plan is not made yet (round 1 not paired)."""
    if not plans_ahead(tournament) or not tournament.plan:
        return
    last = tournament.round_set.order_by("-number").values_list("number", "status").first()
    number = 1 if last is None else last[0] + (last[1] != Round.Status.PENDING)
    if number < 2 or number > tournament.rounds:
        return
    entrants = tournament.entrants.all()
    playing = [
        e.pk
        for e in entrants
        if e.checked_in and e.joined_round <= number and e.withdrawn_after is None
    ]
    plan_kept(tournament, number, playing)


def _played(tournament: Tournament, number: int) -> tuple[list[list[list[int]]], list[int]]:
    """The tables of the rounds before ``number`` as seated (each round a list of
    tables of entrant ids), and an entrant id for every bye of them."""
    rows = Seating.objects.filter(round__tournament=tournament, round__number__lt=number)
    rounds: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    byes = []
    for round_number, table, bye, entrant in rows.order_by("table_id", "side").values_list(
        "round__number", "table_id", "table__bye", "entrant_id"
    ):
        if bye:
            byes.append(entrant)
        else:
            rounds[round_number][table].append(entrant)
    return [list(tables.values()) for _, tables in sorted(rounds.items())], byes


def _stored(round_: PlannedRound) -> dict:
    return {"tables": [list(table) for table in round_.tables], "byes": list(round_.byes)}


def _seats(entry: dict) -> set[int]:
    return {pk for table in entry["tables"] for pk in table} | set(entry["byes"])


@dataclass(frozen=True)
class PlanView:
    """The evening as the pages show it: every round's tables and byes by name,
    each player's card (its table and tablemates each round), and the repeat
    meetings with the least any schedule of that field can have."""

    rounds: list[dict]
    cards: list[dict]
    meetings: Meetings
    least: int

    @property
    def summary(self) -> str:
        """The repeat meetings in words, with the least any schedule of these
        tables can have, and the pairs that never meet."""
        met = self.meetings
        if not met.repeats:
            words = gettext("Nobody meets anyone twice this evening.")
        else:
            words = ngettext(
                "The evening has %(count)s repeat meeting",
                "The evening has %(count)s repeat meetings",
                met.repeats,
            ) % {"count": met.repeats}
            words += " " + (
                gettext("(no schedule of these tables can have fewer than %(least)s).")
                % {"least": self.least}
                if self.least
                else gettext("(the fewest found for this field).")
            )
        if met.never:
            words += " " + ngettext(
                "%(count)s pair never sits at one table.",
                "%(count)s pairs never sit at one table.",
                met.never,
            ) % {"count": met.never}
        return words


@dataclass(frozen=True)
class Seat:
    """An entrant as the plan shows it: its id and its name as the reader may see
    it (`clubs.names.shown_names`)."""

    pk: int
    name: str

    def __str__(self) -> str:
        return self.name


def plan_view(tournament: Tournament, *, public: bool = False) -> PlanView | None:
    """The plan for the pages and the API, or ``None`` when there is none (yet);
    names as the organizers see them, or as the public may (``public``). Three
    queries."""
    if not plans_ahead(tournament) or not tournament.plan:
        return None
    players = {
        e.pk: e.player
        for e in Entrant.objects.filter(tournament=tournament).select_related("player")
    }
    names = shown_names(tournament.club_id, players.values(), public=public)
    entrants = {pk: Seat(pk, names[player.pk]) for pk, player in players.items()}
    paired = set(
        tournament.round_set.exclude(status=Round.Status.PENDING).values_list("number", flat=True)
    )
    rounds, cards = [], defaultdict(list)
    for number, entry in enumerate(tournament.plan, start=1):
        tables = [
            {"number": at, "players": [entrants[pk] for pk in table if pk in entrants]}
            for at, table in enumerate(entry["tables"], start=1)
        ]
        byes = [entrants[pk] for pk in entry["byes"] if pk in entrants]
        rounds.append(
            {"number": number, "tables": tables, "byes": byes, "played": number in paired}
        )
        for table in tables:
            for player in table["players"]:
                cards[player.pk].append(
                    {
                        "round": number,
                        "table": table["number"],
                        "with": [p for p in table["players"] if p.pk != player.pk],
                    }
                )
        for player in byes:
            cards[player.pk].append({"round": number, "table": None, "with": []})
    people = sorted((e for e in entrants.values() if e.pk in cards), key=lambda e: e.name.lower())
    seated = [pk for pk in entrants if pk in cards]
    met = meetings((entry["tables"] for entry in tournament.plan), seated)
    # The meetings the plan's tables hold, less the pairs there are: no schedule
    # with these tables can repeat fewer.
    held = sum(
        len(table) * (len(table) - 1) // 2 for entry in tournament.plan for table in entry["tables"]
    )
    least = max(0, held - len(seated) * (len(seated) - 1) // 2)
    return PlanView(
        rounds=rounds,
        cards=[{"entrant": e, "rounds": cards[e.pk]} for e in people],
        meetings=met,
        least=least,
    )
