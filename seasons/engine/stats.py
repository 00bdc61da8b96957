"""A player's figures in a game whose parties settle player to player (a game of
party formats, `Game.formats`), from the hands and parties entered: the game's
own record (`Game.record`) of the hands the player knocked or defended, and what
the settlements paid. (Each other game's section is its record alone.)

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

from scoring.engine.games.game import Figure, Game, PlayedHand

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


def _share(count: Figure) -> Figure:
    """A count of what it rests on as a share of it."""
    return Figure(count.value / count.of if count.of else None, count.of)


def _played(hand: HandFact) -> PlayedHand:
    """One of the player's hands as the game's record reads it: the player's side
    is side 0, the knocker's side by the player's role."""
    knocker = 0 if hand.role == KNOCKER else 1
    facts = {
        "kind": hand.kind,
        "knocker": knocker,
        "defender": 1 - knocker,
        "knocker_deadwood": hand.knocker_deadwood,
    }
    return PlayedHand(0, (), facts)


def _mean(values: list[int]) -> Figure:
    return Figure(sum(values) / len(values) if values else None, len(values))


def player_stats(
    game: Game, hands: Iterable[HandFact], parties: Iterable[PartyFact], *, rivals: int = 5
) -> PlayerStats:
    """The player's figures in ``game``: its record's (`Game.record`) as shares of
    what each rests on, then what the settlements paid.

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
    # The hands' figures are the game's record (one rule, read here as shares of
    # what each rests on), the player's side being side 0.
    record = game.record([_played(h) for h in hands], [], len(parties))
    from_cards = [h for h in hands if h.role == DEFENDER and h.laid_off is not None]

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
        gin_rate=_share(record["gins"]),
        knocks_won=_share(record["knocks_won"]),
        undercuts_made=_share(record["undercuts_made"]),
        undercuts_suffered=_share(record["undercuts_suffered"]),
        deadwood_when_knocking=record["deadwood_when_knocking"],
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
