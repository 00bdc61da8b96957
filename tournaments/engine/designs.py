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
* **Shipped** (`SHIPPED`): schedules found once by a long search over structured
  candidates and checked by the tests (every round a partition, no pair twice):
  Kirkman's fifteen schoolgirls at tables of three (7 rounds) and the social-golfer
  schedules for 20, 24 and 28 at tables of four (5, 7 and 9 rounds), which the
  search in `planned` finds slowly or not at all (24 was found by developing one
  round modulo 7 over the points (x, level) and three fixed points; 28 is the
  Hermitian unital of order 3, its lines parted into rounds).

Plain Python, like the rest of the engine: no Django, no database.
"""

from __future__ import annotations

import itertools
from functools import cache

#: The orders of the finite fields built here (a prime or a prime power).
FIELD_ORDERS = (3, 4, 5)

Design = tuple[tuple[tuple[int, ...], ...], ...]


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


@cache
def catalogue() -> dict[int, dict[int, Design]]:
    """Every design known here, by table size and then number of points: the
    affine planes and spaces and the shipped designs; where two seat the same
    field, the one with more rounds."""
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


# Found once by the searches described in the module and kept: the tests check each.

#: Kirkman's fifteen schoolgirls: 15 at tables of three for 7 rounds.
KIRKMAN_15: Design = (
    ((0, 2, 4), (1, 8, 13), (3, 9, 12), (5, 6, 10), (7, 11, 14)),
    ((0, 1, 12), (2, 9, 10), (3, 6, 14), (4, 7, 8), (5, 11, 13)),
    ((0, 6, 13), (1, 10, 14), (2, 3, 7), (4, 5, 12), (8, 9, 11)),
    ((0, 9, 14), (1, 6, 7), (2, 12, 13), (3, 5, 8), (4, 10, 11)),
    ((0, 8, 10), (1, 3, 4), (2, 5, 14), (6, 11, 12), (7, 9, 13)),
    ((0, 5, 7), (1, 2, 11), (3, 10, 13), (4, 6, 9), (8, 12, 14)),
    ((0, 3, 11), (1, 5, 9), (2, 6, 8), (4, 13, 14), (7, 10, 12)),
)

#: 20 at tables of four for 5 rounds (the social golfers 5-4-5).
GOLFERS_20_AT_4: Design = (
    ((0, 1, 4, 10), (2, 5, 7, 16), (3, 8, 11, 19), (6, 14, 15, 18), (9, 12, 13, 17)),
    ((0, 7, 9, 11), (1, 3, 6, 12), (2, 10, 13, 14), (4, 5, 18, 19), (8, 15, 16, 17)),
    ((0, 5, 6, 17), (1, 13, 16, 19), (2, 11, 12, 18), (3, 7, 10, 15), (4, 8, 9, 14)),
    ((0, 12, 15, 19), (1, 5, 11, 14), (2, 3, 4, 17), (6, 7, 8, 13), (9, 10, 16, 18)),
    ((0, 3, 14, 16), (1, 7, 17, 18), (2, 6, 9, 19), (4, 11, 13, 15), (5, 8, 10, 12)),
)

#: 24 at tables of four for 7 rounds (6-4-7), developed modulo 7 from one round:
#: 21 points (x, level) and three fixed ones.
GOLFERS_24_AT_4: Design = (
    (
        (0, 1, 5, 15),
        (2, 8, 10, 11),
        (3, 7, 19, 21),
        (4, 9, 16, 22),
        (6, 13, 17, 23),
        (12, 14, 18, 20),
    ),
    (
        (0, 7, 18, 23),
        (1, 2, 6, 16),
        (3, 9, 11, 12),
        (4, 8, 20, 21),
        (5, 10, 17, 22),
        (13, 14, 15, 19),
    ),
    (
        (0, 2, 3, 17),
        (1, 8, 19, 23),
        (4, 10, 12, 13),
        (5, 9, 14, 21),
        (6, 11, 18, 22),
        (7, 15, 16, 20),
    ),
    (
        (0, 12, 19, 22),
        (1, 3, 4, 18),
        (2, 9, 20, 23),
        (5, 7, 11, 13),
        (6, 10, 15, 21),
        (8, 14, 16, 17),
    ),
    (
        (0, 11, 16, 21),
        (1, 13, 20, 22),
        (2, 4, 5, 19),
        (3, 10, 14, 23),
        (6, 7, 8, 12),
        (9, 15, 17, 18),
    ),
    (
        (0, 8, 9, 13),
        (1, 12, 17, 21),
        (2, 7, 14, 22),
        (3, 5, 6, 20),
        (4, 11, 15, 23),
        (10, 16, 18, 19),
    ),
    (
        (0, 4, 6, 14),
        (1, 7, 9, 10),
        (2, 13, 18, 21),
        (3, 8, 15, 22),
        (5, 12, 16, 23),
        (11, 17, 19, 20),
    ),
)

#: 28 at tables of four for 9 rounds (7-4-9): the Hermitian unital of order 3, the
#: 28 points of x⁴ + y⁴ + z⁴ = 0 in the projective plane over the field of nine
#: elements, whose 63 lines of four points are every pair once; a search for 9
#: rounds of 7 disjoint lines (exact cover) parted them into these rounds.
GOLFERS_28_AT_4: Design = (
    (
        (0, 1, 2, 3),
        (4, 5, 6, 7),
        (8, 13, 18, 25),
        (9, 12, 19, 24),
        (10, 15, 17, 22),
        (11, 14, 16, 23),
        (20, 21, 26, 27),
    ),
    (
        (0, 6, 17, 24),
        (1, 10, 21, 25),
        (2, 14, 19, 26),
        (3, 4, 11, 13),
        (5, 9, 18, 20),
        (7, 15, 23, 27),
        (8, 12, 16, 22),
    ),
    (
        (0, 11, 18, 27),
        (1, 7, 16, 24),
        (2, 4, 17, 25),
        (3, 9, 21, 22),
        (5, 10, 23, 26),
        (6, 8, 19, 20),
        (12, 13, 14, 15),
    ),
    (
        (0, 4, 9, 15),
        (1, 8, 17, 27),
        (2, 12, 20, 23),
        (3, 5, 16, 25),
        (6, 11, 22, 26),
        (7, 13, 19, 21),
        (10, 14, 18, 24),
    ),
    (
        (0, 5, 19, 22),
        (1, 15, 18, 26),
        (2, 11, 21, 24),
        (3, 7, 8, 14),
        (4, 10, 16, 20),
        (6, 12, 25, 27),
        (9, 13, 17, 23),
    ),
    (
        (0, 7, 10, 12),
        (1, 13, 20, 22),
        (2, 9, 16, 27),
        (3, 6, 18, 23),
        (4, 8, 24, 26),
        (5, 14, 17, 21),
        (11, 15, 19, 25),
    ),
    (
        (0, 14, 20, 25),
        (1, 4, 19, 23),
        (2, 7, 18, 22),
        (3, 12, 17, 26),
        (5, 13, 24, 27),
        (6, 15, 16, 21),
        (8, 9, 10, 11),
    ),
    (
        (0, 13, 16, 26),
        (1, 6, 9, 14),
        (2, 5, 8, 15),
        (3, 10, 19, 27),
        (4, 12, 18, 21),
        (7, 11, 17, 20),
        (22, 23, 24, 25),
    ),
    (
        (0, 8, 21, 23),
        (1, 5, 11, 12),
        (2, 6, 10, 13),
        (3, 15, 20, 24),
        (4, 14, 22, 27),
        (7, 9, 25, 26),
        (16, 17, 18, 19),
    ),
)

#: Schedules without a repeat meeting, found once and kept (see the module).
SHIPPED: tuple[Design, ...] = (KIRKMAN_15, GOLFERS_20_AT_4, GOLFERS_24_AT_4, GOLFERS_28_AT_4)
