"""Schedules without a repeat meeting, found once by an offline search and kept as
data (`SHIPPED`, read by `designs.catalogue`); the tests check each: every round a
partition of the points 0 … n − 1 into tables of one size, no pair at one table twice.

How each was found:

* **Kirkman's fifteen schoolgirls** (15 at tables of three, 7 rounds) and the
  social golfers 5-4-5 (20 at tables of four, 5 rounds): a long search over
  structured candidates.
* **24 at tables of four, 7 rounds:** one round developed modulo 7: the points are
  (x, level) for x modulo 7 on three levels, and three points that stay put; the
  round was searched so that its seven translates x → x + s meet every pair at
  most once.
* **28 at tables of four, 9 rounds:** the Hermitian unital of order 3 (see
  `GOLFERS_28_AT_4`), its 63 lines parted into rounds by an exact-cover search.
* **21 at tables of three, 10 rounds** (a Kirkman triple system): the points are
  (x, level) for x modulo 7 on three levels, numbered 7·level + x. Three rounds
  are the tables {(x, 0), (x + a, 1), (x + b, 2)} for (a, b) = (0, 0), (1, 2),
  (2, 5), which stay the same when every x moves by one; the other seven are the
  translates of one round, found by a backtracking search over the differences
  its tables cover (each difference of two points, within a level or between two
  levels, is covered once by the ten rounds together, so each pair meets once).
* **18 at tables of three, 8 rounds** (a nearly Kirkman triple system: every pair
  but nine meets once): the points are (x, level) for x modulo 4 on four levels,
  numbered 4·level + x, and the two points 16 and 17 that stay put; two rounds
  were searched like the one above and each developed modulo 4. The pairs that
  never meet are 16 and 17 and the points two apart on one level (0 and 2, 1 and
  3, 4 and 6, …): two of a pair may be left empty together.
* **32 at tables of four, 10 rounds** (the social golfers 8-4-10, first solved by
  A. Aguado in 2004; every pair meets once but 16, a resolvable group divisible
  design): the points are (x, level) for x a vector of three bits on four levels,
  numbered 8·level + x, and every round stays the same when every x moves by one
  vector (adding is exclusive or), so a round is a few tables and their
  translates. A table holds one point of each level, or two points of one level
  and two of another that differ by the same t on both, or a plane {x, x + a,
  x + b, x + a + b} of one level; an exact-cover search over the pairs such
  rounds cover (as classes under the moves) chose ten that seat every pair once
  except x and x + 1 on one level: the points 2i and 2i + 1 never meet.
* **40 at tables of four, 13 rounds:** the 40 points and 130 lines of the
  projective space of dimension three over the field of three elements (the
  points are the vectors of four coordinates modulo 3 whose first non-zero
  coordinate is 1, numbered in the order of their coordinates). A spread is ten lines that part
  the points; all 8 424 spreads were listed, and 13 of them that share no line (a
  packing, which Denniston showed exists) chosen by an exact-cover search.

Plain data: no Django, no database.
"""

from __future__ import annotations

#: A schedule: rounds of tables of the points 0 … n − 1 (`designs` builds more).
Design = tuple[tuple[tuple[int, ...], ...], ...]

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

#: 21 at tables of three for 10 rounds: a Kirkman triple system (see the module).
KIRKMAN_21: Design = (
    ((0, 7, 14), (1, 8, 15), (2, 9, 16), (3, 10, 17), (4, 11, 18), (5, 12, 19), (6, 13, 20)),
    ((0, 8, 16), (1, 9, 17), (2, 10, 18), (3, 11, 19), (4, 12, 20), (5, 13, 14), (6, 7, 15)),
    ((0, 9, 19), (1, 10, 20), (2, 11, 14), (3, 12, 15), (4, 13, 16), (5, 7, 17), (6, 8, 18)),
    ((0, 1, 3), (2, 7, 20), (4, 8, 17), (5, 11, 15), (6, 9, 14), (10, 12, 13), (16, 18, 19)),
    ((0, 10, 15), (1, 2, 4), (3, 8, 14), (5, 9, 18), (6, 12, 16), (7, 11, 13), (17, 19, 20)),
    ((0, 13, 17), (1, 11, 16), (2, 3, 5), (4, 9, 15), (6, 10, 19), (7, 8, 12), (14, 18, 20)),
    ((0, 11, 20), (1, 7, 18), (2, 12, 17), (3, 4, 6), (5, 10, 16), (8, 9, 13), (14, 15, 19)),
    ((0, 4, 5), (1, 12, 14), (2, 8, 19), (3, 13, 18), (6, 11, 17), (7, 9, 10), (15, 16, 20)),
    ((0, 12, 18), (1, 5, 6), (2, 13, 15), (3, 9, 20), (4, 7, 19), (8, 10, 11), (14, 16, 17)),
    ((0, 2, 6), (1, 13, 19), (3, 7, 16), (4, 10, 14), (5, 8, 20), (9, 11, 12), (15, 17, 18)),
)

#: 18 at tables of three for 8 rounds: a nearly Kirkman triple system, nine pairs
#: never meeting (see the module).
NEARLY_KIRKMAN_18: Design = (
    ((0, 4, 16), (1, 8, 17), (2, 5, 10), (3, 12, 13), (6, 9, 15), (7, 11, 14)),
    ((0, 13, 14), (1, 5, 16), (2, 9, 17), (3, 6, 11), (4, 8, 15), (7, 10, 12)),
    ((0, 7, 8), (1, 14, 15), (2, 6, 16), (3, 10, 17), (4, 11, 13), (5, 9, 12)),
    ((0, 11, 17), (1, 4, 9), (2, 12, 15), (3, 7, 16), (5, 8, 14), (6, 10, 13)),
    ((0, 9, 10), (1, 6, 7), (2, 3, 14), (4, 12, 17), (5, 11, 15), (8, 13, 16)),
    ((0, 3, 15), (1, 10, 11), (2, 4, 7), (5, 13, 17), (6, 8, 12), (9, 14, 16)),
    ((0, 1, 12), (2, 8, 11), (3, 4, 5), (6, 14, 17), (7, 9, 13), (10, 15, 16)),
    ((0, 5, 6), (1, 2, 13), (3, 8, 9), (4, 10, 14), (7, 15, 17), (11, 12, 16)),
)

#: 32 at tables of four for 10 rounds (8-4-10): every round the translates of a few
#: tables under moves of x on all four levels at once (see the module); the
#: points 2i and 2i + 1 never meet.
GOLFERS_32_AT_4: Design = (
    (
        (0, 8, 17, 29),
        (1, 9, 16, 28),
        (2, 10, 19, 31),
        (3, 11, 18, 30),
        (4, 12, 21, 25),
        (5, 13, 20, 24),
        (6, 14, 23, 27),
        (7, 15, 22, 26),
    ),
    (
        (0, 11, 16, 27),
        (1, 10, 17, 26),
        (2, 9, 18, 25),
        (3, 8, 19, 24),
        (4, 15, 20, 31),
        (5, 14, 21, 30),
        (6, 13, 22, 29),
        (7, 12, 23, 28),
    ),
    (
        (0, 9, 20, 30),
        (1, 8, 21, 31),
        (2, 11, 22, 28),
        (3, 10, 23, 29),
        (4, 13, 16, 26),
        (5, 12, 17, 27),
        (6, 15, 18, 24),
        (7, 14, 19, 25),
    ),
    (
        (0, 14, 22, 24),
        (1, 15, 23, 25),
        (2, 12, 20, 26),
        (3, 13, 21, 27),
        (4, 10, 18, 28),
        (5, 11, 19, 29),
        (6, 8, 16, 30),
        (7, 9, 17, 31),
    ),
    (
        (0, 15, 21, 28),
        (1, 14, 20, 29),
        (2, 13, 23, 30),
        (3, 12, 22, 31),
        (4, 11, 17, 24),
        (5, 10, 16, 25),
        (6, 9, 19, 26),
        (7, 8, 18, 27),
    ),
    (
        (0, 13, 18, 31),
        (1, 12, 19, 30),
        (2, 15, 16, 29),
        (3, 14, 17, 28),
        (4, 9, 22, 27),
        (5, 8, 23, 26),
        (6, 11, 20, 25),
        (7, 10, 21, 24),
    ),
    (
        (0, 2, 5, 7),
        (1, 3, 4, 6),
        (8, 10, 20, 22),
        (9, 11, 21, 23),
        (12, 14, 16, 18),
        (13, 15, 17, 19),
        (24, 26, 28, 30),
        (25, 27, 29, 31),
    ),
    (
        (0, 6, 10, 12),
        (1, 7, 11, 13),
        (2, 4, 8, 14),
        (3, 5, 9, 15),
        (16, 23, 24, 31),
        (17, 22, 25, 30),
        (18, 21, 26, 29),
        (19, 20, 27, 28),
    ),
    (
        (0, 4, 19, 23),
        (1, 5, 18, 22),
        (2, 6, 17, 21),
        (3, 7, 16, 20),
        (8, 13, 25, 28),
        (9, 12, 24, 29),
        (10, 15, 27, 30),
        (11, 14, 26, 31),
    ),
    (
        (0, 3, 25, 26),
        (1, 2, 24, 27),
        (4, 7, 29, 30),
        (5, 6, 28, 31),
        (8, 11, 12, 15),
        (9, 10, 13, 14),
        (16, 19, 21, 22),
        (17, 18, 20, 23),
    ),
)

#: 40 at tables of four for 13 rounds: the lines of the projective space over the
#: field of three elements, parted into 13 spreads (see the module).
PACKING_40_AT_4: Design = (
    (
        (0, 1, 2, 3),
        (4, 13, 22, 31),
        (5, 16, 26, 36),
        (6, 19, 30, 38),
        (7, 15, 27, 39),
        (8, 18, 28, 32),
        (9, 21, 23, 34),
        (10, 14, 29, 35),
        (11, 17, 24, 37),
        (12, 20, 25, 33),
    ),
    (
        (0, 4, 5, 6),
        (1, 13, 16, 19),
        (2, 22, 26, 30),
        (3, 31, 36, 38),
        (7, 17, 29, 32),
        (8, 20, 24, 34),
        (9, 14, 25, 39),
        (10, 21, 27, 33),
        (11, 15, 28, 35),
        (12, 18, 23, 37),
    ),
    (
        (0, 10, 11, 12),
        (1, 15, 18, 21),
        (2, 32, 36, 37),
        (3, 24, 26, 28),
        (4, 16, 25, 34),
        (5, 19, 29, 39),
        (6, 14, 22, 33),
        (7, 20, 23, 35),
        (8, 17, 30, 31),
        (9, 13, 27, 38),
    ),
    (
        (0, 7, 8, 9),
        (1, 14, 17, 20),
        (2, 31, 35, 39),
        (3, 23, 25, 30),
        (4, 18, 27, 36),
        (5, 21, 28, 38),
        (6, 13, 24, 32),
        (10, 16, 22, 37),
        (11, 19, 26, 33),
        (12, 15, 29, 34),
    ),
    (
        (0, 13, 14, 15),
        (1, 5, 8, 11),
        (2, 24, 25, 29),
        (3, 32, 34, 39),
        (4, 19, 28, 37),
        (6, 16, 27, 35),
        (7, 18, 30, 33),
        (9, 20, 22, 36),
        (10, 17, 23, 38),
        (12, 21, 26, 31),
    ),
    (
        (0, 16, 17, 18),
        (1, 4, 7, 10),
        (2, 33, 34, 38),
        (3, 22, 27, 29),
        (5, 14, 24, 31),
        (6, 20, 28, 39),
        (8, 19, 23, 36),
        (9, 15, 26, 37),
        (11, 21, 25, 32),
        (12, 13, 30, 35),
    ),
    (
        (0, 37, 38, 39),
        (1, 6, 9, 12),
        (2, 23, 27, 28),
        (3, 13, 18, 20),
        (4, 17, 26, 35),
        (5, 15, 22, 32),
        (7, 21, 24, 36),
        (8, 16, 29, 33),
        (10, 19, 25, 31),
        (11, 14, 30, 34),
    ),
    (
        (0, 31, 32, 33),
        (1, 23, 26, 29),
        (2, 15, 16, 20),
        (3, 5, 7, 12),
        (4, 21, 30, 39),
        (6, 17, 25, 36),
        (8, 14, 27, 37),
        (9, 19, 24, 35),
        (10, 13, 28, 34),
        (11, 18, 22, 38),
    ),
    (
        (0, 22, 23, 24),
        (1, 31, 34, 37),
        (2, 6, 7, 11),
        (3, 14, 16, 21),
        (4, 20, 29, 38),
        (5, 18, 25, 35),
        (8, 13, 26, 39),
        (9, 17, 28, 33),
        (10, 15, 30, 36),
        (12, 19, 27, 32),
    ),
    (
        (0, 25, 26, 27),
        (1, 32, 35, 38),
        (2, 13, 17, 21),
        (3, 6, 8, 10),
        (4, 15, 24, 33),
        (5, 20, 30, 37),
        (7, 19, 22, 34),
        (9, 18, 29, 31),
        (11, 16, 23, 39),
        (12, 14, 28, 36),
    ),
    (
        (0, 19, 20, 21),
        (1, 22, 25, 28),
        (2, 4, 8, 12),
        (3, 33, 35, 37),
        (5, 17, 27, 34),
        (6, 15, 23, 31),
        (7, 14, 26, 38),
        (9, 16, 30, 32),
        (10, 18, 24, 39),
        (11, 13, 29, 36),
    ),
    (
        (0, 28, 29, 30),
        (1, 33, 36, 39),
        (2, 5, 9, 10),
        (3, 15, 17, 19),
        (4, 14, 23, 32),
        (6, 18, 26, 34),
        (7, 13, 25, 37),
        (8, 21, 22, 35),
        (11, 20, 27, 31),
        (12, 16, 24, 38),
    ),
    (
        (0, 34, 35, 36),
        (1, 24, 27, 30),
        (2, 14, 18, 19),
        (3, 4, 9, 11),
        (5, 13, 23, 33),
        (6, 21, 29, 37),
        (7, 16, 28, 31),
        (8, 15, 25, 38),
        (10, 20, 26, 32),
        (12, 17, 22, 39),
    ),
)

#: Schedules without a repeat meeting, found once and kept (see the module).
SHIPPED: tuple[Design, ...] = (
    KIRKMAN_15,
    GOLFERS_20_AT_4,
    GOLFERS_24_AT_4,
    GOLFERS_28_AT_4,
    GOLFERS_32_AT_4,
    KIRKMAN_21,
    NEARLY_KIRKMAN_18,
    PACKING_40_AT_4,
)
