"""Writes for tournaments, one transaction each: registration, rounds, tables,
forfeits, withdrawals and the finish.

Every round's random choices (lots, card draws, the parties' seat draws) come
from the seed stored on the round. Each table plays a two-player party of
`scoring`; results are read back from those parties, never stored here."""

from __future__ import annotations

import dataclasses
import secrets
from random import Random

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext, ngettext

from clubs.models import Player
from scoring.engine.cards import InvalidCard, parse_card
from scoring.engine.rules import RULESETS
from scoring.labels import table_label
from scoring.services import new_token, party_cancel, party_start
from tournaments import selectors
from tournaments.board import tournament_changed
from tournaments.engine.explain import BY_HAND, Line
from tournaments.engine.formats import DEFAULT_FORMAT, RoundPlan, ScheduleComplete, format_of
from tournaments.engine.pairing import NoPairing, standings_order, tied_groups
from tournaments.engine.standings import group_card_draw
from tournaments.models import (
    CheckIn,
    Entrant,
    FinalStage,
    KeepApart,
    Round,
    Seating,
    Table,
    Tournament,
    TournamentRecord,
)


class TournamentError(ValueError):
    """Something the organizer asked for that cannot be done now, with a message
    saying why."""


def new_seed() -> int:
    # 63 bits: fits a signed 64-bit column on every database.
    return secrets.randbits(63)


def _record(tournament: Tournament, action: str, *, user=None, address=None, **details) -> None:
    """One line of the tournament's append-only record: who, from where, and what
    changed, in names and numbers that stay true after the rows change."""
    TournamentRecord.objects.create(
        tournament=tournament,
        action=action,
        user=user if user is not None and user.is_authenticated else None,
        address=address,
        details=details,
    )


# --------------------------------------------------------------------------- registration


@transaction.atomic
def tournament_create(
    *,
    club,
    name: str,
    format: str = DEFAULT_FORMAT,
    slug: str = "",
    date=None,
    ruleset: str = "classic",
    target: int = 100,
    rounds: int | None = None,
    bye_value: int = 0,
    forfeit_value: int = 100,
    confirmation_required: bool = True,
    public_pairings: bool = True,
    public_standings: bool = True,
    public_results: bool = True,
    round_minutes: int | None = None,
) -> Tournament:
    """A new tournament in registration. The slug, if not given, comes from the name
    (made unique with a number)."""
    if ruleset not in RULESETS:
        raise TournamentError(gettext("There are no rules called %(name)r.") % {"name": ruleset})
    if format not in Tournament.Format.values:
        raise TournamentError(gettext("Choose Swiss system, round robin or knockout."))
    if rounds is not None and rounds < 1:
        raise TournamentError(gettext("A tournament has at least one round."))
    base = slugify(slug or name)[:50] or "tournament"
    slug, number = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        number += 1
        slug = f"{base}-{number}"
    tournament = Tournament.objects.create(
        club=club,
        name=name,
        slug=slug,
        date=date or timezone.localdate(),
        format=format,
        ruleset=ruleset,
        target=target,
        rounds=rounds,
        bye_value=bye_value,
        forfeit_value=forfeit_value,
        confirmation_required=confirmation_required,
        public_pairings=public_pairings,
        public_standings=public_standings,
        public_results=public_results,
        round_minutes=round_minutes,
    )
    if not format_of(format).plays_rounds:
        # A knockout tournament is its final: every entrant checked in at the start
        # plays it, seeded by rating (or lot) then.
        FinalStage.objects.create(
            tournament=tournament, seeding=FinalStage.Seeding.RATING, seed=new_seed()
        )
    return tournament


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


@transaction.atomic
def entrant_register(*, tournament: Tournament, players) -> list[Entrant]:
    """Enter players (members or guests); players already entered are left as they
    are. Entered while the tournament runs, a player is a late entrant: checked in,
    paired from the next round, starting at 0 (the rounds he missed are not byes).
    A round robin takes no late entrants: its schedule is fixed at the start."""
    tournament = _locked(tournament)
    tournament_changed(tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError(gettext("The tournament is finished."))
    late = tournament.status == Tournament.Status.RUNNING
    if late and not format_of(tournament.format).takes_late_entrants:
        raise TournamentError(
            gettext("A round robin takes no late entrants: its schedule is fixed at the start.")
        )
    joined = _unpaired_number(tournament) if late else 1
    entered = set(tournament.entrants.values_list("player_id", flat=True))
    new = [
        Entrant(tournament=tournament, player=p, joined_round=joined)
        for p in dict.fromkeys(players)
        if p.pk not in entered
    ]
    new = Entrant.objects.bulk_create(new)
    if late:
        # A late entrant is entered at the desk: he is here.
        _check_in(new, True, Entrant.By.ORGANIZER)
    return new


class DuplicateNames(TournamentError):
    """Pasted names that look like someone already there (`selectors.guest_clashes`):
    the organizer decides whether they are new people or the same."""

    def __init__(self, clashes):
        self.clashes = clashes
        super().__init__(
            ngettext(
                "This name looks like one already entered: %(names)s.",
                "These names look like ones already entered: %(names)s.",
                len(clashes),
            )
            % {"names": ", ".join(c.name for c in clashes)}
        )


#: What to do with a pasted name that clashes with one already there.
DUPLICATES = ("ask", "enter", "skip")


@transaction.atomic
def entrant_register_guests(
    *,
    tournament: Tournament,
    names: str,
    check_in: bool = False,
    duplicates: str = "enter",
    user=None,
    address=None,
) -> list[Entrant]:
    """Enter guests from a pasted list, one name a line (blank lines skipped). Each
    becomes a player without a membership; with ``check_in`` they are checked in
    at once (typed at the door: they are here).

    A name equal to an entrant's, a member's or another line's (ignoring case and
    spacing) is a clash: ``duplicates`` "ask" refuses the paste with
    `DuplicateNames`, "skip" leaves those lines out (of a name twice in the paste,
    the first stays), "enter" makes them all (two people of the same name)."""
    if duplicates not in DUPLICATES:
        raise TournamentError(gettext("Choose whether to enter or to skip the names."))
    listed = [line.strip() for line in names.splitlines() if line.strip()]
    if not listed:
        raise TournamentError(gettext("Write one name a line."))
    too_long = [n for n in listed if len(n) > Player._meta.get_field("name").max_length]
    if too_long:
        raise TournamentError(gettext("This name is too long: %(name)s") % {"name": too_long[0]})
    if duplicates != "enter":
        clashes = selectors.guest_clashes(tournament, listed)
        if clashes and duplicates == "ask":
            raise DuplicateNames(clashes)
        skipped = {c.line for c in clashes}
        listed = [n for line, n in enumerate(listed) if line not in skipped]
        if not listed:
            return []
    players = Player.objects.bulk_create(Player(name=n) for n in listed)
    entered = entrant_register(tournament=tournament, players=players)
    if check_in and tournament.status == Tournament.Status.REGISTRATION:
        _check_in(entered, True, Entrant.By.ORGANIZER, user=user, address=address)
    return entered


def _check_in(entrants, checked_in: bool, by: str, *, user=None, address=None) -> list[Entrant]:
    """Check entrants in (or out), each with its record; those already so are
    left as they are. Returns the entrants changed."""
    now = timezone.now()
    changed = [e for e in entrants if e.checked_in != checked_in]
    for entrant in changed:
        entrant.checked_in = checked_in
        entrant.checked_in_by = by if checked_in else ""
        entrant.checked_in_at = now if checked_in else None
    Entrant.objects.bulk_update(changed, ["checked_in", "checked_in_by", "checked_in_at"])
    CheckIn.objects.bulk_create(
        CheckIn(entrant=e, checked_in=checked_in, by=by, user=user, address=address, at=now)
        for e in changed
    )
    return changed


def _check_in_open(tournament: Tournament) -> None:
    # Round 1 is paired from those checked in at the start: after it, a newcomer
    # is a late entrant, entered by the organizer.
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentError(gettext("Check-in is closed: the tournament has started."))


@transaction.atomic
def entrant_check_in(
    *, entrant: Entrant, checked_in: bool = True, user=None, address=None
) -> Entrant:
    """Check an entrant in at the door (or out again, before the start)."""
    tournament = _locked(entrant.tournament)
    tournament_changed(tournament.pk)
    _check_in_open(tournament)
    fresh = Entrant.objects.get(pk=entrant.pk)
    _check_in([fresh], checked_in, Entrant.By.ORGANIZER, user=user, address=address)
    entrant.checked_in = fresh.checked_in
    entrant.checked_in_by, entrant.checked_in_at = fresh.checked_in_by, fresh.checked_in_at
    return entrant


@transaction.atomic
def entrants_check_in(
    *, tournament: Tournament, entrant_ids, checked_in: bool = True, user=None, address=None
) -> list[Entrant]:
    """Check many entrants in at the door at once (or out again: an undo, possible
    until round 1 is paired). Entrants already so are left as they are; returns
    those changed. Ids that are not this tournament's entrants are refused."""
    tournament = _locked(tournament)
    tournament_changed(tournament.pk)
    _check_in_open(tournament)
    wanted = set(entrant_ids)
    if not wanted:
        raise TournamentError(gettext("Tick the entrants first."))
    entrants = list(tournament.entrants.select_related("player").filter(pk__in=wanted))
    if len(entrants) != len(wanted):
        raise TournamentError(gettext("Only entrants of this tournament can be checked in."))
    return _check_in(entrants, checked_in, Entrant.By.ORGANIZER, user=user, address=address)


@transaction.atomic
def door_link_issue(*, tournament: Tournament) -> Tournament:
    """Open self check-in with a new secret link for the QR code at the door, or
    replace the link (a photo of it went round): the old one stops working."""
    tournament = _locked(tournament)
    _check_in_open(tournament)
    tournament.door_token = new_token()
    tournament.save(update_fields=["door_token"])
    return tournament


@transaction.atomic
def door_link_close(*, tournament: Tournament) -> Tournament:
    """Close self check-in: the door link stops working (the organizer checks in)."""
    tournament = _locked(tournament)
    tournament.door_token = None
    tournament.save(update_fields=["door_token"])
    return tournament


@transaction.atomic
def entrant_check_in_self(*, tournament: Tournament, entrant_id: int, address=None) -> Entrant:
    """A player checks himself in on his phone with the door link: only an entrant
    not yet checked in, and only until round 1 is paired. Someone already in is
    refused (checked in twice is someone else's phone: see the organizer)."""
    tournament = _locked(tournament)
    tournament_changed(tournament.pk)
    if tournament.status != Tournament.Status.REGISTRATION or not tournament.door_token:
        raise TournamentError(
            gettext("Self check-in is closed. Please see the organizer at the door.")
        )
    entrant = tournament.entrants.select_related("player").filter(pk=entrant_id).first()
    if entrant is None:
        raise TournamentError(gettext("Choose your name from the list."))
    if entrant.checked_in:
        raise TournamentError(
            gettext("%(name)s is already checked in. If that is not you, see the organizer.")
            % {"name": entrant}
        )
    _check_in([entrant], True, Entrant.By.SELF, address=address)
    return entrant


@transaction.atomic
def keep_apart_add(
    *, tournament: Tournament, first: Entrant, second: Entrant, user=None, address=None
) -> KeepApart:
    """Two entrants who should not meet: the pairing treats them as having met."""
    if first.pk == second.pk:
        raise TournamentError(gettext("Choose two different entrants."))
    if {first.tournament_id, second.tournament_id} != {tournament.pk}:
        raise TournamentError(gettext("Both must be entrants of this tournament."))
    low, high = sorted((first, second), key=lambda e: e.pk)
    pair, made = KeepApart.objects.get_or_create(tournament=tournament, first=low, second=high)
    if made:
        _record(
            tournament,
            TournamentRecord.Action.APART,
            user=user,
            address=address,
            first=str(low),
            second=str(high),
        )
    return pair


# --------------------------------------------------------------------------- rounds


def _unpaired_number(tournament: Tournament) -> int:
    """The first round not yet paired: a late entrant plays from there."""
    last = tournament.round_set.order_by("-number").first()
    if last is None:
        return 1
    waiting = last.status in (Round.Status.PENDING, Round.Status.STUCK)
    return last.number if waiting else last.number + 1


def _active(entrants, number: int) -> list[Entrant]:
    """Who is paired in round ``number``: checked in, joined, not withdrawn."""
    return [
        e
        for e in entrants
        if e.checked_in and e.joined_round <= number and e.withdrawn_after is None
    ]


@transaction.atomic
def round_start(*, tournament: Tournament) -> Round:
    """Close registration and pair round 1 by lot (seed 000: "Die Paarungen für
    die erste Runde des Turniers werden gelost"), from a seed stored with the
    round. Only checked-in entrants play. The number of rounds, if not set, comes
    from the format (`TournamentFormat.round_count`): the seed's table for Swiss,
    a full round robin."""
    tournament = _locked(tournament)
    tournament_changed(tournament.pk)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentError(gettext("The tournament has already started."))
    if not format_of(tournament.format).plays_rounds:
        raise TournamentError(gettext("A knockout tournament starts with its bracket."))
    count = tournament.entrants.filter(checked_in=True).count()
    if count < 2:
        raise TournamentError(gettext("At least two entrants must be checked in."))
    if tournament.rounds is None:
        tournament.rounds = selectors.schedule_length(tournament, count)
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["rounds", "status"])
    round = Round.objects.create(
        tournament=tournament, number=1, seed=new_seed(), status=Round.Status.PAIRING
    )
    _enqueue_pairing(round)
    return round


def _enqueue_pairing(round: Round, fewest_rematches: bool = False) -> None:
    from tournaments.tasks import send_pairing

    transaction.on_commit(lambda: send_pairing(round.pk, fewest_rematches))


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
def round_pair_next(*, tournament: Tournament, fewest_rematches: bool = False) -> Round:
    """Pair the waiting round (after a close, an undo, or a round that found no
    pairing without a rematch, with ``fewest_rematches``): the pairing runs as a
    task, and the round shows "being paired" until it is done."""
    tournament = _locked(tournament)
    tournament_changed(tournament.pk)
    round = tournament.round_set.order_by("-number").first()
    waiting = (Round.Status.PENDING, Round.Status.STUCK)
    if tournament.status != Tournament.Status.RUNNING or round is None:
        raise TournamentError(gettext("There is no round waiting to be paired."))
    if round.status not in waiting:
        raise TournamentError(gettext("There is no round waiting to be paired."))
    if round.status == Round.Status.STUCK and not fewest_rematches:
        raise TournamentError(
            gettext(
                "No pairing without a rematch exists: end the tournament, or pair "
                "with the fewest rematches."
            )
        )
    round.status = Round.Status.PAIRING
    round.problem = ""
    # Kept with the round, so a catch-up pairs it as the organizer chose.
    round.how = Round.How.FEWEST_REMATCHES if fewest_rematches else ""
    round.save(update_fields=["status", "problem", "how"])
    _enqueue_pairing(round, fewest_rematches)
    return round


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
    totals, history, entrants = selectors.tournament_totals(tournament)
    active = _active(entrants, round.number)
    by_id = {e.pk: e for e in entrants}
    ids = sorted(e.pk for e in active)
    tournament_format = format_of(tournament.format)
    if round.number == 1:
        plan = tournament_format.first_round(ids, Random(round.seed))
    elif not tournament_format.pairs_from_standings:
        first = tournament.round_set.get(number=1)
        plan = _next_round(tournament_format, round, ids, first_order=first.standings)
    else:
        draws = _tie_draws(round.seed, round.draws, {pk: totals[pk] for pk in ids})
        ranking = standings_order({pk: totals[pk] for pk in ids}, selectors.draws_by_entrant(draws))
        try:
            plan = _next_round(
                tournament_format,
                round,
                ids,
                ranking=ranking,
                played=history.pairs(),
                kept_apart=selectors.kept_apart(tournament),
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
        table.party = _start_party(tournament, round, number, by_id[first], by_id[second])
        table.save(update_fields=["party"])
    for entrant in pairing.byes:
        number += 1
        table = Table.objects.create(round=round, number=number, bye=True)
        Seating.objects.create(round=round, table=table, entrant_id=entrant, side=0)


def _start_party(tournament: Tournament, round: Round, number: int, first, second):
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


def _tie_draws(seed: int, stored: list[dict], totals: dict[int, int]) -> list[dict]:
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


def _card(text: str):
    try:
        return parse_card(text)
    except InvalidCard:
        raise TournamentError(
            gettext("“%(text)s” is not a card: write rank and suit, e.g. KH or 10♣.")
            % {"text": text}
        ) from None


def _venue_key(draw: dict):
    return tuple(parse_card(c) for c in draw["cards"])


# --------------------------------------------------------------------------- during a round


@transaction.atomic
def table_forfeit(*, table: Table, absent: Entrant, user=None, address=None) -> Table:
    """A no-show: the table is over, the entrant who came scores the forfeit value
    and the absent one loses it. The table's party is removed if no hand was
    played (nobody will play it)."""
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("round", "party")
        .get(pk=table.pk)
    )
    if table.round.status != Round.Status.PLAYING:
        raise TournamentError(gettext("This round is not being played."))
    tournament_changed(table.round.tournament_id)
    if table.bye:
        raise TournamentError(gettext("A bye has no opponent to forfeit."))
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
    _record(
        table.round.tournament,
        TournamentRecord.Action.FORFEIT,
        user=user,
        address=address,
        round=table.round.number,
        table=table.number,
        absent=str(absent),
    )
    return table


@transaction.atomic
def round_close(*, round: Round) -> Round:
    """Close a round once every table is finished. Unless it was the last round,
    the next round waits to be paired with its own seed, and Knock's card draw
    for the tied entrants is made and shown (the organizer may enter the cards
    drawn at the venue instead before pairing)."""
    round = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    if round.status != Round.Status.PLAYING:
        raise TournamentError(gettext("This round is not being played."))
    tournament_changed(round.tournament_id)
    unfinished = [v.table.number for v in selectors.round_tables(round) if not v.finished]
    if unfinished:
        raise TournamentError(
            gettext("Not every table is finished yet: table %(tables)s.")
            % {"tables": ", ".join(map(str, sorted(unfinished)))}
        )
    round.status = Round.Status.CLOSED
    round.save(update_fields=["status"])
    tournament = round.tournament
    if round.number < (tournament.rounds or 0):
        following = Round(tournament=tournament, number=round.number + 1, seed=new_seed())
        # Ties are drawn now, so the organizer sees (or replaces) the draw that
        # will order the next pairing.
        if format_of(tournament.format).pairs_from_standings:
            totals, _, entrants = selectors.tournament_totals(tournament)
            active = _active(entrants, following.number)
            following.draws = _tie_draws(following.seed, [], {e.pk: totals[e.pk] for e in active})
        following.save()
    return round


@transaction.atomic
def standings_draw_enter(
    *, tournament: Tournament, cards: dict[int, str], user=None, address=None
) -> Round:
    """The cards drawn at the venue for tied entrants (entrant id -> card), which
    order them instead of Knock's draw. Every entrant of a tied group must draw,
    each a different card; the higher card goes first (ace low, ♣ ♦ ♥ ♠). The
    record keeps who drew what, since it decides places and the next pairing."""
    tournament = _locked(tournament)
    tournament_changed(tournament.pk)
    round = tournament.round_set.order_by("-number").first()
    if round is None or round.status not in (Round.Status.PENDING, Round.Status.STUCK):
        raise TournamentError(gettext("Cards can be entered only before a round is paired."))
    totals, _, entrants = selectors.tournament_totals(tournament)
    active = {e.pk for e in _active(entrants, round.number)}
    drawn = {}
    for pk, text in cards.items():
        if pk not in active:
            raise TournamentError(gettext("Only entrants who play on can draw."))
        drawn[pk] = _card(text)
    for group in tied_groups({pk: totals[pk] for pk in active}):
        entered = [pk for pk in group if pk in drawn]
        if entered and len(entered) < len(group):
            raise TournamentError(gettext("Everyone tied on the same points must draw a card."))
        if len({drawn[pk] for pk in entered}) < len(entered):
            raise TournamentError(gettext("Two tied entrants drew the same card: draw again."))
    # The groups not entered now keep their draws, Knock's or the venue's.
    kept = [d for d in round.draws if d["entrant"] not in drawn]
    venue = [{"entrant": pk, "cards": [str(card)], "by": "venue"} for pk, card in drawn.items()]
    round.draws = _tie_draws(round.seed, kept + venue, {pk: totals[pk] for pk in active})
    round.save(update_fields=["draws"])
    names = {e.pk: str(e) for e in entrants}
    _record(
        tournament,
        TournamentRecord.Action.VENUE_DRAW,
        user=user,
        address=address,
        round=round.number - 1,
        cards=", ".join(f"{names[pk]} {card}" for pk, card in drawn.items()),
    )
    return round


@transaction.atomic
def entrant_withdraw(*, entrant: Entrant, user=None, address=None) -> Entrant:
    """Withdraw an entrant: not paired again, his results stay. Withdrawn during a
    round, he is still at that round's table (play it, or enter a forfeit)."""
    tournament = _locked(entrant.tournament)
    tournament_changed(tournament.pk)
    entrant = Entrant.objects.get(pk=entrant.pk)
    if entrant.withdrawn_after is not None:
        raise TournamentError(gettext("%(name)s has already withdrawn.") % {"name": entrant})
    paired = tournament.round_set.filter(
        status__in=[Round.Status.PLAYING, Round.Status.CLOSED]
    ).order_by("-number")
    last = paired.first()
    entrant.withdrawn_after = last.number if last else 0
    entrant.save(update_fields=["withdrawn_after"])
    _record(
        tournament,
        TournamentRecord.Action.WITHDRAWN,
        user=user,
        address=address,
        entrant=str(entrant),
        after=entrant.withdrawn_after,
    )
    # Still in a knockout final, he gives his match away. (The final is built on
    # these services: imported here, not at the top.)
    from tournaments.knockout import entrant_leaves_final

    entrant_leaves_final(entrant=entrant, user=user, address=address)
    return entrant


@transaction.atomic
def tables_swap(*, round: Round, first: Entrant, second: Entrant, user=None) -> list[str]:
    """Swap two entrants between tables by hand, before either table has played a
    hand. Returns warnings: the swap is made even if it makes a rematch, but the
    organizer is told."""
    round = Round.objects.select_for_update().select_related("tournament__club").get(pk=round.pk)
    if round.status != Round.Status.PLAYING:
        raise TournamentError(gettext("This round is not being played."))
    tournament_changed(round.tournament_id)
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
    history = selectors.tournament_history(tournament, with_outcomes=False)
    met = {frozenset(p) for p in history.pairs(before=round.number)}
    apart = {frozenset(p) for p in selectors.kept_apart(tournament)}
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
            table.party = _start_party(
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


@transaction.atomic
def round_undo(*, round: Round, user=None, address=None) -> Round:
    """Undo the pairing of the latest round while no table has played a hand: its
    tables and parties go, and the round waits to be paired again (from the same
    seed, so round 1's lots come out the same unless entrants changed).

    A forfeit does not stop it: nobody has played a card, so undoing the round
    takes nothing anyone earned at the table; the forfeits go with the round (named
    in the record), and whoever came is paired again. An entrant withdrawn during
    the round is withdrawn after the round before: he played no part of it."""
    round = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    if round.status != Round.Status.PLAYING:
        raise TournamentError(gettext("Only a round being played can be undone."))
    tournament_changed(round.tournament_id)
    if round.tournament.round_set.filter(number__gt=round.number).exists():
        raise TournamentError(gettext("Only the latest round can be undone."))
    tables = list(round.tables.select_related("party"))
    parties = [t.party for t in tables if t.party_id]
    if any(p.hands.exists() for p in parties):
        raise TournamentError(gettext("Hands are recorded: the round cannot be undone."))
    forfeits = [
        str(s.entrant)
        for s in round.seatings.select_related("table", "entrant__player").order_by("table__number")
        if s.table.absent == s.side
    ]
    round.seatings.all().delete()
    round.tables.all().delete()
    for party in parties:
        party_cancel(party=party, user=user, reason=gettext("The round was undone."))
    round.tournament.entrants.filter(withdrawn_after=round.number).update(
        withdrawn_after=round.number - 1
    )
    round.status = Round.Status.PENDING
    round.explanation = []
    round.how = ""
    round.started_at = None
    round.save(update_fields=["status", "explanation", "how", "started_at"])
    _record(
        round.tournament,
        TournamentRecord.Action.ROUND_UNDONE,
        user=user,
        address=address,
        round=round.number,
        forfeits_dropped=forfeits,
    )
    return round


# --------------------------------------------------------------------------- the finish


@transaction.atomic
def tournament_finish(
    *,
    tournament: Tournament,
    final_draw: bool = False,
    cards: dict[int, str] | None = None,
    user=None,
    address=None,
) -> Tournament:
    """End the tournament: after its last round, or earlier when the organizer so
    decides (say, when no pairing without a rematch is left). A round not yet
    paired is dropped; a round being played must be closed first. The final
    standings share places on equal points, unless the organizer wants one place
    each: then tied entrants draw cards (Knock from a stored seed, or ``cards``
    drawn at the venue, entrant id -> card)."""
    tournament = _locked(tournament)
    tournament_changed(tournament.pk)
    if tournament.status != Tournament.Status.RUNNING:
        raise TournamentError(gettext("Only a running tournament can be finished."))
    rounds = tournament.round_set
    if rounds.filter(status__in=[Round.Status.PLAYING, Round.Status.PAIRING]).exists():
        raise TournamentError(gettext("Close the round being played first."))
    dropped = rounds.filter(status__in=[Round.Status.PENDING, Round.Status.STUCK])
    unplayed = sorted(dropped.values_list("number", flat=True))
    dropped.delete()
    tournament.status = Tournament.Status.FINISHED
    if final_draw or cards:
        totals, _, _ = selectors.tournament_totals(tournament)
        tournament.final_seed = new_seed()
        venue = [
            {"entrant": pk, "cards": [str(_card(text))], "by": "venue"}
            for pk, text in (cards or {}).items()
        ]
        tournament.final_draws = _tie_draws(tournament.final_seed, venue, totals)
    tournament.save(update_fields=["status", "final_seed", "final_draws"])
    _record(
        tournament,
        TournamentRecord.Action.FINISHED,
        user=user,
        address=address,
        final_draw=bool(final_draw or cards),
        rounds_dropped=unplayed,
    )
    return tournament


# --------------------------------------------------------------------------- taking back
# Each action that changes results can be taken back while that harms nobody; the
# taking back goes into the tournament's record beside the action.


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
    table.absent = None
    table.party = _start_party(
        round.tournament, round, table.number, seatings[0].entrant, seatings[1].entrant
    )
    table.save(update_fields=["absent", "party"])
    _record(
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
def entrant_reinstate(*, entrant: Entrant, user=None, address=None) -> Entrant:
    """Take back a withdrawal: the entrant plays on, paired from the next pairing,
    until a round has been paired without him. From then on he would come back
    having missed a round nobody can give him, so he stays withdrawn. In a final
    being played, the match he gave away is played again, until the match it sent
    his opponent into has begun."""
    tournament = _locked(entrant.tournament)
    tournament_changed(tournament.pk)
    entrant = Entrant.objects.select_related("player").get(pk=entrant.pk)
    refusal = selectors.reinstate_refusal(tournament, entrant)
    if refusal:
        raise TournamentError(refusal)
    after = entrant.withdrawn_after
    entrant.withdrawn_after = None
    entrant.save(update_fields=["withdrawn_after"])
    _record(
        tournament,
        TournamentRecord.Action.REINSTATED,
        user=user,
        address=address,
        entrant=str(entrant),
        was_withdrawn_after=after,
    )
    # In a final being played, the match his withdrawal gave away is played again.
    from tournaments.knockout import entrant_returns_to_final, final_playing_with

    stage = final_playing_with(entrant)
    if stage is not None:
        entrant_returns_to_final(stage=stage, entrant=entrant, user=user, address=address)
    return entrant


@transaction.atomic
def keep_apart_remove(*, pair: KeepApart, user=None, address=None) -> None:
    """The two may meet again from the next pairing on. Rounds already paired stay
    as they were made; only while a round is being paired (it reads the pairs) or
    once the tournament is finished is the pair left as it is."""
    tournament = _locked(pair.tournament)
    tournament_changed(tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError(gettext("The tournament is finished."))
    pairing = tournament.round_set.filter(status=Round.Status.PAIRING).first()
    if pairing is not None:
        raise TournamentError(
            gettext("Round %(number)s is being paired: try again when it is done.")
            % {"number": pairing.number}
        )
    pair = KeepApart.objects.select_related("first__player", "second__player").get(pk=pair.pk)
    first, second = str(pair.first), str(pair.second)
    pair.delete()
    _record(
        tournament,
        TournamentRecord.Action.APART_REMOVED,
        user=user,
        address=address,
        first=first,
        second=second,
    )
