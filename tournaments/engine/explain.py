"""Why each pair of a round was made: one line per pair and one for the bye.

An organizer has to answer "why do I play him again?" at the table. The lines
say which better-placed entrants the leader passed over, and why: they already
met, they are kept apart (family, partners: treated like a previous meeting),
or taking them would have left others with nobody new to play. The bye line
says who was passed over for it.

The lines are data (`Line`); `describe` turns one into a sentence from phrase
templates, English by default, so the web layer can pass translated ones.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from tournaments.engine.pairing import Pairing

Entrant = Hashable

# Why an entrant placed between the leader and his opponent was passed over.
PLAYED = "played"
KEPT_APART = "kept_apart"
STRANDS = "strands"
# Why an entrant placed below the bye did not get it.
HAD_BYE = "had_bye"

# How the pair came about.
SWISS = "swiss"
LOT = "lot"
SCHEDULE = "schedule"
BY_HAND = "by_hand"


@dataclass(frozen=True, slots=True)
class Skip:
    entrant: Entrant
    reason: str


@dataclass(frozen=True, slots=True)
class Line:
    """One pair (``second`` set) or the bye (``second`` is None)."""

    first: Entrant
    second: Entrant | None = None
    how: str = SWISS
    skipped: tuple[Skip, ...] = field(default=())
    rematch: bool = False

    @property
    def is_bye(self) -> bool:
        return self.second is None

    def as_dict(self) -> dict:
        return {
            "first": self.first,
            "second": self.second,
            "how": self.how,
            "skipped": [[s.entrant, s.reason] for s in self.skipped],
            "rematch": self.rematch,
        }

    @classmethod
    def from_dict(cls, data: Mapping) -> Line:
        return cls(
            first=data["first"],
            second=data["second"],
            how=data["how"],
            skipped=tuple(Skip(e, r) for e, r in data["skipped"]),
            rematch=data["rematch"],
        )


def explain_swiss(
    ranking: Sequence[Entrant],
    pairing: Pairing,
    played: Iterable[Iterable[Entrant]] = (),
    byes: Iterable[Entrant] = (),
    kept_apart: Iterable[Iterable[Entrant]] = (),
) -> list[Line]:
    """The lines of a Swiss round paired from ``ranking`` (see `swiss_pairings`).

    For each pair, every entrant still unseated when the leader chose and placed
    between him and his opponent is listed with the reason he was passed over.
    ``played`` and ``kept_apart`` are given apart so the reason can name which.
    """
    met = {frozenset(pair) for pair in played}
    apart = {frozenset(pair) for pair in kept_apart}
    position = {entrant: i for i, entrant in enumerate(ranking)}
    left = dict.fromkeys(ranking)
    if pairing.bye is not None:
        del left[pairing.bye]
    lines = []
    for leader, opponent in pairing.pairs:
        del left[leader]
        skipped = []
        for other in left:
            if position[other] >= position[opponent]:
                break
            if position[other] < position[leader]:
                continue
            games = frozenset((leader, other))
            reason = KEPT_APART if games in apart else PLAYED if games in met else STRANDS
            skipped.append(Skip(other, reason))
        del left[opponent]
        rematch = frozenset((leader, opponent)) in met | apart
        lines.append(Line(leader, opponent, SWISS, tuple(skipped), rematch))
    if pairing.bye is not None:
        counts = Counter(byes)
        below = ranking[position[pairing.bye] + 1 :]
        skipped = tuple(
            Skip(e, HAD_BYE if counts[e] > counts[pairing.bye] else STRANDS) for e in below
        )
        lines.append(Line(pairing.bye, None, SWISS, skipped))
    return lines


def explain_plain(pairing: Pairing, how: str) -> list[Line]:
    """Lines for a round paired by lot or by the round-robin schedule: no choice
    to explain beyond how it was made."""
    lines = [Line(first, second, how) for first, second in pairing.pairs]
    if pairing.bye is not None:
        lines.append(Line(pairing.bye, None, how))
    return lines


ENGLISH = {
    "pair": "{first} plays {second}",
    "bye": "{first} has the bye",
    "lot": "drawn by lot",
    "schedule": "round-robin schedule",
    "by_hand": "paired by hand",
    "lowest": "lowest placed without one",
    PLAYED: "{other} already played {leader}",
    KEPT_APART: "{other} is kept apart from {leader}",
    STRANDS: "{other} would leave others without a new opponent",
    HAD_BYE: "{other} already had one",
    "rematch": "a rematch: no pairing without one was possible",
    "join": "; ",
}


def english_ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def describe(
    line: Line,
    *,
    name: Callable[[Entrant], str] = str,
    label: Callable[[Entrant], str] | None = None,
    phrases: Mapping[str, str] = ENGLISH,
) -> str:
    """The line as a sentence, e.g. "Anna (1st, +212) plays Ben (3rd): Carl (2nd)
    already played Anna" or "Dora has the bye: lowest placed without one".

    ``name`` gives an entrant's name, ``label`` the name with place and points
    (the name alone if not given); ``phrases`` holds the templates (`ENGLISH`).
    """
    label = label or name
    if line.is_bye:
        head = phrases["bye"].format(first=name(line.first))
        reasons = [
            phrases[skip.reason].format(other=label(skip.entrant), leader=name(line.first))
            for skip in line.skipped
        ]
        if line.how == SWISS and not reasons:
            reasons = [phrases["lowest"]]
    else:
        head = phrases["pair"].format(first=label(line.first), second=label(line.second))
        reasons = [
            phrases[skip.reason].format(other=label(skip.entrant), leader=name(line.first))
            for skip in line.skipped
        ]
        if line.rematch:
            reasons.append(phrases["rematch"])
    if line.how in ("lot", "schedule", "by_hand"):
        reasons = [phrases[line.how], *reasons]
    return f"{head}: {phrases['join'].join(reasons)}" if reasons else head
