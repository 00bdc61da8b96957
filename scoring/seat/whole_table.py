"""The seat page's parts for a party played at one whole table (a game without
party formats, `scoring.services.keeping.WholeTable`): each side's total, the
next hand's entry form in the game's own fields, another player's entry to
confirm, the places at the end. The game's engine scores (through
`scoring.services.hands`); the parts only show what it made of each entry."""

from django.contrib import messages
from django.http import JsonResponse
from django.utils.translation import gettext, ngettext

from scoring.entry_forms import entry_form_for
from scoring.models import Hand
from scoring.seat.acts import act
from scoring.services.hands import hand_enter
from scoring.services.whole_table_sheet import game_sheet
from scoring.whole_table import game_seat_view

_PARTS = ("race", "over", "dispute", "entered", "entry", "sheet")
PARTS = {part: f"scoring/seat/whole_table/_{part}.html" for part in _PARTS}
PARTS["script"] = "js/spanish-cards.js"


def fact_lines(game, facts: dict, names: list[str]) -> list[str]:
    """A hand's facts as the game words them (`Game.fact_words`), in short lines,
    a side by its players' names."""
    lines = []
    for fact, words in getattr(game, "fact_words", {}).items():
        value = facts.get(fact)
        if value is None or value is False:
            continue
        if isinstance(value, bool):
            lines.append(gettext(words.template))
        elif isinstance(value, int) and 0 <= value < len(names):
            lines.append(gettext(words.template) % {"side": names[value]})
    return lines


def listed(names: list[str], every: bool) -> str:
    """Names every one of whom is needed ("Ben and Cleo"), or any of whom will
    do ("Ben", "Ben or Cleo", "Ada, Ben or Cleo")."""
    if len(names) < 2:
        return "".join(names)
    words = gettext("%(names)s and %(last)s") if every else gettext("%(names)s or %(last)s")
    return words % {"names": ", ".join(names[:-1]), "last": names[-1]}


def waiting_for(view) -> str:
    """What a pending hand still waits for: how many confirmations (the game's rule,
    `scoring.services.games.confirmations_needed`), how many are in, and who may
    still give one (every player off the entering side who has not yet): each of
    them when all are needed, any of them when fewer are."""
    hand = view.open_hand
    done = hand.confirmations
    still = view.still_needed
    may = [
        seat.player.name
        for seat in view.seats
        if seat.side != hand.entered_by.side and seat.position not in done
    ]
    who = listed(may, every=still >= len(may))
    if not done:
        return ngettext(
            "Waiting for %(n)d confirmation (%(who)s).",
            "Waiting for %(n)d confirmations (%(who)s).",
            still,
        ) % {"n": still, "who": who}
    return ngettext(
        "%(done)d of %(needed)d confirmations: waiting for %(n)d more from %(who)s.",
        "%(done)d of %(needed)d confirmations: waiting for %(n)d more from %(who)s.",
        still,
    ) % {"done": len(done), "needed": len(done) + still, "n": still, "who": who}


def _rows(sheet) -> list[dict]:
    """Each hand's scores per side, with the running totals after each confirmed
    hand (pending and disputed hands count nothing yet)."""
    running = [0] * len(sheet.sides)
    rows = []
    for hand in sheet.hands:
        confirmed = hand.status == Hand.Status.CONFIRMED
        if confirmed:
            running = [total + points for total, points in zip(running, hand.scores, strict=True)]
        rows.append(
            {
                "hand": hand,
                "cells": [
                    {"points": points, "running": running[side] if confirmed else None}
                    for side, points in enumerate(hand.scores)
                ],
            }
        )
    return rows


def context(seat, seats, *, form=None) -> dict:
    """What the parts show for ``seat``: the sheet in two queries, whatever the
    number of hands (``seats``: read again with it), and the form of the next hand."""
    view = game_seat_view(seat)
    sheet, names, open_hand = view.sheet, view.names, view.open_hand
    outcome = sheet.outcome
    counter = open_hand.counter if open_hand and open_hand.counter else None
    form_class = entry_form_for(seat.party)
    sides = [
        {
            "name": names[side],
            "mine": view.seat.side == side,
            "total": sheet.totals[side],
            "place": sheet.places[side],
            "out": side in outcome.out,
            "winner": side in outcome.winners,
            # This hand's scores as entered, and as the other phone entered them.
            "entered": open_hand.scores[side] if open_hand else None,
            "theirs": counter["scores"][side] if counter else None,
        }
        for side in range(len(sheet.sides))
    ]
    if form is None and view.may_enter:
        initial = {"number": view.number}
        if view.ours:
            initial |= form_class.initial_from(open_hand.details.get("entry") or {})
        form = form_class(
            initial=initial, sides=sheet.sides, out=outcome.out, options=sheet.options
        )
    confirmations = open_hand.confirmations if open_hand and not counter else []
    return {
        "seat": view.seat,
        "party": view.seat.party,
        "sheet": sheet,
        "sides": sides,
        "rows": _rows(sheet),
        "hint_label": form_class.hint_label,
        "hints": view.hints,
        "number": view.number,
        "over": view.over,
        "standings": sorted(sides, key=lambda side: side["place"]) if view.over else [],
        "open_hand": open_hand,
        "open_facts": fact_lines(sheet.game, open_hand.facts, names) if open_hand else [],
        "confirmed_by": [view.name_at(p) for p in confirmations],
        "still_needed": view.still_needed,
        "waiting": waiting_for(view) if open_hand and not counter else "",
        "ours": view.ours,
        "can_confirm": view.can_confirm,
        "may_enter": view.may_enter,
        "dispute": {
            "theirs": view.name_at(counter["seat"]),
            "facts": fact_lines(sheet.game, counter.get("facts") or {}, names),
        }
        if counter
        else None,
        "form": form,
        "refused": form is not None and form.is_bound,
        # Confirming is the usual answer: an entry of one's own waits behind a choice.
        "fold_own_entry": True,
    }


def _form(seat, data=None):
    """The entry form of the party's game, bound to ``data`` when given."""
    sheet = game_sheet(seat.party)
    return entry_form_for(seat.party)(
        data, sides=sheet.sides, out=sheet.outcome.out, options=sheet.options
    )


def form_preview(data, seat) -> JsonResponse:
    """What the engine makes of the cards typed so far (`GameEntryForm.preview`)."""
    return JsonResponse(_form(seat, data).preview())


def enter(request, seat, again):
    """A player's entry of the next hand: the first one waits for confirmation,
    the entering side's next one corrects it, another player's confirms it when
    it scores the same and disputes it when not. A refusal shows the form again
    (``again``: the page with the form given), with each of the engine's
    problems on its own line."""

    def refused(form, message):
        for line in (message or "").splitlines():
            form.add_error(None, line)
        messages.error(request, gettext("The hand was not stored: see the form below."))
        return again(form=form)

    return act(request, seat, _form(seat, request.POST), hand_enter, refused=refused)
