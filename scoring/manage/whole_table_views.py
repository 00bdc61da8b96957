"""The organizer's party page for a party of another game (Chinchón, Canasta, Blaue
Vierzehn, Cruzo) and the decision on its disputed hands: reached through the
party's and the hand's addresses (`scoring.manage.views` sends them here), so a
table card or a link never says which game it is."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from clubs import selectors as club_selectors
from scoring import errors
from scoring.entry_forms import entry_form_for
from scoring.forms import first_error
from scoring.manage import qr, selectors, whole_table_selectors
from scoring.manage.forms import SwapForm
from scoring.manage.whole_table_forms import ReasonForm, VersionForm
from scoring.services import hands
from web.client import client_address


def decision_forms(party, hand, sheet, data=None):
    """The players' entry form of the party's game for a disputed ``hand``, filled
    with the entry first made, and the reason's form (``data``: what the organizer
    sent)."""
    form_class = entry_form_for(party)
    auto_id = f"hand-{hand.pk}-%s"
    form = form_class(
        data,
        sides=sheet.sides,
        out=sheet.outcome.out,
        options=sheet.options,
        hand_fields=False,
        initial=form_class.initial_from(hand.details.get("entry") or {}),
        auto_id=auto_id,
    )
    return form, ReasonForm(data, auto_id=auto_id)


def version_entry(hand, version: str):
    """The entry of a disputed hand as entered first (``"entered"``) or as the other
    player entered it (``"counter"``)."""
    if version == "entered":
        return hand.details.get("entry")
    return (hand.counter or {}).get("entry")


def party_page(request, party, *, refused=None, status=200):
    """The page of a party of another game. ``refused``: (hand, the entry form and
    the reason's form sent) when a decision was turned down: shown again at its
    hand, with what was typed."""
    page = whole_table_selectors.party_page(party)
    sheet = page["sheet"]
    for row in page["rows"]:
        hand = row["hand"]
        if hand.status == hand.Status.VOID:
            continue
        sent = refused[1:] if refused and refused[0].pk == hand.pk else None
        row["form"], row["decision"] = sent or decision_forms(party, hand, sheet)
    seats = [seat for side in sheet.sides for seat in side]
    seats.sort(key=lambda seat: seat.position)
    context = {
        "party": party,
        "codes": qr.seat_codes(seats, request.build_absolute_uri),
        "audit": whole_table_selectors.in_game_terms(
            selectors.audit_log(
                party=party, names={seat.position: seat.player.name for seat in seats}
            ),
            sheet,
        ),
        "round": selectors.party_round(party),
        **page,
    }
    swappable = (
        not sheet.hands
        and party.status == party.Status.RUNNING
        and party.night_id is not None
        and party.night.closed_at is None
    )
    if swappable:
        context["swap_form"] = SwapForm(players=club_selectors.club_players(club=party.club))
        context["seated_ids"] = {seat.player_id for seat in seats}
    return render(request, "scoring/manage/party_game_detail.html", context, status=status)


#: What the organizer does with a hand (the form's ``action``): whether the hand
#: must be disputed for it (None: either).
ACTIONS = {"resolve": True, "correct": False, "void": None}


def hand_decide(request, hand):
    """Decides a hand of another game: a disputed one with one of the two entries
    (``version``) or the organizer's own in the game's fields, a confirmed or
    waiting one corrected, any voided (``action``); the reason goes into the
    record (`hand_decide`). A refusal is the engine's message beside the
    form, never an error page."""
    party = hand.party
    label = _("Hand %(number)s") % {"number": hand.number}
    action = request.POST.get("action", "resolve")
    if action not in ACTIONS:
        action = "resolve"
    page = whole_table_selectors.party_page(party)
    sheet = page["sheet"]
    if action == "void":
        form, decision = None, ReasonForm(request.POST)
    elif "version" in request.POST:
        form, decision = None, VersionForm(request.POST)
    else:
        form, decision = decision_forms(party, hand, sheet, request.POST)
    sent = [given for given in (form, decision) if given is not None]
    if not all(given.is_valid() for given in sent):
        problem = next(first_error(given) for given in sent if given.errors)
        messages.error(request, f"{label}: {problem}")
        return _refused(request, party, hand, form, decision)
    if action == "void":
        entry = None
    else:
        entry = form.entry() if form else version_entry(hand, decision.cleaned_data["version"])
        entry = entry or {}
    try:
        hands.hand_decide(
            hand=hand,
            user=request.user,
            entry=entry,
            reason=decision.cleaned_data["reason"],
            address=client_address(request),
            disputed=ACTIONS[action],
        )
    except ValueError as error:
        messages.error(request, f"{label}: {errors.explain(error)}")
        if form is not None:
            form.add_error(None, errors.explain(error))
        return _refused(request, party, hand, form, decision)
    done = {"void": _("%(hand)s: voided."), "correct": _("%(hand)s: corrected.")}
    messages.success(request, done.get(action, _("%(hand)s: decided.")) % {"hand": label})
    url = reverse("manage:party-detail", args=[party.pk])
    return redirect(f"{url}#hand-{hand.pk}")


def _refused(request, party, hand, form, decision):
    # Accepting a version or voiding sends no entry: the entry form comes back as
    # first shown.
    shown = (hand, form, decision) if form is not None else None
    return party_page(request, party, refused=shown, status=400)
