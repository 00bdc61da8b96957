"""A tournament or a club night written out as one archive (see the package's
docstring for what it holds), and the file name it is downloaded under."""

from __future__ import annotations

import datetime

from clubs.models import Club, ClubNight, Membership, Player
from scoring.models import AuditRecord, Hand, Party, Seat
from tournaments.models import (
    FinalStage,
    Match,
    MatchGame,
    Seating,
    Table,
    Tournament,
)

FORMAT = "knock-archive"

#: Version 1 held Gin Rummy only; version 2 added the other games (a party's
#: game, options and hands as entered, a tournament's game and table size, rounds
#: at tables), each kind of party in a shape of its own; version 3 writes every
#: party of every game in one shape (`tournaments.archive.parties`). Every
#: version here is read (`tournaments.archive.older` reads 1 and 2 into the
#: shape of 3); an export writes the last.
VERSIONS = (1, 2, 3)
VERSION = VERSIONS[-1]


def _when(value):
    return value.isoformat() if value else None


def _who(user) -> str | None:
    """Who decided or did something, as every organizer of the club reads them: the
    name of the login's player, never the login, which is often its owner's e-mail
    address (any organizer downloads an archive). A login without a player (a
    site's administrator) by its name, unless that is an address. The import takes
    a name back to the club's member of that name (`restore._club_users`)."""
    if user is None:
        return None
    player = getattr(user, "player", None)
    if player is not None and player.name:
        return player.name
    login = user.get_username()
    return None if "@" in login else login


def _parties(parties: list[Party], player_key) -> list[dict]:
    ids = [p.pk for p in parties]
    seats: dict[int, list[Seat]] = {pk: [] for pk in ids}
    for seat in Seat.objects.filter(party_id__in=ids).order_by("party_id", "position"):
        seats[seat.party_id].append(seat)
    hands: dict[int, list[Hand]] = {pk: [] for pk in ids}
    for hand in (
        Hand.objects.filter(party_id__in=ids)
        .select_related("decided_by__player")
        .order_by("party_id", "number", "table")
    ):
        hands[hand.party_id].append(hand)
    audit: dict[int, list[AuditRecord]] = {pk: [] for pk in ids}
    for record in (
        AuditRecord.objects.filter(party_id__in=ids)
        .select_related("hand", "user__player")
        .order_by("party_id", "at", "pk")
    ):
        audit[record.party_id].append(record)

    return [
        _party(party, seats[party.pk], hands[party.pk], audit[party.pk], player_key)
        for party in parties
    ]


def _party(party: Party, seats: list[Seat], hands: list[Hand], audit, player_key) -> dict:
    """A party, whatever its game: its game and rules or options, its seats, and
    each hand with what was entered (a hand of the party formats in its columns, the
    cards and rulings in its details; another game's entry in its details), what its
    game scored and the confirmations so far."""
    position = {s.pk: s.position for s in seats}

    def at(seat_id):
        return position.get(seat_id) if seat_id else None

    return {
        "key": party.pk,
        "label": party.label,
        "game": party.game,
        "format": party.format,
        "rules": party.rules,
        "target": party.target,
        "status": party.status,
        "first_dealer": party.first_dealer,
        "confirmation_required": party.confirmation_required,
        "started_at": _when(party.started_at),
        "finished_at": _when(party.finished_at),
        "seats": [
            {
                "player": player_key(s.player_id),
                "side": s.side,
                "position": s.position,
                "token": s.token,
            }
            for s in seats
        ],
        "hands": [
            {
                "number": h.number,
                "table": h.table,
                "status": h.status,
                "ending": h.ending,
                "details": h.details,
                "dealer": at(h.dealer_id),
                "knocker": at(h.knocker_id),
                "defender": at(h.defender_id),
                "knocker_deadwood": h.knocker_deadwood,
                "defender_deadwood": h.defender_deadwood,
                "kind": h.kind,
                "points": h.points,
                "winner": at(h.winner_id),
                "scores": h.scores,
                "facts": h.facts,
                "confirmations": h.confirmations,
                "counter": h.counter,
                "entered_by": at(h.entered_by_id),
                "confirmed_by": at(h.confirmed_by_id),
                "decided_by": _who(h.decided_by),
                "version": h.version,
                "created_at": _when(h.created_at),
                "updated_at": _when(h.updated_at),
            }
            for h in hands
        ],
        "audit": [_audit(r, at) for r in audit],
    }


def _audit(r: AuditRecord, at) -> dict:
    return {
        "action": r.action,
        "hand": [r.hand.number, r.hand.table] if r.hand else None,
        "seat": at(r.seat_id),
        "user": _who(r.user),
        "address": r.address,
        "before": r.before,
        "after": r.after,
        "reason": r.reason,
        "key": r.key,
        "at": _when(r.at),
    }


class _Players:
    """The archive's players, numbered as they are first met."""

    def __init__(self, club: Club):
        self.club = club
        self.keys: dict[int, int] = {}

    def key(self, player_id: int) -> int:
        return self.keys.setdefault(player_id, len(self.keys) + 1)

    def rows(self) -> list[dict]:
        names = dict(Player.objects.filter(pk__in=self.keys).values_list("pk", "name"))
        roles = dict(
            Membership.objects.filter(club=self.club, player_id__in=self.keys).values_list(
                "player_id", "role"
            )
        )
        return [
            {"key": key, "name": names[pk], "role": _playing_role(roles.get(pk))}
            for pk, key in self.keys.items()
        ]


def _playing_role(role: str | None) -> str | None:
    # Who organizes a club is its owner's decision, made again on the new server.
    if role in (Membership.Role.ORGANIZER, Membership.Role.OWNER):
        return Membership.Role.MEMBER
    return role


def _club(club: Club) -> dict:
    return {"slug": club.slug, "name": club.name, "city": club.city, "founded": club.founded}


def tournament_export(tournament: Tournament) -> dict:
    """The tournament as one archive (plain JSON data)."""
    players = _Players(tournament.club)
    entrants = list(tournament.entrants.order_by("pk"))
    rounds = list(tournament.round_set.order_by("number"))
    tables = list(
        Table.objects.filter(round__tournament=tournament).order_by("round__number", "number")
    )
    seatings = list(Seating.objects.filter(round__tournament=tournament).order_by("pk"))
    round_number = {r.pk: r.number for r in rounds}
    table_key = {t.pk: (round_number[t.round_id], t.number) for t in tables}
    stage = FinalStage.objects.filter(tournament=tournament).first()
    matches = list(stage.matches.order_by("third_place", "round", "slot")) if stage else []
    games = list(MatchGame.objects.filter(match__in=matches).order_by("match_id", "number"))
    party_ids = [t.party_id for t in tables if t.party_id] + [g.party_id for g in games]
    parties = list(Party.objects.filter(pk__in=party_ids).order_by("pk"))
    body = {
        "format": FORMAT,
        "version": VERSION,
        "kind": "tournament",
        "club": _club(tournament.club),
        "tournament": {
            field: getattr(tournament, field)
            for field in (
                "name",
                "slug",
                "format",
                "ruleset",
                "target",
                "rounds",
                "bye_value",
                "forfeit_value",
                "confirmation_required",
                "public_pairings",
                "public_standings",
                "public_results",
                "round_minutes",
                "status",
                "final_seed",
                "final_draws",
                # The game at every tournament; an evening planned ahead keeps its
                # plan (entrants by their keys, which are their ids).
                "game",
                "game_options",
                "table_size",
                "plan",
            )
        }
        | {"date": tournament.date.isoformat(), "created_at": _when(tournament.created_at)},
        "entrants": [
            {
                "key": e.pk,
                "player": players.key(e.player_id),
                "checked_in": e.checked_in,
                "joined_round": e.joined_round,
                "withdrawn_after": e.withdrawn_after,
            }
            for e in entrants
        ],
        "keep_apart": list(tournament.apart.values_list("first_id", "second_id")),
        "rounds": [
            {
                field: getattr(r, field)
                for field in (
                    "number",
                    "status",
                    "how",
                    "seed",
                    "standings",
                    "points",
                    "draws",
                    "explanation",
                    "problem",
                )
            }
            | {"started_at": _when(r.started_at)}
            for r in rounds
        ],
        "tables": [
            {
                "round": round_number[t.round_id],
                "number": t.number,
                "bye": t.bye,
                "absent": t.absent,
                "party": t.party_id,
            }
            for t in tables
        ],
        "seatings": [
            {"table": list(table_key[s.table_id]), "entrant": s.entrant_id, "side": s.side}
            for s in seatings
        ],
    }
    body["final"] = _final_export(stage, matches, games)
    body["parties"] = _parties(parties, players.key)
    body["players"] = players.rows()
    # The tournament's own record (forfeits, withdrawals, what was taken back): its
    # details are names and numbers, true on any Knock.
    body["records"] = [
        {
            "action": r.action,
            "user": _who(r.user),
            "address": r.address,
            "details": r.details,
            "at": _when(r.at),
        }
        for r in tournament.records.select_related("user__player").order_by("at", "pk")
    ]
    return body


def _final_export(stage: FinalStage | None, matches: list[Match], games: list[MatchGame]):
    """The knockout final: its settings and seeds, every match by its place in the
    bracket, each game by its party's key (the entrants by their keys)."""
    if stage is None:
        return None
    played = {}
    for game in games:
        played.setdefault(game.match_id, []).append({"number": game.number, "party": game.party_id})
    return {
        field: getattr(stage, field)
        for field in ("qualifiers", "best_of", "third_place", "seeds", "seeding", "seed", "status")
    } | {
        "matches": [
            {
                "round": m.round,
                "slot": m.slot,
                "third_place": m.third_place,
                "first": m.first_id,
                "second": m.second_id,
                "winner": m.winner_id,
                "absent": m.absent,
                "games": played.get(m.pk, []),
            }
            for m in matches
        ]
    }


def night_export(night: ClubNight) -> dict:
    """A club night and its parties as one archive (plain JSON data)."""
    players = _Players(night.club)
    parties = list(night.parties.order_by("pk"))
    body = {
        "format": FORMAT,
        "version": VERSION,
        "kind": "night",
        "club": _club(night.club),
        "night": {
            "name": night.name,
            "date": night.date.isoformat(),
            "ruleset": night.ruleset,
            "confirmation_required": night.confirmation_required,
        },
        "parties": _parties(parties, players.key),
    }
    body["players"] = players.rows()
    return body


def archive_name(data: dict) -> str:
    today = datetime.date.today().isoformat()
    what = data.get("tournament", {}).get("slug") or data.get("night", {}).get("name", "night")
    return f"knock-{data['kind']}-{what}-{today}.json"
