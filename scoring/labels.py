"""Names for stored keys, in the reader's language: rulesets and hand endings; and
the suits' symbols."""

from django.utils.translation import gettext_lazy as _

from scoring.models import Hand

SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}

RULESET_LABELS = {
    "classic": _("Classic club rules"),
    "cardgames": _("cardgames.io rules"),
    "oklahoma": _("Oklahoma (knock limit from the up-card)"),
}


def ruleset_label(key: str) -> str:
    return str(RULESET_LABELS.get(key, key))


def ending_label(key: str) -> str:
    try:
        return str(Hand.Ending(key).label)
    except ValueError:
        return key or ""
