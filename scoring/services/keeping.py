"""How a party's hands are kept at its table: which hand is due at a seat, how an
entry is scored, written into its row and compared with another phone's. The one
lifecycle of a hand (`scoring.services.hands`) asks these questions; the answers
depend on how the party's game seats its players, asked through the game's
interface (`Game.formats`), never by which game it is:

- `FormatTables`: a game of party formats (`FORMAT_GAMES`) seats its players at
  tables of two within each round (two players, a rotation's sitter-out, a
  chouette's box, partnerships' several tables). An entry names the knocker by
  seat, the ending and the deadwood (`scoring.services.knocks.Result`); the row
  keeps them in its columns, and the format's sheet (`scoring.sheet`) settles them.
- `WholeTable`: every other game seats everyone at one table, one hand at a time.
  The entry is the game's own (`Game.hand`); the row keeps it as sent, with what
  the engine scored (``Hand.scores``) and its facts."""

import json
import logging
from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext

from scoring import errors, reads
from scoring.engine.games import GAMES
from scoring.engine.games.game import EntryError as GameEntryError
from scoring.engine.games.game import side_totals
from scoring.errors import refused
from scoring.models import Hand, Party, Seat
from scoring.selectors import RULINGS, state_for
from scoring.services.knocks import Result, score_result, table_of_hand
from scoring.services.whole_table_sheet import confirmed_scores, side_count
from scoring.sheet import party_state

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Due:
    """The hand due at a seat's table: its ``number``, the ``table`` (None: the seat
    sits this hand out), its row if it has an entry, and whether the seat's table
    has played it already while other tables of the round still play."""

    number: int
    table: int | None
    hand: Hand | None
    played: bool = False


@dataclass(frozen=True)
class Column:
    """A side's column of the sheet as a keeping reads it: the ``points`` of its
    hands, its ``boxes`` (None where the game keeps none) and its ``total``."""

    points: int
    boxes: int | None
    total: int


@dataclass(frozen=True)
class Scored:
    """An entry as stored (``entry``: JSON, what is fingerprinted and compared) and
    what the game made of it, in the keeping's own terms (``score``)."""

    entry: dict
    score: object


def as_stored(value):
    """``value`` as JSON gives it back: what is stored is what is scored, compared
    and fingerprinted (keys of numbers become text, tuples lists, sets sorted lists)."""

    def default(item):
        if isinstance(item, set | frozenset):
            return sorted(item)
        raise TypeError(f"{type(item).__name__} cannot be stored")

    return json.loads(json.dumps(value, default=default))


def keeping_for(party: Party):
    """The keeping of ``party``'s hands: its game's party formats seat tables of two
    (`FormatTables`); a game without them seats everyone at one table."""
    return FormatTables if GAMES[party.game].formats else WholeTable


def _mark_finished(party: Party, over: bool) -> None:
    """Finishes the party once its sheet is over; a correction can reopen it."""
    rows = Party.objects.filter(pk=party.pk)
    if over and party.status != Party.Status.FINISHED:
        rows.update(status=Party.Status.FINISHED, finished_at=timezone.now())
    elif not over and party.status == Party.Status.FINISHED:
        rows.update(status=Party.Status.RUNNING, finished_at=None)


class FormatTables:
    """A party whose format seats tables of two (see the module docstring)."""

    def __init__(self, party: Party):
        self.state, self.hands = state_for(party)
        self.party, self.seats = party, self.state.seats

    @property
    def finished(self) -> bool:
        return self.state.finished

    @staticmethod
    def stored(entry) -> dict:
        """The entry as kept and fingerprinted: a `Result` (from a form or the API)
        or its dict."""
        result = entry if isinstance(entry, Result) else Result.from_dict(entry)
        return as_stored(result.as_dict())

    def due(self, seat: Seat) -> Due:
        table = self.state.table_of(seat.position)
        return Due(
            self.state.number,
            table,
            self.state.open_hands.get(table),
            table in self.state.played,
        )

    def _names(self) -> dict:
        return {seat.position: seat.player.name for seat in self.seats}

    def score(self, entry: dict, due: Due) -> Scored:
        table = self.state.tables[due.table - 1]
        result = Result.from_dict(entry)
        scored = score_result(self.party, table, result, names=self._names(), number=due.number)
        return Scored(entry, (result, scored))

    def rescore(self, hand: Hand, entry: dict) -> Scored:
        result = Result.from_dict(entry)
        table = table_of_hand(self.state, hand)
        scored = score_result(self.party, table, result, names=self._names(), number=hand.number)
        return Scored(entry, (result, scored))

    def new_hand(self, number: int, table: int, seat: Seat) -> Hand:
        hand = Hand(party=self.party, number=number, table=table, entered_by=seat)
        hand.dealer = self._seat(self.state.tables[table - 1].dealer)
        return hand

    def _seat(self, position):
        return {s.position: s for s in self.seats}.get(position)

    def write(self, hand: Hand, scored: Scored) -> None:
        result, score = scored.score
        hand.ending = result.ending
        hand.knocker = self._seat(result.knocker)
        hand.defender = self._seat(score["defender"])
        hand.knocker_deadwood = result.knocker_deadwood
        hand.defender_deadwood = result.defender_deadwood
        hand.details = result.details
        hand.kind = score["kind"]
        hand.points = score["points"]
        hand.winner = self._seat(score["winner"])
        hand.scores, hand.facts = format_scores(hand, self.seats)

    @staticmethod
    def entry_of(hand: Hand) -> dict:
        """What the row says was entered, as `stored` keeps an entry."""
        return as_stored(
            {
                "ending": hand.ending,
                "knocker": hand.knocker.position if hand.knocker else None,
                "knocker_deadwood": hand.knocker_deadwood,
                "defender_deadwood": hand.defender_deadwood,
                "details": hand.details,
            }
        )

    def same(self, hand: Hand, scored: Scored) -> bool:
        """Two entries agree when they say the same thing about the hand; the cards
        behind a count need not have been tapped on both phones."""
        mine, theirs = self.entry_of(hand), scored.entry

        def said(entry):
            rulings = {k: v for k, v in entry["details"].items() if k in RULINGS and v}
            return (
                entry["ending"],
                entry["knocker"],
                entry["knocker_deadwood"],
                entry["defender_deadwood"],
                rulings,
            )

        return said(mine) == said(theirs)

    @staticmethod
    def counter(seat: Seat, scored: Scored) -> dict:
        result, score = scored.score
        return {"seat": seat.position, **result.as_dict(), **score}

    @staticmethod
    def snapshot(hand: Hand) -> dict:
        return {
            "number": hand.number,
            "table": hand.table,
            "status": hand.status,
            "ending": hand.ending,
            "knocker": hand.knocker.position if hand.knocker else None,
            "knocker_deadwood": hand.knocker_deadwood,
            "defender_deadwood": hand.defender_deadwood,
            "details": hand.details,
            "kind": hand.kind,
            "points": hand.points,
            "winner": hand.winner.position if hand.winner else None,
            "version": hand.version,
            # A dispute's other version: kept in the record, since a decision
            # clears it from the hand.
            "counter": hand.counter,
        }

    def check_later(self, decided: Hand) -> None:
        """Nothing to check here: a later hand's points never depend on the totals
        before it; a decision that ends the party early is refused at `finish`."""

    def finish(self, hands: list[Hand]) -> None:
        _mark_finished(self.party, party_state(self.party, self.seats, hands).finished)

    def columns(self) -> list[Column]:
        """Each side's column as the format settles it: hand points, boxes, and
        the total with the bonuses once the party is over."""
        return [Column(s.points, s.boxes, s.total) for s in self.state.outcome.sides]


class WholeTable:
    """A party that seats everyone at one table (see the module docstring)."""

    def __init__(self, party: Party):
        self.party = party
        self.seats = reads.seats(party)
        self.hands = reads.hands(party, entered_by=True)
        self.game = GAMES[party.game]

    @property
    def finished(self) -> bool:
        return self.party.status == Party.Status.FINISHED

    @staticmethod
    def stored(entry) -> dict:
        if not isinstance(entry, dict):
            raise errors.EntryError(gettext("The entry is not a hand of this game."))
        return as_stored(entry)

    def due(self, seat: Seat) -> Due:
        for hand in self.hands:
            if hand.status in (Hand.Status.PENDING, Hand.Status.DISPUTED):
                return Due(hand.number, 1, hand)
        return Due(1 + max((h.number for h in self.hands), default=0), 1, None)

    def _score(self, entry, number: int) -> Scored:
        """The engine's scores and facts for ``entry`` as hand ``number``, from the
        totals of the confirmed hands before it; an entry the engine refuses
        becomes the refusal the player reads."""
        if not isinstance(entry, dict):
            raise errors.EntryError(gettext("The entry is not a hand of this game."))
        before = [h for h in self.hands if h.number < number]
        totals = side_totals(confirmed_scores(before), side_count(self.seats))
        try:
            scored = self.game.hand(entry, totals, self.party.rules)
        except GameEntryError as error:
            raise refused(error) from error
        except (ValueError, TypeError, KeyError, AttributeError) as error:
            # A malformed entry (text for a number, a list for a mapping) the engine
            # did not foresee: refused like any other, never a crash.
            logger.info("Entry refused for party %s: %r", self.party.pk, error)
            raise errors.EntryError(
                gettext("This entry cannot be right: check it and enter it again.")
            ) from error
        return Scored(entry, (list(scored.scores), as_stored(dict(scored.facts))))

    def score(self, entry: dict, due: Due) -> Scored:
        return self._score(entry, due.number)

    def rescore(self, hand: Hand, entry: dict) -> Scored:
        return self._score(entry, hand.number)

    def new_hand(self, number: int, table: int, seat: Seat) -> Hand:
        return Hand(party=self.party, number=number, ending=Hand.Ending.SCORED, entered_by=seat)

    @staticmethod
    def write(hand: Hand, scored: Scored) -> None:
        scores, facts = scored.score
        hand.details = {"entry": scored.entry}
        hand.scores, hand.facts = scores, facts

    @staticmethod
    def entry_of(hand: Hand) -> dict | None:
        return hand.details.get("entry")

    @staticmethod
    def same(hand: Hand, scored: Scored) -> bool:
        """Two entries agree when they score the same and the facts both state agree;
        one phone may have tapped the cards where the other typed the points."""
        scores, facts = scored.score
        stated = hand.facts
        return hand.scores == scores and all(
            stated[name] == facts[name]
            for name in stated.keys() & facts.keys()
            if stated[name] is not None and facts[name] is not None
        )

    @staticmethod
    def counter(seat: Seat, scored: Scored) -> dict:
        scores, facts = scored.score
        return {"seat": seat.position, "entry": scored.entry, "scores": scores, "facts": facts}

    @staticmethod
    def snapshot(hand: Hand) -> dict:
        return {
            "number": hand.number,
            "status": hand.status,
            "entry": hand.details.get("entry"),
            "scores": hand.scores,
            "facts": hand.facts,
            "confirmations": hand.confirmations,
            "version": hand.version,
            "counter": hand.counter,
        }

    def check_later(self, decided: Hand) -> None:
        """Refuses a decision that would make a confirmed or waiting hand after
        ``decided`` one the game no longer allows, or leave one after the party's
        end: each later hand was entered against the totals before it."""
        count = side_count(self.seats)
        # A waiting hand too: its confirmations would count it as entered, unchecked.
        waiting = (Hand.Status.CONFIRMED, Hand.Status.PENDING)
        later = [h for h in self.hands if h.number > decided.number and h.status in waiting]
        for hand in later:
            before = [h for h in self.hands if h.number < hand.number]
            if self.game.standing(confirmed_scores(before), count, self.party.rules).over:
                raise errors.EntryError(
                    _later_refusal(hand, gettext("the party would be over before it"))
                )
            # A hand's points come from its entry alone; the totals before it decide
            # only whether it may be played so (Canasta's first meld, La Conga's out).
            try:
                self._score(hand.details.get("entry"), hand.number)
            except errors.EntryError as error:
                raise errors.EntryError(_later_refusal(hand, str(error))) from error

    def finish(self, hands: list[Hand]) -> None:
        count = side_count(self.seats)
        over = self.game.standing(confirmed_scores(hands), count, self.party.rules).over
        _mark_finished(self.party, over)

    def columns(self) -> list[Column]:
        """Each side's column: its points over the confirmed hands, which are its
        total (these games keep no boxes)."""
        totals = side_totals(confirmed_scores(self.hands), side_count(self.seats))
        return [Column(total, None, total) for total in totals]


def format_scores(hand: Hand, seats) -> tuple[list[int], dict]:
    """A hand of the party formats, as its columns say, in the terms every game's
    hand is kept in: each side's points (the winner's side scores the hand's
    points) and the facts `GinRummy.record` and `GinRummy.standing` read (the
    sides of the knocker, the defender and the winner; a partnership round's
    tables share their ``round``)."""
    side_of = {seat.pk: seat.side for seat in seats}
    scores = [0] * side_count(seats)
    winner = side_of.get(hand.winner_id)
    if winner is not None and hand.points:
        scores[winner] = hand.points
    facts = {
        "kind": hand.kind or ("no_game" if hand.ending == Hand.Ending.NO_GAME else ""),
        "winner": winner if hand.points else None,
        "knocker": side_of.get(hand.knocker_id),
        "defender": side_of.get(hand.defender_id),
        "knocker_deadwood": hand.knocker_deadwood,
        "round": hand.number,
    }
    return scores, facts


def _later_refusal(hand: Hand, why: str) -> str:
    return gettext(
        "This decision changes hand %(n)d, played after it (%(why)s): void the later hands first."
    ) % {"n": hand.number, "why": why}
