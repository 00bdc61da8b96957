"""Mistakes a table or an organizer can make, each with a message a player understands.

The core raises `ValueError` subclasses for impossible results (an illegal knock, gin
with deadwood, a bad card); these add what only the stored party knows about."""

from django.utils.translation import get_language, gettext, ngettext
from django.utils.translation import gettext_lazy as _

from scoring.engine.cards import InvalidCard
from scoring.engine.games.game import EntryError as GameEntryError
from scoring.engine.games.game import Problem
from scoring.engine.hands import (
    IllegalKnock,
    ImpossibleClaim,
    ImpossibleDeadwood,
    MissingUpCard,
    UnknownEnding,
)
from scoring.engine.melds import IllegalMeld, WrongHandSize
from scoring.engine.rules import InvalidRules
from scoring.engine.settlement import PartyOver
from scoring.engine.showdown import (
    CardInBothHands,
    CardInTwoMelds,
    DeclaredCardNotInHand,
    NotAMeld,
    ShowdownError,
    WrongCardCount,
)


class EntryError(ValueError):
    """An entry that cannot be stored as it is."""


class StaleEntry(EntryError):
    """The entry is for a hand that is already recorded or not yet due (an old page)."""


class EntryChanged(StaleEntry):
    """The entry a phone answers is no longer the one pending: the other side
    corrected it since the phone showed it. ``hand`` is the entry as it now stands,
    for the phone to show and confirm again."""

    def __init__(self, message, *, hand):
        super().__init__(message)
        self.hand = hand


class KeyReused(StaleEntry):
    """The submission's idempotency key was already used by this seat for another
    submission (another hand, another entry): a key means one request, so nothing
    is stored and the sender is told, instead of an answer for the first one."""


class HandBlocked(EntryError):
    """An earlier hand must be confirmed or settled before this one."""


class NotYourHand(EntryError):
    """The seat may not do this (confirm its own entry, enter for another table)."""


class PartyCancelled(EntryError):
    """The party was cancelled: it takes no more hands and no more decisions."""


class NightClosed(EntryError):
    """The club night is closed: no new parties, and its results are final."""


class ResultFinal(EntryError):
    """The party's result has been acted on (a knockout match decided by it): its
    hands are not changed any more (`scoring.guards`)."""


class WrongDecision(EntryError):
    """The organizer's decision does not fit the hand, party or night as it now
    stands: resolving a hand that is no longer disputed, or correcting one that has
    just become so; swapping a player after the first hand, a rematch of a running
    party, closing a night whose parties still run."""


class WrongGame(EntryError):
    """A party of one game sent to another game's services (a Gin Rummy hand for a
    party of Chinchón, or the other way round)."""


class AlreadySeated(WrongDecision):
    """A party of players already seated at a running party of the same night: the
    organizer starts it only when told it is meant (``anyway``). ``where``: each
    such player and the party he sits at, as words."""

    def __init__(self, message, *, where: str):
        super().__init__(message)
        self.where = where


# The core speaks English and names the exact problem (which card, which limit). In
# another language a player gets the translated rule it broke instead.
CORE_MESSAGES = {
    InvalidCard: _(
        "A card is not right: write each card as rank and suit (e.g. TD, 10♦, QS), "
        "and every card only once."
    ),
    WrongHandSize: _(
        "Wrong number of cards: the knocker shows ten (eleven with the discard or "
        "for big gin) and the defender ten."
    ),
    IllegalMeld: _(
        "These melds are not legal: a meld is three or four cards of a rank, or three "
        "or more of one suit in sequence, all from the knocker's hand, none twice."
    ),
    IllegalKnock: _("This knock is not allowed: the knocker's deadwood is above the knock limit."),
    ImpossibleClaim: _(
        "This cannot be: gin needs every card in a meld, and the cards must add up."
    ),
    PartyOver: _("The party is over: no more hands can be entered."),
    InvalidRules: _("These rules are not valid."),
}


def explain(error: ValueError) -> str:
    """The message a player reads for a refused entry, in the page's language."""
    if isinstance(error, ShowdownError):
        return showdown_message(error)
    if isinstance(error, ImpossibleDeadwood | IllegalKnock | UnknownEnding | MissingUpCard):
        return entry_message(error)
    if (get_language() or "en").startswith("en") or isinstance(error, EntryError):
        return str(error)
    for kind, message in CORE_MESSAGES.items():
        if isinstance(error, kind):
            return str(message)
    return _("This entry cannot be right: check it and enter it again.")


def entry_message(error: ValueError) -> str:
    """What is wrong with a hand said by its counts, with the numbers the player typed."""
    if isinstance(error, ImpossibleDeadwood):
        values = {"points": error.points, "most": error.most}
        if error.who == "knocker":
            return (
                gettext(
                    "The knocker's deadwood cannot be %(points)s: "
                    "the cards shown hold at most %(most)s points."
                )
                % values
            )
        return (
            gettext(
                "The opponent's deadwood cannot be %(points)s: "
                "the cards shown hold at most %(most)s points."
            )
            % values
        )
    if isinstance(error, UnknownEnding):
        return gettext(
            "These rules do not know big gin: eleven cards in melds count as gin. Choose gin."
        )
    if isinstance(error, MissingUpCard):
        return gettext("Enter the up-card too: under Oklahoma it sets the knock limit.")
    if isinstance(error, IllegalKnock) and error.limit is not None:
        values = {"limit": error.limit, "points": error.points}
        if error.limit == 0:
            return (
                gettext(
                    "Only gin may end this hand, but the knocker has %(points)s points of deadwood."
                )
                % values
            )
        return (
            gettext(
                "This knock is not allowed: a knock is allowed with at most %(limit)s points "
                "of deadwood, but %(points)s were entered."
            )
            % values
        )
    return str(CORE_MESSAGES.get(type(error), error))


def showdown_message(error: ShowdownError) -> str:
    """What is wrong with the cards shown, naming the card or the count."""
    if isinstance(error, WrongCardCount):
        return _card_count_message(error)
    if isinstance(error, CardInBothHands):
        return gettext("%(card)s cannot be in both hands.") % {"card": error.card}
    if isinstance(error, DeclaredCardNotInHand):
        return gettext("%(card)s is declared in a meld but is not in the knocker's hand.") % {
            "card": error.card
        }
    if isinstance(error, CardInTwoMelds):
        return gettext("%(card)s is in two declared melds.") % {"card": error.card}
    if isinstance(error, NotAMeld):
        return gettext(
            "%(cards)s is not a meld: a meld is three or four cards of one rank, "
            "or three or more cards of one suit in sequence."
        ) % {"cards": " ".join(str(card) for card in error.cards)}
    return str(error)


def _card_count_message(error: WrongCardCount) -> str:
    values = {"count": error.count, "missing": error.missing, "expected": error.expected}
    if error.who == "defender":
        message = ngettext(
            "The defender's hand has %(count)s card: tap %(expected)s.",
            "The defender's hand has %(count)s cards: tap %(expected)s.",
            error.count,
        )
    elif error.missing:
        message = ngettext(
            "The knocker's hand has %(count)s card: with %(missing)s missing, tap %(expected)s.",
            "The knocker's hand has %(count)s cards: with %(missing)s missing, tap %(expected)s.",
            error.count,
        )
    else:
        message = ngettext(
            "The knocker's hand has %(count)s card: tap ten "
            "(eleven with the discard, or for big gin).",
            "The knocker's hand has %(count)s cards: tap ten "
            "(eleven with the discard, or for big gin).",
            error.count,
        )
    return message % values


def refused(error: GameEntryError) -> EntryError:
    """The engine's refusal as the one a player reads, in the page's language (each
    problem on its line)."""
    return EntryError("\n".join(translated(problem) for problem in error.problems))


def translated(problem: str) -> str:
    """One of the engine's problems in the page's language: its template translated,
    then its parameters filled in (words and parts of the sentence the engine gave as
    problems translated too; numbers, names and cards as they are). A problem the
    engine did not word itself (Python's own message) is only readable in English:
    another language gets the general request to check the entry."""
    if not isinstance(problem, Problem):
        if (get_language() or "en").startswith("en"):
            return problem
        return gettext("This entry cannot be right: check it and enter it again.")
    if not problem.params:
        return gettext(problem.template)
    params = {
        name: translated(value) if isinstance(value, Problem) else value
        for name, value in problem.params.items()
    }
    return gettext(problem.template) % params
