"""The final stage: a knockout of the best placed, or a club cup on its own.

The qualifiers are seeded (seed 1 the best placed) and drawn into a bracket of
the next power of two. The bracket keeps the best apart for as long as it can:
seeds 1 and 2 meet in the final at the earliest, the best four in the
semi-finals, and every first-round pair adds up to the bracket's size plus one
(1 v 8, 4 v 5, 2 v 7, 3 v 6), the seeding of chess, tennis and debating breaks.
Where the bracket has more places than qualifiers the best seeds get a bye into
the second round. The winners of neighbouring matches meet in the next round,
so a match in round r at slot s feeds slot s // 2 of round r + 1.

A match is one party or the best of three. The loser of a semi-final may play
for third place. Entrants are any hashable ids, as in
`tournaments.engine.pairing`; nothing here touches the database.
"""

from __future__ import annotations

import operator
from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

Entrant = Hashable
E = TypeVar("E", bound=Hashable)

# The stable keys of `round_name`; the pages translate them.
FINAL = "final"
SEMI_FINAL = "semi-final"
QUARTER_FINAL = "quarter-final"
THIRD_PLACE = "third-place"

BEST_OF = (1, 3)


# --------------------------------------------------------------------------- the bracket


def bracket_size(qualifiers: int) -> int:
    """The places in the bracket: the smallest power of two that holds every
    qualifier (2 qualifiers play a final, 5 to 8 a bracket of 8). Fewer than two
    qualifiers make no knockout: `ValueError`."""
    qualifiers = operator.index(qualifiers)
    if qualifiers < 2:
        raise ValueError(f"A knockout needs at least two qualifiers ({qualifiers}).")
    return 1 << (qualifiers - 1).bit_length()


def round_count(qualifiers: int) -> int:
    """The knockout rounds ``qualifiers`` play, the final included (log₂ of the
    bracket's size; the match for third place is not a round of its own)."""
    return bracket_size(qualifiers).bit_length() - 1


def seed_order(size: int) -> list[int]:
    """Seeds 1..``size`` in bracket order, ``size`` a power of two (>= 2).

    Each first-round pair adds up to ``size + 1``, and the bracket of ``2m``
    is that of ``m`` with every seed ``s`` replaced by the pair ``s, 2m + 1 − s``:
    so in every round the best seed left in each section meets the worst, seeds
    1 and 2 can only meet in the final, and the best ``2^k`` seeds are in
    ``2^k`` different sections. 8 → [1, 8, 4, 5, 2, 7, 3, 6].
    """
    size = operator.index(size)
    if size < 2 or size & (size - 1):
        raise ValueError(f"A bracket's size is a power of two from 2 ({size}).")
    order = [1]
    while len(order) < size:
        places = 2 * len(order)
        order = [seed for s in order for seed in (s, places + 1 - s)]
    return order


def first_round(seeds: Sequence[E]) -> list[tuple[E, E | None]]:
    """The first round's matches in bracket order; ``seeds[0]`` is seed 1.

    Pairs follow `seed_order` for the bracket of `bracket_size` places. The
    places beyond the qualifiers are byes: the opponent is ``None`` and always
    second. Since a pair adds up to the size plus one, the byes fall to the best
    seeds (6 qualifiers: 1 and 2 go through, 3 v 6, 4 v 5), never two in one
    match, and only in this round.
    """
    entrants = _distinct(seeds)
    size = bracket_size(len(entrants))
    order = seed_order(size)
    by_seed = dict(enumerate(entrants, start=1))
    return [(by_seed[a], by_seed.get(b)) for a, b in zip(order[::2], order[1::2], strict=True)]


def next_round(winners: Sequence[E]) -> list[tuple[E, E]]:
    """The next round's matches: the winners of one round, in bracket order,
    paired neighbour with neighbour (the 1st v the 2nd, the 3rd v the 4th…).
    A bye's winner is the entrant who had it. A round needs an even number of
    winners, at least two; the final's single winner is the champion."""
    entrants = _distinct(winners)
    if len(entrants) < 2 or len(entrants) % 2:
        raise ValueError(f"A round pairs an even number of winners ({len(entrants)}).")
    return list(zip(entrants[::2], entrants[1::2], strict=True))


def next_match(slot: int) -> tuple[int, int]:
    """Where the winner of the match at ``slot`` (0-based, bracket order) plays
    next: the slot in the next round and the side (0 first, 1 second). The
    neighbour ``slot ^ 1`` feeds the same match from the other side."""
    slot = operator.index(slot)
    if slot < 0:
        raise ValueError(f"A slot cannot be negative ({slot}).")
    return slot // 2, slot % 2


def third_place_playable(qualifiers: int) -> bool:
    """Whether a match for third place can be played: it needs two semi-final
    losers, so at least four qualifiers (with three, seed 1's semi-final is a
    bye)."""
    bracket_size(qualifiers)  # refuses fewer than two
    return qualifiers >= 4


def round_name(matches_in_round: int) -> str:
    """A round's name as a stable key for the pages to translate: "final" (one
    match), "semi-final" (2), "quarter-final" (4), else "round of N" with N the
    players the round has places for (two per match: "round of 16")."""
    matches = operator.index(matches_in_round)
    if matches < 1 or matches & (matches - 1):
        raise ValueError(f"A knockout round has a power of two matches ({matches}).")
    named = {1: FINAL, 2: SEMI_FINAL, 4: QUARTER_FINAL}
    return named.get(matches, f"round of {2 * matches}")


# --------------------------------------------------------------------------- a match


def games_to_win(best_of: int) -> int:
    """The games a side must win to take the match: 1 of 1, 2 of 3."""
    if best_of not in BEST_OF:
        raise ValueError(f"A match is the best of 1 or 3 games ({best_of}).")
    return best_of // 2 + 1


def match_winner(won_by: Sequence[int], best_of: int) -> int | None:
    """The side (0 first, 1 second) that has won the match, or ``None`` while
    it is open.

    ``won_by`` lists the side winning each finished game, in order. A side wins
    the match as soon as it has `games_to_win`; a game after that was never
    to be played: `ValueError`, as is a side other than 0 or 1.
    """
    needed = games_to_win(best_of)
    won = [0, 0]
    winner = None
    for number, side in enumerate(won_by, start=1):
        if side not in (0, 1):
            raise ValueError(f"Game {number} was won by side 0 or 1, not {side!r}.")
        if winner is not None:
            raise ValueError(f"Game {number} came after the match was decided.")
        won[side] += 1
        if won[side] == needed:
            winner = side
    return winner


# --------------------------------------------------------------------------- places


def final_places(
    seeds: Sequence[E],
    rounds_reached: Mapping[E, int],
    third_place_winner: E | None = None,
    third_place_loser: E | None = None,
    champion: E | None = None,
) -> list[list[E]]:
    """The knockout's places, best first, each a group of entrants sharing it.

    ``seeds``: every qualifier in seed order. ``rounds_reached``: for each
    qualifier the last round (1 = first) he was drawn into, a bye included: a
    loser of round r reached r, both finalists reached the final's round.
    ``champion``: the final's winner, once decided. ``third_place_winner`` and
    ``third_place_loser``: the match for third place, when it was played
    (`third_place_playable`).

    Entrants are placed by how far they came: the champion; the runner-up;
    third the winner of the match for third place and fourth its loser, or
    both semi-final losers sharing third; then the losers of each earlier
    round share a place, the round of 8's before the round of 16's. Inside a
    shared place the better seed is listed first. Before the final is decided
    the entrants who came furthest share the first group in the same way.
    """
    entrants = _distinct(seeds)
    if set(rounds_reached) != set(entrants):
        raise ValueError("Every qualifier, and only they, must have the round they reached.")
    rounds = round_count(len(entrants))
    for entrant, reached in rounds_reached.items():
        if not 1 <= reached <= rounds:
            raise ValueError(f"{entrant!r} cannot have reached round {reached} of {rounds}.")

    # Built in seed order, so the better seed comes first inside every group.
    by_round: dict[int, list[E]] = {}
    for entrant in entrants:
        by_round.setdefault(rounds_reached[entrant], []).append(entrant)
    groups = [by_round[reached] for reached in sorted(by_round, reverse=True)]

    if champion is not None:
        if rounds_reached.get(champion) != rounds or len(by_round[rounds]) != 2:
            raise ValueError(f"{champion!r} did not win a final between two.")
        groups[0:1] = [[champion], [e for e in by_round[rounds] if e != champion]]

    third = (third_place_winner, third_place_loser)
    if any(e is not None for e in third):
        semi_losers = by_round.get(rounds - 1, [])
        if None in third or third_place_winner == third_place_loser or rounds < 2:
            raise ValueError("The match for third place needs its winner and its loser.")
        if set(third) != set(semi_losers):
            raise ValueError("The match for third place is played by the semi-final losers.")
        at = next(i for i, group in enumerate(groups) if group is semi_losers)
        groups[at : at + 1] = [[third_place_winner], [third_place_loser]]

    return groups


def _distinct(entrants: Sequence[E]) -> list[E]:
    entrants = list(entrants)
    if len(set(entrants)) != len(entrants):
        raise ValueError("An entrant appears twice in the bracket.")
    if None in entrants:
        raise ValueError("None stands for a bye and cannot be an entrant.")
    return entrants
