"""A player's data on request (DSGVO Art. 15): everything Knock keeps about one
player at one club, as one JSON document.

It lives in seasons, the top app, because it reads every app: the player and his
memberships (clubs), his seats, parties, hands and their audit records (scoring),
his tournament entries, seatings, check-ins and results (tournaments), his
ratings, rating history, season lines and personal link (seasons), and every
record whose words name him. The club is the one that keeps the data: an
organizer (or the player through his club's personal link) gets what this club
holds, never what another club holds of the same person.

Secrets are left out: a seat or personal link opens a page, and a file lying in a
downloads folder must not. What they are (issued when, for which party) is in."""

from __future__ import annotations

import re

from django.contrib.admin.models import LogEntry
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Q
from django.http import JsonResponse
from django.utils import timezone

from clubs.models import Club, ClubRecord, Membership, Player
from clubs.names import shown_names
from scoring.models import AuditRecord, Hand, KeptScore, Seat
from seasons.models import PlayerLink, Rating, RatingChange, Season, SeasonRecord
from seasons.selectors import season_lines
from tournaments.models import CheckIn, Entrant, Match, Round, Seating, TournamentRecord
from tournaments.standings import standings_for

#: The version of the document's layout, for whoever reads it back later.
FORMAT = 1


def names_in_text(name: str) -> re.Pattern:
    """Where a name stands in stored words: the whole name, not a part of a longer
    word ("Ada" in "Ada Berg", not in "Adam")."""
    return re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")


def mentions(value, pattern: re.Pattern) -> bool:
    """Whether stored JSON (or text) holds the name anywhere, keys included."""
    if isinstance(value, str):
        return bool(pattern.search(value))
    if isinstance(value, dict):
        return any(mentions(k, pattern) or mentions(v, pattern) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(mentions(v, pattern) for v in value)
    return False


def player_data(*, club: Club, player: Player, own: bool = False) -> dict:
    """The document: each part a list of the rows as stored (scores as kept, times
    in UTC), ids kept so that the parts can be read together. A fixed number of
    queries per part, plus the standings of each tournament he entered.

    ``own``: the copy the player downloads himself through his personal link, in
    the privacy of his own pages (`own_copy`)."""
    data = _document(club=club, player=player)
    return own_copy(data, club=club, player=player) if own else data


def _document(*, club: Club, player: Player) -> dict:
    named = names_in_text(player.name)
    seats = list(Seat.objects.filter(player=player, party__club=club).select_related("party"))
    seat_ids = [s.pk for s in seats]
    party_ids = [s.party_id for s in seats]
    entries = list(
        Entrant.objects.filter(player=player, tournament__club=club).select_related("tournament")
    )
    entry_ids = [e.pk for e in entries]
    return {
        "format": FORMAT,
        "made_at": timezone.now(),
        "club": {"id": club.pk, "name": club.name, "slug": club.slug},
        "player": _player(player),
        "memberships": list(
            Membership.objects.filter(player=player, club=club).values(
                "id", "role", "since", "active", "listed"
            )
        ),
        "parties": _parties(seats),
        "hands": list(
            Hand.objects.filter(party_id__in=party_ids)
            .order_by("party_id", "number", "table")
            .values(
                "id",
                "party_id",
                "number",
                "table",
                "status",
                "ending",
                "kind",
                "points",
                "knocker__position",
                "defender__position",
                "winner__position",
                "dealer__position",
                "knocker_deadwood",
                "defender_deadwood",
                "scores",
                "facts",
                "details",
                "version",
                "created_at",
            )
        ),
        "kept_scores": list(
            KeptScore.objects.filter(party_id__in=party_ids).values("party_id", "score")
        ),
        "tournament_entries": [_entry(e) for e in entries],
        "tournament_results": _results(entries),
        "seatings": list(
            Seating.objects.filter(entrant_id__in=entry_ids).values(
                "entrant_id", "round__number", "round__tournament_id", "table__number", "side"
            )
        ),
        "card_draws": _draws(entry_ids),
        "final_matches": list(
            Match.objects.filter(Q(first_id__in=entry_ids) | Q(second_id__in=entry_ids)).values(
                "id", "stage__tournament_id", "round", "slot", "first_id", "second_id", "winner_id"
            )
        ),
        "check_ins": list(
            CheckIn.objects.filter(entrant_id__in=entry_ids).values(
                "entrant_id", "checked_in", "by", "at"
            )
        ),
        "ratings": list(
            Rating.objects.filter(club=club, player=player).values(
                "game", "mu", "sigma", "parties", "won", "last_played"
            )
        ),
        "rating_history": list(
            RatingChange.objects.filter(club=club, player=player)
            .order_by("finished_at", "party_id")
            .values(
                "party_id",
                "game",
                "finished_at",
                "mu",
                "sigma",
                "won",
                "plus_minus",
                "boxes",
                "shutout_made",
                "shutout_suffered",
                "games",
                "place",
            )
        ),
        "season_lines": _season_lines(club, player),
        "personal_links": list(
            PlayerLink.objects.filter(club=club, player=player).values("created_at")
        ),
        "records": _records(club, player, named, seat_ids),
    }


def _player(player: Player) -> dict:
    user = player.user
    return {
        "id": player.pk,
        "name": player.name,
        "email": player.email,
        "login": None
        if user is None
        else {
            "username": user.get_username(),
            "email": user.email,
            "active": user.is_active,
            "joined": user.date_joined,
            "last_login": user.last_login,
        },
    }


def _parties(seats: list[Seat]) -> list[dict]:
    return [
        {
            "id": seat.party_id,
            "label": seat.party.label,
            "night_id": seat.party.night_id,
            "game": seat.party.game,
            "format": seat.party.format,
            "status": seat.party.status,
            "started_at": seat.party.started_at,
            "finished_at": seat.party.finished_at,
            "seat": {"position": seat.position, "side": seat.side},
        }
        for seat in sorted(seats, key=lambda s: s.party_id)
    ]


def _entry(entrant: Entrant) -> dict:
    return {
        "id": entrant.pk,
        "tournament_id": entrant.tournament_id,
        "tournament": entrant.tournament.name,
        "checked_in": entrant.checked_in,
        "checked_in_by": entrant.checked_in_by,
        "checked_in_at": entrant.checked_in_at,
        "joined_round": entrant.joined_round,
        "withdrawn_after": entrant.withdrawn_after,
    }


def _results(entries: list[Entrant]) -> list[dict]:
    """His line of each tournament's standings (after its last closed round)."""
    results = []
    for entrant in entries:
        standings = standings_for(entrant.tournament)
        for line in standings.lines:
            if line.entrant.pk == entrant.pk:
                results.append(
                    {
                        "tournament_id": entrant.tournament_id,
                        "after_round": standings.after_round,
                        "place": line.place,
                        "shared": line.shared,
                        "points": line.points,
                        "games": line.games,
                        "won": line.won,
                        "byes": line.byes,
                        "score": line.score,
                        "withdrawn": line.withdrawn,
                    }
                )
    return results


def _draws(entry_ids: list[int]) -> list[dict]:
    """The cards he drew to break ties, from the rounds that keep them."""
    mine = set(entry_ids)
    rounds = Round.objects.filter(tournament__entrants__in=entry_ids).distinct()
    return [
        {"tournament_id": r.tournament_id, "round": r.number, **draw}
        for r in rounds.only("tournament_id", "number", "draws")
        for draw in r.draws
        if draw.get("entrant") in mine
    ]


def _season_lines(club: Club, player: Player) -> list[dict]:
    lines = []
    for season in Season.objects.filter(club=club):
        for line in season_lines(season):
            if line.player == player.pk:
                lines.append(
                    {
                        "season_id": season.pk,
                        "season": season.name,
                        "place": line.place,
                        "total": line.total,
                        "events": line.events,
                        "needed": line.needed,
                    }
                )
    return lines


def _records(club: Club, player: Player, named: re.Pattern, seat_ids: list[int]) -> dict:
    """The lines of every append-only record that names him: by his seat or login,
    or in its words (the records keep names as they were when written)."""
    login = player.user.get_username() if player.user is not None else None
    club_records = ClubRecord.objects.filter(club=club)
    if player.user_id is not None:
        # His logins, which belong to no club.
        club_records = ClubRecord.objects.filter(
            Q(club=club)
            | Q(club__isnull=True, user_id=player.user_id)
            | Q(club__isnull=True, username=login)
        )
    audit = AuditRecord.objects.filter(party__club=club)
    return {
        "club": [
            r
            for r in club_records.values(
                "id", "club_id", "action", "user_id", "username", "address", "details", "at"
            )
            if mentions(r["details"], named)
            or (login is not None and (r["user_id"] == player.user_id or r["username"] == login))
        ],
        "parties": [
            r
            for r in audit.values(
                "id", "party_id", "hand_id", "action", "seat_id", "before", "after", "reason", "at"
            )
            if r["seat_id"] in seat_ids or mentions([r["before"], r["after"], r["reason"]], named)
        ],
        "tournaments": [
            r
            for r in TournamentRecord.objects.filter(tournament__club=club).values(
                "id", "tournament_id", "action", "details", "at"
            )
            if mentions(r["details"], named)
        ],
        "seasons": [
            r
            for r in SeasonRecord.objects.filter(club=club).values(
                "id", "season_id", "action", "details", "at"
            )
            if mentions(r["details"], named) or r["details"].get("player_id") == player.pk
        ],
        # What the site's admin changed of him, in its own log.
        "admin": [
            r
            for r in LogEntry.objects.filter(object_repr__contains=player.name).values(
                "action_time", "action_flag", "object_repr", "change_message"
            )
            if mentions(r["object_repr"], named)
        ],
    }


#: What a record says of who did something: an organizer's login, user id and
#: network address. The organizers' copy keeps them; the player's own does not.
WHO_DID_IT = frozenset({"user_id", "username", "address", "user", "decided_by"})


def own_copy(data: dict, *, club: Club, player: Player) -> dict:
    """The document as the player's own pages show the club: the other players as
    the public sees them (initials for all but the members who agreed to be
    listed, `clubs.names.shown_name`), wherever their names stand (the card draws
    keyed by names too), and no record line saying which organizer did it from
    which address. His own login lines keep what they say of him."""
    others = (
        Player.objects.filter(
            Q(memberships__club=club)
            | Q(seats__party__club=club)
            | Q(entries__tournament__club=club)
        )
        .exclude(pk=player.pk)
        .distinct()
    )
    shown = {p.name: s for p, s in _shown_publicly(club, others)}
    shown[player.name] = player.name  # never a part of his own name replaced
    names = sorted(shown, key=len, reverse=True)
    pattern = re.compile(rf"(?<!\w)(?:{'|'.join(map(re.escape, names))})(?!\w)")

    def public(value, *, keep_who=False):
        if isinstance(value, str):
            return pattern.sub(lambda m: shown[m.group()], value)
        if isinstance(value, dict):
            return {
                public(k): public(v, keep_who=keep_who)
                for k, v in value.items()
                if keep_who or k not in WHO_DID_IT
            }
        if isinstance(value, list | tuple):
            return [public(v, keep_who=keep_who) for v in value]
        return value

    copy = {key: public(value) for key, value in data.items() if key not in ("player", "records")}
    copy["player"] = data["player"]
    login = data["player"]["login"]
    copy["records"] = {
        part: [public(line, keep_who=_his_login(line, player, login)) for line in lines]
        for part, lines in data["records"].items()
    }
    return copy


def _shown_publicly(club: Club, players) -> list[tuple[Player, str]]:
    players = list(players)
    shown = shown_names(club, players, public=True)
    return [(p, shown[p.pk]) for p in players]


def _his_login(line: dict, player: Player, login: dict | None) -> bool:
    return login is not None and (
        line.get("user_id") == player.user_id or line.get("username") == login["username"]
    )


def data_file(data: dict) -> JsonResponse:
    """The document as the file a browser saves, kept by no cache on the way."""
    response = JsonResponse(data, encoder=DjangoJSONEncoder, json_dumps_params={"indent": 2})
    name = f"knock-player-{data['player']['id']}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "no-store"
    return response
