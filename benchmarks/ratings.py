"""Which rating library ranks gin players best? Simulated players of known strength
play random two-player parties; after 5, 10 and 30 parties each, the Spearman
correlation between their true strength and their rating says how well a system
ranks them (1.0: perfectly). Averaged over many simulated clubs.

Run: ``.venv/bin/python -m benchmarks.ratings`` (also part of ``make bench``).
"""

import math
import random
import statistics
import time

PLAYERS = 30
CLUBS = 40
CHECKPOINTS = (5, 10, 30)
# A gin party is mostly luck: the best of a club beats the weakest about two times
# in three. Strengths are logits of the chance to win a party.
SPREAD = 0.45


def spearman(xs, ys) -> float:
    def ranks(values):
        order = sorted(range(len(values)), key=values.__getitem__)
        out = [0.0] * len(values)
        for rank, index in enumerate(order):
            out[index] = rank
        return out

    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    d = sum((a - b) ** 2 for a, b in zip(rx, ry, strict=True))
    return 1 - 6 * d / (n * (n * n - 1))


class OpenSkill:
    def __init__(self, model):
        self.model = model
        self.ratings = {}

    def new(self, player):
        self.ratings[player] = self.model.rating()

    def play(self, winner, loser, margin):
        a, b = self.ratings[winner], self.ratings[loser]
        [[a], [b]] = self.model.rate([[a], [b]], ranks=[0, 1])
        self.ratings[winner], self.ratings[loser] = a, b

    def value(self, player):
        return self.ratings[player].mu


class OpenSkillScores(OpenSkill):
    def play(self, winner, loser, margin):
        a, b = self.ratings[winner], self.ratings[loser]
        [[a], [b]] = self.model.rate([[a], [b]], scores=[margin, 0])
        self.ratings[winner], self.ratings[loser] = a, b


class Glicko2:
    def __init__(self):
        from glicko2 import Player

        self.make = Player
        self.ratings = {}

    def new(self, player):
        self.ratings[player] = self.make()

    def play(self, winner, loser, margin):
        a, b = self.ratings[winner], self.ratings[loser]
        ra, rda, rb, rdb = a.rating, a.rd, b.rating, b.rd
        a.update_player([rb], [rdb], [1])
        b.update_player([ra], [rda], [0])

    def value(self, player):
        return self.ratings[player].rating


class Elo:
    K = 32

    def __init__(self):
        self.ratings = {}

    def new(self, player):
        self.ratings[player] = 1500.0

    def play(self, winner, loser, margin):
        a, b = self.ratings[winner], self.ratings[loser]
        expected = 1 / (1 + 10 ** ((b - a) / 400))
        self.ratings[winner] = a + self.K * (1 - expected)
        self.ratings[loser] = b - self.K * (1 - expected)

    def value(self, player):
        return self.ratings[player]


def systems():
    from openskill.models import BradleyTerryFull, PlackettLuce, ThurstoneMostellerFull

    return {
        "openskill PlackettLuce": lambda: OpenSkill(PlackettLuce()),
        "openskill BradleyTerryFull": lambda: OpenSkill(BradleyTerryFull()),
        "openskill ThurstoneMostellerFull": lambda: OpenSkill(ThurstoneMostellerFull()),
        "openskill PlackettLuce + margin": lambda: OpenSkillScores(PlackettLuce()),
        "glicko2 (PyPI glicko2)": Glicko2,
        "Elo K=32": Elo,
    }


def simulate(make, rng) -> dict[int, float]:
    strength = [rng.gauss(0, SPREAD) for _ in range(PLAYERS)]
    system = make()
    for player in range(PLAYERS):
        system.new(player)
    found = {}
    for played in range(1, max(CHECKPOINTS) + 1):
        order = list(range(PLAYERS))
        rng.shuffle(order)
        for a, b in zip(order[::2], order[1::2], strict=True):
            chance = 1 / (1 + math.exp(strength[b] - strength[a]))
            winner, loser = (a, b) if rng.random() < chance else (b, a)
            # Margins: a game bonus of 100 plus the hand points and boxes.
            margin = 100 + int(rng.expovariate(1 / 120))
            system.play(winner, loser, margin)
        if played in CHECKPOINTS:
            found[played] = spearman(strength, [system.value(p) for p in range(PLAYERS)])
    return found


def main() -> None:
    print(f"Ranking {PLAYERS} simulated players of known strength, {CLUBS} clubs each:")
    print(f"{'system':34} " + " ".join(f"{n:>5} parties" for n in CHECKPOINTS) + "   time")
    for name, make in systems().items():
        rng = random.Random(1909)
        started = time.perf_counter()
        runs = [simulate(make, rng) for _ in range(CLUBS)]
        took = time.perf_counter() - started
        means = [statistics.mean(run[n] for run in runs) for n in CHECKPOINTS]
        print(f"{name:34} " + " ".join(f"{m:>13.3f}" for m in means) + f" {took:6.1f} s")


if __name__ == "__main__":
    main()
