"""The seat page's parts for a party whose game seats tables of two within its
rounds (`scoring.services.keeping.FormatTables`): the race to the target, who
deals, the hand by its counts or from the cards, the settlement at the end, a
dispute side by side and the notices of a seat that sits a hand out."""

import json
from types import SimpleNamespace

from django.contrib import messages
from django.http import JsonResponse
from django.utils.translation import gettext

from scoring import errors, selectors
from scoring.engine.rules import Rules
from scoring.forms import CardsEntryForm, QuickEntryForm, first_error
from scoring.seat import kept, picker
from scoring.seat.acts import act
from scoring.services import hands, knocks

_PARTS = ("race", "dispute", "aside", "turn", "entered", "entry")
PARTS = {
    **{part: f"scoring/seat/format_tables/_{part}.html" for part in _PARTS},
    "over": "scoring/_settlement.html",
    "sheet": "scoring/_sheet.html",
    "script": "js/cards.js",
}


def context(seat, seats, *, quick_form=None, cards_form=None) -> dict:
    """What the parts show (`selectors.seat_view`), with the two entry forms: by
    the counts and from the cards."""
    rules = _rules(seat)
    view = selectors.seat_view(seat, seats)
    sheet, state, open_hand = view["sheet"], view["state"], view["open_hand"]
    ours = open_hand is not None and open_hand.entered_by.side == seat.side
    refused = quick_form is not None or cards_form is not None
    may_enter = open_hand is None or view["can_confirm"] or ours
    # The party's rules as a key of the parts kept (`kept`).
    ruled = json.dumps(seat.party.rules, sort_keys=True)
    entry = _entry(seat, rules, ruled, view) if may_enter and not refused else None
    fresh = entry is None and may_enter
    race = [
        {"name": name, "points": points, "needed": needed}
        for name, points, needed in zip(
            sheet["headers"], sheet["points"], sheet["needed"], strict=True
        )
    ]
    # The sheet and the race are the same on every phone of the party: made by
    # the first to read them after a change (everything they show is in the key).
    party = seat.party
    shown = (party.pk, party.changes, view["version"], party.status, party.target, ruled)
    shown += tuple(s.player.name for s in state.seats)
    return {
        **view,
        "seat": seat,
        "party": seat.party,
        "rules": rules,
        "picker": picker.picker_html(rules.oklahoma),
        # Empty forms for an entry made afresh only (a kept one has its own).
        "quick_form": quick_form or (QuickEntryForm() if fresh else None),
        "cards_form": cards_form or (CardsEntryForm(rules=rules) if fresh else None),
        "refused": refused,
        # The entry form as made once for the party's rules (`kept`); a refused
        # one, with what was typed, is made afresh.
        "entry": entry,
        "race": race,
        "race_html": kept.shared(
            PARTS["race"], shown, {"state": state, "party": party, "race": race}
        ),
        "sheet_html": kept.shared(PARTS["sheet"], shown, {"sheet": sheet, "state": state}),
        "number": state.number,
        "over": state.finished,
        # A seat that sits this hand out, or whose table has played it already.
        "aside": not view["players"] or view["played_hand"] is not None,
        "ours": ours,
        "may_enter": may_enter,
        "waiting": gettext("Waiting for the other side to confirm…")
        if open_hand and not view["can_confirm"]
        else "",
    }


def _entry(seat, rules, ruled, view):
    """The empty entry form (PARTS["entry"]), made once per ruleset and kept:
    the seat, the hand's number, the version to confirm and the players to
    choose are written in."""
    choices = view["knocker_choices"]
    can_confirm = view["can_confirm"]
    values = {"token": seat.token, "number": view["state"].number}
    if can_confirm:
        values["version"] = view["open_hand"].version
    for index, choice in enumerate(choices):
        values[f"position{index}"] = choice.position
        values[f"name{index}"] = choice.player.name

    def marked():  # asked only the first time
        return {
            "seat": SimpleNamespace(token=kept.mark("token")),
            "state": SimpleNamespace(number=kept.mark("number")),
            "open_hand": SimpleNamespace(version=kept.mark("version")),
            "can_confirm": can_confirm,
            "knocker_choices": [
                SimpleNamespace(
                    position=kept.mark(f"position{index}"),
                    player=SimpleNamespace(name=kept.mark(f"name{index}")),
                )
                for index in range(len(choices))
            ],
            "rules": rules,
            "picker": picker.picker_html(rules.oklahoma),
            "quick_form": QuickEntryForm(),
            "cards_form": CardsEntryForm(rules=rules),
        }

    key = (ruled, can_confirm, len(choices))
    return kept.part(PARTS["entry"], key, marked, values)


def enter(request, seat, again):
    """The hand by its counts; a refusal comes back with what was typed, to be
    mended, not typed again (``again``: the page with the forms given)."""
    form = QuickEntryForm(request.POST)
    return act(request, seat, form, hands.hand_enter, refused=_refused(request, again, form))


def enter_cards(request, seat, again):
    """The hand from the cards: the server evaluates the cards again, whatever the
    preview said. A mistake shows the page again with the cards still filled in."""
    form = CardsEntryForm(request.POST, rules=_rules(seat))
    refused = _refused(request, again, form, name="cards_form")
    return act(request, seat, form, hands.hand_enter, refused=refused)


def cards_preview(data, seat) -> JsonResponse:
    """What the engine makes of the cards, as JSON; stores nothing."""
    form = CardsEntryForm(data, rules=_rules(seat))
    if not form.is_valid():
        field = next(iter(form.errors))
        return JsonResponse({"message": first_error(form), "field": field}, status=400)
    try:
        scored = knocks.hand_preview(seat=seat, result=form.result())
    except ValueError as error:
        return JsonResponse({"message": errors.explain(error)}, status=400)
    return JsonResponse(picker.preview_data(form.result(), scored))


def _rules(seat) -> Rules:
    return Rules.from_dict(seat.party.rules)


def _refused(request, again, sent, name="quick_form"):
    def answer(form, message):
        messages.error(request, message or first_error(form))
        return again(**{name: sent})

    return answer
