"""The season table (German "Rangliste"): a club's events over a season, scored by
the scheme the club chose.

An event is a club night or a tournament; a player's result in it is his plus/minus
over its finished parties (seed 000: the winner is paid the difference). The schemes
clubs use:

- ``plus_minus``: the season score is the sum of his events' plus/minus (the seed's
  own measure);
- ``places``: each event's players are placed by their plus/minus (equal results
  share the place), or as the event decided (a tournament's final places its
  players first), and score the organizer's points for that place (e.g.
  10-8-6-5-4-3-2-1; a place beyond the table scores nothing); players sharing a
  place each score that place's points.

``best_of``: only a player's best N event scores count (the rest are dropped and
shown as such; "skip worst results"). ``minimum_events``: a player with fewer
events is listed below the ranked, with how many he still needs. Ranked players
sharing a score share the place.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from datetime import date

PLUS_MINUS = "plus_minus"
PLACES = "places"


class SchemeError(ValueError):
    """A scheme that cannot score a season; the message says why, ``code`` which
    rule it breaks (for the pages to word it in the reader's language)."""

    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Scheme:
    kind: str = PLUS_MINUS
    place_points: tuple[int, ...] = ()
    best_of: int | None = None
    minimum_events: int = 0

    def __post_init__(self) -> None:
        if self.kind not in (PLUS_MINUS, PLACES):
            raise SchemeError(f"There is no scheme called {self.kind!r}.", "unknown")
        if self.kind == PLACES and not self.place_points:
            raise SchemeError(
                "Points by place needs the points for at least the first place.", "places"
            )
        if any(points < 0 for points in self.place_points):
            raise SchemeError("Points for a place cannot be negative.", "negative")
        if self.best_of is not None and self.best_of < 1:
            raise SchemeError("At least one event must count.", "best")
        if self.minimum_events < 0:
            raise SchemeError("The minimum number of events cannot be negative.", "minimum")


@dataclass(frozen=True, slots=True)
class Event:
    """One event of the season: its ``key``, day and each player's plus/minus, and
    the event's own places where it decided them otherwise (a tournament's final
    places its players by how far they came, not by plus/minus)."""

    key: Hashable
    day: date
    results: dict
    decided: dict | None = None


@dataclass(frozen=True, slots=True)
class Score:
    """A player's score from one event, and whether best-of dropped it."""

    event: Hashable
    plus_minus: int
    place: int
    points: int
    counted: bool = True


@dataclass(frozen=True, slots=True)
class Line:
    """A player's line: their place (``None`` until they have the events needed), the
    season score, the events played, how many more they need, and every event."""

    player: Hashable
    place: int | None
    total: int
    events: int
    needed: int
    scores: tuple[Score, ...] = field(default_factory=tuple)


def places(results: dict) -> dict:
    """Each player's place by their result, highest first; equal results share the
    place (1, 2, 2, 4)."""
    ordered = sorted(results.values(), reverse=True)
    first = {}
    for index, value in enumerate(ordered, start=1):
        first.setdefault(value, index)
    return {player: first[value] for player, value in results.items()}


def season_table(events: Sequence[Event], scheme: Scheme) -> list[Line]:
    """The season table: ranked players first, by score (then by events played,
    then by player), with shared places; then the players who need more events."""
    scores: dict = {}
    for event in sorted(events, key=lambda e: (e.day, repr(e.key))):
        event_places = places(event.results)
        if event.decided:
            # One the event did not place (none should be) comes after its last.
            last = len(event.decided) + 1
            event_places = {p: event.decided.get(p, last) for p in event.results}
        for player, plus_minus in event.results.items():
            place = event_places[player]
            if scheme.kind == PLUS_MINUS:
                points = plus_minus
            else:
                points = scheme.place_points[place - 1] if place <= len(scheme.place_points) else 0
            scores.setdefault(player, []).append(Score(event.key, plus_minus, place, points))
    lines = []
    for player, own in scores.items():
        if scheme.best_of is not None and len(own) > scheme.best_of:
            # The best N count; of equal scores the earlier event is kept.
            kept = sorted(range(len(own)), key=lambda i: (-own[i].points, i))[: scheme.best_of]
            own = [
                s if i in kept else Score(s.event, s.plus_minus, s.place, s.points, False)
                for i, s in enumerate(own)
            ]
        total = sum(s.points for s in own if s.counted)
        needed = max(0, scheme.minimum_events - len(own))
        lines.append(Line(player, None, total, len(own), needed, tuple(own)))
    # The placed lines come first, each group in this order: the split below keeps it.
    lines.sort(key=lambda line: (-line.total, -line.events, repr(line.player)))
    ranked = [line for line in lines if not line.needed]
    placed, place, previous = [], 0, None
    for index, line in enumerate(ranked, start=1):
        if line.total != previous:
            place, previous = index, line.total
        placed.append(Line(line.player, place, line.total, line.events, 0, line.scores))
    return placed + [line for line in lines if line.needed]
