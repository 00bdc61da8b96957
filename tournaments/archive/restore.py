"""An archive brought back into a club: read against the archive's schema
(`tournaments.archive.schema`), its references checked
(`tournaments.archive.references`), then written in one transaction with new ids
and new links. Whatever is refused is refused before anything is written, with
each field and its rule (`tournaments.archive.refusals`)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext
from pydantic import TypeAdapter, ValidationError

from clubs.models import Club, ClubNight, Player
from clubs.services import member_create
from scoring.models import AuditRecord, Hand, Party, Seat
from scoring.services.keeping import format_scores
from scoring.services.nights import night_create
from scoring.services.seats import new_token
from tournaments.archive.export import FORMAT, VERSIONS
from tournaments.archive.older import read_as_current
from tournaments.archive.parties import PartyIn
from tournaments.archive.references import problems_of
from tournaments.archive.refusals import ArchiveError, refused, schema_problems
from tournaments.archive.schema import (
    Archive,
    ByeLineIn,
    NightArchive,
    PlannedLineIn,
    ScheduleLineIn,
    TableLineIn,
    TournamentArchive,
)
from tournaments.models import (
    Entrant,
    FinalStage,
    KeepApart,
    Match,
    MatchGame,
    Round,
    Seating,
    Table,
    Tournament,
    TournamentRecord,
)
from tournaments.registration import tournament_insert

_ARCHIVE = TypeAdapter(Archive)

__all__ = ["ArchiveError", "archive_check", "archive_import"]


def archive_check(data) -> TournamentArchive | NightArchive:
    """``data`` (an archive's JSON, read) as the schema reads it (an older
    version's read into the current shape first, `older`), or `ArchiveError` naming
    every field that breaks a rule and every reference that does not hold."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ArchiveError(gettext("This is not a Knock archive."))
    if data.get("version") not in VERSIONS:
        raise ArchiveError(gettext("This archive comes from another version of Knock."))
    try:
        archive = _ARCHIVE.validate_python(read_as_current(data))
    except ValidationError as error:
        raise refused(schema_problems(error.errors())) from None
    if problems := problems_of(archive):
        raise refused(problems)
    return archive


@transaction.atomic
def archive_import(
    *, data, club: Club | None = None, user=None, address=None
) -> Tournament | ClubNight:
    """Bring an archive back into ``club`` (the API and the organizer's page always
    name the importer's club; the import_archive command may leave it to the club
    of the archive's short name, made if this Knock has none). Returns the
    tournament or night. Every seat gets a new link; a user named in the archive
    is taken only if they play in ``club``, else the record keeps no user.
    ``user`` (and ``address``): who imports, named in the club's record."""
    archive = archive_check(data)
    if club is None:
        club, _ = Club.objects.get_or_create(
            slug=archive.club.slug,
            defaults={
                "name": archive.club.name,
                "city": archive.club.city,
                "founded": archive.club.founded,
            },
        )
    players = _import_players(club, archive, user)
    users = _club_users(club, archive)
    if isinstance(archive, NightArchive):
        info = archive.night
        night = night_create(
            club=club,
            name=info.name,
            date=info.date,
            ruleset=info.ruleset,
            confirmation_required=info.confirmation_required,
            user=user,
            address=address,
        )
        _import_parties(archive.parties, club, night, players, users)
        return night
    return _import_tournament(archive, club, players, users)


def _club_users(club: Club, archive) -> dict:
    """The logins named in the archive that play in ``club``, by the name the
    archive gives: their player's name (`export._who`), or the login itself in an
    archive written before. A name of another club's organizer credits nobody here;
    a club's names are unique whatever their case, so a name is one member."""
    names = {h.decided_by for p in archive.parties for h in p.hands}
    names |= {r.user for p in archive.parties for r in p.audit}
    names |= {r.user for r in getattr(archive, "records", [])}
    names.discard(None)
    if not names:
        return {}
    found = {
        u.get_username(): u
        for u in get_user_model()
        .objects.filter(player__memberships__club=club, username__in=names)
        .distinct()
    }
    members = club.memberships.filter(player__user__isnull=False).select_related("player__user")
    by_name = {m.player.name.casefold(): m.player.user for m in members}
    for name in names:
        if name.casefold() in by_name:
            found[name] = by_name[name.casefold()]
    return found


def _import_players(club: Club, archive, user) -> dict[int, Player]:
    # A club's names are unique whatever their case (`clubs.services.member_create`).
    memberships = club.memberships.select_related("player")
    members = {m.player.name.casefold(): m.player for m in memberships}
    players = {}
    for row in archive.players:
        player = members.get(row.name.casefold()) if row.role is not None else None
        if player is None:
            if row.role is None:
                player = Player.objects.create(name=row.name)
            else:
                player = member_create(club=club, name=row.name, role=row.role, by=user).player
                members[row.name.casefold()] = player
        players[row.key] = player
    return players


def _import_parties(rows: list[PartyIn], club, night, players, users) -> dict[int, Party]:
    made = {}
    for row in rows:
        party = Party.objects.create(
            club=club,
            night=night,
            label=row.label,
            game=row.game,
            format=row.format,
            rules=row.rules,
            target=row.target,
            status=row.status,
            first_dealer=row.first_dealer,
            confirmation_required=row.confirmation_required,
            finished_at=row.finished_at,
        )
        Party.objects.filter(pk=party.pk).update(started_at=row.started_at)
        # The archive's links are known to whoever holds the archive: new ones here.
        seats = {
            s.position: Seat.objects.create(
                party=party,
                player=players[s.player],
                side=s.side,
                position=s.position,
                token=new_token(),
            )
            for s in row.seats
        }
        hands = _import_hands(row, party, seats, users)
        # The record is append-only (never updated): each row is written once,
        # with its own time.
        AuditRecord.objects.bulk_create(
            AuditRecord(
                party=party,
                hand=hands[tuple(r.hand)] if r.hand else None,
                action=r.action,
                seat=seats.get(r.seat),
                user=users.get(r.user),
                address=str(r.address) if r.address else None,
                before=_snapshot(r.before),
                after=_snapshot(r.after),
                reason=r.reason,
                key=r.key,
                at=r.at,
            )
            for r in row.audit
        )
        made[row.key] = party
    return made


def _import_hands(row: PartyIn, party: Party, seats: dict, users: dict) -> dict:
    """The party's hands as entered and scored, by (number, table)."""
    hands = {}
    for h in row.hands:
        hand = Hand.objects.create(
            party=party,
            number=h.number,
            table=h.table,
            status=h.status,
            ending=h.ending,
            dealer=seats.get(h.dealer),
            knocker=seats.get(h.knocker),
            defender=seats.get(h.defender),
            knocker_deadwood=h.knocker_deadwood,
            defender_deadwood=h.defender_deadwood,
            details=h.details.stored(),
            kind=h.kind,
            points=h.points,
            winner=seats.get(h.winner),
            confirmations=h.confirmations,
            counter=h.counter.stored() if h.counter is not None else None,
            entered_by=seats.get(h.entered_by),
            confirmed_by=seats.get(h.confirmed_by),
            decided_by=users.get(h.decided_by),
            version=h.version,
        )
        scores, facts = h.scores, h.facts
        if scores is None or facts is None:
            # An archive before version 3 gives none for a hand of the party
            # formats: what its columns say, as the party formats keep it.
            scores, facts = format_scores(hand, seats.values())
        Hand.objects.filter(pk=hand.pk).update(
            created_at=h.created_at, updated_at=h.updated_at, scores=scores, facts=facts
        )
        hands[(h.number, h.table)] = hand
    return hands


def _snapshot(snapshot) -> dict | None:
    return snapshot.model_dump(exclude_unset=True) if snapshot is not None else None


def _import_tournament(archive: TournamentArchive, club, players, users) -> Tournament:
    info = archive.tournament
    tournament = tournament_insert(
        info.slug,
        club=club,
        **info.model_dump(exclude={"slug", "created_at", "final_draws", "plan"}),
    )
    # Made now (auto_now_add), dated as it was.
    Tournament.objects.filter(pk=tournament.pk).update(created_at=info.created_at)
    tournament.created_at = info.created_at
    entrants = {
        e.key: Entrant.objects.create(
            tournament=tournament,
            player=players[e.player],
            checked_in=e.checked_in,
            joined_round=e.joined_round,
            withdrawn_after=e.withdrawn_after,
        )
        for e in archive.entrants
    }
    for first, second in archive.keep_apart:
        low, high = sorted((entrants[first], entrants[second]), key=lambda e: e.pk)
        KeepApart.objects.create(tournament=tournament, first=low, second=high)

    def draws(rows):
        return [
            d.model_dump(exclude_unset=True) | {"entrant": entrants[d.entrant].pk} for d in rows
        ]

    rounds = {}
    for r in archive.rounds:
        rounds[r.number] = Round.objects.create(
            tournament=tournament,
            number=r.number,
            status=r.status,
            how=r.how,
            seed=r.seed,
            standings=[entrants[key].pk for key in r.standings],
            points={str(entrants[int(key)].pk): v for key, v in r.points.items()},
            draws=draws(r.draws),
            explanation=[_line_renumbered(line, entrants) for line in r.explanation],
            problem=r.problem,
            started_at=r.started_at,
        )
    tournament.final_draws = draws(info.final_draws)
    tournament.plan = [
        {
            "tables": [[entrants[key].pk for key in table] for table in planned.tables],
            "byes": [entrants[key].pk for key in planned.byes],
        }
        for planned in info.plan
    ]
    tournament.save(update_fields=["final_draws", "plan"])
    parties = _import_parties(archive.parties, club, None, players, users)
    tables = {}
    for t in archive.tables:
        tables[(t.round, t.number)] = Table.objects.create(
            round=rounds[t.round],
            number=t.number,
            bye=t.bye,
            absent=t.absent,
            party=parties[t.party] if t.party else None,
        )
    Seating.objects.bulk_create(
        Seating(
            round=rounds[s.table[0]],
            table=tables[tuple(s.table)],
            entrant=entrants[s.entrant],
            side=s.side,
        )
        for s in archive.seatings
    )
    _import_final(archive.final, tournament, entrants, parties)
    # Append-only: each row is written once, with its own time.
    TournamentRecord.objects.bulk_create(
        TournamentRecord(
            tournament=tournament,
            action=r.action,
            user=users.get(r.user),
            address=str(r.address) if r.address else None,
            details=r.details,
            at=r.at,
        )
        for r in archive.records
    )
    return tournament


def _import_final(final, tournament, entrants: dict, parties: dict) -> None:
    """The knockout final, if the archive has one (archives made before finals
    existed have none)."""
    if final is None:
        return

    def entrant(key):
        return entrants[key] if key is not None else None

    stage = FinalStage.objects.create(
        tournament=tournament,
        qualifiers=final.qualifiers,
        best_of=final.best_of,
        third_place=final.third_place,
        seeds=[entrants[key].pk for key in final.seeds],
        seeding=final.seeding,
        seed=final.seed,
        status=final.status,
    )
    for m in final.matches:
        match = Match.objects.create(
            stage=stage,
            round=m.round,
            slot=m.slot,
            third_place=m.third_place,
            first=entrant(m.first),
            second=entrant(m.second),
            winner=entrant(m.winner),
            absent=m.absent,
        )
        MatchGame.objects.bulk_create(
            MatchGame(match=match, number=g.number, party=parties[g.party]) for g in m.games
        )


def _line_renumbered(line, entrants: dict) -> dict:
    """An explanation line names entrants by id: the ids of this Knock now."""

    def pk(key):
        return entrants[key].pk

    if isinstance(line, ByeLineIn):
        return line.model_dump() | {"entrant": pk(line.entrant)}
    if isinstance(line, ScheduleLineIn):
        return line.model_dump() | {
            "seats": [pk(key) for key in line.seats],
            "absent": [pk(key) for key in line.absent],
        }
    if isinstance(line, PlannedLineIn):
        return line.model_dump() | {"seats": [pk(key) for key in line.seats]}
    if isinstance(line, TableLineIn):
        return line.model_dump() | {
            "seats": [pk(key) for key in line.seats],
            "met_before": [
                [pk(first), pk(second), times] for first, second, times in line.met_before
            ],
            "moved_away": [pk(key) for key in line.moved_away],
            "moved_in": [pk(key) for key in line.moved_in],
        }
    return line.model_dump() | {
        "first": entrants[line.first].pk,
        "second": entrants[line.second].pk if line.second is not None else None,
        "skipped": [[entrants[key].pk, reason] for key, reason in line.skipped],
    }
