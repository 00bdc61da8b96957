"""Pairing rules for Gin Rummy tournaments: round robin and Swiss system.

Seed 000 (Rundenturnier, Schweizer System):

* In a round robin every entrant plays every other entrant once.
* With more entrants a Swiss system is played. The first round is drawn by lot.
  After every round the standings are taken (plus and minus points added up),
  and the leader plays the best-placed entrant he has not yet played; the
  leader of those left plays the best-placed of those left he has not yet
  played; and so on. No two entrants meet twice.
* Entrants with equal points are put in order by drawing cards.
* 5 to 8 entrants play 3 rounds, 9 to 16 play 4, 17 to 32 play 5, and so on.

Entrants are any hashable ids. Nothing here touches the database, the clock or a
global random generator: randomness comes in as an ``rng`` argument (anything
with ``shuffle``, such as ``random.Random``).
"""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from scoring.engine.cards import DECK, Card
from tournaments.engine.matching import Graph

Entrant = Hashable


class NoPairing(ValueError):
    """No pairing of the entrants avoids a rematch."""


@dataclass(frozen=True)
class Pairing:
    """One round's boards.

    ``pairs`` holds ``(higher_placed, lower_placed)`` tuples in board order (the
    pair of the first leader first); ``bye`` is the entrant who sits out, or
    ``None`` when everybody plays.
    """

    pairs: list[tuple[Entrant, Entrant]] = field(default_factory=list)
    bye: Entrant | None = None


# --------------------------------------------------------------------------- rounds


def swiss_round_count(n: int) -> int:
    """Number of rounds for ``n`` entrants.

    Seed 000: 5 to 8 entrants play 3 rounds, 9 to 16 four, 17 to 32 five, and so
    on: the number of rounds is ⌈log₂ n⌉. Fewer than five entrants play a round
    robin instead, which takes ``n - 1`` rounds for even ``n`` and ``n`` rounds
    for odd ``n`` (every round one entrant sits out).

    Zero or one entrant play no round at all: there is nobody to play against.
    A negative ``n`` raises `ValueError`.
    """
    n = operator.index(n)
    if n < 0:
        raise ValueError(f"The number of entrants cannot be negative ({n}).")
    if n <= 1:
        return 0
    if n < 5:
        return n - 1 if n % 2 == 0 else n
    return (n - 1).bit_length()


# --------------------------------------------------------------------------- round robin

# Stands in for "sits out" when a round robin has an odd number of entrants.
_SITS_OUT = object()


def round_robin(entrants: Iterable[Entrant]) -> list[list[tuple[Entrant, Entrant]]]:
    """Every entrant against every other exactly once (seed 000, Rundenturnier).

    Returns the rounds, each a list of pairs in board order. With an even number
    ``n`` of entrants there are ``n - 1`` rounds; with an odd number there are
    ``n`` rounds, and in each one entrant sits out and does not appear in that
    round's pairs. Zero or one entrant give no rounds.

    The schedule is the circle method: one seat stays put while the others
    move one seat along each round. Every entrant is listed first in half of
    his games (with an odd number of games, one more or one fewer), so if the
    first-listed deals first, dealing is shared fairly.
    """
    players = _distinct(entrants, "round robin")
    if len(players) < 2:
        return []
    if len(players) % 2:
        # The one who would meet the fixed seat sits out; making the empty
        # seat the fixed one keeps everybody's games evenly split.
        players.insert(0, _SITS_OUT)
    seats = len(players)
    fixed, moving = players[0], players[1:]
    rounds = []
    for number in range(seats - 1):
        line = [fixed, *moving]
        pairs = []
        for board in range(seats // 2):
            first, second = line[board], line[seats - 1 - board]
            # Each moving entrant passes every seat once, half of them on
            # the left, so only the board with the fixed seat needs turning.
            if board == 0 and number % 2:
                first, second = second, first
            if _SITS_OUT not in (first, second):
                pairs.append((first, second))
        rounds.append(pairs)
        moving = moving[-1:] + moving[:-1]
    return rounds


# --------------------------------------------------------------------------- lots and card draws


def first_round_lots(entrants: Iterable[Entrant], rng: Any) -> Pairing:
    """Draw the first round by lot (seed 000: "Die Paarungen für die erste Runde
    werden gelost").

    The entrants are shuffled with ``rng``; the first drawn plays the second,
    the third the fourth, and so on. With an odd number the last one drawn has
    the bye.
    """
    drawn = _distinct(entrants, "draw")
    rng.shuffle(drawn)
    bye = drawn.pop() if len(drawn) % 2 else None
    return Pairing(pairs=list(zip(drawn[::2], drawn[1::2], strict=True)), bye=bye)


def card_draw(entrants: Iterable[Entrant], rng: Any) -> list[tuple[Entrant, tuple[Card, ...]]]:
    """Order tied entrants by drawing cards (seed 000: "so wird durch
    Kartenziehen eine Reihenfolge festgelegt").

    Each entrant, in the order given, draws one card from a deck shuffled with
    ``rng``; the higher card goes first. Cards rank ace (low) to king (high),
    and equal ranks by suit: ♣ < ♦ < ♥ < ♠, so no two cards from one deck tie.

    More than 52 entrants draw from as many fresh decks as needed (the 53rd
    entrant starts the second deck). Entrants who drew the very same card from
    different decks draw again among themselves, as often as needed.

    Returns ``(entrant, cards)`` pairs, best first, where ``cards`` are the
    cards that entrant drew, in order (usually just one). Storing them lets the
    club show how the order came about.
    """
    return _draw(_distinct(entrants, "card draw"), rng, ())


def card_draw_order(entrants: Iterable[Entrant], rng: Any) -> list[Entrant]:
    """The entrants in the order a card draw puts them in (see `card_draw`)."""
    return [entrant for entrant, _ in card_draw(entrants, rng)]


def _draw(
    group: list[Entrant], rng: Any, drawn_before: tuple[Card, ...]
) -> list[tuple[Entrant, tuple[Card, ...]]]:
    cards = {}
    for start in range(0, len(group), len(DECK)):
        deck = list(DECK)
        rng.shuffle(deck)
        cards.update(zip(group[start : start + len(DECK)], deck, strict=False))
    by_card: dict[Card, list[Entrant]] = {}
    for entrant in group:
        by_card.setdefault(cards[entrant], []).append(entrant)
    result = []
    for card in sorted(by_card, reverse=True):
        tied = by_card[card]
        if len(tied) == 1:
            result.append((tied[0], (*drawn_before, card)))
        else:
            result.extend(_draw(tied, rng, (*drawn_before, card)))
    return result


def tied_groups(totals: Mapping[Entrant, int]) -> list[list[Entrant]]:
    """The groups of entrants with equal totals: each group must draw cards.

    Groups come highest total first; inside a group entrants keep the order of
    ``totals``. Entrants whose total nobody shares are not listed.
    """
    return [group for group in _by_total(totals) if len(group) > 1]


def standings_order(
    totals: Mapping[Entrant, int], draws: Mapping[Entrant, Any] | None = None
) -> list[Entrant]:
    """The standings: most plus/minus points first, ties by card draw (seed 000).

    ``totals`` maps every entrant to his points; ``draws`` maps tied entrants to
    what they drew (a `Card`, or the tuple of cards from `card_draw`); the
    higher draw goes first. An entrant tied with another but missing from
    ``draws``, or two tied entrants with equal draws, raise `ValueError`: the
    draw has to be made (or repeated) first.
    """
    draws = draws or {}
    order = []
    for group in _by_total(totals):
        if len(group) > 1:
            missing = [entrant for entrant in group if entrant not in draws]
            if missing:
                names = ", ".join(map(str, missing))
                raise ValueError(f"{names}: tied on {totals[group[0]]} points, must draw cards.")
            group = sorted(group, key=draws.__getitem__, reverse=True)
            for better, worse in pairwise(group):
                if draws[better] == draws[worse]:
                    raise ValueError(f"{better} and {worse} drew the same and must draw again.")
        order.extend(group)
    return order


def _by_total(totals: Mapping[Entrant, int]) -> list[list[Entrant]]:
    groups: dict[int, list[Entrant]] = {}
    for entrant, total in totals.items():
        groups.setdefault(total, []).append(entrant)
    return [groups[total] for total in sorted(groups, reverse=True)]


# --------------------------------------------------------------------------- Swiss system


def swiss_pairings(
    ranking: Sequence[Entrant],
    played: Iterable[Iterable[Entrant]] = (),
    byes: Iterable[Entrant] = (),
) -> Pairing:
    """Pair a Swiss round (seed 000, Schweizer System).

    ``ranking`` lists the entrants in standings order, best first, ties already
    broken (by card draw). ``played`` holds the pairs that have already met, in
    any order; ``byes`` the entrants who already sat out (an entrant may be
    listed once per bye).

    The rule: the leader plays the best-placed entrant he has not yet played;
    the leader of those left plays the best-placed of those left he has not yet
    played; and so on. So if the same two lead again, the first plays the third
    and the second the fourth. Where following the rule literally would leave
    entrants at the end who have all met, the leaders' choices are revised:
    the result is the pairing without a rematch that comes first when the
    leaders' opponents are compared in order -- the first leader's opponent as
    high as possible, then the second leader's, and so on.

    With an odd number of entrants one sits out. The bye goes to the
    lowest-placed entrant without an earlier bye for whom the others can still
    be paired. If no such entrant exists (for instance because everyone has
    had a bye), it goes to the lowest-placed of those with the fewest byes for
    whom the others can be paired: a second bye is better than a rematch.

    Pairs and byes naming entrants not in ``ranking`` are ignored: they belong
    to entrants who withdrew, whose games stay in the history. A pair naming
    the same entrant twice, or not exactly two entrants, and an entrant listed
    twice in ``ranking`` raise `ValueError`. `NoPairing` (a `ValueError`) is
    raised when every pairing would repeat a game.

    The result is exact, and fast enough for a thousand entrants: instead of
    trying the leaders' choices blindly, a choice is taken only if the rest can
    still be paired, which is decided with Edmonds' matching algorithm.
    """
    entrants = _distinct(ranking, "ranking")
    count = len(entrants)
    position, blocked = _met(entrants, played)

    graph = Graph(count, blocked)
    graph.match_greedily()
    exposed = graph.maximise()
    if len(exposed) > count % 2:
        raise NoPairing(_no_pairing_message(entrants, blocked, exposed))

    bye = None
    if count % 2:
        bye_counts = Counter(position[e] for e in byes if e in position)
        bye = graph.choose_bye(exposed[0], bye_counts)

    pairs = []
    for leader in range(count):
        if leader not in graph.alive:
            continue
        opponent = graph.choose_opponent(leader)
        pairs.append((entrants[leader], entrants[opponent]))
    return Pairing(pairs=pairs, bye=None if bye is None else entrants[bye])


def swiss_pairings_fewest_rematches(
    ranking: Sequence[Entrant],
    played: Iterable[Iterable[Entrant]] = (),
    byes: Iterable[Entrant] = (),
) -> Pairing:
    """Pair a Swiss round with as few rematches as possible, for when
    `swiss_pairings` finds no pairing without one and the organizer chooses to
    play on rather than end the tournament.

    The seed forbids rematches outright, so it says nothing about this case;
    the decision, written down here, keeps as close to its rule as it can:

    1. the fewest pairs that already met, counted over the whole round (a
       second bye is still better than a rematch, as in `swiss_pairings`);
    2. among those, the bye goes to the lowest-placed entrant with the fewest
       byes, as in `swiss_pairings`;
    3. then the leader plays the best-placed entrant he has not yet played, if
       the rest can still be paired with no more rematches; only when no such
       entrant is left does he meet an old opponent, the best-placed one whose
       game still allows the fewest rematches; the leader of those left
       follows the same rule, and so on. Rematches are pushed down the boards.

    When a pairing without rematches exists this is exactly `swiss_pairings`.
    Arguments as for `swiss_pairings`; it never raises `NoPairing`.
    """
    entrants = _distinct(ranking, "ranking")
    count = len(entrants)
    position, blocked = _met(entrants, played)
    graph = Graph(count, blocked)
    graph.match_greedily()
    graph.maximise()

    bye = None
    if count % 2:
        bye_counts = Counter(position[e] for e in byes if e in position)
        order = sorted(graph.alive, key=lambda v: (bye_counts[v], -v))
        # Only a bye that keeps the matching as large as it is costs no rematch,
        # and some entrant always does: the maximum matching leaves one out.
        bye = next(v for v in order if graph.take_out_keeping_size(v))

    # Every entrant left unmatched by a maximum matching of the "not yet
    # played" graph must meet an old opponent: that is the fewest rematches.
    budget = sum(1 for v in graph.alive if graph.mate[v] == -1) // 2
    pairs = []
    for leader in range(count):
        if leader not in graph.alive:
            continue
        later = [v for v in range(leader + 1, count) if v in graph.alive]
        fresh = [v for v in later if graph.can_meet(leader, v)]
        old = [v for v in later if not graph.can_meet(leader, v)] if budget else []
        for opponent in fresh + old:
            cost = 0 if graph.can_meet(leader, opponent) else 1
            if graph.seat_within_budget(leader, opponent, cost):
                budget -= cost
                pairs.append((entrants[leader], entrants[opponent]))
                break
    return Pairing(pairs=pairs, bye=None if bye is None else entrants[bye])


def _met(entrants: list, played: Iterable[Iterable[Entrant]]) -> tuple[dict, list[set[int]]]:
    """Standings positions, and for each position the positions it has met."""
    position = {entrant: i for i, entrant in enumerate(entrants)}
    blocked: list[set[int]] = [set() for _ in entrants]
    for pair in played:
        first, second = _pair_of(pair)
        if first in position and second in position:
            blocked[position[first]].add(position[second])
            blocked[position[second]].add(position[first])
    return position, blocked


def _pair_of(pair: Iterable[Entrant]) -> tuple[Entrant, Entrant]:
    try:
        first, second = pair
    except (TypeError, ValueError):
        raise ValueError(f"A played pair must name two entrants, not {pair!r}.") from None
    if first == second:
        raise ValueError(f"A played pair names {first} twice: nobody plays themselves.")
    return first, second


def _no_pairing_message(entrants: list, blocked: list[set[int]], exposed: list[int]) -> str:
    count = len(entrants)
    done = [entrants[i] for i in range(count) if len(blocked[i]) >= count - 1]
    # In an odd field one of them could sit out; two or more are the cause.
    if len(done) > count % 2:
        names = ", ".join(map(str, done))
        return f"No pairing without a rematch: {names} already played everyone else."
    left = len(exposed) - count % 2
    return (
        f"No pairing without a rematch exists for these {count} entrants: "
        f"any pairing leaves at least {left} of them facing an old opponent."
    )


def _distinct(entrants: Iterable[Entrant], what: str) -> list:
    listed = list(entrants)
    seen: set = set()
    for entrant in listed:
        if entrant in seen:
            raise ValueError(f"{entrant} is listed twice in the {what}.")
        seen.add(entrant)
    return listed
