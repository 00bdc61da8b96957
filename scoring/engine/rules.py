"""Rulesets: every number and switch that Gin Rummy scoring depends on.

The seed texts agree on the game and differ on its numbers. Seed 000 and 002
(the club rules) give undercut 10, gin 20, box 20, game 100 and shutout 100;
seed 001 (cardgames) gives undercut 25, gin 25, big gin 31, line 25, game 100
and doubles the winner's points for a shutout. Seed 002 ("Varianten") lists
what clubs commonly change: the bonuses, who deals, whether the last two stock
cards may be drawn, Q-K-A and K-A-2 runs, lay-offs on gin, and Oklahoma. Who deals
and whether the last two stock cards may be drawn change how the table plays, never
what a hand scores (a hand still ends with a knock, gin or a no-game), so they are
no settings here; the others are.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace

SHUTOUT_BONUS = "bonus"
SHUTOUT_DOUBLE = "double"


class InvalidRules(ValueError):
    """A ruleset whose numbers or switches make no sense."""


@dataclass(frozen=True, slots=True)
class Rules:
    """A ruleset. Frozen: a party copies it when it starts and never changes it.

    - ``knock_limit``: the most deadwood a player may knock with (0–10; 0 means gin only).
    - ``gin_bonus``, ``big_gin_bonus``: added to the defender's deadwood on gin.
      ``big_gin_bonus=None`` means big gin (11 cards in melds) is not recognised
      and scores as ordinary gin.
    - ``undercut_bonus``: the defender's bonus when he undercuts the knocker.
    - ``undercut_on_tie``: equal deadwood is an undercut (all three named
      rulesets); when False a tie is not an undercut and scores nothing.
    - ``box_bonus``: per hand won, added when the party is settled ("box" or "line").
    - ``game_bonus``: for whoever reaches ``target`` first.
    - ``shutout``: ``"bonus"`` adds ``shutout_bonus`` when the loser scored nothing;
      ``"double"`` doubles the winner's hand points when he won every hand and no
      hand was a no-game (seed 001).
    - ``layoff_on_gin``: the defender may lay off on a gin hand (seed 002, Varianten).
    - ``ace_high``: Q-K-A runs; ``round_the_corner``: K-A-2 runs (seed 002, Varianten).
    - ``oklahoma``: the up-card's value is the knock limit; with
      ``oklahoma_ace_gin_only`` an ace up-card means only gin ends the hand (seed 002).
    """

    name: str = "classic"
    knock_limit: int = 10
    gin_bonus: int = 20
    big_gin_bonus: int | None = None
    undercut_bonus: int = 10
    undercut_on_tie: bool = True
    box_bonus: int = 20
    game_bonus: int = 100
    target: int = 100
    shutout: str = SHUTOUT_BONUS
    shutout_bonus: int = 100
    layoff_on_gin: bool = False
    ace_high: bool = False
    round_the_corner: bool = False
    oklahoma: bool = False
    oklahoma_ace_gin_only: bool = True

    def __post_init__(self) -> None:
        problems = []
        if not isinstance(self.name, str) or not self.name.strip():
            problems.append("a ruleset needs a name")
        if not _is_int(self.knock_limit) or not 0 <= self.knock_limit <= 10:
            problems.append("the knock limit must be between 0 and 10")
        for field in ("gin_bonus", "undercut_bonus", "box_bonus", "game_bonus", "shutout_bonus"):
            value = getattr(self, field)
            if not _is_int(value) or value < 0:
                problems.append(f"{field.replace('_', ' ')} must be a whole number of 0 or more")
        if self.big_gin_bonus is not None and (
            not _is_int(self.big_gin_bonus) or self.big_gin_bonus < 0
        ):
            problems.append("big gin bonus must be empty or a whole number of 0 or more")
        if not _is_int(self.target) or self.target < 1:
            problems.append("the target must be at least 1 point")
        if self.shutout not in (SHUTOUT_BONUS, SHUTOUT_DOUBLE):
            problems.append('shutout must be "bonus" or "double"')
        for field in fields(self):
            if field.type == "bool" and not isinstance(getattr(self, field.name), bool):
                problems.append(f"{field.name.replace('_', ' ')} must be true or false")
        if problems:
            raise InvalidRules("Invalid ruleset: " + "; ".join(problems) + ".")

    def knock_limit_for(self, up_card_value: int | None = None) -> int:
        """The knock limit of one hand: under Oklahoma the up-card's value, an ace
        meaning gin only (seed 002, Varianten); otherwise ``knock_limit``."""
        if not self.oklahoma or up_card_value is None:
            return self.knock_limit
        if up_card_value == 1 and self.oklahoma_ace_gin_only:
            return 0
        return min(up_card_value, self.knock_limit)

    def as_dict(self) -> dict:
        """Plain data, for storing a copy of the rules with a party."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Rules:
        """The inverse of `as_dict`; unknown keys are an error, missing ones take defaults."""
        known = {field.name for field in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidRules(f"Invalid ruleset: unknown setting {', '.join(unknown)}.")
        return cls(**data)

    def but(self, **changes) -> Rules:
        """A copy with some settings changed (validated like any ruleset)."""
        return replace(self, **changes)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


RULESETS: dict[str, Rules] = {
    # Seed 000 and 002: the club rules.
    "classic": Rules(name="classic"),
    # Seed 001: cardgames.io.
    "cardgames": Rules(
        name="cardgames",
        gin_bonus=25,
        big_gin_bonus=31,
        undercut_bonus=25,
        box_bonus=25,
        shutout=SHUTOUT_DOUBLE,
    ),
    # Seed 002, Varianten: classic numbers, knock limit from the up-card.
    "oklahoma": Rules(name="oklahoma", oklahoma=True),
}
