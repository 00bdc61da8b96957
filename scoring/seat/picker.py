"""What the card picker on the seat page shows: the deck to tap, and the preview of a
hand entered from the cards. Words only; the rules engine has done the counting."""

import functools

from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy, pgettext_lazy
from django.utils.translation import gettext as _

from scoring.engine.cards import DECK, SUITS
from scoring.labels import SYMBOLS

SUIT_NAMES = {
    "C": pgettext_lazy("card suit", "clubs"),
    "D": pgettext_lazy("card suit", "diamonds"),
    "H": pgettext_lazy("card suit", "hearts"),
    "S": pgettext_lazy("card suit", "spades"),
}
RANK_NAMES = (
    gettext_lazy("ace"),
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    gettext_lazy("jack"),
    gettext_lazy("queen"),
    gettext_lazy("king"),
)
KINDS = {
    "knock": gettext_lazy("knock"),
    "undercut": gettext_lazy("undercut"),
    "gin": gettext_lazy("gin"),
    "big_gin": gettext_lazy("big gin"),
    "void": gettext_lazy("void: the same dealer deals again"),
    "no_game": gettext_lazy("no game"),
}


def picker_html(oklahoma: bool) -> str:
    """The picker's HTML in the language of the request: the same 52 buttons on
    every Gin Rummy seat page, the page every phone reloads after each event, so
    rendered once a process for each language and rule (the up-card's button)."""
    return mark_safe(_picker_html(get_language(), bool(oklahoma)))


@functools.lru_cache(maxsize=32)
def _picker_html(language: str, oklahoma: bool) -> str:
    # (``language`` is the cache's key: rendering uses the active one.)
    context = {"deck": deck_rows(), "rules": {"oklahoma": oklahoma}}
    return render_to_string("scoring/seat/_card_picker.html", context)


def deck_rows() -> list[dict]:
    """The 52 cards by suit, spades first as most players sort them, ace to king."""
    rows = []
    for suit in reversed(SUITS):
        cards = []
        for card in DECK:
            if card.suit != suit:
                continue
            shown = "10" if card.rank == 10 else str(card)[0]
            cards.append({"code": str(card), "rank": shown, "label": _card_name(card, shown)})
        rows.append(
            {
                "suit": suit,
                "symbol": SYMBOLS[suit],
                "name": SUIT_NAMES[suit],
                "red": suit in "DH",
                "cards": cards,
            }
        )
    return rows


def _card_name(card, shown: str) -> str:
    """The button's accessible name begins with the letter it shows: voice control
    reaches a button by what is written on it ("tap A"), and "ace of spades" alone
    holds no "A" to say."""
    name = _("%(rank)s of %(suit)s") % {
        "rank": RANK_NAMES[card.rank - 1],
        "suit": SUIT_NAMES[card.suit],
    }
    if name.startswith(shown):
        return name
    return _("%(shown)s — %(card)s") % {"shown": shown, "card": name}


def preview_data(result, scored: dict) -> dict:
    """The preview as JSON for the picker: both hands laid down, and the score.

    ``lines`` and ``summary`` are ready to show (translated); the other keys say the
    same as data, for scripts and tests."""
    names = scored["names"]
    details = result.details
    knocker, defender = names[result.knocker], names[scored["defender"]]
    lines = [
        {"label": _("%(name)s's melds") % {"name": knocker}, "melds": details["knocker_melds"]},
        {
            "label": _("%(name)s's deadwood") % {"name": knocker},
            "cards": details["knocker_deadwood_cards"],
            "points": result.knocker_deadwood,
        },
    ]
    if details.get("discard"):
        lines.append({"label": _("Discard (not counted)"), "cards": [details["discard"]]})
    if details["laid_off"]:
        lines.append(
            {"label": _("%(name)s lays off") % {"name": defender}, "cards": details["laid_off"]}
        )
    lines += [
        {"label": _("%(name)s's melds") % {"name": defender}, "melds": details["defender_melds"]},
        {
            "label": _("%(name)s's deadwood") % {"name": defender},
            "cards": details["defender_deadwood_cards"],
            "points": result.defender_deadwood,
        },
    ]
    return {
        "ending": result.ending,
        "kind": scored["kind"],
        "kind_label": str(KINDS.get(scored["kind"], scored["kind"])),
        "winner": scored["winner"],
        "points": scored["points"],
        "knocker": {
            "position": result.knocker,
            "name": knocker,
            "melds": details["knocker_melds"],
            "deadwood": details["knocker_deadwood_cards"],
            "points": result.knocker_deadwood,
            "discard": details.get("discard"),
            "declared": bool(details.get("declared")),
        },
        "defender": {
            "position": scored["defender"],
            "name": defender,
            "laid_off": details["laid_off"],
            "melds": details["defender_melds"],
            "deadwood": details["defender_deadwood_cards"],
            "points": result.defender_deadwood,
        },
        "lines": lines,
        "summary": summary(scored, names),
    }


def summary(scored: dict, names: dict) -> str:
    """One sentence: who scores what, and how."""
    kind = KINDS.get(scored["kind"], scored["kind"])
    if scored["winner"] is None or not scored["points"]:
        if scored["kind"] == "void":
            return _("Void: nothing scores, the same dealer deals again.")
        return _("Nothing scores (%(kind)s).") % {"kind": kind}
    return _("%(name)s scores %(points)s (%(kind)s).") % {
        "name": names[scored["winner"]],
        "points": scored["points"],
        "kind": kind,
    }
