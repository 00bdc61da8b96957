"""The seat page of a party of another game (Chinchón, Canasta, Blaue Vierzehn,
Cruzo): its sheet, the next hand's entry form, and the confirmation of another
player's entry. The game's engine scores (through `scoring.services.games`); the
page only shows what it made of each entry."""

import uuid

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from config.client import client_address
from scoring import errors, selectors
from scoring.engine.settlement import PartyOver
from scoring.forms import ConfirmForm, first_error
from scoring.game_forms import entry_form_for
from scoring.labels import outcome_message
from scoring.models import Hand
from scoring.services import games
from scoring.services.game_sheet import game_sheet

#: The facts an engine keeps with a hand that the table reads (`HandScore.facts`),
#: each naming a side, or true.
FACTS = {
    "closer": _("Closed: %(side)s"),
    "chinchon": _("Chinchón!"),
    "went_out": _("Went out: %(side)s"),
    "first": _("Out first: %(side)s"),
    "blue_fourteen": _("Blue fourteen: %(side)s"),
}


def fact_lines(facts: dict, names: list[str]) -> list[str]:
    """A hand's facts as short lines, a side by its players' names."""
    lines = []
    for fact, words in FACTS.items():
        value = facts.get(fact)
        if value is None or value is False:
            continue
        if isinstance(value, bool):
            lines.append(str(words))
        elif isinstance(value, int) and 0 <= value < len(names):
            lines.append(str(words) % {"side": names[value]})
    return lines


def _open(hands):
    """The hand being played (pending or disputed), if it has an entry."""
    return next((h for h in hands if h.status in (Hand.Status.PENDING, Hand.Status.DISPUTED)), None)


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


def table_context(seat, *, form=None) -> dict:
    """Everything the page shows for ``seat``: the sheet in two queries, whatever
    the number of hands, and the form of the next hand."""
    sheet = game_sheet(seat.party)
    seats = sorted((s for side in sheet.sides for s in side), key=lambda s: s.position)
    seat = next(s for s in seats if s.pk == seat.pk)
    names = [" · ".join(s.player.name for s in side) for side in sheet.sides]
    outcome = sheet.outcome
    open_hand = _open(sheet.hands)
    counter = open_hand.counter if open_hand and open_hand.counter else None
    number = open_hand.number if open_hand else 1 + max((h.number for h in sheet.hands), default=0)
    over = outcome.over
    hints = getattr(sheet.game, "hints", None)
    form_class = entry_form_for(seat.party)
    sides = [
        {
            "name": names[side],
            "mine": seat.side == side,
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
    pending = open_hand is not None and open_hand.status == Hand.Status.PENDING
    confirmations = open_hand.confirmations if pending else []
    by_position = {s.position: s for s in seats}
    ours = pending and open_hand.entered_by.side == seat.side
    can_confirm = pending and not ours and seat.position not in confirmations
    if pending:
        still = games.confirmations_needed(seats, open_hand.entered_by) - len(confirmations)
    else:
        still = 0
    if form is None and not over:
        initial = {"number": number}
        if ours:
            initial |= form_class.initial_from(open_hand.details.get("entry") or {})
        form = form_class(initial=initial, sides=sheet.sides, out=outcome.out)
    return {
        "seat": seat,
        "party": seat.party,
        "game": sheet.game,
        "sheet": sheet,
        "sides": sides,
        "rows": _rows(sheet),
        "hint_label": form_class.hint_label if hints else "",
        "hints": hints(sheet.totals) if hints and not over else [],
        "number": number,
        "over": over,
        "standings": sorted(sides, key=lambda side: side["place"]) if over else [],
        "open_hand": open_hand,
        "open_facts": fact_lines(open_hand.details.get("facts", {}), names) if open_hand else [],
        "confirmed_by": [by_position[p].player.name for p in confirmations if p in by_position],
        "still_needed": still,
        "ours": ours,
        "can_confirm": can_confirm,
        "may_enter": not over and (open_hand is None or ours or can_confirm),
        "dispute": {
            "theirs": by_position[counter["seat"]].player.name
            if counter["seat"] in by_position
            else "",
            "scores": counter["scores"],
            "facts": fact_lines(counter.get("facts") or {}, names),
        }
        if counter
        else None,
        "form": form,
        "key": uuid.uuid4().hex,
    }


def page(request, seat, version, *, form=None, status=200):
    """The seat's page of a party of another game."""
    context = {**table_context(seat, form=form), "version": version}
    return render(request, "scoring/seat/game_detail.html", context, status=status)


def enter(request, seat):
    """A player's entry of the next hand: the first one waits for confirmation,
    the entering side's next one corrects it, another player's confirms it when
    it scores the same and disputes it when not. A refusal shows the form again,
    with each of the engine's problems on its own line."""
    sheet_sides = game_sheet(seat.party)
    form = entry_form_for(seat.party)(
        request.POST, sides=sheet_sides.sides, out=sheet_sides.outcome.out
    )
    if not form.is_valid():
        return _again(request, seat, form)
    try:
        outcome = games.game_hand_enter(
            seat=seat,
            number=form.cleaned_data["number"],
            key=form.cleaned_data["key"] or None,
            address=client_address(request),
            **form.service_arguments(),
        )
    except (errors.StaleEntry, PartyOver) as error:
        # The page was old: its hand is gone, or the entry changed since.
        messages.error(request, errors.explain(error))
    except ValueError as error:
        for line in errors.explain(error).splitlines():
            form.add_error(None, line)
        return _again(request, seat, form)
    else:
        messages.success(request, outcome_message(outcome.action, outcome.hand.number))
    return redirect(seat)


def confirm(request, seat):
    """A player confirms another side's pending entry, in the version the page showed."""
    form = ConfirmForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect(seat)
    try:
        outcome = games.game_hand_confirm(
            seat=seat,
            number=form.cleaned_data["number"],
            version=form.cleaned_data["version"],
            key=form.cleaned_data["key"] or None,
            address=client_address(request),
        )
    except ValueError as error:
        messages.error(request, errors.explain(error))
    else:
        messages.success(request, outcome_message(outcome.action, outcome.hand.number))
    return redirect(seat)


def _again(request, seat, form):
    messages.error(request, gettext("The hand was not stored: see the form below."))
    return page(request, seat, selectors.seat_poll(seat.token), form=form, status=400)
