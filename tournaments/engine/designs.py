"""Resolvable designs: schedules at tables of three to six in which no two entrants
ever sit together twice, built from finite geometry or shipped as data.

A design is a list of rounds (parallel classes), each a list of tables that seat
the points 0 … n − 1 once. Built here:

* **Affine geometry AG(d, q)** over the field with q = 3, 4 or 5 elements: the
  points are the vectors of d coordinates (numbered in base q), the tables the
  lines p + t·v, one round for each direction v (a vector whose first non-zero
  coordinate is 1). Two points lie on one line, so no pair meets twice. The plane
  (d = 2) seats q² at tables of q for q + 1 rounds; the space (d = 3) seats 27 at
  tables of three for 13 rounds and 64 at tables of four for 21.
* **Shipped** (`SHIPPED`, in `shipped_designs`, which tells how each was found):
  schedules found once by an offline search and checked by the tests (every
  round a partition, no pair twice): Kirkman's fifteen schoolgirls (7 rounds) and
  21 at tables of three (10 rounds), 18 at tables of three (8 rounds; nine pairs
  never meet), and the social-golfer schedules for 20, 24, 28, 32 and 40 at tables
  of four (5, 7, 9, 10 and 13 rounds), which the search in `planned` finds slowly
  or not at all.

Plain Python, like the rest of the engine: no Django, no database.
"""

from __future__ import annotations

import itertools
from functools import cache

from tournaments.engine.shipped_designs import SHIPPED, Design

#: The orders of the finite fields built here (a prime or a prime power).
FIELD_ORDERS = (3, 4, 5)


def arithmetic(order: int) -> tuple[list[list[int]], list[list[int]]]:
    """The addition and multiplication tables of the field with ``order`` (3, 4 or
    5) elements: the integers modulo a prime, or GF(4) = {0, 1, a, a + 1} with
    a² = a + 1, written as the bits 0 to 3, for 4 (adding is exclusive or)."""
    elements = range(order)
    if order == 4:
        return (
            [[x ^ y for y in elements] for x in elements],
            [[_gf4_times(x, y) for y in elements] for x in elements],
        )
    return (
        [[(x + y) % order for y in elements] for x in elements],
        [[(x * y) % order for y in elements] for x in elements],
    )


def _gf4_times(x: int, y: int) -> int:
    """GF(4)'s product: polynomials over the bits, reduced by a² = a + 1."""
    product = 0
    for bit in range(2):
        if y >> bit & 1:
            product ^= x << bit
    if product & 0b100:
        product ^= 0b111
    return product


@cache
def affine_space(dimension: int, order: int) -> Design:
    """The lines of AG(``dimension``, ``order``) as a design (see the module): one
    round per direction, the directions in the order of their numbers, each
    round's tables sorted. ``order`` must be 3, 4 or 5."""
    if order not in FIELD_ORDERS:
        raise ValueError(f"A finite field is built here of order 3, 4 or 5, not {order}.")
    add, times = arithmetic(order)
    vectors = list(itertools.product(range(order), repeat=dimension))
    number = {vector: index for index, vector in enumerate(vectors)}
    directions = [v for v in vectors if any(v) and v[next(i for i, c in enumerate(v) if c)] == 1]
    rounds = []
    for direction in directions:
        lines = {
            tuple(
                sorted(
                    number[
                        tuple(add[p][times[t][d]] for p, d in zip(point, direction, strict=True))
                    ]
                    for t in range(order)
                )
            )
            for point in vectors
        }
        rounds.append(tuple(sorted(lines)))
    return tuple(rounds)


def further_rounds(points: int, size: int) -> Design:
    """Rounds that follow the design of ``points`` at tables of ``size`` well,
    although they repeat meetings (none where none is known): for 32 at tables of
    four, the round that seats two by two the pairs the design never seats together
    (2i and 2i + 1, `GOLFERS_32_AT_4`): the tables 0–3, 4–7, … Each table's two
    pairs are new and its four other pairs met once, 32 repeats, the counting
    bound for eleven rounds."""
    if (points, size) != (32, 4):
        return ()
    return (tuple(tuple(range(first, first + 4)) for first in range(0, 32, 4)),)


@cache
def catalogue() -> dict[int, dict[int, Design]]:
    """Every design known here, by table size and then number of points: the
    affine planes and spaces and the shipped designs; where two seat the same field,
    the one with more rounds."""
    designs: dict[int, dict[int, Design]] = {}

    def add(design: Design) -> None:
        size, points = len(design[0][0]), sum(map(len, design[0]))
        known = designs.setdefault(size, {})
        if len(design) > len(known.get(points, ())):
            known[points] = design

    for order in FIELD_ORDERS:
        add(affine_space(2, order))
    add(affine_space(3, 3))
    add(affine_space(3, 4))
    for design in SHIPPED:
        add(design)
    return designs
