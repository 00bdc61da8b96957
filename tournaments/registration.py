"""A tournament before and as it starts: creating it, entering members and
guests (late entrants too), checking in at the door or by the door link, the pairs
kept apart; and the reads of its entrants for those pages."""

from __future__ import annotations

from typing import NamedTuple

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext, ngettext

from clubs.models import Player
from clubs.services import same_name
from scoring.engine.games import GAMES
from scoring.engine.games.game import EntryError as GameEntryError
from scoring.engine.games.game import settle_options
from scoring.engine.rules import RULESETS
from scoring.errors import translated
from scoring.services.seats import new_token
from tournaments.engine.formats import DEFAULT_FORMAT, format_of
from tournaments.engine.tables import LARGEST, SMALLEST
from tournaments.models import (
    DEFAULT_GAME,
    CheckIn,
    Entrant,
    FinalStage,
    KeepApart,
    Round,
    Tournament,
    TournamentRecord,
)
from tournaments.planned import plan_refresh
from tournaments.records import (
    GameSettingsError,
    TournamentError,
    locked,
    new_seed,
    record,
    tournament_changed,
)
from web.tokens import is_link_token


class Limit(NamedTuple):
    low: int
    high: int


#: A new tournament's numbers, the same for the organizer's form and the API: a
#: party to 25 at least; up to 99 rounds (a round robin of 100); a round's clock
#: from 5 minutes to 10 hours; a bye and a forfeit worth at most a party's 1000.
LIMITS = {
    "target": Limit(25, 1000),
    "rounds": Limit(1, 99),
    "round_minutes": Limit(5, 600),
    "bye_value": Limit(-1000, 1000),
    "forfeit_value": Limit(0, 1000),
}


@transaction.atomic
def tournament_insert(base: str, **fields) -> Tournament:
    """A new tournament row under ``base`` as its slug, or ``base-2``, ``base-3`` …
    when that is taken, also by a request at the same moment (a form sent twice,
    an archive imported twice)."""
    number = 1
    while True:
        slug = base if number == 1 else f"{base}-{number}"
        number += 1
        if Tournament.objects.filter(slug=slug).exists():
            continue
        try:
            with transaction.atomic():
                return Tournament.objects.create(slug=slug, **fields)
        except IntegrityError:
            # Taken at the same moment by another request: the next number. Any
            # other refusal is not ours to hide.
            if not Tournament.objects.filter(slug=slug).exists():
                raise


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
    game: str = DEFAULT_GAME,
    game_options: dict | None = None,
    table_size: int | None = None,
) -> Tournament:
    """A new tournament in registration. The slug, if not given, comes from the name
    (made unique with a number).

    ``game``: Gin Rummy (two at a table), or another game of seed 003 played at
    tables of ``table_size`` players, its ``game_options`` settled over the game's
    defaults (`game_settings`)."""
    if ruleset not in RULESETS:
        raise TournamentError(gettext("There are no rules called %(name)r.") % {"name": ruleset})
    if format not in Tournament.Format.values:
        raise TournamentError(gettext("Choose Swiss system, round robin or knockout."))
    if rounds is not None and rounds < 1:
        raise TournamentError(gettext("A tournament has at least one round."))
    game_options, table_size = game_settings(game, game_options, table_size, format)
    base = slugify(slug or name)[:50] or "tournament"
    fields = {
        "club": club,
        "name": name,
        "date": date or timezone.localdate(),
        "format": format,
        "ruleset": ruleset,
        "target": target,
        "rounds": rounds,
        "bye_value": bye_value,
        "forfeit_value": forfeit_value,
        "confirmation_required": confirmation_required,
        "public_pairings": public_pairings,
        "public_standings": public_standings,
        "public_results": public_results,
        "round_minutes": round_minutes,
        "game": game,
        "game_options": game_options,
        "table_size": table_size,
    }
    tournament = tournament_insert(base, **fields)
    if not format_of(format).plays_rounds:
        # A knockout tournament is its final: every entrant checked in at the start
        # plays it, seeded by rating (or lot) then.
        FinalStage.objects.create(
            tournament=tournament, seeding=FinalStage.Seeding.RATING, seed=new_seed()
        )
    return tournament


def game_settings(
    game: str, options: dict | None, table_size: int | None, format: str = DEFAULT_FORMAT
) -> tuple[dict, int | None]:
    """A new tournament's game checked: the options settled over the game's
    defaults (`settle_options`) and the table size, or the organizer's message.

    A game of party formats (`Game.formats`: Gin Rummy) is played two at a table
    with the tournament's own rules: no options, no table size. Another game is
    played in the Swiss system, as a round robin or planned ahead (only at tables)
    at tables of three to six, at a
    size the game is played at (`Game.table_sizes`), with options that suit a
    table of that size and one smaller (`Game.sides`: Canasta's three
    partnerships only at six, so never at tables that may be of five). Whether a
    round robin's field has a schedule is known only when round 1 starts
    (`rounds.round_start`), not here."""
    if game not in GAMES:
        raise GameSettingsError(gettext("There is no game called %(name)r.") % {"name": game})
    engine = GAMES[game]
    name = engine.name
    if engine.formats:
        if format_of(format).only_at_tables:
            raise GameSettingsError(
                gettext(
                    "An evening planned ahead is played at tables of three to six: "
                    "choose a game played so."
                )
            )
        if options or table_size not in (None, 2):
            raise GameSettingsError(
                gettext("%(game)s is played two at a table, with the tournament's rules.")
                % {"game": name}
            )
        return {}, None
    # Tables are seated from the standings (Swiss) or by a fixed schedule (round
    # robin); a knockout's matches are of two.
    if not format_of(format).seats_tables:
        raise GameSettingsError(
            gettext(
                "A tournament of %(game)s is played in the Swiss system, as a round robin "
                "or planned ahead."
            )
            % {"game": name}
        )
    sizes = [n for n in engine.table_sizes if SMALLEST <= n <= LARGEST]
    if table_size not in sizes:
        raise GameSettingsError(
            gettext(
                "%(game)s is played at tables of %(sizes)s players in a tournament: "
                "choose one of these."
            )
            % {"game": name, "sizes": ", ".join(map(str, sizes))}
        )
    try:
        settled = settle_options(engine, options)
    except GameEntryError as error:
        raise GameSettingsError(_problems(error)) from error
    # A table one smaller than the size is seated too where the entrants do not
    # divide (`engine.tables.table_sizes`): the options must suit both.
    for players in (table_size, table_size - 1):
        if players not in engine.table_sizes:
            continue
        try:
            engine.sides(players, settled)
        except GameEntryError as error:
            raise GameSettingsError(
                gettext("%(game)s at a table of %(players)s: %(problem)s")
                % {"game": name, "players": players, "problem": _problems(error)}
            ) from error
    return settled, table_size


def _problems(error: GameEntryError) -> str:
    return " ".join(translated(problem) for problem in error.problems)


def _unpaired_number(tournament: Tournament) -> int:
    """The first round not yet paired: a late entrant plays from there."""
    last = tournament.round_set.order_by("-number").first()
    if last is None:
        return 1
    waiting = last.status in (Round.Status.PENDING, Round.Status.STUCK)
    return last.number if waiting else last.number + 1


@transaction.atomic
def entrant_register(*, tournament: Tournament, players) -> list[Entrant]:
    """Enter players (members or guests); players already entered are left as they
    are. Entered while the tournament runs, a player is a late entrant: checked in,
    paired from the next round, starting at 0 (the rounds he missed are not byes).
    A round robin takes no late entrants: its schedule is fixed at the start."""
    tournament = locked(tournament)
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
        # An evening planned ahead: the rounds not yet played, planned with them.
        plan_refresh(tournament)
    return new


class DuplicateNames(TournamentError):
    """Pasted names that look like someone already there (`guest_clashes`):
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
    # Locked before the names are compared: a paste sent twice at once waits here,
    # then finds the first one's names entered.
    tournament = locked(tournament)
    listed = [line.strip() for line in names.splitlines() if line.strip()]
    if not listed:
        raise TournamentError(gettext("Write one name a line."))
    too_long = [n for n in listed if len(n) > Player._meta.get_field("name").max_length]
    if too_long:
        raise TournamentError(gettext("This name is too long: %(name)s") % {"name": too_long[0]})
    if duplicates != "enter":
        clashes = guest_clashes(tournament, listed)
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
    tournament = locked(entrant.tournament)
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
    tournament = locked(tournament)
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
    tournament = locked(tournament)
    _check_in_open(tournament)
    tournament.door_token = new_token()
    tournament.save(update_fields=["door_token"])
    return tournament


@transaction.atomic
def door_link_close(*, tournament: Tournament) -> Tournament:
    """Close self check-in: the door link stops working (the organizer checks in)."""
    tournament = locked(tournament)
    tournament.door_token = None
    tournament.save(update_fields=["door_token"])
    return tournament


@transaction.atomic
def entrant_check_in_self(*, tournament: Tournament, entrant_id: int, address=None) -> Entrant:
    """A player checks himself in on his phone with the door link: only an entrant
    not yet checked in, and only until round 1 is paired. Someone already in is
    refused (checked in twice is someone else's phone: see the organizer)."""
    tournament = locked(tournament)
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
        record(
            tournament,
            TournamentRecord.Action.APART,
            user=user,
            address=address,
            first=str(low),
            second=str(high),
        )
    return pair


@transaction.atomic
def keep_apart_remove(*, pair: KeepApart, user=None, address=None) -> None:
    """The two may meet again from the next pairing on. Rounds already paired stay
    as they were made; only while a round is being paired (it reads the pairs) or
    once the tournament is finished is the pair left as it is."""
    tournament = locked(pair.tournament)
    tournament_changed(tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError(gettext("The tournament is finished."))
    pairing = tournament.round_set.filter(status=Round.Status.PAIRING).first()
    if pairing is not None:
        raise TournamentError(
            gettext("Round %(number)s is being paired: try again when it is done.")
            % {"number": pairing.number}
        )
    pair = KeepApart.objects.select_related("first__player", "second__player").filter(pk=pair.pk)
    pair = pair.first()
    if pair is None:
        # Removed by the same request sent twice, a moment before (under the lock).
        raise TournamentError(gettext("These two are no longer kept apart."))
    first, second = str(pair.first), str(pair.second)
    pair.delete()
    record(
        tournament,
        TournamentRecord.Action.APART_REMOVED,
        user=user,
        address=address,
        first=first,
        second=second,
    )


def tournament_by_slug(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("club", "final_stage"), slug=slug)


def club_tournaments(club) -> list[Tournament]:
    return list(club.tournaments.order_by("-date", "-pk"))


def entrant_for_manage(slug: str, pk: int) -> Entrant:
    return get_object_or_404(
        Entrant.objects.select_related("tournament__club", "player"),
        tournament__slug=slug,
        pk=pk,
    )


def tournament_entrants(tournament: Tournament) -> list[Entrant]:
    return list(tournament.entrants.select_related("player").order_by("player__name", "pk"))


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
    a replaced or closed one too, and anything that cannot be a token)."""
    if not is_link_token(token):
        raise Http404
    return get_object_or_404(Tournament.objects.select_related("club"), door_token=token)


def check_in_count(entrants: list[Entrant]) -> dict[str, int]:
    """How many are checked in, and how (on their phones or by the organizer)."""
    checked = [e for e in entrants if e.checked_in]
    by_self = sum(e.checked_in_by == Entrant.By.SELF for e in checked)
    return {"in": len(checked), "self": by_self, "total": len(entrants)}


def checked_in_count(tournament: Tournament) -> int:
    return tournament.entrants.filter(checked_in=True).count()


def keep_apart_pairs(tournament: Tournament) -> list[KeepApart]:
    return list(tournament.apart.select_related("first__player", "second__player"))


def keep_apart_for_manage(slug: str, pk: int) -> KeepApart:
    return get_object_or_404(
        KeepApart.objects.select_related("tournament__club", "first__player", "second__player"),
        tournament__slug=slug,
        pk=pk,
    )
