"""Words for stored keys, in the reader's language: rulesets, hand endings, what
became of an entry and a game's record; and the suits' symbols."""

import re

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.errors import translated
from scoring.models import Hand

SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}

RULESET_LABELS = {
    "classic": _("Classic club rules"),
    "cardgames": _("cardgames.io rules"),
    "oklahoma": _("Oklahoma (knock limit from the up-card)"),
}


def ruleset_label(key: str) -> str:
    return str(RULESET_LABELS.get(key, key))


# A tournament's table is stored as its party's label "<tournament> · <round>/<table>"
# (`table_label`): short on the organizer's lists, the same in every archive.
_TABLE_LABEL = re.compile(r"^(?P<name>.*) · (?P<round>\d+)/(?P<table>\d+)$")


def table_label(tournament: str, round: int, table: int) -> str:
    """The stored label of a tournament table's party (read back by `party_title`)."""
    return f"{tournament} · {round}/{table}"


def party_title(party) -> str:
    """A party's name for its players: a tournament's table spelled out ("Thursday
    Swiss · Round 1 · Table 2", in the reader's language), any other its label.
    A club night's party is never read as a table, whatever it was called."""
    label = str(party)
    match = _TABLE_LABEL.match(party.label or "") if party.night_id is None else None
    if not match:
        return label
    return gettext("%(tournament)s · Round %(round)s · Table %(table)s") % {
        "tournament": match["name"],
        "round": match["round"],
        "table": match["table"],
    }


def ending_label(key: str) -> str:
    try:
        return str(Hand.Ending(key).label)
    except ValueError:
        return key or ""


#: What became of an entry (`services.Outcome.action`), as the table is told.
OUTCOME_MESSAGES = {
    "entered": _("Hand %(number)s entered: waiting for confirmation."),
    "recorded": _("Hand %(number)s recorded."),
    "noted": _("Hand %(number)s: your confirmation is counted. More players still confirm it."),
    "confirmed": _("Hand %(number)s confirmed."),
    "disputed": _("Hand %(number)s is disputed: the two entries differ. The organizer decides."),
    "repeated": _("Hand %(number)s was already stored."),
}


def outcome_message(action: str, number) -> str:
    return str(OUTCOME_MESSAGES[action]) % {"number": number}


def record_rows(game, record: dict) -> list[dict]:
    """A player's record in ``game`` (`Game.record`) as rows for the pages: each
    figure with its label in the reader's language, in the game's order."""
    return [
        {
            "name": name,
            "label": translated(kind.label),
            "f": record[name],
            "count": kind.count,
            "unit": kind.unit,
        }
        for name, kind in game.figures.items()
        if name in record
    ]
