"""One hand: what the knocker's and the defender's deadwood are worth.

Seed 000 (§§ 7–11) and seed 002 ("Klopfen", "Gin"): the knocker writes the
difference of the deadwood counts; a defender with equal or less deadwood
undercuts and writes the difference plus the undercut bonus; gin writes the
defender's deadwood plus the gin bonus and is never undercut. Seed 001 adds big
gin. Seed 000 § 14 settles the irregularities that can still be scored.

A hand goes on the party sheet as an *entry*: ``None`` for a hand that scored
nothing (a no-game, seed 000 § 12) or ``(side, points)`` for the side that
scored. `sheet_entry` turns a `HandScore` into one, `read_hands` checks a list.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from scoring.engine.cards import DECK, SUITS, Card, parse_card
from scoring.engine.rules import Rules

KNOCK = "knock"
UNDERCUT = "undercut"
GIN = "gin"
BIG_GIN = "big_gin"
VOID = "void"

KNOCKER = "knocker"
DEFENDER = "defender"

#: Seed 000 § 14.11, § 14.12: every card a player is short counts 10 points of deadwood.
MISSING_CARD_POINTS = 10

Entry = tuple[int, int] | None


class IllegalKnock(ValueError):
    """A knock with more deadwood than the knock limit allows (seed 000 § 8, § 14.6).
    ``limit`` and ``points`` say by how much, when known."""

    def __init__(self, message: str, *, limit: int | None = None, points: int | None = None):
        super().__init__(message)
        self.limit = limit
        self.points = points


class ImpossibleClaim(ValueError):
    """A claim the entered numbers contradict, such as gin with deadwood."""


class ImpossibleDeadwood(ValueError):
    """More deadwood than the cards shown can hold (see `most_deadwood`)."""

    def __init__(self, who: str, points: int, most: int):
        super().__init__(
            f"The {who}'s cards cannot hold {points} points of deadwood: at most {most}."
        )
        self.who = who
        self.points = points
        self.most = most


class UnknownEnding(ValueError):
    """An ending the party's rules do not know: big gin where it has no bonus."""


class MissingUpCard(ValueError):
    """A knock or gin under Oklahoma without the up-card that sets its knock limit."""


@dataclass(frozen=True, slots=True)
class HandScore:
    """The result of one hand.

    ``winner`` is ``"knocker"`` or ``"defender"``; ``points`` what the winner writes;
    ``kind`` one of ``"knock"``, ``"undercut"``, ``"gin"``, ``"big_gin"``. A hand
    voided by seed 000 § 14.13 has ``kind="void"``, ``winner=None`` and 0 points: it
    is dealt again by the same dealer.
    """

    winner: str | None
    points: int
    kind: str

    @property
    def void(self) -> bool:
        """True for a hand cancelled under seed 000 § 14.13."""
        return self.kind == VOID


def score_hand(
    rules: Rules,
    *,
    knocker_points: int,
    defender_points: int,
    gin: bool = False,
    big_gin: bool = False,
    knock_limit: int | None = None,
    knocker_missing_cards: int = 0,
    defender_missing_cards: int = 0,
    defender_too_many_cards: bool = False,
    illegal_knock_accepted: bool = False,
) -> HandScore:
    """Score one hand that ended with a knock (seed 000 §§ 7–11, seed 001 "Punktevergabe").

    - Knock: the knocker writes ``defender_points - knocker_points``.
    - Undercut: the defender's deadwood is equal to or lower than the knocker's; he
      writes the difference plus ``rules.undercut_bonus``. With
      ``rules.undercut_on_tie`` off a tie is no undercut and scores nothing: the
      result is ``HandScore("knocker", 0, "knock")``, which `sheet_entry` writes as
      a hand without score.
    - Gin (``gin`` or ``big_gin``; the knocker has no deadwood): the knocker writes
      the defender's deadwood plus ``rules.gin_bonus``, never undercut. Big gin
      adds ``rules.big_gin_bonus`` instead (seed 001); when the rules do not know big
      gin (``None``) it scores as gin.

    Whether a knocker who happens to have no deadwood went gin is the caller's
    call (the card evaluator knows): the ``gin`` flag decides, the numbers alone do not.

    ``knock_limit`` overrides ``rules.knock_limit`` for this hand (Oklahoma: see
    `knock_limit_for_up_card`; 0 means only gin may end the hand). A knock above the
    limit raises `IllegalKnock`; negative or non-whole numbers raise `ValueError`;
    gin with deadwood raises `ImpossibleClaim`.

    Irregularities (seed 000 § 14), all off by default:

    - ``illegal_knock_accepted`` (§ 14.7, § 14.8): the defender accepted a knock over
      the limit, or laid down his cards before noticing. It is scored as a normal
      knock with the knocker's real deadwood, undercut included.
    - ``knocker_missing_cards`` (§ 14.11): a knock with too few cards is an
      irregular knock; it is only scored once accepted (§ 14.7, § 14.8), so no limit
      is checked. Each missing card adds 10 points to the knocker's deadwood, and a
      knocker who is short cannot have gin. (A knocker with too many cards is an
      accepted illegal knock too; the texts give no valuation, so the caller enters
      the deadwood he shows with ``illegal_knock_accepted``.)
    - ``defender_missing_cards`` (§ 14.12): each missing card adds 10 points to the
      defender's deadwood.
    - ``defender_too_many_cards`` (§ 14.13): the defender may not lay off, so the
      caller enters his deadwood without lay-offs. With more deadwood than the
      knocker, the knocker writes as usual (gin included). With less, the hand is
      void and dealt again (``kind="void"``). With equal deadwood the hand is void
      too: the text gives the knocker a score only when the defender has more, and
      the player at fault must not win an undercut. Gin is never void.
    """
    _check_whole(knocker_points, "The knocker's deadwood")
    _check_whole(defender_points, "The defender's deadwood")
    _check_whole(knocker_missing_cards, "The knocker's missing cards")
    _check_whole(defender_missing_cards, "The defender's missing cards")
    if defender_missing_cards and defender_too_many_cards:
        raise ValueError("The defender cannot have too few and too many cards at once.")

    gin = gin or big_gin
    if gin and knocker_points:
        raise ImpossibleClaim(
            f"Gin means no deadwood, but {knocker_points} points were entered for the knocker."
        )
    if gin and knocker_missing_cards:
        raise ImpossibleClaim("Gin needs all ten cards in melds, but the knocker is short.")

    limit = rules.knock_limit if knock_limit is None else knock_limit
    _check_whole(limit, "The knock limit")
    if knocker_points > limit and not (illegal_knock_accepted or knocker_missing_cards):
        raise IllegalKnock(
            _illegal_knock_message(limit, knocker_points), limit=limit, points=knocker_points
        )

    knocker = knocker_points + MISSING_CARD_POINTS * knocker_missing_cards
    defender = defender_points + MISSING_CARD_POINTS * defender_missing_cards

    if gin:
        if big_gin and rules.big_gin_bonus is not None:
            return HandScore(KNOCKER, defender + rules.big_gin_bonus, BIG_GIN)
        return HandScore(KNOCKER, defender + rules.gin_bonus, GIN)
    if defender_too_many_cards and defender <= knocker:
        return HandScore(None, 0, VOID)
    if defender < knocker or (defender == knocker and rules.undercut_on_tie):
        return HandScore(DEFENDER, knocker - defender + rules.undercut_bonus, UNDERCUT)
    return HandScore(KNOCKER, defender - knocker, KNOCK)


def most_deadwood(cards: int = 10) -> int:
    """The most deadwood ``cards`` cards can hold after the best arrangement.

    Deadwood is what no meld takes, so a hand at its worst has no meld at all:
    no three cards of a rank (a set), so at most two of each, and the highest
    valued of those first. Ten cards: two each of king, queen, jack, ten and nine,
    98 points; with the suits alternating (♠♥ K, ♦♣ Q, ♠♥ J, ♦♣ 10, ♠♥ 9) no
    three of a suit are in sequence either, so 98 is reached. A hand with a meld
    keeps at most seven cards, 70 points, as deadwood."""
    if not _is_int(cards) or cards < 0:
        raise ValueError(f"A number of cards must be a whole number of 0 or more, not {cards!r}.")
    two_per_rank = sorted((card.value for card in DECK if card.suit in SUITS[:2]), reverse=True)
    return sum(two_per_rank[:cards])


def check_entry(
    rules: Rules,
    *,
    ending: str,
    knocker_points: int | None,
    defender_points: int | None,
    up_card: Card | str | None = None,
    knocker_missing_cards: int = 0,
    defender_missing_cards: int = 0,
    defender_too_many_cards: bool = False,
) -> None:
    """Refuses a hand said by its counts that the cards could not have made, before
    anything scores it; `score_hand` then checks the knock limit and gin.

    - Big gin (``"big_gin"``) only under rules that know it (``big_gin_bonus``);
      elsewhere eleven cards in melds are a gin like any other (`UnknownEnding`).
    - Under Oklahoma a knock or gin names its up-card: it sets the knock limit
      (`MissingUpCard`).
    - Neither player's deadwood exceeds what the cards he shows can hold
      (`ImpossibleDeadwood`): ten cards, fewer when short (seed 000 § 14.11,
      § 14.12), one more when the defender holds too many (§ 14.13).

    A no-game has nothing to check."""
    if ending == "no_game":
        return
    if ending == BIG_GIN and rules.big_gin_bonus is None:
        raise UnknownEnding(
            f"The rules {rules.name!r} do not know big gin: eleven cards in melds are gin."
        )
    if rules.oklahoma and up_card is None:
        raise MissingUpCard("Under Oklahoma the up-card sets the knock limit: enter it too.")
    check_deadwood(
        knocker_points=knocker_points,
        defender_points=defender_points,
        knocker_missing_cards=knocker_missing_cards,
        defender_missing_cards=defender_missing_cards,
        defender_too_many_cards=defender_too_many_cards,
    )


def check_deadwood(
    *,
    knocker_points: int | None,
    defender_points: int | None,
    knocker_missing_cards: int = 0,
    defender_missing_cards: int = 0,
    defender_too_many_cards: bool = False,
) -> None:
    """Raises `ImpossibleDeadwood` when a player's deadwood exceeds what the cards
    he shows can hold (`most_deadwood`): ten, fewer when short (seed 000 § 14.11,
    § 14.12), one more when the defender holds too many (§ 14.13). The part of
    `check_entry` that needs no rules: a count not given is not checked."""
    shown = {
        KNOCKER: (knocker_points, 10 - (knocker_missing_cards or 0)),
        DEFENDER: (
            defender_points,
            10 - (defender_missing_cards or 0) + bool(defender_too_many_cards),
        ),
    }
    for who, (points, cards) in shown.items():
        most = most_deadwood(max(cards, 0))
        if _is_int(points) and points > most:
            raise ImpossibleDeadwood(who, points, most)


def knock_limit_for_up_card(rules: Rules, up_card: Card | str | int) -> int:
    """The knock limit of a hand whose up-card is ``up_card`` (seed 002, Varianten).

    Oklahoma: the up-card's value is the limit (a seven: knock with 7 or less),
    and an ace usually means only gin may end the hand (limit 0). Without Oklahoma
    the rules' own limit applies. Takes a `Card`, a card text (``"7H"``) or a value.
    """
    if isinstance(up_card, int) and not isinstance(up_card, bool):
        if not 1 <= up_card <= 10:
            raise ValueError(f"A card's value is between 1 and 10, not {up_card}.")
        value = up_card
    else:
        value = parse_card(up_card).value
    return rules.knock_limit_for(value)


def sheet_entry(score: HandScore, *, knocker: int, defender: int) -> Entry:
    """The party-sheet entry for a hand: ``(scorer, points)``, or ``None``.

    A hand that scored nothing (void, or a tie without undercut) is written like a
    no-game: nobody wins its box and the same dealer deals again (seed 000 § 12,
    § 14.13).
    """
    if score.void or score.points == 0:
        return None
    return (knocker if score.winner == KNOCKER else defender, score.points)


def read_hands(hands: Iterable[object], players: int = 2, noun: str = "Hand") -> list[Entry]:
    """Check a party sheet: each item ``None`` (no-game) or ``(side, points)``.

    ``side`` is a whole number below ``players``, ``points`` a whole number of 0 or
    more. Returns the entries as tuples; raises `ValueError` naming the bad item.
    """
    if hands is None or isinstance(hands, str | bytes):
        raise ValueError("The hands must be a list of None or (side, points) items.")
    sides = ", ".join(str(side) for side in range(players - 1)) + f" or {players - 1}"
    entries: list[Entry] = []
    for number, item in enumerate(hands, start=1):
        if item is None:
            entries.append(None)
            continue
        if isinstance(item, str | bytes) or not _is_pair(item):
            raise ValueError(
                f"{noun} {number}: write None for a no-game or (side, points), not {item!r}."
            )
        side, points = item
        if not _is_int(side) or not 0 <= side < players:
            raise ValueError(f"{noun} {number}: the side must be {sides}, not {side!r}.")
        if not _is_int(points) or points < 0:
            raise ValueError(
                f"{noun} {number}: points must be a whole number of 0 or more, not {points!r}."
            )
        entries.append((side, points))
    return entries


def hand_winner(entry: Entry) -> int | None:
    """The side that won a hand, or ``None`` when it scored nothing (no-game or 0 points)."""
    if entry is None or entry[1] == 0:
        return None
    return entry[0]


def _illegal_knock_message(limit: int, points: int) -> str:
    if limit == 0:
        return f"Only gin may end this hand, but the knocker has {points} points of deadwood."
    return f"A knock is allowed with at most {limit} points of deadwood, but {points} were entered."


def _check_whole(value: object, what: str) -> None:
    if not _is_int(value) or value < 0:
        raise ValueError(f"{what} must be a whole number of 0 or more, not {value!r}.")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_pair(item: object) -> bool:
    try:
        return len(item) == 2  # type: ignore[arg-type]
    except TypeError:
        return False


#: Ten cards, a whole hand: at most 98 points of deadwood (`most_deadwood`).
MOST_DEADWOOD = most_deadwood(10)
