"""How fast the hand evaluator is, next to RLCard's Gin Rummy melding.

Every figure comes from the same random hands (fixed seed): the first ten
cards of each hand for the ten-card figures, all eleven for the knock values.
The contenders take turns, pass after pass, so that a busy machine slows them
alike; each figure is the best pass. RLCard (``pip install ".[bench]"``) knows
only the classic rules, so the comparison uses those. ``BENCH_HANDS`` hands
(20,000).
"""

from __future__ import annotations

import os
import platform
import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence

from scoring.engine.cards import DECK, Card
from scoring.engine.melds import arrange, best_discard, deadwood, knock_value, prepare
from scoring.engine.rules import RULESETS

HANDS = int(os.environ.get("BENCH_HANDS", 20_000))
SEED = 20_240_917
PASSES = 3
TARGET_TEN = 5
TARGET_ELEVEN = 8

# Each probe runs in a fresh interpreter, where the tables do not exist yet.
_BUILD_PROBE = """
import time
from scoring.engine.melds import prepare
from scoring.engine.rules import RULESETS
classic = RULESETS["classic"]
started = time.perf_counter()
prepare(classic)
first = time.perf_counter() - started
prepare(classic.but(ace_high=True))
prepare(classic.but(round_the_corner=True))
print(first, time.perf_counter() - started)
"""
_MEMORY_PROBE = """
import random, tracemalloc
from scoring.engine.cards import DECK
from scoring.engine.melds import arrange, prepare
from scoring.engine.rules import RULESETS
classic = RULESETS["classic"]
rng = random.Random({seed})
hands = [rng.sample(DECK, 10) for _ in range({hands})]
tracemalloc.start()
prepare(classic)
tables, tables_peak = tracemalloc.get_traced_memory()
for hand in hands:
    arrange(hand, classic)
print(tables, tables_peak, tracemalloc.get_traced_memory()[0] - tables)
"""


def main() -> None:
    rng = random.Random(SEED)
    hands = [tuple(rng.sample(DECK, 11)) for _ in range(HANDS)]
    tens = [hand[:10] for hand in hands]
    print(f"Hand evaluator: {HANDS:,} random hands, seed {SEED}, best of {PASSES} passes")
    print(f"Python {platform.python_version()} on {platform.machine()}")
    _print_tables()
    prepare(RULESETS["classic"])
    rlcard = _rlcard()

    print("\n10 cards: least deadwood")
    contenders = {"deadwood": (deadwood, tens), "arrange": (arrange, tens)}
    if rlcard:
        contenders["rlcard"] = (rlcard.deadwood, [rlcard.convert(hand) for hand in tens])
    results, rates = _race(contenders)
    _row("Knock deadwood()", rates["deadwood"])
    _row("Knock arrange() (melds and deadwood cards)", rates["arrange"])
    if rlcard:
        _row("RLCard get_best_meld_clusters + get_deadwood_count", rates["rlcard"])
        _ratio("deadwood() / RLCard", rates["deadwood"] / rates["rlcard"], TARGET_TEN)
        _ratio("arrange() / RLCard", rates["arrange"] / rates["rlcard"])
        _count("disagreements with RLCard", results["deadwood"], results["rlcard"])
    arranged = [arrangement.points for arrangement in results["arrange"]]
    _count("arrange().points differing from deadwood()", results["deadwood"], arranged)

    print("\n11 cards: knock value (least deadwood after the best discard)")
    contenders = {"knock_value": (knock_value, hands), "best_discard": (best_discard, hands)}
    if rlcard:
        contenders["rlcard"] = (rlcard.knock_value, [rlcard.convert(hand) for hand in hands])
    results, rates = _race(contenders)
    _row("Knock knock_value()", rates["knock_value"])
    _row("Knock best_discard() (discard and arrangement)", rates["best_discard"])
    if rlcard:
        _row("RLCard ten-card evaluation for each of 11 discards", rates["rlcard"])
        _ratio("knock_value() / RLCard", rates["knock_value"] / rates["rlcard"], TARGET_ELEVEN)
        _ratio("best_discard() / RLCard", rates["best_discard"] / rates["rlcard"])
        _count("disagreements with RLCard", results["knock_value"], results["rlcard"])
    discarded = [arrangement.points for _, arrangement in results["best_discard"]]
    _count("best_discard() points differing from knock_value()", results["knock_value"], discarded)
    if not rlcard:
        print('\nRLCard is not installed (pip install ".[bench]"): no comparison.')


def _race(
    contenders: dict[str, tuple[Callable, Sequence]],
) -> tuple[dict[str, list], dict[str, float]]:
    """Results and best rate (hands per second) of each contender, in turns."""
    results: dict[str, list] = {}
    best = dict.fromkeys(contenders, float("inf"))
    for _ in range(PASSES):
        for name, (function, hands) in contenders.items():
            started = time.perf_counter()
            results[name] = [function(hand) for hand in hands]
            best[name] = min(best[name], time.perf_counter() - started)
    rates = {name: len(contenders[name][1]) / seconds for name, seconds in best.items()}
    return results, rates


def _row(label: str, rate: float) -> None:
    print(f"  {label:<52} {rate:>10,.0f} hands/s  {1e6 / rate:>8.1f} µs/hand")


def _ratio(label: str, ratio: float, target: int | None = None) -> None:
    goal = f"  (target ≥ {target}×: {'met' if ratio >= target else 'MISSED'})" if target else ""
    print(f"  {label:<52} {ratio:>10.1f}×{goal}")


def _count(label: str, ours: Sequence[int], theirs: Sequence[int]) -> None:
    differences = sum(1 for mine, other in zip(ours, theirs, strict=True) if mine != other)
    print(f"  {label:<52} {differences:>10}")


def _print_tables() -> None:
    first, all_three = (float(number) for number in _probe(_BUILD_PROBE))
    tables, peak, cache = (
        int(number) / 1024 for number in _probe(_MEMORY_PROBE.format(seed=SEED, hands=HANDS))
    )
    print(
        f"Lookup tables: classic built in {first * 1000:.0f} ms, all three run variants "
        f"in {all_three * 1000:.0f} ms"
    )
    print(
        f"  memory (tracemalloc): {tables:.0f} KiB per run variant (peak {peak:.0f} KiB "
        f"while building); arrange()'s suit cache {cache:.0f} KiB after {HANDS:,} hands"
    )


def _probe(code: str) -> list[str]:
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    return result.stdout.split()


class _RLCard:
    """RLCard's own route to the least deadwood of ten cards, on its own card objects."""

    def __init__(self) -> None:
        from rlcard.games.gin_rummy.utils import melding, utils

        self._best_meld_clusters = melding.get_best_meld_clusters
        self._deadwood_count = utils.get_deadwood_count
        self._card_from_text = utils.card_from_text

    def convert(self, hand: Sequence[Card]) -> list:
        # Both write rank letters A23456789TJQK and suit letters CDHS.
        return [self._card_from_text(str(card)) for card in hand]

    def deadwood(self, hand: list) -> int:
        clusters = self._best_meld_clusters(hand)
        return self._deadwood_count(hand, clusters[0] if clusters else [])

    def knock_value(self, hand: list) -> int:
        return min(self.deadwood(hand[:i] + hand[i + 1 :]) for i in range(len(hand)))


def _rlcard() -> _RLCard | None:
    try:
        return _RLCard()
    except ImportError:
        return None


if __name__ == "__main__":
    main()
