"""A party's hands entered, confirmed, disputed and decided, one transaction each,
for every game: one lifecycle, asking the party's keeping (`scoring.services.keeping`)
which hand is due at a seat's table and how an entry is scored, stored and compared.

Every write locks the party row first, so two phones entering at the same moment
are handled one after the other: the second sees the first's hand and confirms it,
disputes it, or is told it is stale. Nothing is ever half-written, and every write
is audited.

Confirmation: how many must confirm is the game's rule (`Game.confirmations_needed`):
at two sides a player of the other side; at three or more sides more than half of
the players who may confirm (every player not on the entering side), so one friend
of the entering player cannot wave a wrong hand through, and a table need not wait
for a player who went for a drink.

- A confirmation names the version of the entry its phone showed; an entry changed
  since is refused (`errors.EntryChanged`). Confirmations do not change the entry,
  so they do not raise its version until the last one confirms it. The
  confirmations so far (``Hand.confirmations``) are emptied whenever it changes.
- Another player entering the same hand confirms it when the entries agree; a
  different one marks it disputed, keeping both, and the organizer decides.
- The entering side may correct its entry until it is confirmed: a new version."""

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext

from scoring import changes, errors, guards, reads
from scoring.engine.games import GAMES
from scoring.engine.settlement import PartyOver
from scoring.keys import fingerprint, replayed, stored_once
from scoring.models import AuditRecord, Hand, Party, Seat
from scoring.services.keeping import keeping_for
from scoring.services.parties import check_night_open, check_not_cancelled
from scoring.services.whole_table_sheet import side_count


@dataclass(frozen=True)
class Outcome:
    """What an entry did: ``"entered"`` (pending), ``"recorded"`` (counts at once, no
    confirmation needed), ``"noted"`` (a confirmation counted, more needed),
    ``"confirmed"``, ``"disputed"``, or ``"repeated"`` (the same submission arrived
    twice and was stored once)."""

    action: str
    hand: Hand


def _locked(party_id: int):
    """Locks the party (every write to it queues here) and keeps its hands as they
    now stand. A cancelled party takes no more hands and no more decisions."""
    party = reads.party_locked(party_id)
    check_not_cancelled(party)
    return keeping_for(party)(party)


def _audit(kept, hand, action, *, seat=None, user=None, address=None, key=None, sent="", **more):
    # Every write to a hand is audited here, so this is where the cached pages
    # that show the club's scores, and the party's phones, learn of it (after the
    # commit).
    party = kept.party
    changes.scores_changed(party.club_id)
    # The seats were read with the party, under its lock: their tokens are these.
    changes.party_changed(party.pk, [s.token for s in kept.seats])
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
        after=kept.snapshot(hand) if hand else None,
        **more,
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


def _table_done(number: int) -> errors.StaleEntry:
    return errors.StaleEntry(
        gettext(
            "Your table's hand %(n)d is recorded. The next round starts when every table "
            "has entered its hand."
        )
        % {"n": number}
    )


def confirmations_needed(party: Party, seats, entered_by: Seat) -> int:
    """How many players must confirm an entry made at ``entered_by``'s seat: the
    party's game says (`Game.confirmations_needed`, one rule for every page and the
    API), from the sides at the table."""
    sides = [
        [seat.position for seat in seats if seat.side == side] for side in range(side_count(seats))
    ]
    return GAMES[party.game].confirmations_needed(sides, entered_by.side)


def _confirm(kept, hand: Hand, seat: Seat, record) -> Outcome:
    """Counts ``seat``'s confirmation of the hand's current version; the last one
    needed confirms the hand, and the party may be over."""
    if seat.position in hand.confirmations:
        return Outcome("repeated", hand)
    hand.confirmations = [*hand.confirmations, seat.position]
    if len(hand.confirmations) < confirmations_needed(kept.party, kept.seats, hand.entered_by):
        hand.save()
        record(AuditRecord.Action.CONFIRM)
        return Outcome("noted", hand)
    hand.status = Hand.Status.CONFIRMED
    hand.confirmed_by = seat
    hand.version += 1
    hand.save()
    record(AuditRecord.Action.CONFIRM)
    kept.finish(kept.hands)
    return Outcome("confirmed", hand)


def hand_enter(*, seat: Seat, number: int, entry, key=None, address=None, version=None) -> Outcome:
    """A seat enters hand ``number`` of its party: ``entry`` as the party's game
    reads it (a `scoring.services.knocks.Result` or its dict for a game of party
    formats, the game's own entry for the others, `Game.hand`).

    - The first entry of a hand waits for confirmation (see the module docstring),
      or counts at once when the party needs none.
    - The entering side sending another entry corrects it: a new version.
    - Another side's entry that agrees confirms it (``version``: the version its
      phone showed; a changed one is refused); a different one marks the hand
      disputed, both kept, until the organizer decides.
    - A hand already recorded, or not yet due, is refused as stale; the same
      submission (same seat, ``key`` and entry) is stored once, and a key sent
      again with another entry or hand is refused."""
    entry = keeping_for(seat.party).stored(entry)
    sent = fingerprint("enter", number, entry=entry, version=version)
    return stored_once(
        seat,
        key,
        sent,
        number,
        lambda: _hand_enter(seat, number, entry, key, sent, address, version),
        lambda record: Outcome("repeated", record.hand),
    )


def _hand_enter(seat, number, entry, key, sent, address, version) -> Outcome:
    kept = _locked(seat.party_id)
    replay = replayed(seat, key, sent, number)
    if replay is not None:
        return Outcome("repeated", replay.hand)
    if kept.finished:
        raise PartyOver(gettext("The party is over: no more hands can be entered."))
    seat = next(s for s in kept.seats if s.pk == seat.pk)
    due = kept.due(seat)
    if number != due.number:
        raise _stale(number, due.number)
    if due.table is None:
        raise errors.NotYourHand(
            gettext("You sit out this hand: the players at the table enter it.")
        )
    if due.played:
        raise _table_done(number)
    scored = kept.score(entry, due)
    hand = due.hand
    if hand is None:
        confirm = not kept.party.confirmation_required
        hand = kept.new_hand(number, due.table, seat)
        kept.write(hand, scored)
        hand.status = Hand.Status.CONFIRMED if confirm else Hand.Status.PENDING
        hand.save()
        _audit(kept, hand, AuditRecord.Action.ENTER, seat=seat, address=address, key=key, sent=sent)
        if confirm:
            kept.finish([*kept.hands, hand])
            return Outcome("recorded", hand)
        return Outcome("entered", hand)
    if hand.status == Hand.Status.DISPUTED:
        raise errors.HandBlocked(
            gettext("Hand %(n)d is disputed: the organizer decides it before play goes on.")
            % {"n": number}
        )
    before = kept.snapshot(hand)

    def record(action):
        _audit(kept, hand, action, seat=seat, address=address, key=key, sent=sent, before=before)

    if seat.side == hand.entered_by.side:
        if kept.entry_of(hand) == entry:
            # Sent again under a new key (a reload, a partner's phone): nothing
            # changed, so the version the other phones show stands.
            return Outcome("repeated", hand)
        # The entering side corrects its own pending entry: a new version, which
        # the other phones are shown as a change before they can confirm.
        kept.write(hand, scored)
        hand.entered_by = seat
        hand.confirmations = []
        hand.version += 1
        hand.save()
        record(AuditRecord.Action.ENTER)
        return Outcome("entered", hand)
    if version is not None:
        _check_version(hand, version)
    if kept.same(hand, scored):
        return _confirm(kept, hand, seat, record)
    hand.status = Hand.Status.DISPUTED
    hand.counter = kept.counter(seat, scored)
    hand.version += 1
    hand.save()
    record(AuditRecord.Action.DISPUTE)
    return Outcome("disputed", hand)


@transaction.atomic
def hand_confirm(*, seat: Seat, number: int, version: int, key=None, address=None) -> Outcome:
    """A seat of another side confirms the pending entry of hand ``number`` in the
    ``version`` its phone showed: ``"noted"`` while more confirmations are needed,
    ``"confirmed"`` with the last. An entry changed since is refused
    (`errors.EntryChanged`, which carries the new one): a player approves what the
    phone showed, never what arrived after. The server, not the page, enforces that
    nobody confirms the own side's entry."""
    kept = _locked(seat.party_id)
    sent = fingerprint("confirm", number, version=version)
    replay = replayed(seat, key, sent, number)
    if replay is not None:
        return Outcome("repeated", replay.hand)
    seat = next(s for s in kept.seats if s.pk == seat.pk)
    due = kept.due(seat)
    hand = due.hand if number == due.number else None
    if hand is None:
        if number != due.number:
            raise _stale(number, due.number)
        if due.played:
            raise _table_done(number)
        raise errors.StaleEntry(gettext("Hand %(n)d has no entry to confirm yet.") % {"n": number})
    if hand.status == Hand.Status.DISPUTED:
        raise errors.HandBlocked(
            gettext("Hand %(n)d is disputed: the organizer decides it.") % {"n": number}
        )
    if seat.side == hand.entered_by.side:
        raise errors.NotYourHand(
            gettext("Your side entered this hand: a player of another side confirms it.")
        )
    _check_version(hand, version)
    before = kept.snapshot(hand)

    def record(action):
        _audit(kept, hand, action, seat=seat, address=address, key=key, sent=sent, before=before)

    return _confirm(kept, hand, seat, record)


@transaction.atomic
def hand_decide(
    *,
    hand: Hand,
    user,
    entry,
    reason: str,
    address=None,
    disputed: bool | None = None,
) -> Hand:
    """The organizer decides a hand: a disputed one with the right entry (either
    side's, or the organizer's own), a confirmed or waiting one corrected, or any
    voided (``entry=None``: it counts nothing, and the hand is dealt again). Scored
    like any other and confirmed at once; a reason is required, and the hand's
    previous state (both versions) goes into the record.

    ``disputed`` says whether the organizer is settling a dispute (True) or
    correcting an undisputed hand (False); it is checked under the party's lock,
    because a phone may have changed the hand since the organizer's page was drawn.
    A decision may not undo a later hand (`keeping.WholeTable.check_later`) nor end
    the party before hands already played: the later hands are voided first."""
    if not reason.strip():
        raise errors.EntryError(
            gettext("Give a reason: corrections are kept in the party's record.")
        )
    kept = _locked(hand.party_id)
    check_night_open(kept.party)
    guards.check_correction(kept.party)
    # The hand as it stands now, under the lock, not as the organizer's page saw it.
    hand = next(h for h in kept.hands if h.pk == hand.pk)
    if disputed is not None and (hand.status == Hand.Status.DISPUTED) != disputed:
        message = (
            gettext("Hand %(n)d is not disputed (any more): correct it instead.")
            if disputed
            else gettext("Hand %(n)d is disputed: resolve it, after comparing both versions.")
        )
        raise errors.WrongDecision(message % {"n": hand.number})
    if entry is None and hand.status == Hand.Status.VOID:
        # The same void sent twice: the hand is dealt again once, recorded once.
        raise errors.WrongDecision(gettext("Hand %(n)d is void already.") % {"n": hand.number})
    before = kept.snapshot(hand)
    if entry is None:
        action = AuditRecord.Action.VOID
        hand.status = Hand.Status.VOID
    else:
        was_disputed = hand.status == Hand.Status.DISPUTED
        action = AuditRecord.Action.RESOLVE if was_disputed else AuditRecord.Action.CORRECT
        kept.write(hand, kept.rescore(hand, kept.stored(entry)))
        hand.status = Hand.Status.CONFIRMED
    kept.check_later(hand)
    hand.counter = None
    hand.decided_by = user
    hand.version += 1
    hand.save()
    _audit(kept, hand, action, user=user, address=address, before=before, reason=reason.strip())
    try:
        kept.finish(kept.hands)
    except PartyOver as error:
        # The core cannot settle a sheet that goes on after its end.
        raise errors.EntryError(
            gettext(
                "This correction ends the party before hands that were already played: "
                "void the later hands first."
            )
        ) from error
    return hand
