"""The seasons' writes: ratings kept from the club's parties, and the seasons.

Ratings are derived data. `ratings_update` runs after the commit of every change
to a club's scores (`scoring.versions.after_scores_change`): it reads the parties'
audit record from where it last stopped, and refolds the ratings from the earliest
party that changed (a corrected or decided hand, a cancelled or reopened party, a
newly finished one). Since the fold is the same as `ratings_rebuild`'s, the kept
ratings always equal a rebuild from the stored parties."""

from itertools import islice

from django.db import transaction
from django.db.models import Count, Max, Q

from scoring.models import AuditRecord, Party
from scoring.selectors import party_sheets
from seasons.engine.ratings import RatedParty, Rating, games_from_payments, rate_party
from seasons.models import Rating as RatingRow
from seasons.models import RatingChange, RatingLedger

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
    id) and folds every finished party from there on again."""
    undone = RatingChange.objects.filter(_from(start), club_id=club_id)
    players = set(undone.values_list("player_id", flat=True))
    undone.delete()
    ratings = {
        row.player_id: Rating(row.mu, row.sigma, row.parties, row.won, row.last_played)
        for row in RatingRow.objects.filter(club_id=club_id).exclude(player_id__in=players)
    }
    ratings.update(_restored(club_id, players))
    finished_at, pk = start
    later = _finished(club_id).filter(
        Q(finished_at__gt=finished_at) | Q(finished_at=finished_at, pk__gte=pk)
    )
    return _fold(club_id, ratings, later, rewound=players)


def _restored(club_id: int, players: set) -> dict:
    """The players' ratings as their remaining history leaves them (a player with
    none left starts again)."""
    if not players:
        return {}
    history = RatingChange.objects.filter(club_id=club_id, player_id__in=players)
    counts = {
        row["player_id"]: row
        for row in history.values("player_id").annotate(
            parties=Count("pk"), won=Count("pk", filter=Q(won=True))
        )
    }
    latest = history.order_by("player_id", "-finished_at", "-party_id")
    ratings = {}
    for change in latest.values("player_id", "mu", "sigma", "finished_at"):
        player = change["player_id"]
        if player in ratings:
            continue
        ratings[player] = Rating(
            mu=change["mu"],
            sigma=change["sigma"],
            parties=counts[player]["parties"],
            won=counts[player]["won"],
            last_played=change["finished_at"].date(),
        )
    return ratings


def _fold(club_id: int, ratings: dict, parties, *, rewound=()) -> int:
    """Rates ``parties`` in order from ``ratings``, writing each player's change
    and the ratings as they end; returns the number of parties rated."""
    ids = list(parties.values_list("pk", "finished_at"))
    changes = []
    moved = set(rewound)
    for batch in _batched(ids):
        sheets = party_sheets([pk for pk, _ in batch], cancelled=False)
        for pk, finished_at in batch:
            party = _rated_party(pk, finished_at, sheets.get(pk))
            if party is None:
                continue
            after = rate_party(ratings, party)
            ratings.update(after)
            moved.update(after)
            changes.extend(
                RatingChange(
                    club_id=club_id,
                    party_id=pk,
                    player_id=player,
                    finished_at=finished_at,
                    mu=rating.mu,
                    sigma=rating.sigma,
                    won=player in party.won,
                )
                for player, rating in after.items()
            )
    RatingChange.objects.bulk_create(changes, batch_size=BATCH)
    _store(club_id, {player: ratings.get(player) for player in moved})
    return len({change.party_id for change in changes})


def _rated_party(pk: int, finished_at, state) -> RatedParty | None:
    if state is None or not state.outcome.finished:
        return None
    player = {seat.position: seat.player_id for seat in state.seats}
    games = games_from_payments(state.outcome.payments, player.__getitem__)
    if not games:
        return None
    won = frozenset(player[p] for p, amount in state.outcome.plus_minus.items() if amount > 0)
    return RatedParty(key=pk, day=finished_at.date(), games=games, won=won)


def _store(club_id: int, ratings: dict) -> None:
    """Writes the players' ratings as they now stand (``None``: no rated party left)."""
    gone = [player for player, rating in ratings.items() if rating is None]
    RatingRow.objects.filter(club_id=club_id, player_id__in=gone).delete()
    kept = {player: rating for player, rating in ratings.items() if rating is not None}
    existing = {
        row.player_id: row for row in RatingRow.objects.filter(club_id=club_id, player_id__in=kept)
    }
    new, changed = [], []
    for player, rating in kept.items():
        row = existing.get(player) or RatingRow(club_id=club_id, player_id=player)
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
