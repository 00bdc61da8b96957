"""From what a table or an organizer says to the `Result` the services store: one
rule for the seat's forms, the API's schemas and the organizer's decision alike.

A hand is said in one of three ways: by its counts (how it ended, who knocked, the
deadwood after lay-offs), by its cards (`services.result_from_cards`: the engine
counts), or, for a disputed hand, by accepting one of the two versions entered.
"""

from django.utils.translation import gettext

from scoring import errors
from scoring.engine.cards import parse_card
from scoring.engine.hands import ImpossibleDeadwood, check_deadwood
from scoring.models import Hand
from scoring.services.knocks import Result

#: The two versions of a disputed hand: as entered first, and the other side's.
VERSIONS = ("entered", "counter")


def counts_problem(
    *,
    ending: str | None,
    knocker: int | None,
    knocker_deadwood: int | None,
    defender_deadwood: int | None,
    rulings: dict,
) -> str | None:
    """What is missing or contradictory in a hand said by its counts, in the
    player's words, or None. A no-game has no knocker, deadwood or ruling; a knock
    needs both deadwood counts, gin and big gin the defender's (gin with deadwood
    the engine refuses: it is never stored as 0); a knocker short of cards (seed
    000 § 14.11) cannot have gin; no deadwood exceeds what the cards shown hold
    (`scoring.engine.hands.check_deadwood`). What depends on the party's rules
    (big gin, Oklahoma's up-card, the knock limit) the services check with
    `scoring.engine.hands.check_entry`."""
    if ending is None:
        return gettext("Say how the hand ended: knock, gin, big_gin or no_game.")
    if ending == Hand.Ending.NO_GAME:
        if any(rulings.values()):
            return gettext("A no-game scores nothing: a director's ruling needs a knock or gin.")
        if (knocker, knocker_deadwood, defender_deadwood) != (None, None, None):
            return gettext("A no-game has no knocker, no deadwood and no rulings.")
        return None
    if knocker is None:
        return gettext("Tap who knocked (or went gin).")
    if defender_deadwood is None:
        return gettext("Enter the opponent's deadwood.")
    if ending == Hand.Ending.KNOCK and knocker_deadwood is None:
        return gettext("Enter the knocker's deadwood.")
    if ending != Hand.Ending.KNOCK and rulings.get("knocker_missing_cards"):
        return gettext("A knocker who is short of cards has no gin.")
    try:
        check_deadwood(
            knocker_points=knocker_deadwood,
            defender_points=defender_deadwood,
            knocker_missing_cards=rulings.get("knocker_missing_cards", 0),
            defender_missing_cards=rulings.get("defender_missing_cards", 0),
            defender_too_many_cards=bool(rulings.get("defender_too_many_cards")),
        )
    except ImpossibleDeadwood as error:
        return errors.explain(error)
    return None


def result_from_counts(
    *,
    ending: str,
    knocker: int | None = None,
    knocker_deadwood: int | None = None,
    defender_deadwood: int | None = None,
    up_card=None,
    rulings: dict | None = None,
) -> Result:
    """The result of a hand said by its counts (checked by `counts_problem`).
    Gin and big gin leave no deadwood to the knocker."""
    if ending == Hand.Ending.NO_GAME:
        return Result(Hand.Ending.NO_GAME)
    details = {name: value for name, value in (rulings or {}).items() if value}
    if up_card:
        details["up_card"] = str(parse_card(str(up_card)))
    return Result(
        ending,
        knocker=knocker,
        knocker_deadwood=0 if knocker_deadwood is None else knocker_deadwood,
        defender_deadwood=defender_deadwood,
        details=details,
    )


def result_of_version(hand: Hand, version: str) -> Result:
    """One of a disputed hand's two versions, to be accepted as its result:
    ``"entered"`` (as entered first) or ``"counter"`` (the other side's). Whether the
    hand is still disputed when the decision is written, `services.hands.hand_decide`
    checks under the party's lock."""
    if hand.status != Hand.Status.DISPUTED or not hand.counter:
        raise errors.WrongDecision(gettext("Only a disputed hand has two versions to choose from."))
    if version == "entered":
        return Result(
            hand.ending,
            knocker=hand.knocker.position if hand.knocker else None,
            knocker_deadwood=hand.knocker_deadwood,
            defender_deadwood=hand.defender_deadwood,
            details=hand.details,
        )
    counter = hand.counter
    return Result(
        counter["ending"],
        knocker=counter.get("knocker"),
        knocker_deadwood=counter.get("knocker_deadwood"),
        defender_deadwood=counter.get("defender_deadwood"),
        details=counter.get("details") or {},
    )
