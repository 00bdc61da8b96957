"""How long Swiss pairing takes for a championship and for tightly constrained fields,
and how long the standings take.

Run with ``python -m benchmarks`` (all benchmarks) or ``python -m benchmarks.pairing``.
Everything is seeded, so the figures vary only with the machine. The largest fields,
the Swiss championship's (``BENCH_SWISS_ENTRANTS``, 10,000) and the round robin's
(``BENCH_ROUND_ROBIN_ENTRANTS``, 1,000), take most of the time.
"""

from __future__ import annotations

import os
import random
import time

from tournaments.engine.pairing import (
    NoPairing,
    card_draw,
    first_round_lots,
    round_robin,
    standings_order,
    swiss_pairings,
    swiss_pairings_fewest_rematches,
    swiss_round_count,
    tied_groups,
)
from tournaments.engine.standings import Bye, Played, places, plus_minus

SEED = 2024
# A naive search gets this many steps before it is called hopeless.
NAIVE_STEP_LIMIT = 100_000
SWISS_ENTRANTS = int(os.environ.get("BENCH_SWISS_ENTRANTS", 10_000))
ROUND_ROBIN_ENTRANTS = int(os.environ.get("BENCH_ROUND_ROBIN_ENTRANTS", 1000))


def main() -> None:
    print("Swiss pairing (tournaments/engine/pairing.py)")
    for entrants in (1000, 999, SWISS_ENTRANTS):
        _championship(entrants)
    _swiss_until_stuck(64)
    for entrants, left in ((64, 3), (64, 2), (65, 3), (200, 3), (ROUND_ROBIN_ENTRANTS, 3)):
        _round_robin_nearly_done(entrants, left)
    for entrants in (64, 200):
        _fewest_rematches_past_the_end(entrants)
    _standings_after(1000, 10)


def _championship(count: int) -> None:
    """A full Swiss with random results: ties by card draw, as on the day."""
    rng = random.Random(SEED)
    entrants = [f"P{number:04d}" for number in range(1, count + 1)]
    rounds = swiss_round_count(count)
    totals = dict.fromkeys(entrants, 0)
    played: list[tuple[str, str]] = []
    byes: list[str] = []
    times = []
    pairing = first_round_lots(entrants, rng)
    for number in range(1, rounds + 1):
        if number > 1:
            ranking = _standings(totals, rng)
            start = time.perf_counter()
            pairing = swiss_pairings(ranking, played, byes)
            times.append(time.perf_counter() - start)
        _play(pairing, totals, played, byes, rng)
    figures = ", ".join(f"{seconds * 1000:.0f}" for seconds in times)
    print(
        f"  {count} entrants, {rounds} rounds: pairing rounds 2-{rounds} took {figures} ms;"
        f" worst {max(times) * 1000:.0f} ms"
    )


def _standings(totals, rng) -> list:
    draws = {}
    for group in tied_groups(totals):
        draws.update(card_draw(group, rng))
    return standings_order(totals, draws)


def _play(pairing, totals, played, byes, rng) -> None:
    for first, second in pairing.pairs:
        # A party's margin: game bonus, boxes and deadwood, a few hundred points.
        margin = rng.randint(20, 450)
        winner, loser = (first, second) if rng.random() < 0.5 else (second, first)
        totals[winner] += margin
        totals[loser] -= margin
        played.append((first, second))
    if pairing.bye is not None:
        byes.append(pairing.bye)


def _swiss_until_stuck(count: int) -> None:
    """Keep pairing a small field far past its rounds: late rounds get tight."""
    rng = random.Random(SEED)
    entrants = [f"P{number:02d}" for number in range(1, count + 1)]
    totals = dict.fromkeys(entrants, 0)
    played: list[tuple[str, str]] = []
    byes: list[str] = []
    times = []
    _play(first_round_lots(entrants, rng), totals, played, byes, rng)
    rounds = 1
    while rounds < count - 1:
        ranking = _standings(totals, rng)
        start = time.perf_counter()
        try:
            pairing = swiss_pairings(ranking, played, byes)
        except NoPairing:
            times.append(time.perf_counter() - start)
            break
        times.append(time.perf_counter() - start)
        _play(pairing, totals, played, byes, rng)
        rounds += 1
    print(
        f"  {count} entrants, Swiss until no pairing is left: {rounds} rounds paired"
        f" (a round robin has {count - 1}); worst {max(times) * 1000:.1f} ms,"
        f" total {sum(times) * 1000:.0f} ms"
    )


def _fewest_rematches_past_the_end(count: int) -> None:
    """A Swiss played on past a finished round robin: every pair is a rematch,
    the slowest case of the fallback pairing."""
    rng = random.Random(SEED + count)
    entrants = list(range(count))
    played = [pair for games in round_robin(entrants) for pair in games]
    rng.shuffle(entrants)
    start = time.perf_counter()
    pairing = swiss_pairings_fewest_rematches(entrants, played)
    seconds = time.perf_counter() - start
    met = {frozenset(pair) for pair in played}
    rematches = sum(frozenset(pair) in met for pair in pairing.pairs)
    print(
        f"  {count} entrants after a whole round robin, fewest rematches:"
        f" {seconds * 1000:.1f} ms ({rematches} rematches)"
    )


def _standings_after(count: int, rounds: int) -> None:
    """Plus/minus points and places from every party result of the tournament."""
    rng = random.Random(SEED)
    entrants = list(range(count))
    results = []
    for _ in range(rounds):
        rng.shuffle(entrants)
        for first, second in zip(entrants[::2], entrants[1::2], strict=False):
            winner = first if rng.random() < 0.5 else second
            results.append(Played(first, second, winner, rng.randint(20, 450)))
        if count % 2:
            results.append(Bye(entrants[-1]))
    start = time.perf_counter()
    totals = plus_minus(entrants, results, bye_value=100)
    draws = {}
    for group in tied_groups(totals):
        draws.update(card_draw(group, rng))
    table = places(totals, draws)
    seconds = time.perf_counter() - start
    print(
        f"Standings: {count} entrants, {rounds} rounds ({len(results)} results):"
        f" {seconds * 1000:.1f} ms for {len(table)} places"
    )


def _round_robin_nearly_done(count: int, left: int) -> None:
    """Everyone has met all but a few opponents, in a random standings order:
    almost every choice of the literal rule strands somebody."""
    rng = random.Random(SEED + count + left)
    entrants = list(range(count))
    schedule = round_robin(entrants)
    rng.shuffle(schedule)
    played = [pair for games in schedule[:-left] for pair in games]
    ranking = entrants[:]
    rng.shuffle(ranking)
    start = time.perf_counter()
    pairing = swiss_pairings(ranking, played)
    seconds = time.perf_counter() - start
    steps = _naive_steps(ranking, played, pairing.bye)
    naive = f"{steps:,} steps" if steps <= NAIVE_STEP_LIMIT else f"over {NAIVE_STEP_LIMIT:,} steps"
    print(
        f"  {count} entrants, {left} round-robin rounds left: {seconds * 1000:.1f} ms"
        f" (plain depth-first search: {naive})"
    )


def _naive_steps(ranking, played, bye) -> int:
    """Steps a depth-first search without look-ahead takes to the same answer."""
    met = {frozenset(pair) for pair in played}
    seats = [entrant for entrant in ranking if entrant != bye]
    seated = [False] * len(seats)
    choices = [
        [j for j in range(i + 1, len(seats)) if frozenset((seats[i], seats[j])) not in met]
        for i in range(len(seats))
    ]
    steps = 0

    def extend(start: int) -> bool:
        nonlocal steps
        leader = next((i for i in range(start, len(seats)) if not seated[i]), None)
        if leader is None:
            return True
        seated[leader] = True
        for other in choices[leader]:
            if seated[other]:
                continue
            steps += 1
            seated[other] = True
            if steps > NAIVE_STEP_LIMIT or extend(leader + 1):
                return True
            seated[other] = False
        seated[leader] = False
        return False

    extend(0)
    return steps


if __name__ == "__main__":
    main()
