"""Words for stored keys, in the reader's language: rulesets, hand endings and what
became of an entry; and the suits' symbols."""

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


#: What became of an entry (`services.Outcome.action`), as the table is told.
OUTCOME_MESSAGES = {
    "entered": _("Hand %(number)s entered: waiting for the other side to confirm."),
    "recorded": _("Hand %(number)s recorded."),
    "confirmed": _("Hand %(number)s confirmed."),
    "disputed": _("Hand %(number)s is disputed: the two entries differ. The organizer decides."),
    "repeated": _("Hand %(number)s was already stored."),
}


def outcome_message(action: str, number) -> str:
    return str(OUTCOME_MESSAGES[action]) % {"number": number}
