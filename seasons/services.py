"""The seasons' writes: ratings kept from the club's parties, and the seasons.

Ratings are derived data. `ratings_update` runs after the commit of a change to a
club's scores (`scoring.changes.after_scores_change`; one update for a busy spell,
`seasons.tasks`): it reads the parties' audit record from where it last stopped,
and refolds the ratings from the earliest party that changed (a corrected or
decided hand, a cancelled or reopened party, a newly finished one). Since the fold
is the same as `ratings_rebuild`'s, the kept ratings always equal a rebuild from
the stored parties."""

import secrets
from functools import reduce
from itertools import islice
from operator import or_

from django.db import connection, transaction
from django.db.models import Count, Max, Q
from django.utils import timezone
from django.utils.translation import gettext

from clubs.models import Club, Membership
from scoring.changes import party_changed
from scoring.models import AuditRecord, Party, Seat
from seasons.engine.ratings import Rating, rate_party
from seasons.engine.season import Scheme, SchemeError
from seasons.models import (
    ALL_GAMES,
    PlayerLink,
    RatingChange,
    RatingLedger,
    Season,
    SeasonRecord,
)
from seasons.models import Rating as RatingRow
from seasons.parties import rated_parties
from seasons.selectors import main_game, season_lines
from tournaments.models import Entrant

#: Parties read at once while folding: enough to keep the queries few, few enough
#: to keep a club's whole history out of memory.
BATCH = 2000


@transaction.atomic
def ratings_update(*, club_id: int) -> int:
    """Folds in what changed at the club since the last update; returns the number
    of parties rated. Safe to run twice, and under concurrent runs (the ledger's row
    is locked)."""
    ledger = _locked_ledger(club_id)
    records = AuditRecord.objects.filter(party__club_id=club_id, pk__gt=ledger.audit_through)
    through = records.aggregate(last=Max("pk"))["last"]
    if through is None:
        return 0
    touched = set(records.values_list("party_id", flat=True).distinct())
    finished = Party.objects.filter(
        pk__in=touched, status=Party.Status.FINISHED, finished_at__isnull=False
    ).values_list("finished_at", "pk")
    rated = (
        RatingChange.objects.filter(party_id__in=touched)
        .values_list("finished_at", "party_id")
        .distinct()
    )
    keys = [*finished, *rated]
    count = _refold(club_id, min(keys)) if keys else 0
    ledger.audit_through = through
    ledger.save(update_fields=["audit_through"])
    return count


@transaction.atomic
def ratings_rebuild(*, club_id: int) -> int:
    """Makes the club's ratings again from all its finished parties; returns the
    number of parties rated. What it makes equals what `ratings_update` keeps."""
    ledger = _locked_ledger(club_id)
    RatingChange.objects.filter(club_id=club_id).delete()
    RatingRow.objects.filter(club_id=club_id).delete()
    last = AuditRecord.objects.filter(party__club_id=club_id).aggregate(last=Max("pk"))["last"]
    count = _fold(club_id, {}, _finished(club_id))
    ledger.audit_through = last or 0
    ledger.save(update_fields=["audit_through"])
    return count


def _locked_ledger(club_id: int) -> RatingLedger:
    RatingLedger.objects.get_or_create(club_id=club_id)
    return RatingLedger.objects.select_for_update().get(club_id=club_id)


def _finished(club_id: int):
    """The club's finished parties in the order the ratings fold them: by when they
    finished (a party reopened by a correction and finished again moves to its new
    place)."""
    return Party.objects.filter(
        club_id=club_id, status=Party.Status.FINISHED, finished_at__isnull=False
    ).order_by("finished_at", "pk")


def _from(key) -> Q:
    finished_at, pk = key
    return Q(finished_at__gt=finished_at) | Q(finished_at=finished_at, party_id__gte=pk)


def _refold(club_id: int, start) -> int:
    """Rewinds the ratings to before the party at ``start`` (when it finished, its
    id) and folds every finished party from there on again, of every game."""
    undone = RatingChange.objects.filter(_from(start), club_id=club_id)
    players = set(undone.values_list("game", "player_id"))
    undone.delete()
    ratings: dict = {}
    for row in RatingRow.objects.filter(club_id=club_id):
        if (row.game, row.player_id) not in players:
            ratings.setdefault(row.game, {})[row.player_id] = Rating(
                row.mu, row.sigma, row.parties, row.won, row.last_played
            )
    for (game, player), rating in _restored(club_id, players).items():
        ratings.setdefault(game, {})[player] = rating
    finished_at, pk = start
    later = _finished(club_id).filter(
        Q(finished_at__gt=finished_at) | Q(finished_at=finished_at, pk__gte=pk)
    )
    return _fold(club_id, ratings, later, rewound=players)


def _restored(club_id: int, players: set) -> dict:
    """The players' ratings (by game and player) as their remaining history leaves
    them (a player with none left in a game starts again)."""
    if not players:
        return {}
    ids = {player for _, player in players}
    history = RatingChange.objects.filter(club_id=club_id, player_id__in=ids)
    counts = {
        (row["game"], row["player_id"]): row
        for row in history.values("game", "player_id").annotate(
            parties=Count("pk"), won=Count("pk", filter=Q(won=True))
        )
    }
    latest = history.order_by("game", "player_id", "-finished_at", "-party_id")
    ratings = {}
    for change in latest.values("game", "player_id", "mu", "sigma", "finished_at"):
        key = (change["game"], change["player_id"])
        if key in ratings or key not in players:
            continue
        ratings[key] = Rating(
            mu=change["mu"],
            sigma=change["sigma"],
            parties=counts[key]["parties"],
            won=counts[key]["won"],
            last_played=change["finished_at"].date(),
        )
    return ratings


def _fold(club_id: int, ratings: dict, parties, *, rewound=()) -> int:
    """Rates ``parties`` in order from ``ratings`` (by game, then player), each
    game's parties moving that game's ratings only, writing each player's change
    and the ratings as they end; returns the number of parties rated."""
    ids = list(parties.values_list("pk", "finished_at", "game"))
    moved = set(rewound)
    rated = 0
    for batch in _batched(ids):
        found = rated_parties({pk: finished_at for pk, finished_at, _game in batch})
        changes = []
        for pk, finished_at, game in batch:
            if pk not in found:
                continue
            party, results = found[pk]
            pool = ratings.setdefault(game, {})
            after = rate_party(pool, party)
            pool.update(after)
            moved.update((game, player) for player in after)
            rated += 1
            changes.extend(
                (club_id, pk, player, game, finished_at, rating.mu, rating.sigma)
                + (player in party.won,)
                + results[player]
                for player, rating in after.items()
            )
        _insert_changes(changes)
    _store(club_id, {(g, p): ratings.get(g, {}).get(p) for g, p in moved})
    return rated


#: The columns of a RatingChange as `_fold` makes its rows, in order.
CHANGE_FIELDS = (
    "club",
    "party",
    "player",
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


def _insert_changes(rows: list[tuple]) -> None:
    """Writes the rating changes of a batch of parties in one statement run for
    every row. A rebuild writes hundreds of thousands of them: made into model
    instances for ``bulk_create``, their values prepared field by field, they took
    more time than rating the parties (the benchmark's profile)."""
    if not rows:
        return
    ops = connection.ops
    meta = RatingChange._meta
    columns = ", ".join(ops.quote_name(meta.get_field(f).column) for f in CHANGE_FIELDS)
    marks = ", ".join(["%s"] * len(CHANGE_FIELDS))
    sql = f"INSERT INTO {ops.quote_name(meta.db_table)} ({columns}) VALUES ({marks})"
    when = {}
    adapted = []
    for row in rows:
        finished_at = row[4]
        if finished_at not in when:
            when[finished_at] = ops.adapt_datetimefield_value(finished_at)
        adapted.append(
            (*row[:4], when[finished_at], *row[5:12], ops.adapt_json_value(row[12], None), row[13])
        )
    with connection.cursor() as cursor:
        cursor.executemany(sql, adapted)


def _store(club_id: int, ratings: dict) -> None:
    """Writes the players' ratings, by game and player, as they now stand
    (``None``: no rated party of that game left)."""
    gone = [Q(game=game, player_id=player) for (game, player), r in ratings.items() if r is None]
    if gone:
        RatingRow.objects.filter(reduce(or_, gone), club_id=club_id).delete()
    kept = {key: rating for key, rating in ratings.items() if rating is not None}
    existing = {
        (row.game, row.player_id): row
        for row in RatingRow.objects.filter(
            club_id=club_id, player_id__in={player for _, player in kept}
        )
    }
    new, changed = [], []
    for (game, player), rating in kept.items():
        row = existing.get((game, player)) or RatingRow(
            club_id=club_id, player_id=player, game=game
        )
        row.mu, row.sigma = rating.mu, rating.sigma
        row.parties, row.won, row.last_played = rating.parties, rating.won, rating.last_played
        (changed if row.pk else new).append(row)
    RatingRow.objects.bulk_create(new, batch_size=BATCH)
    RatingRow.objects.bulk_update(
        changed, ["mu", "sigma", "parties", "won", "last_played"], batch_size=BATCH
    )


def _batched(items: list):
    iterator = iter(items)
    while batch := list(islice(iterator, BATCH)):
        yield batch


# ---------------------------------------------------------------------------- seasons


class SeasonRefused(ValueError):
    """A season the club cannot have as asked; the message says why."""


def _record(club_id, action, *, season=None, user=None, address=None, details=None):
    SeasonRecord.objects.create(
        club_id=club_id,
        season=season,
        action=action,
        user=user if getattr(user, "is_authenticated", False) else None,
        address=address,
        details=details or {},
    )


def _check(fields: dict) -> None:
    if fields["ends"] < fields["starts"]:
        raise SeasonRefused(gettext("The season cannot end before it starts."))
    if fields.get("game") == ALL_GAMES and fields.get("scheme") != Season.Scheme.PLACES:
        raise SeasonRefused(gettext("A season of all games is scored by points by place."))
    try:
        scheme_of(fields)
    except SchemeError as error:
        raise SeasonRefused(_scheme_message(error)) from error


def _scheme_message(error: SchemeError) -> str:
    # The engine speaks English for its tests; the organizer reads his language.
    return {
        "places": gettext("Points by place needs the points for at least the first place."),
        "negative": gettext("Points for a place cannot be negative."),
        "best": gettext("At least one event must count."),
        "minimum": gettext("The minimum number of events cannot be negative."),
    }.get(error.code, str(error))


def scheme_of(fields) -> Scheme:
    """The engine's scheme from a season (or the form's fields)."""
    get = fields.get if isinstance(fields, dict) else lambda name: getattr(fields, name)
    return Scheme(
        kind=get("scheme"),
        place_points=tuple(get("place_points") or ()),
        best_of=get("best_of"),
        minimum_events=get("minimum_events") or 0,
    )


SEASON_FIELDS = (
    "name",
    "starts",
    "ends",
    "game",
    "counts",
    "scheme",
    "place_points",
    "best_of",
    "minimum_events",
    "published",
)


@transaction.atomic
def season_create(*, club, user, address=None, **fields) -> Season:
    """The organizer defines a season: its name, dates, which events count and how
    it scores, and its game (by default the game the club plays most). Recorded
    in the club's season record."""
    fields = {name: fields[name] for name in SEASON_FIELDS if name in fields}
    fields["game"] = fields.get("game") or main_game(club)
    _check(
        {**{"place_points": [], "best_of": None, "minimum_events": 0, "scheme": "plus_minus"}}
        | fields
    )
    season = Season.objects.create(club=club, **fields)
    _record(
        club.pk,
        SeasonRecord.Action.CREATED,
        season=season,
        user=user,
        address=address,
        details=_described(season),
    )
    return season


@transaction.atomic
def season_change(*, season: Season, user, address=None, **fields) -> Season:
    """Changes a season's settings; a closed season is reopened first."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    if season.closed_at is not None:
        raise SeasonRefused(gettext("This season is closed: reopen it to change it."))
    before = _described(season)
    for name in SEASON_FIELDS:
        if name in fields:
            setattr(season, name, fields[name])
    _check({name: getattr(season, name) for name in SEASON_FIELDS})
    season.save()
    _record(
        season.club_id,
        SeasonRecord.Action.CHANGED,
        season=season,
        user=user,
        address=address,
        details={"before": before, "after": _described(season)},
    )
    return season


@transaction.atomic
def season_close(*, season: Season, user, address=None) -> Season:
    """Closes a season: its table is kept as it stands, and no later correction of
    a hand changes it unless the organizer reopens the season."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    if season.closed_at is not None:
        raise SeasonRefused(gettext("This season is closed already."))
    season.frozen = [_line_data(line) for line in season_lines(season, live=True)]
    season.closed_at = timezone.now()
    season.save(update_fields=["frozen", "closed_at"])
    _record(
        season.club_id,
        SeasonRecord.Action.CLOSED,
        season=season,
        user=user,
        address=address,
        details={"players": len(season.frozen)},
    )
    return season


@transaction.atomic
def season_reopen(*, season: Season, user, reason: str, address=None) -> Season:
    """Reopens a closed season (with a reason, in the record): its table follows
    the parties again."""
    if not (reason or "").strip():
        raise SeasonRefused(gettext("Give a reason: reopening a season is kept in the record."))
    season = Season.objects.select_for_update().get(pk=season.pk)
    if season.closed_at is None:
        raise SeasonRefused(gettext("This season is not closed."))
    season.closed_at, season.frozen = None, None
    season.save(update_fields=["closed_at", "frozen"])
    _record(
        season.club_id,
        SeasonRecord.Action.REOPENED,
        season=season,
        user=user,
        address=address,
        details={"reason": reason.strip()},
    )
    return season


def _described(season: Season) -> dict:
    return {
        "name": season.name,
        "starts": season.starts.isoformat(),
        "ends": season.ends.isoformat(),
        "game": season.game,
        "counts": season.counts,
        "scheme": season.scheme,
        "place_points": list(season.place_points or []),
        "best_of": season.best_of,
        "minimum_events": season.minimum_events,
        "published": season.published,
    }


def _line_data(line) -> dict:
    return {
        "player": line.player,
        "place": line.place,
        "total": line.total,
        "events": line.events,
        "needed": line.needed,
        "scores": [
            {
                "event": list(s.event),
                "plus_minus": s.plus_minus,
                "place": s.place,
                "points": s.points,
                "counted": s.counted,
            }
            for s in line.scores
        ],
    }


# ---------------------------------------------------------------------- personal links


def club_locked_for_a_link(club_id: int) -> None:
    """The club's row locked before a membership's, in the order of every write to
    the club's members (`clubs.services._locked_club`, then the memberships): the
    new link and its record point at the club, and a member list imported
    meanwhile holds the club while it waits for the memberships. Taken the other
    way round, each would wait for the other (a deadlock, one of them lost)."""
    Club.objects.select_for_update(no_key=True).filter(pk=club_id).first()


@transaction.atomic
def player_link_issue(*, club, player, user, address=None) -> PlayerLink:
    """Gives a player a personal link to his own page (no login); a link he had
    before stops working. The player's membership is locked first: with no link
    yet there is no link row to lock, and two requests at once would both make one."""
    club_locked_for_a_link(club.pk)
    Membership.objects.select_for_update().filter(club=club, player=player).first()
    erased = SeasonRecord.objects.filter(
        club=club, action=SeasonRecord.Action.ERASED, details__player_id=player.pk
    )
    if erased.exists():
        # The erasure took his links: a new one would tie a person to the page again.
        raise SeasonRefused(gettext("An erased player gets no personal link."))
    link = PlayerLink.objects.select_for_update().filter(club=club, player=player).first()
    token = secrets.token_urlsafe(32)
    if link is None:
        link = PlayerLink.objects.create(club=club, player=player, token=token)
        replaced = False
    else:
        link.token = token
        link.save(update_fields=["token"])
        replaced = True
    _record(
        club.pk,
        SeasonRecord.Action.LINK,
        user=user,
        address=address,
        details={"player": player.name, "replaced": replaced},
    )
    return link


# ------------------------------------------------------------------------ guest to member


@transaction.atomic
def guest_merge(*, club, guest, member, user, address=None) -> int:
    """A guest who joined the club becomes the member he now is: his seats at the
    club's parties and his tournament entries become the member's, so his history
    (and rating) comes along, and his guest membership ends. Refused when both sat
    at the same party or entered the same tournament. Returns the parties moved.
    Once: a merge sent again finds nothing left to move and says so."""
    memberships = {
        m.player_id: m
        for m in Membership.objects.select_for_update().filter(
            club=club, player__in=[guest, member]
        )
    }
    was_guest = memberships.get(guest.pk)
    becomes = memberships.get(member.pk)
    if guest.pk == member.pk or was_guest is None or becomes is None:
        raise SeasonRefused(gettext("Choose a guest of the club and the member that guest became."))
    if was_guest.role != Membership.Role.GUEST or becomes.role == Membership.Role.GUEST:
        raise SeasonRefused(gettext("Only a guest is merged, and only into a member."))
    seats = Seat.objects.filter(player=guest, party__club=club)
    shared = Seat.objects.filter(player=member, party__in=seats.values("party_id"))
    entries = Entrant.objects.filter(player=guest, tournament__club=club)
    if not was_guest.active and not seats.exists() and not entries.exists():
        # Merged before (the memberships are locked above, so a merge sent twice at
        # once finds the first one done): nothing to move, nothing to record.
        raise SeasonRefused(
            gettext("%(guest)s is already merged: nothing is left to move to %(member)s.")
            % {"guest": guest.name, "member": member.name}
        )
    both = Entrant.objects.filter(player=member, tournament__in=entries.values("tournament_id"))
    if shared.exists() or both.exists():
        raise SeasonRefused(
            gettext("%(guest)s and %(member)s played at the same party: they are two people.")
            % {"guest": guest.name, "member": member.name}
        )
    parties = list(seats.values_list("party_id", flat=True))
    moved = seats.update(player=member)
    # Who sits where changed: each party's count moves, so its kept score (by
    # player) is computed again, as the ratings rebuilt below read it.
    for party_id in parties:
        party_changed(party_id)
    entries.update(player=member)
    was_guest.active = False
    was_guest.save(update_fields=["active"])
    PlayerLink.objects.filter(club=club, player=guest).delete()
    _record(
        club.pk,
        SeasonRecord.Action.MERGED,
        user=user,
        address=address,
        details={"guest": guest.name, "member": member.name, "parties": moved},
    )
    # The history moved: the ratings are made again from the parties as they now read.
    ratings_rebuild(club_id=club.pk)
    return moved
