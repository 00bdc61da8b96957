"""Settling up at the end of a club night: who pays whom, in as few payments as can be.

Seed 000 ("Eine Partie setzt sich … zusammen"): after each party the winner is paid
the difference of the totals "nach dem vereinbarten Schlüssel", and a tied party is
not paid. Over a night each player's parties add up to one balance, plus or minus;
the balances of a night sum to nought, so a few payments between players settle
every party at once, rather than one payment per party.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass

#: Up to this many players with a balance the payments are the fewest there can be
#: (the search takes 2^n steps); beyond it a quick rule that still needs at most
#: n − 1 payments.
EXACT_UP_TO = 15


@dataclass(frozen=True, slots=True)
class Transfer:
    """``payer`` pays ``payee`` ``amount`` (a whole number of points, more than 0)."""

    payer: Hashable
    payee: Hashable
    amount: int


def settle_up(balances: Mapping[Hashable, int]) -> tuple[Transfer, ...]:
    """The payments that settle every balance exactly: a player with a negative
    balance pays that much in all, one with a positive balance receives that much.

    Fewest payments: players whose balances cancel out in a group settle among
    themselves, a group of k players in k − 1 payments; so the fewest payments are
    the players with a balance minus the most groups they can be split into. With up
    to `EXACT_UP_TO` such players that split is searched for exactly; with more,
    equal and opposite balances pay each other first, then the largest debt goes to
    the largest credit. Either way never more than n − 1 payments for n players.

    Balances are whole numbers (points); multiply by the stake for money. Raises
    `ValueError` when they do not add up to nought or are not whole numbers.
    Players are paid in the order of ``balances``, so the result is repeatable."""
    for who, amount in balances.items():
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise ValueError(f"{who!r}'s balance must be a whole number, not {amount!r}.")
    if sum(balances.values()) != 0:
        raise ValueError(
            f"The balances must add up to 0, not {sum(balances.values())}: "
            "every point won is a point paid."
        )
    open_ = [(who, amount) for who, amount in balances.items() if amount]
    exact = len(open_) <= EXACT_UP_TO
    groups = _zero_sum_groups(open_) if exact else [open_]
    transfers: list[Transfer] = []
    for group in groups:
        transfers.extend(_settle_group(group, exact=exact))
    return tuple(transfers)


def _zero_sum_groups(players: list[tuple[Hashable, int]]) -> list[list[tuple[Hashable, int]]]:
    """The players split into the most groups whose balances add up to nought.

    ``best[mask]`` is the most zero-sum groups the players of ``mask`` (whose
    balances add up to nought) can be split into; the search runs over every
    subset once, taking one player out at a time, which finds every split."""
    n = len(players)
    if n == 0:
        return []
    full = (1 << n) - 1
    total = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        total[mask] = total[mask ^ low] + players[low.bit_length() - 1][1]
    # most[mask]: the most zero-sum groups that a prefix of an ordering of mask
    # closes; a mask that sums to nought closes one more group.
    most = [0] * (full + 1)
    came_from = [0] * (full + 1)
    for mask in range(1, full + 1):
        best, via = -1, 0
        rest = mask
        while rest:
            low = rest & -rest
            rest ^= low
            if most[mask ^ low] > best:
                best, via = most[mask ^ low], mask ^ low
        most[mask] = best + (1 if total[mask] == 0 else 0)
        came_from[mask] = via
    # Walk back: each time the running subset sums to nought, a group is closed.
    groups, current, mask = [], [], full
    while mask:
        previous = came_from[mask]
        current.append(players[(mask ^ previous).bit_length() - 1])
        if total[previous] == 0:
            groups.append(current)
            current = []
        mask = previous
    order = {who: index for index, (who, _) in enumerate(players)}
    return sorted(
        (sorted(group, key=lambda p: order[p[0]]) for group in groups),
        key=lambda group: order[group[0][0]],
    )


def _settle_group(group: list[tuple[Hashable, int]], *, exact: bool) -> list[Transfer]:
    """Payments that settle a group whose balances add up to nought. An exact
    group cannot be split further, so any k − 1 payments will do: the largest debt
    to the largest credit, each payment closing at least one balance. A large
    group first pairs equal and opposite balances."""
    debts = [[who, -amount] for who, amount in group if amount < 0]
    credits = [[who, amount] for who, amount in group if amount > 0]
    transfers: list[Transfer] = []
    if not exact:
        for debt in debts:
            match = next((c for c in credits if c[1] == debt[1]), None)
            if match is not None:
                transfers.append(Transfer(debt[0], match[0], debt[1]))
                debt[1] = match[1] = 0
        debts = [d for d in debts if d[1]]
        credits = [c for c in credits if c[1]]
    while debts:
        debt = max(debts, key=lambda d: d[1])
        credit = max(credits, key=lambda c: c[1])
        amount = min(debt[1], credit[1])
        transfers.append(Transfer(debt[0], credit[0], amount))
        debt[1] -= amount
        credit[1] -= amount
        debts = [d for d in debts if d[1]]
        credits = [c for c in credits if c[1]]
    return transfers
