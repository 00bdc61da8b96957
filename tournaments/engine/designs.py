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
* **Planes of GF(2)⁵** (`binary_planes`): the points are the vectors of five bits,
  numbered as binary numbers; a plane through the origin is {0, a, b, a + b}
  (adding is exclusive or), and its translates seat the 32 at eight tables of
  four. Two points meet in the round of the plane that holds their difference, so
  planes that share only the origin (a partial spread) never repeat a meeting.
  At most nine such planes exist, so 32 at tables of four get nine rounds; a
  tenth (`further_rounds`) takes the plane of two of the four differences left
  over and repeats 16 meetings.
* **Shipped** (`SHIPPED`, in `shipped_designs`, which tells how each was found):
  schedules found once by an offline search and checked by the tests (every
  round a partition, no pair twice): Kirkman's fifteen schoolgirls (7 rounds) and
  21 at tables of three (10 rounds), 18 at tables of three (8 rounds; nine pairs
  never meet), and the social-golfer schedules for 20, 24, 28 and 40 at tables of
  four (5, 7, 9 and 13 rounds), which the search in `planned` finds slowly or not
  at all.

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


#: Nine planes {0, a, b, a + b} of GF(2)⁵ that share only the origin, each given
#: by (a, b): found by a search of a few milliseconds (no tenth exists).
PLANES_OF_32 = ((1, 2), (4, 8), (5, 10), (6, 16), (7, 18), (9, 17), (11, 20), (13, 19), (14, 23))


@cache
def binary_planes() -> Design:
    """32 at tables of four for nine rounds: each round the translates of one of
    `PLANES_OF_32` (see the module), each round's tables sorted."""
    return tuple(_translates(a, b) for a, b in PLANES_OF_32)


def _translates(a: int, b: int) -> tuple[tuple[int, ...], ...]:
    """The eight translates of the plane {0, a, b, a + b} of GF(2)⁵, sorted."""
    return tuple(sorted({tuple(sorted({p, p ^ a, p ^ b, p ^ a ^ b})) for p in range(32)}))


def further_rounds(points: int, size: int) -> Design:
    """Rounds that follow the design of ``points`` at tables of ``size`` well,
    although they repeat meetings (none where none is known): for 32 at tables of
    four, the translates of the plane {0, a, b, a + b} of two differences no plane
    of `PLANES_OF_32` holds. Its pairs that differ by a or b are new and those by
    a + b met once, 16 repeats; the search from the nine rounds alone found 22."""
    if (points, size) != (32, 4):
        return ()
    held = {x for a, b in PLANES_OF_32 for x in (a, b, a ^ b)}
    a, b = [x for x in range(1, 32) if x not in held][:2]
    return (_translates(a, b),)


@cache
def catalogue() -> dict[int, dict[int, Design]]:
    """Every design known here, by table size and then number of points: the
    affine planes and spaces, the planes of GF(2)⁵ and the shipped designs; where two seat the same
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
    add(binary_planes())
    for design in SHIPPED:
        add(design)
    return designs
