"""A party's hands entered, confirmed and decided, one transaction each.

Every write locks the party row first, so two phones entering at the same moment
are handled one after the other: the second sees the first's hand and confirms it,
disputes it, or is told it is stale. Nothing is ever half-written."""

from dataclasses import asdict, dataclass, field

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from scoring import changes, errors, guards
from scoring.engine.cards import parse_card, parse_cards
from scoring.engine.deal import NextHand
from scoring.engine.hands import check_entry, score_hand
from scoring.engine.rules import Rules
from scoring.engine.settlement import PartyOver
from scoring.engine.showdown import ShowdownError, showdown
from scoring.keys import fingerprint, replayed, stored_once
from scoring.models import AuditRecord, Hand, Party, Seat
from scoring.selectors import RULINGS, state_for
from scoring.services.parties import check_format_game, check_night_open, check_not_cancelled
from scoring.sheet import party_state


@dataclass(frozen=True)
class Result:
    """What a table says about a hand: how it ended and the deadwood counts.

    ``knocker`` is a seat position; ``details`` holds the cards, the up-card and
    the director's rulings (seed 000 § 14) when given.
    """

    ending: str
    knocker: int | None = None
    knocker_deadwood: int | None = None
    defender_deadwood: int | None = None
    details: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return asdict(self)


def result_from_cards(
    rules: Rules,
    *,
    knocker: int,
    knocker_cards,
    defender_cards,
    up_card=None,
    melds=None,
    rulings: dict | None = None,
) -> Result:
    """The result of a hand from the cards shown: the knocker's ten (eleven: big gin,
    or a knock with the discard still in hand) and the defender's ten. The defender
    lays off onto the knocker's melds unless the knocker has gin (seed 000 § 10,
    seed 002 "Gin"), or ``layoff_on_gin`` allows it.

    ``melds``: the melds the knocker declared, when the players say he laid his cards
    down otherwise than the best way; each must be a meld of his cards, none sharing
    a card. ``rulings``: the director's rulings of seed 000 § 14 (keys of `RULINGS`),
    which change how many cards each player shows and whether the defender may lay
    off; they go into the details, where `hand_enter` scores them. The counts always
    come from the cards, never from the table."""
    rulings = {name: value for name, value in (rulings or {}).items() if value}
    unknown = sorted(set(rulings) - set(RULINGS))
    if unknown:
        raise errors.EntryError(
            gettext("There is no ruling called %(name)r.") % {"name": unknown[0]}
        )
    knocker_cards, defender_cards = parse_cards(knocker_cards), parse_cards(defender_cards)
    try:
        shown = showdown(
            rules,
            knocker_cards=knocker_cards,
            defender_cards=defender_cards,
            melds=None if melds is None else [parse_cards(meld) for meld in melds],
            knocker_missing_cards=rulings.get("knocker_missing_cards", 0),
            defender_missing_cards=rulings.get("defender_missing_cards", 0),
            defender_too_many_cards=bool(rulings.get("defender_too_many_cards")),
        )
    except ShowdownError as error:
        raise errors.EntryError(errors.explain(error)) from error
    details = {
        "knocker_cards": [str(c) for c in knocker_cards],
        "defender_cards": [str(c) for c in defender_cards],
        **shown.details(),
        **rulings,
    }
    if up_card is not None:
        details["up_card"] = str(parse_card(up_card))
    return Result(shown.ending, knocker, shown.points, shown.defender_points, details)


def _score(party: Party, table, result: Result, *, names=None, number=None) -> dict:
    """What the rules engine makes of a result: winner position, points, kind.
    ``names`` (by position) and ``number`` let a refusal name the players."""
    if result.ending == Hand.Ending.NO_GAME:
        return {"kind": "no_game", "points": 0, "winner": None, "defender": None}
    if result.knocker not in table.players:
        raise errors.NotYourHand(_not_at_table(table, result.knocker, names or {}, number))
    (defender,) = set(table.players) - {result.knocker}
    rules = Rules.from_dict(party.rules)
    rulings = {k: result.details[k] for k in RULINGS if result.details.get(k)}
    up_card = result.details.get("up_card")
    up_card = parse_card(up_card) if up_card else None
    # What the cards could not have made is refused before anything is scored.
    check_entry(
        rules,
        ending=result.ending,
        knocker_points=result.knocker_deadwood,
        defender_points=result.defender_deadwood,
        up_card=up_card,
        knocker_missing_cards=rulings.get("knocker_missing_cards", 0),
        defender_missing_cards=rulings.get("defender_missing_cards", 0),
        defender_too_many_cards=bool(rulings.get("defender_too_many_cards")),
    )
    limit = rules.knock_limit_for(up_card.value) if rules.oklahoma else None
    score = score_hand(
        rules,
        knocker_points=result.knocker_deadwood,
        defender_points=result.defender_deadwood,
        gin=result.ending == Hand.Ending.GIN,
        big_gin=result.ending == Hand.Ending.BIG_GIN,
        knock_limit=limit,
        **rulings,
    )
    winner = {"knocker": result.knocker, "defender": defender}.get(score.winner)
    return {"kind": score.kind, "points": score.points, "winner": winner, "defender": defender}


def _not_at_table(table, knocker, names: dict, number) -> str:
    """Names the players, never their seat numbers: "Hand 3: Ada sat out that hand"."""
    a, b = (names.get(p, "?") for p in table.players)
    values = {"n": number, "name": names.get(knocker), "a": a, "b": b}
    if values["name"]:
        return (
            gettext(
                "Hand %(n)s: %(name)s sat out that hand: the knocker must be one of the "
                "two players at the table, %(a)s or %(b)s."
            )
            % values
        )
    return (
        gettext(
            "Hand %(n)s: the knocker must be one of the two players at the table, %(a)s or %(b)s."
        )
        % values
    )


def _names(state) -> dict:
    return {seat.position: seat.player.name for seat in state.seats}


def _locked_state(party_id: int):
    """Locks the party (every write to it queues here) and loads its state and hands.
    A cancelled party takes no more hands and no more decisions."""
    party = Party.objects.select_for_update().get(pk=party_id)
    # Checked before the sheet is read: only Gin Rummy's rules make one.
    check_format_game(party)
    state, hands = state_for(party)
    check_not_cancelled(state.party)
    return state, hands


def _snapshot(hand: Hand) -> dict:
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
    }


def _same(hand: Hand, result: Result) -> bool:
    """Two entries agree when they say the same thing about the hand; the cards
    behind a count need not have been tapped on both phones."""
    knocker = hand.knocker.position if hand.knocker else None
    rulings = {k: hand.details.get(k) for k in RULINGS if hand.details.get(k)}
    theirs = {k: result.details.get(k) for k in RULINGS if result.details.get(k)}
    return (hand.ending, knocker, hand.knocker_deadwood, hand.defender_deadwood, rulings) == (
        result.ending,
        result.knocker,
        result.knocker_deadwood,
        result.defender_deadwood,
        theirs,
    )


def _apply(hand: Hand, state, result: Result, scored: dict) -> None:
    seat = {s.position: s for s in state.seats}
    hand.ending = result.ending
    hand.knocker = seat.get(result.knocker)
    hand.defender = seat.get(scored["defender"])
    hand.knocker_deadwood = result.knocker_deadwood
    hand.defender_deadwood = result.defender_deadwood
    hand.details = result.details
    hand.kind = scored["kind"]
    hand.points = scored["points"]
    hand.winner = seat.get(scored["winner"])


def _audit(
    state,
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
    # Every write to a hand is audited here, so this is where the cached pages
    # that show the club's scores, and the party's phones, learn of it (after the
    # commit).
    changes.scores_changed(state.party.club_id)
    changes.party_changed(state.party.pk)
    changes.night_changed(state.party.night_id)
    AuditRecord.objects.create(
        party=state.party,
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


def _finish_if_over(state, hands: list[Hand]) -> None:
    """Finishes the party once its sheet is over, derived from the hands as they now
    stand (the rows just written included); a correction can reopen it."""
    finished = party_state(state.party, state.seats, hands).finished
    party = Party.objects.filter(pk=state.party.pk)
    if finished and state.party.status != Party.Status.FINISHED:
        party.update(status=Party.Status.FINISHED, finished_at=timezone.now())
    elif not finished and state.party.status == Party.Status.FINISHED:
        party.update(status=Party.Status.RUNNING, finished_at=None)


def _changed(hand: Hand) -> None:
    """Every change to a hand raises its version: a phone that answers an entry
    names the version it showed, and an older one is refused."""
    hand.version += 1
    hand.save()


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


@dataclass(frozen=True)
class Outcome:
    """What an entry did: ``"entered"`` (pending), ``"recorded"`` (counts at once, no
    confirmation needed), ``"confirmed"``, ``"disputed"``, or
    ``"repeated"`` (the same submission arrived twice and was stored once)."""

    action: str
    hand: Hand


def hand_enter(
    *, seat: Seat, number: int, result: Result, key=None, address=None, version=None
) -> Outcome:
    """A seat enters the result of hand ``number``.

    - The first entry for a hand is pending until a seat of the other side confirms
      it (or is confirmed at once when the party needs no confirmation).
    - The same result entered from the other side confirms it; a different one
      marks the hand disputed and keeps both versions until the organizer decides.
    - The entering side may replace its own pending entry before it is confirmed;
      each correction is a new version of the entry.
    - ``version``: the version of the other side's entry the phone showed, when it
      answers one; if that entry changed since, the answer is refused
      (`errors.EntryChanged`) and the phone shows the new entry.
    - An entry for a hand already recorded, or not yet due, is refused as stale; a
      repeated submission (same seat, same ``key``) is stored once.
    """
    sent = fingerprint("enter", number, result=result.as_dict(), version=version)
    return stored_once(
        seat,
        key,
        sent,
        number,
        lambda: _hand_enter(seat, number, result, key, sent, address, version),
        lambda record: Outcome("repeated", record.hand),
    )


def _hand_enter(seat, number, result, key, sent, address, version) -> Outcome:
    state, hands = _locked_state(seat.party_id)
    replay = replayed(seat, key, sent, number)
    if replay is not None:
        return Outcome("repeated", replay.hand)
    if state.finished:
        raise PartyOver(gettext("The party is over: no more hands can be entered."))
    if number != state.number:
        raise errors.StaleEntry(_stale_message(state, number))
    table = state.table_of(seat.position)
    if table is None:
        raise errors.NotYourHand(
            gettext("You sit out this hand: the players at the table enter it.")
        )
    if table in state.played:
        raise errors.StaleEntry(_table_done_message(number))
    scored = _score(
        state.party, state.tables[table - 1], result, names=_names(state), number=number
    )
    hand = state.open_hands.get(table)
    if hand is None:
        hand = Hand(party=state.party, number=number, table=table, entered_by=seat)
        hand.dealer = {s.position: s for s in state.seats}[state.tables[table - 1].dealer]
        _apply(hand, state, result, scored)
        confirm = not state.party.confirmation_required
        hand.status = Hand.Status.CONFIRMED if confirm else Hand.Status.PENDING
        hand.save()
        _audit(
            state,
            hand,
            AuditRecord.Action.ENTER,
            seat=seat,
            address=address,
            key=key,
            sent=sent,
        )
        if confirm:
            _finish_if_over(state, [*hands, hand])
            return Outcome("recorded", hand)
        return Outcome("entered", hand)
    if hand.status == Hand.Status.DISPUTED:
        raise errors.HandBlocked(
            gettext("Hand %(n)d is disputed: the organizer decides it before play goes on.")
            % {"n": number}
        )
    before = _snapshot(hand)

    def record(action):
        _audit(
            state,
            hand,
            action,
            seat=seat,
            address=address,
            key=key,
            sent=sent,
            before=before,
        )

    if hand.entered_by.side == seat.side:
        if _same(hand, result) and hand.details == result.details:
            # The same entry sent again (a new key: a reload, a second phone of the
            # side): nothing changed, so the version the other phone shows stands.
            return Outcome("repeated", hand)
        # The entering side corrects its own pending entry: a new version, which the
        # other phone is shown as a change before it can confirm.
        _apply(hand, state, result, scored)
        hand.entered_by = seat
        _changed(hand)
        record(AuditRecord.Action.ENTER)
        return Outcome("entered", hand)
    if version is not None:
        _check_version(hand, version)
    if _same(hand, result):
        hand.status = Hand.Status.CONFIRMED
        hand.confirmed_by = seat
        _changed(hand)
        record(AuditRecord.Action.CONFIRM)
        _finish_if_over(state, hands)
        return Outcome("confirmed", hand)
    hand.status = Hand.Status.DISPUTED
    hand.counter = {"seat": seat.position, **result.as_dict(), **scored}
    _changed(hand)
    record(AuditRecord.Action.DISPUTE)
    return Outcome("disputed", hand)


def hand_preview(*, seat: Seat, result: Result) -> dict:
    """What `hand_enter` would score for this seat's table, without storing anything:
    the card picker shows it before the tap that enters the hand. Scored by the same
    code as the entry, so the preview and the sheet cannot disagree.

    Returns the winner and defender positions, points, kind, and the players' names
    by position; raises as `hand_enter` does for an impossible result."""
    check_format_game(seat.party)
    state, _ = state_for(seat.party)
    check_not_cancelled(state.party)
    if state.finished:
        raise PartyOver(gettext("The party is over: no more hands can be entered."))
    table = state.table_of(seat.position)
    if table is None:
        raise errors.NotYourHand(
            gettext("You sit out this hand: the players at the table enter it.")
        )
    scored = _score(
        state.party, state.tables[table - 1], result, names=_names(state), number=state.number
    )
    return {**scored, "names": {s.position: s.player.name for s in state.seats}}


def _stale_message(state, number: int) -> str:
    if number < state.number:
        return gettext(
            "Hand %(n)d is already recorded. The sheet below is up to date: "
            "enter hand %(next)d next."
        ) % {"n": number, "next": state.number}
    return gettext("Hand %(n)d is not due yet: hand %(next)d comes first.") % {
        "n": number,
        "next": state.number,
    }


def _table_done_message(number: int) -> str:
    return gettext(
        "Your table's hand %(n)d is recorded. The next round starts when every table "
        "has entered its hand."
    ) % {"n": number}


@transaction.atomic
def hand_confirm(*, seat: Seat, number: int, version: int, key=None, address=None) -> Outcome:
    """A seat of the other side confirms the pending entry of hand ``number`` in the
    ``version`` its phone showed. An entry changed since is refused
    (`errors.EntryChanged`, which carries the new one): a player approves what he
    saw, never what arrived after. The server, not the page, enforces that nobody
    confirms his own side's entry."""
    state, hands = _locked_state(seat.party_id)
    sent = fingerprint("confirm", number, version=version)
    replay = replayed(seat, key, sent, number)
    if replay is not None:
        return Outcome("repeated", replay.hand)
    table = state.table_of(seat.position)
    hand = state.open_hands.get(table) if number == state.number else None
    if hand is None and number == state.number and table in state.played:
        raise errors.StaleEntry(_table_done_message(number))
    if hand is None:
        raise errors.StaleEntry(
            _stale_message(state, number)
            if number != state.number
            else gettext("Hand %(n)d has no entry to confirm yet.") % {"n": number}
        )
    if hand.status == Hand.Status.DISPUTED:
        raise errors.HandBlocked(
            gettext("Hand %(n)d is disputed: the organizer decides it.") % {"n": number}
        )
    if hand.entered_by.side == seat.side:
        raise errors.NotYourHand(
            gettext("Your side entered this hand: a player of the other side confirms it.")
        )
    _check_version(hand, version)
    before = _snapshot(hand)
    hand.status = Hand.Status.CONFIRMED
    hand.confirmed_by = seat
    _changed(hand)
    _audit(
        state,
        hand,
        AuditRecord.Action.CONFIRM,
        seat=seat,
        address=address,
        key=key,
        sent=sent,
        before=before,
    )
    _finish_if_over(state, hands)
    return Outcome("confirmed", hand)


@transaction.atomic
def hand_decide(
    *,
    hand: Hand,
    user,
    result: Result | None,
    reason: str,
    address=None,
    disputed: bool | None = None,
) -> Hand:
    """The organizer corrects a hand, resolves a dispute with the right result, or
    voids it (``result=None``: the hand is dealt again by the same dealer). A reason
    is required, and the hand's previous state goes into the audit record.

    ``disputed`` says whether the organizer is settling a dispute (True) or
    correcting an undisputed hand (False); it is checked under the party's lock,
    because a phone may have changed the hand since the organizer's page was drawn."""
    if not reason.strip():
        raise errors.EntryError(
            gettext("Give a reason: corrections are kept in the party's record.")
        )
    state, hands = _locked_state(hand.party_id)
    check_night_open(state.party)
    guards.check_correction(state.party)
    # The hand as it stands now, under the lock, not as the organizer's page saw it.
    hand = next(h for h in hands if h.pk == hand.pk)
    if disputed is not None and (hand.status == Hand.Status.DISPUTED) != disputed:
        message = (
            gettext("Hand %(n)d is not disputed (any more): correct it instead.")
            if disputed
            else gettext("Hand %(n)d is disputed: resolve it, after comparing both versions.")
        )
        raise errors.WrongDecision(message % {"n": hand.number})
    if result is None and hand.status == Hand.Status.VOID:
        # The same void sent twice: the hand is dealt again once, recorded once.
        raise errors.WrongDecision(gettext("Hand %(n)d is void already.") % {"n": hand.number})
    before = _snapshot(hand)
    if result is None:
        action = AuditRecord.Action.VOID
        hand.status = Hand.Status.VOID
    else:
        was_disputed = hand.status == Hand.Status.DISPUTED
        action = AuditRecord.Action.RESOLVE if was_disputed else AuditRecord.Action.CORRECT
        table = _table_of_hand(state, hand)
        scored = _score(state.party, table, result, names=_names(state), number=hand.number)
        _apply(hand, state, result, scored)
        hand.status = Hand.Status.CONFIRMED
    hand.counter = None
    hand.decided_by = user
    _changed(hand)
    _audit(state, hand, action, user=user, address=address, before=before, reason=reason)
    try:
        _finish_if_over(state, hands)
    except PartyOver as error:
        # The core cannot settle a sheet that goes on after its end.
        raise errors.EntryError(
            gettext(
                "This correction ends the party before hands that were already played: "
                "void the later hands first."
            )
        ) from error
    return hand


def _table_of_hand(state, hand: Hand):
    """The two players of a recorded hand: its knocker and defender, or for a
    no-game the table the format put together for that hand."""
    if hand.knocker_id and hand.defender_id:
        return NextHand(dealer=hand.defender.position, forehand=hand.knocker.position)
    if hand.number == state.number:
        return state.tables[hand.table - 1]
    raise errors.EntryError(gettext("This hand's players are not recorded; void it instead."))
