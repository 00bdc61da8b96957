"""A Gin Rummy party's score as standings and boards read it (`PartyScore`), kept
per party (`KeptScore`) after each change and settled again from the hands only
where a party moved since: a board of a thousand entrants reads five thousand
parties at every build."""

import json
import logging
import threading
from collections import OrderedDict
from dataclasses import asdict, dataclass, field

from django.db import DatabaseError, transaction
from django.db.models import QuerySet, TextField
from django.db.models.functions import Cast

from scoring.engine.formats import Payment
from scoring.engine.games import FORMAT_GAMES
from scoring.models import Hand, KeptScore, Party
from scoring.selectors import PartyRow, party_sheets
from web.rows import plain_rows

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PartyScore:
    """A party as a spectator follows it, by player id: the running hand points of
    each player's side, the hands counted, whether one waits for confirmation or is
    disputed, and once finished each player's plus/minus. A cancelled party is
    marked: it counts in no result (`scoring.results.party_results` leaves it out
    when asked). ``places``: at a table of another game, each player's place there
    once finished (1 = first, equal places shared); empty for Gin Rummy, whose
    plus/minus tells.

    By side, as the settlement numbers them: ``sides`` (player ids in seat
    order), ``side_points`` (hand points), ``boxes``, ``totals`` (the bonuses
    included once finished), ``game_bonuses`` (a tied party goes to the side that
    has it: the final's games) and ``shutouts`` (the shutout bonus, the ratings'
    shutouts); and the ``payments``, who pays whom how much, by player id. Kept
    in the shape `SHAPE` names."""

    finished: bool
    hands: int
    points: dict[int, int]
    plus_minus: dict[int, int]
    pending: bool
    disputed: bool
    cancelled: bool
    places: dict[int, int] = field(default_factory=dict)
    sides: tuple[tuple[int, ...], ...] = ()
    side_points: tuple[int, ...] = ()
    boxes: tuple[int, ...] = ()
    totals: tuple[int, ...] = ()
    game_bonuses: tuple[int, ...] = ()
    shutouts: tuple[int, ...] = ()
    payments: tuple[Payment, ...] = ()


#: The shape of a kept score (`KeptScore.score`'s ``shape``): a score kept in
#: another (an older one, without the sides and payments) is settled again,
#: never read as this one. Move it with every change of `PartyScore`'s fields.
SHAPE = 2

#: The kept scores this process read, by party id: ((the party's count, its
#: start), the score), the last `READ_SCORES` of them. The worker that builds a
#: championship's board reads the same five thousand parties at every build, of
#: which a handful moved: decoding each kept score again was a third of the build.
#: An entry is used only while its party's count is the one it was read at (every
#: change moves it, in its own transaction), and the start tells a party apart from
#: one that took a deleted party's id. Filled and used only outside a transaction,
#: where every read is of committed rows: a transaction that is rolled back never
#: leaves its scores here.
_read: OrderedDict[int, tuple[tuple, PartyScore]] = OrderedDict()
_reading = threading.Lock()
READ_SCORES = 20_000


def party_scores(party_ids, *, keep: bool = False) -> dict[int, PartyScore]:
    """Every Gin Rummy party's score by player, as kept (`KeptScore`): a party's
    score is settled from its hands (`computed_scores`) only when it changed since
    it was kept. A board of a thousand entrants reads five thousand parties, of
    which a handful moved since the last build; settling all of them each time took
    most of its time. One query while nothing moved, two more for whatever did
    (its seats and hands: the first read what settling reads of the parties),
    however many parties; a kept score is decoded only when this process has not
    read it before at the party's count (`_read`). ``keep``: what was settled
    is kept (after a party's change, `keep_party_score`); a page's read writes
    only the scores it found kept in an older shape (`SHAPE`), once."""
    ids = party_ids if isinstance(party_ids, QuerySet) else list(party_ids)
    if not isinstance(ids, QuerySet) and not ids:
        return {}
    rows = Party.objects.filter(pk__in=ids, game__in=FORMAT_GAMES).order_by("pk")
    remembered = not transaction.get_connection().in_atomic_block
    scores, moved, rows_of, reshaped = {}, {}, {}, set()
    # The kept score as text: JSON is decoded only where it was not read before.
    text = TextField()
    # Plain rows: the start is compared, never read as a date.
    for pk, changes, started, kept_at, kept, *party in plain_rows(
        rows.values_list(
            "pk",
            "changes",
            Cast("started_at", text),
            "kept_score__changes",
            Cast("kept_score__score", text),
            # What settling a moved party reads of it (`PartyRow`): its rules as
            # text, decoded only where it moved.
            "format",
            Cast("rules", text),
            "first_dealer",
            "status",
        )
    ):
        stamp = (changes, started)
        seen = _read.get(pk) if remembered else None
        if seen is not None and seen[0] == stamp:
            scores[pk] = seen[1]
        elif kept_at == changes and (score := _from_kept(json.loads(kept))) is not None:
            scores[pk] = score
            if remembered:
                _remember(pk, stamp, score)
        else:
            # The count is read before the hands: a change committed in between is
            # then kept with an older count, and settled again next time. A score
            # kept in an older shape at the party's count is settled again too,
            # and kept in this one by this very read: a party that never changes
            # again would else be settled at every board's build.
            format, rules, first_dealer, status = party
            moved[pk] = changes
            if kept_at == changes:
                reshaped.add(pk)
            rows_of[pk] = PartyRow(pk, format, json.loads(rules), first_dealer, status)
    if moved:
        # The parties are read already: two queries more (seats, hands).
        computed = computed_scores(list(moved), parties=list(rows_of.values()))
        scores.update(computed)
        to_keep = computed if keep else {pk: computed[pk] for pk in reshaped if pk in computed}
        if to_keep:
            _keep({pk: (moved[pk], score) for pk, score in to_keep.items()})
    return scores


def _remember(pk: int, stamp: tuple, score: PartyScore) -> None:
    # A threaded server's requests share ``_read``: one at a time changes it.
    with _reading:
        _read[pk] = (stamp, score)
        _read.move_to_end(pk)
        while len(_read) > READ_SCORES:
            _read.popitem(last=False)


def keep_party_score(party_id: int) -> None:
    """After the commit of a change to a party (`changes.after_party_change`): its
    score settled and kept, so the next board reads it as it is."""
    party_scores([party_id], keep=True)


def computed_scores(party_ids, *, parties=None) -> dict[int, PartyScore]:
    """Every Gin Rummy party's score by player, settled from its hands, in three
    queries however many parties; two when ``parties`` (their `PartyRow`s) are
    read already."""
    scores = {}
    for pk, state in party_sheets(party_ids, parties=parties).items():
        outcome = state.outcome
        side_points = tuple(side.points for side in outcome.sides)
        player = {seat.position: seat.player_id for seat in state.seats}
        open_hands = state.open_hands.values()
        scores[pk] = PartyScore(
            finished=state.finished,
            hands=len(state.rounds),
            points={seat.player_id: side_points[seat.side] for seat in state.seats},
            plus_minus={player[p]: amount for p, amount in outcome.plus_minus.items()},
            pending=any(h.status == Hand.Status.PENDING for h in open_hands),
            disputed=any(h.status == Hand.Status.DISPUTED for h in open_hands),
            cancelled=state.party.status == Party.Status.CANCELLED,
            sides=tuple(
                tuple(seat.player_id for seat in state.seats if seat.side == n)
                for n in range(len(outcome.sides))
            ),
            side_points=side_points,
            boxes=tuple(side.boxes for side in outcome.sides),
            totals=tuple(side.total for side in outcome.sides),
            game_bonuses=tuple(side.game_bonus for side in outcome.sides),
            shutouts=tuple(side.shutout_bonus for side in outcome.sides),
            payments=tuple(
                Payment(tuple(map(player.get, p.payer)), tuple(map(player.get, p.payee)), p.amount)
                for p in outcome.payments
            ),
        )
    return scores


def _keep(scores: dict[int, tuple[int, PartyScore]]) -> None:
    """Keeps the settled scores, each with the count it was settled at. Rows go in
    the parties' order, so two keeping at once never wait on each other
    crosswise; one that cannot write now (the database busy, a lock) leaves them
    to be settled again: a kept score is a saving, never a need."""
    rows = [
        KeptScore(party_id=pk, changes=changes, score=_as_kept(score))
        for pk, (changes, score) in sorted(scores.items())
    ]
    try:
        with transaction.atomic():
            KeptScore.objects.bulk_create(
                rows,
                batch_size=500,
                update_conflicts=True,
                unique_fields=["party"],
                update_fields=["changes", "score"],
            )
    except DatabaseError:
        log.warning("kept scores not written", exc_info=True)


#: A score's fields kept as pairs (by player id) and as lists (by side).
_BY_PLAYER = ("points", "plus_minus", "places")
_BY_SIDE = ("side_points", "boxes", "totals", "game_bonuses", "shutouts")


def _as_kept(score: PartyScore) -> dict:
    plain = asdict(score)
    # JSON's keys are strings; player ids go in as pairs to come back as numbers.
    for name in _BY_PLAYER:
        plain[name] = sorted(plain[name].items())
    plain["shape"] = SHAPE
    return plain


def _from_kept(kept: dict) -> PartyScore | None:
    """The score kept as ``kept``, or ``None`` when it was kept in another shape
    (`SHAPE`): one without a field of today's would be read with its default."""
    if kept.pop("shape", None) != SHAPE:
        return None
    return PartyScore(
        **{
            **kept,
            **{n: dict(kept[n]) for n in _BY_PLAYER},
            **{n: tuple(kept[n]) for n in _BY_SIDE},
            "sides": tuple(map(tuple, kept["sides"])),
            "payments": tuple(
                Payment(tuple(p["payer"]), tuple(p["payee"]), p["amount"]) for p in kept["payments"]
            ),
        }
    )
