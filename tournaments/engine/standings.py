"""Standings of a tournament: plus and minus points, and places (seed 000).

Seed 000 (Rundenturnier): "Nach jeder Runde werden die Plus- bzw. Minuspunkte
der einzelnen Spieler addiert; wer am Ende des Turniers die meisten Punkte
erzielen konnte ist Sieger." A party's loser pays the winner the margin, so the
winner writes ``+margin`` and the loser ``-margin``.

What the seed leaves open, decided here as a club would:

* a bye scores the tournament's bye value (often 0, some clubs give a typical
  win) for the entrant who sits out;
* a forfeit (an opponent who does not turn up) scores the forfeit value for the
  entrant who came and the same value as minus points for the one who did not,
  so a round's points still add up to the byes alone;
* a party that ends with equal totals (no winner) scores 0 for both.

Entrants are any hashable ids; nothing here knows about the database.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from random import Random
from typing import Any

from scoring.engine.cards import Card
from tournaments.engine.pairing import card_draw, standings_order, tied_groups

Entrant = Hashable


@dataclass(frozen=True, slots=True)
class Played:
    """A finished party: ``winner`` is ``first`` or ``second``, or ``None`` when
    the totals were equal; ``margin`` is what the loser pays (≥ 0)."""

    first: Entrant
    second: Entrant
    winner: Entrant | None
    margin: int

    def __post_init__(self) -> None:
        if self.margin < 0:
            raise ValueError(f"A margin cannot be negative ({self.margin}).")
        if self.winner not in (self.first, self.second, None):
            raise ValueError(f"{self.winner} did not play {self.first} against {self.second}.")


@dataclass(frozen=True, slots=True)
class Bye:
    """An entrant who sat out a round."""

    entrant: Entrant


@dataclass(frozen=True, slots=True)
class Forfeit:
    """``present`` came to the table, ``absent`` did not."""

    present: Entrant
    absent: Entrant


Result = Played | Bye | Forfeit


@dataclass(frozen=True, slots=True)
class Place:
    """One line of the standings. ``place`` is shared by entrants tied on points
    whose tie no card draw has separated (``shared`` is then True)."""

    entrant: Entrant
    place: int
    points: int
    shared: bool = False
    draw: Any = None


def plus_minus(
    entrants: Iterable[Entrant],
    results: Iterable[Result],
    *,
    bye_value: int = 0,
    forfeit_value: int = 0,
) -> dict[Entrant, int]:
    """Every entrant's plus/minus points from the results so far (see the module).

    Every entrant listed starts at 0, also a late entrant: the rounds he missed
    are not byes and score nothing. Results naming an entrant who is not listed
    raise `ValueError`.
    """
    totals = dict.fromkeys(entrants, 0)

    def add(entrant: Entrant, points: int) -> None:
        if entrant not in totals:
            raise ValueError(f"{entrant} is not an entrant.")
        totals[entrant] += points

    for result in results:
        if isinstance(result, Played):
            add(result.first, 0)
            add(result.second, 0)
            if result.winner is not None:
                loser = result.second if result.winner == result.first else result.first
                add(result.winner, result.margin)
                add(loser, -result.margin)
        elif isinstance(result, Bye):
            add(result.entrant, bye_value)
        elif isinstance(result, Forfeit):
            add(result.present, forfeit_value)
            add(result.absent, -forfeit_value)
        else:
            raise TypeError(f"Not a result: {result!r}")
    return totals


def places(
    totals: Mapping[Entrant, int], draws: Mapping[Entrant, Any] | None = None
) -> list[Place]:
    """The standings with places: most points first (seed 000).

    Entrants tied on points share a place ("2nd" for both, the next is 4th)
    until a card draw separates them: a tied group whose every member has a
    draw in ``draws``, all different, is ordered by it (higher first) and gets
    one place each. A group drawn only in part, or with equal draws, stays
    shared. Inside a shared place entrants keep the order of ``totals``.
    """
    draws = draws or {}
    separated: dict[Entrant, Any] = {}
    for group in tied_groups(totals):
        drawn = [draws[e] for e in group if e in draws]
        if len(drawn) == len(group) and len(set(map(_key, drawn))) == len(group):
            separated.update((e, draws[e]) for e in group)
    # A shared group takes the order of ``totals``: give it draws that keep it.
    keep = {}
    for group in tied_groups(totals):
        if group[0] not in separated:
            keep.update((e, -i) for i, e in enumerate(group))
    order = standings_order(totals, {**keep, **separated})
    result = []
    for index, entrant in enumerate(order):
        points = totals[entrant]
        if entrant in keep and index and result[-1].points == points:
            place = result[-1].place
        else:
            place = index + 1
        result.append(
            Place(entrant, place, points, shared=entrant in keep, draw=separated.get(entrant))
        )
    return result


def group_card_draw(seed: int, group: Iterable[Entrant]) -> list[tuple[Entrant, tuple[Card, ...]]]:
    """Knock's card draw for one group tied on points (seed 000: "Sollten
    nach einer Runde zwei Spieler gleich viele Punkte erzielt haben, so wird
    durch Kartenziehen eine Reihenfolge festgelegt"), as
    `card_draw` makes it, best first.

    The deck is shuffled by a generator of the group's own, seeded with the
    round's ``seed`` and the group's members in sorted order. So a group's cards
    depend on that group alone: drawing another group at the venue instead, or
    drawing the groups in another order, never changes them, and the same
    group draws the same cards however often the draw is made (a round's draw
    can be shown before pairing and replayed after). Members must be sortable
    (the database's ids).
    """
    members = sorted(group)
    rng = Random(f"{seed}:{','.join(map(str, members))}")
    return card_draw(members, rng)


def _key(draw: Any) -> Any:
    return tuple(draw) if isinstance(draw, list) else draw
