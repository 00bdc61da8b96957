"""An archive brought back into a club, in one transaction: checked first (its
kind, version and text), then its players, parties, and tournament or night made
anew with new ids."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext

from clubs.models import Club, ClubNight, Membership, Player
from clubs.services import member_create
from config.validators import unprintable
from scoring.models import AuditRecord, Hand, Party, Seat, is_seat_token
from scoring.services.nights import night_create
from scoring.services.seats import new_token
from tournaments.archive.export import FORMAT, VERSION
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


class ArchiveError(ValueError):
    """An archive that cannot be imported, with a message saying why."""


def _moment(text):
    if text is None:
        return None
    value = parse_datetime(text)
    if value is None:
        raise ArchiveError(
            gettext("The archive holds a time that is not one: %(text)s") % {"text": text}
        )
    return value


@transaction.atomic
def archive_import(
    *, data: dict, club: Club | None = None, user=None, address=None
) -> Tournament | ClubNight:
    """Bring an archive back: into ``club``, or into the club it names (made if
    this Knock has no club of that short name). Returns the tournament or night.
    ``user`` (and ``address``): who imports, named in the club's record."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ArchiveError(gettext("This is not a Knock archive."))
    if data.get("version") != VERSION:
        raise ArchiveError(gettext("This archive comes from another version of Knock."))
    _refuse_unprintable(data)
    try:
        return _import(data, club, user, address)
    except (
        KeyError,
        TypeError,
        IndexError,
        AttributeError,
        ValueError,
        ValidationError,
        DatabaseError,
    ) as error:
        if isinstance(error, ArchiveError):
            raise
        raise ArchiveError(
            gettext("The archive is incomplete or damaged (%(what)s).") % {"what": error}
        ) from None


def _refuse_unprintable(value) -> None:
    """No text of an archive may hold a control character, as no form or schema
    takes one (config/validators.py)."""
    if isinstance(value, dict):
        for item in value.values():
            _refuse_unprintable(item)
    elif isinstance(value, list):
        for item in value:
            _refuse_unprintable(item)
    elif isinstance(value, str) and (character := unprintable(value)):
        raise ArchiveError(
            gettext("The archive holds an invisible control character (U+%(code)04X).")
            % {"code": ord(character)}
        )


def _import(data: dict, club: Club | None, user, address):
    if club is None:
        info = data["club"]
        club, _ = Club.objects.get_or_create(
            slug=info["slug"],
            defaults={
                "name": info["name"],
                "city": info.get("city", ""),
                "founded": info.get("founded"),
            },
        )
    players = _import_players(club, data["players"], user)
    users = (
        {u.get_username(): u for u in get_user_model().objects.all()} if _names_users(data) else {}
    )
    if data["kind"] == "night":
        info = data["night"]
        night = night_create(
            club=club,
            name=info["name"],
            date=parse_date(info["date"]),
            ruleset=info["ruleset"],
            confirmation_required=info["confirmation_required"],
            user=user,
            address=address,
        )
        _import_parties(data["parties"], club, night, players, users)
        return night
    if data["kind"] != "tournament":
        raise ArchiveError(gettext("This is not a Knock archive."))
    return _import_tournament(data, club, players, users)


def _names_users(data) -> bool:
    return (
        any(h.get("decided_by") for p in data["parties"] for h in p["hands"])
        or any(r.get("user") for p in data["parties"] for r in p["audit"])
        or any(r.get("user") for r in data.get("records", []))
    )


def _import_players(club: Club, rows: list[dict], user) -> dict[int, Player]:
    # A club's names are unique whatever their case (`clubs.services.member_create`).
    memberships = club.memberships.select_related("player")
    members = {m.player.name.casefold(): m.player for m in memberships}
    players = {}
    for row in rows:
        name = row["name"].strip()
        player = members.get(name.casefold())
        if player is None:
            # Archives made before roles were kept name members only.
            role = row.get("role", Membership.Role.MEMBER)
            if role is None:
                player = Player.objects.create(name=name)
            else:
                player = member_create(club=club, name=name, role=role, by=user).player
                members[name.casefold()] = player
        players[row["key"]] = player
    return players


def _import_parties(rows, club, night, players, users) -> dict[int, Party]:
    taken = set(
        Seat.objects.filter(token__in=[s["token"] for p in rows for s in p["seats"]]).values_list(
            "token", flat=True
        )
    )
    made = {}
    for row in rows:
        party = Party.objects.create(
            club=club,
            night=night,
            label=row["label"],
            format=row["format"],
            rules=row["rules"],
            target=row["target"],
            status=row["status"],
            first_dealer=row["first_dealer"],
            confirmation_required=row["confirmation_required"],
            finished_at=_moment(row["finished_at"]),
        )
        Party.objects.filter(pk=party.pk).update(started_at=_moment(row["started_at"]))
        seats = {
            s["position"]: Seat.objects.create(
                party=party,
                player=players[s["player"]],
                side=s["side"],
                position=s["position"],
                # A link taken here, or not of the shape links have, is made anew.
                token=s["token"]
                if s["token"] not in taken and is_seat_token(s["token"])
                else new_token(),
            )
            for s in row["seats"]
        }
        hands = {}
        for h in row["hands"]:
            hand = Hand.objects.create(
                party=party,
                number=h["number"],
                table=h["table"],
                status=h["status"],
                ending=h["ending"],
                dealer=seats.get(h["dealer"]),
                knocker=seats.get(h["knocker"]),
                defender=seats.get(h["defender"]),
                knocker_deadwood=h["knocker_deadwood"],
                defender_deadwood=h["defender_deadwood"],
                details=h["details"],
                kind=h["kind"],
                points=h["points"],
                winner=seats.get(h["winner"]),
                counter=h["counter"],
                entered_by=seats.get(h["entered_by"]),
                confirmed_by=seats.get(h["confirmed_by"]),
                decided_by=users.get(h["decided_by"]),
                version=h.get("version", 1),
            )
            Hand.objects.filter(pk=hand.pk).update(
                created_at=_moment(h["created_at"]), updated_at=_moment(h["updated_at"])
            )
            hands[(h["number"], h["table"])] = hand
        # The record is append-only (never updated): each row is written once,
        # with its own time. Its keys belong to the new seats, so none is taken.
        AuditRecord.objects.bulk_create(
            AuditRecord(
                party=party,
                hand=hands.get(tuple(r["hand"])) if r["hand"] else None,
                action=r["action"],
                seat=seats.get(r["seat"]),
                user=users.get(r["user"]),
                address=r["address"],
                before=r["before"],
                after=r["after"],
                reason=r["reason"],
                key=r["key"],
                at=_moment(r["at"]),
            )
            for r in row["audit"]
        )
        made[row["key"]] = party
    return made


def _import_tournament(data, club, players, users) -> Tournament:
    info = dict(data["tournament"])
    slug, number = info.pop("slug"), 1
    base = slug
    while Tournament.objects.filter(slug=slug).exists():
        number += 1
        slug = f"{base}-{number}"
    created = _moment(info.pop("created_at"))
    info["date"] = parse_date(info["date"])
    tournament = Tournament.objects.create(club=club, slug=slug, **info)
    Tournament.objects.filter(pk=tournament.pk).update(created_at=created)
    entrants = {
        e["key"]: Entrant.objects.create(
            tournament=tournament,
            player=players[e["player"]],
            checked_in=e["checked_in"],
            joined_round=e["joined_round"],
            withdrawn_after=e["withdrawn_after"],
        )
        for e in data["entrants"]
    }
    for first, second in data["keep_apart"]:
        low, high = sorted((entrants[first], entrants[second]), key=lambda e: e.pk)
        KeepApart.objects.create(tournament=tournament, first=low, second=high)

    def renumber(ids):
        return [entrants[pk].pk for pk in ids]

    rounds = {}
    for r in data["rounds"]:
        rounds[r["number"]] = Round.objects.create(
            tournament=tournament,
            number=r["number"],
            status=r["status"],
            how=r["how"],
            seed=r["seed"],
            standings=renumber(r["standings"]),
            points={str(entrants[int(pk)].pk): v for pk, v in r["points"].items()},
            draws=[{**d, "entrant": entrants[d["entrant"]].pk} for d in r["draws"]],
            explanation=[_line_renumbered(line, entrants) for line in r["explanation"]],
            problem=r["problem"],
            started_at=_moment(r["started_at"]),
        )
    tournament.final_draws = [
        {**d, "entrant": entrants[d["entrant"]].pk} for d in info["final_draws"]
    ]
    tournament.save(update_fields=["final_draws"])
    parties = _import_parties(data["parties"], club, None, players, users)
    tables = {}
    for t in data["tables"]:
        tables[(t["round"], t["number"])] = Table.objects.create(
            round=rounds[t["round"]],
            number=t["number"],
            bye=t["bye"],
            absent=t["absent"],
            party=parties.get(t["party"]) if t["party"] else None,
        )
    Seating.objects.bulk_create(
        Seating(
            round=rounds[s["table"][0]],
            table=tables[tuple(s["table"])],
            entrant=entrants[s["entrant"]],
            side=s["side"],
        )
        for s in data["seatings"]
    )
    _import_final(data.get("final"), tournament, entrants, parties)
    # Archives made before the tournament kept a record have none. Append-only:
    # each row is written once, with its own time.
    TournamentRecord.objects.bulk_create(
        TournamentRecord(
            tournament=tournament,
            action=r["action"],
            user=users.get(r["user"]),
            address=r["address"],
            details=r["details"],
            at=_moment(r["at"]),
        )
        for r in data.get("records", [])
    )
    return tournament


def _import_final(final: dict | None, tournament, entrants: dict, parties: dict) -> None:
    """The knockout final, if the archive has one (archives made before finals
    existed have none)."""
    if not final:
        return

    def entrant(key):
        return entrants[key] if key is not None else None

    stage = FinalStage.objects.create(
        tournament=tournament,
        qualifiers=final["qualifiers"],
        best_of=final["best_of"],
        third_place=final["third_place"],
        seeds=[entrants[pk].pk for pk in final["seeds"]],
        seeding=final["seeding"],
        seed=final["seed"],
        status=final["status"],
    )
    for m in final["matches"]:
        match = Match.objects.create(
            stage=stage,
            round=m["round"],
            slot=m["slot"],
            third_place=m["third_place"],
            first=entrant(m["first"]),
            second=entrant(m["second"]),
            winner=entrant(m["winner"]),
            absent=m["absent"],
        )
        MatchGame.objects.bulk_create(
            MatchGame(match=match, number=g["number"], party=parties[g["party"]])
            for g in m["games"]
        )


def _line_renumbered(line: dict, entrants: dict) -> dict:
    """An explanation line names entrants by id: the ids of this Knock now."""
    line = dict(line)
    for name in ("first", "second"):
        if line.get(name) is not None:
            line[name] = entrants[line[name]].pk
    line["skipped"] = [[entrants[pk].pk, reason] for pk, reason in line.get("skipped", [])]
    return line
