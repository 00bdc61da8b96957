"""Ratings: a player's strength from all his confirmed parties in the club.

The maths is openskill's Plackett-Luce model (chosen by measurement, see
``benchmarks/ratings.py`` and docs/organizers.md): each side of a party is a team, and every
payment of the settlement is one game that the paid side won against the paying side.
A party of two players is one game; in a chouette the box plays each member of the
team who pays or is paid; in a rotation each player plays each other player as the
settlement pays (seed 000 "zu dritt": the highest collects from both others, the
second from the lowest); in partnerships team plays team.

Each game keeps its own ratings. A party of another game (Chinchón, Canasta, Blaue
Vierzehn, Cruzo; seed 003) is one match of all the sides at its table, ranked by
their places (shared places tie; a Canasta partnership is one team), rated by
openskill's Bradley-Terry over every pair of sides (`TABLE_MODEL`).

A rating is shown on the Elo-like scale clubs know (1500 for a new player); it is
provisional ("1500?") while its uncertainty is high: for a new player during about
his first dozen parties, and again after about a year without a party, since his
uncertainty grows with every day he does not play (lichess' calibration: a settled
player is uncertain again after a year). A rating never resets.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from openskill.models import BradleyTerryFull, PlackettLuce

#: openskill's defaults: a new player is 25 ± 25/3.
START_MU = 25.0
START_SIGMA = 25.0 / 3
#: One openskill beta (25/6, the skill gap that wins about three parties in four) is
#: shown as 200 points, as in Elo.
SCALE = 200 / (25.0 / 6)
SHOWN_START = 1500
#: Above this uncertainty a rating is provisional: a new player's first dozen or so
#: parties.
PROVISIONAL_SIGMA = 6.0
#: How fast uncertainty grows per day without a party (variance per day): a player
#: settled after thirty parties (sigma about 4.1) is provisional again after a year.
DRIFT_PER_DAY = (PROVISIONAL_SIGMA**2 - 4.14**2) / 365

MODEL = PlackettLuce(mu=START_MU, sigma=START_SIGMA)
#: A table of another game (seed 003) is one match of up to seven sides, often with
#: shared places. Plackett-Luce rates such a tie unevenly: a lone third could gain
#: more than two sharing the first (a property test found it). Bradley-Terry over
#: every pair of sides places a better place never lower, on the same scale
#: (same start, same beta).
TABLE_MODEL = BradleyTerryFull(mu=START_MU, sigma=START_SIGMA)


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating as kept: skill ``mu`` and its uncertainty ``sigma``, the
    parties that moved it, those won, and the day of the last one."""

    mu: float = START_MU
    sigma: float = START_SIGMA
    parties: int = 0
    won: int = 0
    last_played: date | None = None

    def sigma_on(self, day: date | None) -> float:
        """The uncertainty on ``day``: it grows with the days without a party, up to
        a new player's."""
        if day is None or self.last_played is None or day <= self.last_played:
            return self.sigma
        days = (day - self.last_played).days
        return min(START_SIGMA, math.sqrt(self.sigma**2 + DRIFT_PER_DAY * days))

    def shown(self, day: date | None = None) -> int:
        """The rating on the club's scale (1500 for a new player)."""
        return round(SHOWN_START + (self.mu - START_MU) * SCALE)

    def provisional(self, day: date | None = None) -> bool:
        return self.sigma_on(day) > PROVISIONAL_SIGMA

    def label(self, day: date | None = None) -> str:
        """``1612``, or ``1500?`` while provisional."""
        return f"{self.shown(day)}{'?' if self.provisional(day) else ''}"

    def spread(self, day: date | None = None) -> int:
        """The uncertainty on the shown scale (``1612 ± 80``)."""
        return round(self.sigma_on(day) * SCALE)


#: A player's rating before his first party.
NEW = Rating()


@dataclass(frozen=True, slots=True)
class Game:
    """One payment of a settlement as a game: ``winners`` (the side paid) beat
    ``losers`` (the side that pays)."""

    winners: tuple[Hashable, ...]
    losers: tuple[Hashable, ...]


@dataclass(frozen=True, slots=True)
class RatedParty:
    """A finished party as the ratings see it: its day, its games, and the players
    who won it (plus/minus above nothing: a rotation's middle player may collect
    from one and pay the other)."""

    key: Hashable
    day: date
    games: tuple[Game, ...]
    won: frozenset = frozenset()
    #: Everyone who sat at the party: a party that ends level has no game, yet
    #: it was played (it counts, and moves nobody's skill).
    players: frozenset = frozenset()
    #: A party of another game (seed 003) is one match of all its sides at once:
    #: ``teams`` (each side's players) placed by ``ranks`` (1 best; equal ranks
    #: tie). Empty for Gin Rummy, rated from its settlement's ``games``.
    teams: tuple[tuple[Hashable, ...], ...] = ()
    ranks: tuple[int, ...] = ()


def games_from_payments(payments: Iterable, player_of) -> tuple[Game, ...]:
    """The games of a party from its settlement's payments (``payer``, ``payee``,
    ``amount``; sides as tuples of positions), with ``player_of`` turning a position
    into a player. A payment of nothing (equal totals) is no game."""
    return tuple(
        Game(tuple(map(player_of, p.payee)), tuple(map(player_of, p.payer)))
        for p in payments
        if p.amount > 0
    )


def rated_match(key: Hashable, day: date, teams, places, won=()) -> RatedParty:
    """A finished party of another game (Chinchón, Canasta, Blaue Vierzehn, Cruzo;
    seed 003) as the ratings see it: one match of all the sides at the table, ranked
    by their places (shared places tie; `TABLE_MODEL`); a partnership is one team.
    ``won``: the players who won it."""
    teams = tuple(tuple(team) for team in teams)
    return RatedParty(
        key=key,
        day=day,
        games=(),
        won=frozenset(won),
        players=frozenset(p for team in teams for p in team),
        teams=teams,
        ranks=tuple(places),
    )


def rate_party(ratings: dict, party: RatedParty) -> dict:
    """The ratings of the party's players after it, from ``ratings`` before it
    (players missing start new). Each game is rated in the settlement's order (a
    party of another game is one match of all its sides, ranked by place); the
    days without a party widen each player's uncertainty first. Returns only the
    players of the party."""
    players = {p for game in party.games for side in (game.winners, game.losers) for p in side}
    players |= party.players
    before = {player: ratings.get(player, NEW) for player in sorted(players, key=repr)}
    # (mu, sigma) as the games move them; a Rating is made once per player at the
    # end: a rebuild rates every party of the club's history.
    now = {player: (rating.mu, rating.sigma_on(party.day)) for player, rating in before.items()}
    for game in party.games:
        sides = (game.winners, game.losers)
        teams = [[MODEL.rating(mu=now[p][0], sigma=now[p][1]) for p in side] for side in sides]
        # Without ranks openskill ranks the teams as listed: the paid side first.
        rated = MODEL.rate(teams)
        for side, team in zip(sides, rated, strict=True):
            for player, new in zip(side, team, strict=True):
                now[player] = (new.mu, new.sigma)
    if len(party.teams) > 1 and len(set(party.ranks)) > 1:
        teams = [
            [TABLE_MODEL.rating(mu=now[p][0], sigma=now[p][1]) for p in t] for t in party.teams
        ]
        rated = TABLE_MODEL.rate(teams, ranks=list(party.ranks))
        for side, team in zip(party.teams, rated, strict=True):
            for player, new in zip(side, team, strict=True):
                now[player] = (new.mu, new.sigma)
    return {
        player: Rating(
            mu=now[player][0],
            sigma=now[player][1],
            parties=rating.parties + 1,
            won=rating.won + (player in party.won),
            last_played=party.day,
        )
        for player, rating in before.items()
    }


def rate_all(parties: Sequence[RatedParty], ratings: dict | None = None) -> dict:
    """Every player's rating after ``parties`` (in the order given), starting from
    ``ratings``: a rebuild is this fold over all the club's finished parties."""
    ratings = dict(ratings or {})
    for party in parties:
        ratings.update(rate_party(ratings, party))
    return ratings
