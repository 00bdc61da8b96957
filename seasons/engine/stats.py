"""A player's Gin Rummy figures from the hands and parties entered: what his page
shows. (Each other game's record is the game's own, `Game.record`.)

Every figure says how many hands or parties it rests on (`Figure.of`): a gin
rate of 50 % from two hands is not one from two hundred. Quick entries give each
hand's ending, who knocked and the deadwood counts; entries from the cards also
give the cards the defender laid off (seed 000 § 10), counted where they exist.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from datetime import date

from scoring.engine.games.game import Figure

KNOCKER = "knocker"
DEFENDER = "defender"


@dataclass(frozen=True, slots=True)
class HandFact:
    """One confirmed hand the player played: his ``role`` (knocker or defender),
    what the engine made of it (``kind``: knock, undercut, gin, big_gin), whether
    his side won it, the knocker's deadwood, and the cards laid off by the defender
    when the hand was entered from the cards (``None`` otherwise)."""

    role: str
    kind: str
    won: bool
    knocker_deadwood: int | None = None
    laid_off: int | None = None


@dataclass(frozen=True, slots=True)
class PartyFact:
    """One finished party of the player: its ``key``, day, his plus/minus, the
    boxes (hands won) of his side, whether his side shut the other out or was shut
    out (seed 000: the loser scored nothing), and his games as the settlement pays
    them: ``(opponent, amount)``, positive when the opponent paid him."""

    key: Hashable
    day: date | None
    plus_minus: int
    boxes: int
    shutout_made: bool = False
    shutout_suffered: bool = False
    games: tuple[tuple[Hashable, int], ...] = ()


@dataclass(frozen=True, slots=True)
class HeadToHead:
    opponent: Hashable
    parties: int
    won: int
    plus_minus: int


@dataclass(frozen=True, slots=True)
class PlayerStats:
    parties: int
    won: int
    plus_minus: int
    hands: int
    gin_rate: Figure
    knocks_won: Figure
    undercuts_made: Figure
    undercuts_suffered: Figure
    deadwood_when_knocking: Figure
    laid_off_when_defending: Figure
    boxes_per_party: Figure
    shutouts_made: Figure
    shutouts_suffered: Figure
    best_party: PartyFact | None
    head_to_head: list[HeadToHead] = field(default_factory=list)


def _ratio(part: int, whole: int) -> Figure:
    return Figure(part / whole if whole else None, whole)


def _mean(values: list[int]) -> Figure:
    return Figure(sum(values) / len(values) if values else None, len(values))


def player_stats(
    hands: Iterable[HandFact], parties: Iterable[PartyFact], *, rivals: int = 5
) -> PlayerStats:
    """The player's figures.

    - gin rate: the hands he ended with gin or big gin, of the hands he played
      that ended with a knock or gin (a no-game hand, which nobody ended, says
      nothing of his play and is left out, of the rate and of ``hands``);
    - knocks won: his knocks that won (not undercut), of his knocks (gin apart);
    - undercuts made: as defender, of the hands he defended against a knock; suffered:
      as knocker, of his knocks (seed 000 § 9: the defender with as little deadwood);
    - deadwood when knocking: the mean of his deadwood over his knocks;
    - laid off when defending: the mean number of cards he laid off, over the hands
      he defended that were entered from the cards;
    - boxes per party: his side's hands won per finished party (seed 000: a box for
      each hand won); shutouts made and suffered, of his finished parties;
    - the best party: the highest plus/minus (the earliest of equals);
    - head to head: the ``rivals`` opponents he met in most parties, each with the
      parties he won against them and the plus/minus the settlements paid between
      them (a rotation and a chouette pay player to player)."""
    hands = list(hands)
    parties = list(parties)
    knocks = [h for h in hands if h.role == KNOCKER and h.kind in ("knock", "undercut")]
    defended = [h for h in hands if h.role == DEFENDER and h.kind in ("knock", "undercut")]
    from_cards = [h for h in hands if h.role == DEFENDER and h.laid_off is not None]
    gins = sum(h.role == KNOCKER and h.kind in ("gin", "big_gin") for h in hands)

    met: dict = defaultdict(lambda: [0, 0, 0])
    for party in parties:
        per_opponent: dict = defaultdict(int)
        for opponent, amount in party.games:
            per_opponent[opponent] += amount
        for opponent, amount in per_opponent.items():
            met[opponent][0] += 1
            met[opponent][1] += amount > 0
            met[opponent][2] += amount
    rivals_met = sorted(met.items(), key=lambda item: (-item[1][0], -item[1][2], repr(item[0])))
    best = max(parties, key=lambda p: p.plus_minus, default=None)
    return PlayerStats(
        parties=len(parties),
        won=sum(p.plus_minus > 0 for p in parties),
        plus_minus=sum(p.plus_minus for p in parties),
        hands=len(hands),
        gin_rate=_ratio(gins, len(hands)),
        knocks_won=_ratio(sum(h.kind == "knock" for h in knocks), len(knocks)),
        undercuts_made=_ratio(sum(h.kind == "undercut" for h in defended), len(defended)),
        undercuts_suffered=_ratio(sum(h.kind == "undercut" for h in knocks), len(knocks)),
        deadwood_when_knocking=_mean(
            [h.knocker_deadwood for h in knocks if h.knocker_deadwood is not None]
        ),
        laid_off_when_defending=_mean([h.laid_off for h in from_cards]),
        boxes_per_party=_mean([p.boxes for p in parties]),
        shutouts_made=Figure(sum(p.shutout_made for p in parties), len(parties)),
        shutouts_suffered=Figure(sum(p.shutout_suffered for p in parties), len(parties)),
        best_party=best,
        head_to_head=[
            HeadToHead(opponent, parties_met, won, plus_minus)
            for opponent, (parties_met, won, plus_minus) in rivals_met[:rivals]
        ],
    )
