"""Parties of the club's other games (Chinchón, Canasta, Blaue Vierzehn, Cruzo;
issue 28): started, their hands entered, confirmed, corrected, disputed and
decided, one transaction each, as carefully as Gin Rummy's (`scoring.services.hands`).

The game's engine (`scoring.engine.games`) scores each entry; these rows keep the
entry as sent (``Hand.details["entry"]``), what the engine made of it
(``Hand.scores``, and its facts in ``Hand.details["facts"]``) and who said what.
Every write locks the party row first and writes an audit record; the pages learn
of it through the same counters as Gin Rummy's.

Confirmation (how many confirm is the game's rule, `Game.confirmations_needed`;
for these games `majority_of_others`):

- **Two sides** (two players, or Canasta's two partnerships): a player of the other
  side confirms, as in Gin Rummy.
- **Three or more sides**: the hand is confirmed once more than half of the players
  who may confirm have confirmed: every player not on the entering player's side
  (at a table of four, two of the other three; of three, both others). One
  confirmation alone at a table of four is not enough, so one friend of the
  entering player cannot wave a wrong hand through; a table that has to wait for
  everyone would stall on one player who went for a drink. A player out of a La
  Conga party still sits at the table and confirms.
- A confirmation names the version of the entry its phone showed; an entry changed
  since is refused (`errors.EntryChanged`). Confirmations do not change the entry,
  so they do not raise its version: the second confirmer's phone still shows the
  version it confirms. The confirmations so far (``Hand.confirmations``) are
  emptied whenever the entry changes.
- Another player entering the same hand confirms it when his entry scores the
  same; a different one marks it disputed, keeping both, and the organizer decides
  it with an entry (`game_hand_decide`).
- The entering player's side may correct its entry until it is confirmed: a new
  version, the confirmations gathered so far gone.
"""

import json
import logging

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from scoring import changes, errors, guards
from scoring.engine.games.game import EntryError as GameEntryError
from scoring.engine.games.game import side_totals
from scoring.engine.settlement import PartyOver
from scoring.keys import fingerprint, replayed, stored_once
from scoring.models import AuditRecord, Hand, Party, Seat
from scoring.services.game_parties import check_other_game, refused
from scoring.services.game_sheet import confirmed_scores, game_of, side_count
from scoring.services.hands import Outcome
from scoring.services.parties import check_night_open, check_not_cancelled

logger = logging.getLogger(__name__)


def _locked(party_id: int):
    """The party row locked first (every write to it queues here), then its seats
    and hands as they now stand."""
    party = Party.objects.select_for_update().get(pk=party_id)
    check_other_game(party)
    check_not_cancelled(party)
    seats = list(party.seats.select_related("player").order_by("position"))
    hands = list(party.hands.select_related("entered_by__player").order_by("number", "table"))
    return party, seats, hands


def as_stored(value):
    """``value`` as JSON gives it back: what is stored is what is scored, compared
    and fingerprinted (keys of numbers become text, tuples lists, sets sorted lists)."""

    def default(item):
        if isinstance(item, set | frozenset):
            return sorted(item)
        raise TypeError(f"{type(item).__name__} cannot be stored")

    return json.loads(json.dumps(value, default=default))


def _score(party: Party, seats, hands, entry, number: int):
    """The engine's scores and facts for ``entry`` as hand ``number``, from the
    totals of the confirmed hands before it; an entry the engine refuses becomes the
    refusal the player reads."""
    if not isinstance(entry, dict):
        raise errors.EntryError(gettext("The entry is not a hand of this game."))
    engine = game_of(party)
    before = [h for h in hands if h.number < number]
    totals = side_totals(confirmed_scores(before), side_count(seats))
    try:
        scored = engine.hand(entry, totals, party.rules)
    except GameEntryError as error:
        raise refused(error) from error
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        # A malformed entry (text for a number, a list for a mapping) the engine
        # did not foresee: refused like any other, never a crash.
        logger.info("Entry refused for party %s: %r", party.pk, error)
        raise errors.EntryError(
            gettext("This entry cannot be right: check it and enter it again.")
        ) from error
    return list(scored.scores), as_stored(dict(scored.facts))


def _snapshot(hand: Hand) -> dict:
    return {
        "number": hand.number,
        "status": hand.status,
        "entry": hand.details.get("entry"),
        "scores": hand.scores,
        "facts": hand.details.get("facts"),
        "confirmations": hand.confirmations,
        "version": hand.version,
        "counter": hand.counter,
    }


def _audit(
    party,
    hand,
    action,
    *,
    seat=None,
    user=None,
    address=None,
    key=None,
    sent="",
    before=None,
    reason="",
):
    # The same counters as Gin Rummy's hands: the club's scores, the party's
    # phones, the night's monitor (all after the commit).
    changes.scores_changed(party.club_id)
    changes.party_changed(party.pk)
    changes.night_changed(party.night_id)
    AuditRecord.objects.create(
        party=party,
        hand=hand,
        action=action,
        seat=seat,
        user=user,
        address=address,
        key=key,
        fingerprint=sent if key else "",
        before=before,
        after=_snapshot(hand) if hand else None,
        reason=reason,
    )


def _finish_if_over(party: Party, seats) -> None:
    """Finishes the party once the game says it is over, from the hands as they now
    stand (the rows just written included)."""
    hands = list(party.hands.order_by("number", "table"))
    over = game_of(party).standing(confirmed_scores(hands), side_count(seats), party.rules).over
    if over and party.status != Party.Status.FINISHED:
        Party.objects.filter(pk=party.pk).update(
            status=Party.Status.FINISHED, finished_at=timezone.now()
        )
    elif not over and party.status == Party.Status.FINISHED:
        Party.objects.filter(pk=party.pk).update(status=Party.Status.RUNNING, finished_at=None)


def _due(hands) -> tuple[int, Hand | None]:
    """The number of the hand being played, and its row if it has an entry."""
    for hand in hands:
        if hand.status in (Hand.Status.PENDING, Hand.Status.DISPUTED):
            return hand.number, hand
    return 1 + max((h.number for h in hands), default=0), None


def _stale(number: int, due: int) -> errors.StaleEntry:
    if number < due:
        return errors.StaleEntry(
            gettext(
                "Hand %(n)d is already recorded. The sheet below is up to date: "
                "enter hand %(next)d next."
            )
            % {"n": number, "next": due}
        )
    return errors.StaleEntry(
        gettext("Hand %(n)d is not due yet: hand %(next)d comes first.")
        % {"n": number, "next": due}
    )


def _check_version(hand: Hand, version: int) -> None:
    if hand.version != version:
        raise errors.EntryChanged(
            gettext(
                "%(who)s changed hand %(n)d after your phone showed it: "
                "check the new entry and confirm it again."
            )
            % {"who": hand.entered_by.player.name, "n": hand.number},
            hand=hand,
        )


def _same(hand: Hand, scores: list, facts: dict) -> bool:
    """Two entries agree when they score the same and the facts both state agree;
    one phone may have tapped the cards where the other typed the points."""
    stated = hand.details.get("facts", {})
    return hand.scores == scores and all(
        stated[name] == facts[name]
        for name in stated.keys() & facts.keys()
        if stated[name] is not None and facts[name] is not None
    )


def confirmations_needed(party: Party, seats, entered_by: Seat) -> int:
    """How many players must confirm an entry made at ``entered_by``'s seat: the
    party's game says (`Game.confirmations_needed`, one rule for every page and the
    API), from the sides at the table."""
    sides = [
        [seat.position for seat in seats if seat.side == side] for side in range(side_count(seats))
    ]
    return game_of(party).confirmations_needed(sides, entered_by.side)


def _confirm(party, seats, hand: Hand, seat: Seat, record) -> Outcome:
    """Counts ``seat``'s confirmation of the hand's current version; the last one
    needed confirms the hand, and the party may be over."""
    if seat.position in hand.confirmations:
        return Outcome("repeated", hand)
    hand.confirmations = [*hand.confirmations, seat.position]
    if len(hand.confirmations) < confirmations_needed(party, seats, hand.entered_by):
        hand.save()
        record(AuditRecord.Action.CONFIRM)
        return Outcome("noted", hand)
    hand.status = Hand.Status.CONFIRMED
    hand.confirmed_by = seat
    hand.version += 1
    hand.save()
    record(AuditRecord.Action.CONFIRM)
    _finish_if_over(party, seats)
    return Outcome("confirmed", hand)


def game_hand_enter(
    *, seat: Seat, number: int, entry: dict, key=None, address=None, version=None
) -> Outcome:
    """A player enters hand ``number`` of his party: ``entry`` as the game's engine
    reads it (`Game.hand`). Returns what it did: ``"entered"`` (pending),
    ``"recorded"`` (no confirmation needed), ``"noted"`` (counted as a
    confirmation, more needed), ``"confirmed"``, ``"disputed"`` or ``"repeated"``.

    - The first entry of a hand waits for confirmation (see the module docstring).
    - The entering side sending another entry corrects it: a new version.
    - Another player's entry that scores the same confirms it (``version``: the
      version his phone showed; a changed one is refused); a different one marks
      the hand disputed, both kept, until the organizer decides.
    - A hand already recorded, or not yet due, is refused as stale; the same
      submission (same seat, ``key`` and entry) is stored once, and a key sent
      again with another entry or hand is refused."""
    entry = as_stored(entry)
    sent = fingerprint("game-enter", number, entry=entry, version=version)
    return stored_once(
        seat,
        key,
        sent,
        number,
        lambda: _game_hand_enter(seat, number, entry, key, sent, address, version),
        lambda record: Outcome("repeated", record.hand),
    )


def _game_hand_enter(seat, number, entry, key, sent, address, version) -> Outcome:
    party, seats, hands = _locked(seat.party_id)
    replay = replayed(seat, key, sent, number)
    if replay is not None:
        return Outcome("repeated", replay.hand)
    if party.status == Party.Status.FINISHED:
        raise PartyOver(gettext("The party is over: no more hands can be entered."))
    due, hand = _due(hands)
    if number != due:
        raise _stale(number, due)
    seat = next(s for s in seats if s.pk == seat.pk)
    scores, facts = _score(party, seats, hands, entry, number)
    details = {"entry": entry, "facts": facts}
    if hand is None:
        confirm = not party.confirmation_required
        hand = Hand.objects.create(
            party=party,
            number=number,
            status=Hand.Status.CONFIRMED if confirm else Hand.Status.PENDING,
            ending=Hand.Ending.SCORED,
            entered_by=seat,
            details=details,
            scores=scores,
        )
        _audit(
            party, hand, AuditRecord.Action.ENTER, seat=seat, address=address, key=key, sent=sent
        )
        if confirm:
            _finish_if_over(party, seats)
            return Outcome("recorded", hand)
        return Outcome("entered", hand)
    if hand.status == Hand.Status.DISPUTED:
        raise errors.HandBlocked(
            gettext("Hand %(n)d is disputed: the organizer decides it before play goes on.")
            % {"n": number}
        )
    before = _snapshot(hand)

    def record(action):
        _audit(party, hand, action, seat=seat, address=address, key=key, sent=sent, before=before)

    if seat.side == hand.entered_by.side:
        if hand.details.get("entry") == entry:
            # Sent again under a new key (a reload, a partner's phone): the version
            # the other phones show stands.
            return Outcome("repeated", hand)
        hand.details, hand.scores, hand.entered_by = details, scores, seat
        hand.confirmations = []
        hand.version += 1
        hand.save()
        record(AuditRecord.Action.ENTER)
        return Outcome("entered", hand)
    if version is not None:
        _check_version(hand, version)
    if _same(hand, scores, facts):
        return _confirm(party, seats, hand, seat, record)
    hand.status = Hand.Status.DISPUTED
    hand.counter = {"seat": seat.position, "entry": entry, "scores": scores, "facts": facts}
    hand.version += 1
    hand.save()
    record(AuditRecord.Action.DISPUTE)
    return Outcome("disputed", hand)


@transaction.atomic
def game_hand_confirm(*, seat: Seat, number: int, version: int, key=None, address=None) -> Outcome:
    """A player confirms the pending entry of hand ``number`` in the ``version`` his
    phone showed: ``"noted"`` while more confirmations are needed, ``"confirmed"``
    with the last. An entry changed since is refused (`errors.EntryChanged`); the
    entering side never confirms its own entry."""
    party, seats, hands = _locked(seat.party_id)
    sent = fingerprint("game-confirm", number, version=version)
    replay = replayed(seat, key, sent, number)
    if replay is not None:
        return Outcome("repeated", replay.hand)
    due, hand = _due(hands)
    if number != due or hand is None:
        if number == due:
            raise errors.StaleEntry(
                gettext("Hand %(n)d has no entry to confirm yet.") % {"n": number}
            )
        raise _stale(number, due)
    if hand.status == Hand.Status.DISPUTED:
        raise errors.HandBlocked(
            gettext("Hand %(n)d is disputed: the organizer decides it.") % {"n": number}
        )
    seat = next(s for s in seats if s.pk == seat.pk)
    if seat.side == hand.entered_by.side:
        raise errors.NotYourHand(
            gettext("Your side entered this hand: the other players confirm it.")
        )
    _check_version(hand, version)
    before = _snapshot(hand)

    def record(action):
        _audit(party, hand, action, seat=seat, address=address, key=key, sent=sent, before=before)

    return _confirm(party, seats, hand, seat, record)


@transaction.atomic
def game_hand_decide(
    *,
    hand: Hand,
    user,
    entry: dict | None,
    reason: str,
    address=None,
    disputed: bool | None = True,
) -> Hand:
    """The organizer decides a hand: a disputed one with the right entry (either
    side's, or his own), a confirmed or waiting one corrected (``disputed=False``),
    or any voided (``entry=None``: it counts nothing, and the next hand is dealt).
    Scored by the engine like any other and confirmed at once, the reason and the
    hand's previous state (both versions) in the record.

    ``disputed`` is checked under the party's lock, because a phone may have
    changed the hand since the organizer's page was drawn. A decision may not
    undo a later hand: each later hand was entered against the totals before it,
    so it is checked again, and one the game would no longer allow (or that
    would come after the party's end) refuses the decision: the later hands are
    voided first, each with its reason."""
    if not reason.strip():
        raise errors.EntryError(
            gettext("Give a reason: corrections are kept in the party's record.")
        )
    party, seats, hands = _locked(hand.party_id)
    check_night_open(party)
    guards.check_correction(party)
    # The hand as it stands now, under the lock, not as the organizer's page saw it.
    hand = next(h for h in hands if h.pk == hand.pk)
    if entry is None:
        if hand.status == Hand.Status.VOID:
            raise errors.WrongDecision(gettext("Hand %(n)d is void already.") % {"n": hand.number})
    elif disputed is not None and (hand.status == Hand.Status.DISPUTED) != disputed:
        message = (
            gettext("Hand %(n)d is not disputed (any more).")
            if disputed
            else gettext("Hand %(n)d is disputed: resolve it, after comparing both versions.")
        )
        raise errors.WrongDecision(message % {"n": hand.number})
    before = _snapshot(hand)
    if entry is None:
        action = AuditRecord.Action.VOID
        hand.status = Hand.Status.VOID
    else:
        action = (
            AuditRecord.Action.RESOLVE
            if hand.status == Hand.Status.DISPUTED
            else AuditRecord.Action.CORRECT
        )
        entry = as_stored(entry)
        scores, facts = _score(party, seats, hands, entry, hand.number)
        hand.details = {"entry": entry, "facts": facts}
        hand.scores = scores
        hand.status = Hand.Status.CONFIRMED
    _check_later_hands(party, seats, hands, hand)
    hand.counter = None
    hand.decided_by = user
    hand.version += 1
    hand.save()
    _audit(party, hand, action, user=user, address=address, before=before, reason=reason.strip())
    _finish_if_over(party, seats)
    return hand


def _check_later_hands(party: Party, seats, hands, decided: Hand) -> None:
    """Refuses a decision that would make a confirmed or waiting hand after
    ``decided`` one the game no longer allows, or leave one after the party's end. ``hands`` holds
    ``decided`` as it is about to be saved."""
    count = side_count(seats)
    engine = game_of(party)
    # A waiting hand too: its confirmations would count it as entered, unchecked.
    waiting = (Hand.Status.CONFIRMED, Hand.Status.PENDING)
    later = [h for h in hands if h.number > decided.number and h.status in waiting]
    for hand in later:
        before = [h for h in hands if h.number < hand.number]
        if engine.standing(confirmed_scores(before), count, party.rules).over:
            raise errors.EntryError(
                _later_refusal(hand, gettext("the party would be over before it"))
            )
        # A hand's points come from its entry alone; the totals before it decide
        # only whether it may be played so (Canasta's first meld, La Conga's out).
        try:
            _score(party, seats, hands, hand.details.get("entry"), hand.number)
        except errors.EntryError as error:
            raise errors.EntryError(_later_refusal(hand, str(error))) from error


def _later_refusal(hand: Hand, why: str) -> str:
    return gettext(
        "This decision changes hand %(n)d, played after it (%(why)s): void the later hands first."
    ) % {"n": hand.number, "why": why}
