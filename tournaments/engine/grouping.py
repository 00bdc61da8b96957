"""The exact search behind `tables.seat_tables`: the fewest repeat meetings,
and among the seatings with that fewest the one that follows the standings most
closely. Plain Python, like the rest of the engine.

Entrants are standings places 0 … n - 1 (0 = leader); a set of places is a bit
mask (bit p for place p). A seating is valid when its tables have the sizes
given, in order, and each table's best-placed place (its head) is better than
the next table's head. Its cost is its number of repeats: every two places at
one table count as often as they met before.

Two searches work together:

* `Search._seat` fills the tables in order, each head's companions tried in
  dictionary order, so the first seating it completes within a number of
  repeats is the one of the rule among those.
* `Search._fits` only decides whether a field can be seated within a number
  of repeats. The order of the tables does not matter to that question, so it
  seats the place with the fewest choices first, where a dead end shows
  soonest. Once few places are left, `_seat` asks it about every table before
  taking it, and so never wanders into a dead end at the bottom of the
  standings, where the same entrants have met most.

Both drop a branch as soon as a lower bound on its repeats (`Search._bound`)
exceeds the repeats still allowed, and remember for every field left what they
proved about it. Nothing is cut off without proof, so the result is exact.

`Search.run` first tries the ranking cut, which comes first in dictionary
order: when nothing can have fewer repeats, it is the answer. A large field is
then searched with the repeats allowed raised one at a time from the lower
bound, which is rarely below the answer there. A field of at most `CHECKED`
places asks `_fits` about the lower bound, then, if that fails, for ever fewer
repeats than the best seating found so far, until it says no: late in a small
tournament the bound can be far below the answer, and a seating is quicker to
find than the lack of one to prove.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator


class Search:
    """One round's search. ``weights[p][q]`` is how often places p and q met;
    ``sizes`` the table sizes in order, the larger first.

    The tables still to fill are ``big`` of the larger size and ``small`` of
    the smaller; with one size only, all count as big. ``floor`` maps a field
    left (see `_key`) to a proven lower bound on its repeats, ``fits`` to the
    repeats of a seating found for it.
    """

    # With at most this many places left, `_seat` asks `_fits` about each
    # table before taking it. In a large field, asking about the first tables
    # costs more than the few dead ends it saves.
    CHECKED = 40
    # `_fits` counts the tables open to this many of the places with the
    # fewest new companions, up to this many tables each, and goes on with
    # the place that has the fewest.
    SCANNED = 8
    OPTIONS = 24
    # The tables of the place chosen are sorted up to this many; the rest
    # follow as found, which spares listing every table of a large field
    # when many repeats are allowed.
    SORTED = 20_000

    def __init__(self, weights: list[dict[int, int]], sizes: list[int]):
        count = len(weights)
        self.count = count
        self.weights = weights
        self.sizes = sizes
        self.large, self.little = (max(sizes), min(sizes)) if sizes else (0, 0)
        # layers[p][i] holds the places p met more than i times, so a table's
        # repeats are counted a layer at a time with bit operations.
        self.layers = [
            [
                sum(1 << other for other, times in row.items() if times > depth)
                for depth in range(max(row.values(), default=0))
            ]
            for row in weights
        ]
        self.met = [layers[0] if layers else 0 for layers in self.layers]
        everyone = (1 << count) - 1
        self.fresh = [everyone ^ self.met[p] ^ (1 << p) for p in range(count)]
        self.degree = [len(row) for row in weights]
        self.by_degree = sorted(range(count), key=lambda p: -self.degree[p])
        self.floor: dict[tuple, int] = {}
        self.fits: dict[tuple, int] = {}
        self.crowded: set[tuple] = set()
        # Shares of a table's repeats are counted in units of 1 / scale.
        self.scale = self.large if self.large == self.little else self.large * self.little
        self.cheapest: dict[int, list[int]] = {}

    def run(self) -> list[tuple[int, ...]]:
        """The seating of the rule, as tuples of places."""
        everyone = (1 << self.count) - 1
        big, small = self._left(0)
        cut, start = [], 0
        for size in self.sizes:
            cut.append(tuple(range(start, start + size)))
            start += size
        fewest = sum(self._cost(table) for table in cut)
        # The cut comes first in dictionary order of all seatings.
        if not fewest:
            return cut
        # The fewest repeats of a table of each size that each place could
        # join in the whole field; a smaller field only makes them dearer.
        for size in set(self.sizes):
            self.cheapest[size] = [self._cheapest(p, size) for p in range(self.count)]
        least = self._bound(everyone, big, small)
        if fewest <= least:
            return cut
        if self.count > self.CHECKED:
            while (seating := self._seat(everyone, 0, least)) is None:
                least = max(least + 1, self.floor[self._key(everyone, big)])
            return seating
        found = self._fits(everyone, big, small, least)
        if found is not None:
            fewest = found
        else:
            while fewest > least + 1:
                better = self._fits(everyone, big, small, fewest - 1)
                if better is None:
                    break
                fewest = better
        seating = self._seat(everyone, 0, fewest)
        # A seating with that many repeats has just been found.
        assert seating is not None
        return seating

    def _left(self, table: int) -> tuple[int, int]:
        """How many big and small tables there are from table ``table`` on."""
        left = self.sizes[table:]
        if self.large == self.little:
            return len(left), 0
        big = left.count(self.large)
        return big, len(left) - big

    def _key(self, mask: int, big: int, lo: int = -1, hi: int | None = None) -> tuple:
        """What a field left is, for `_fits`: its places, the big tables left,
        how many of its best-placed must sit at big tables (those better than
        ``lo``) and how many could head one (those better than ``hi``)."""
        below_lo = (mask & ((1 << lo) - 1)).bit_count() if lo > 0 else 0
        below_hi = mask.bit_count() if hi is None else (mask & ((1 << hi) - 1)).bit_count()
        return mask, big, below_lo, below_hi

    def _cost(self, table: tuple[int, ...]) -> int:
        return sum(
            self.weights[first].get(second, 0) for first, second in itertools.combinations(table, 2)
        )

    # ----------------------------------------------------------------------- searches

    def _seat(self, mask: int, table: int, allowed: int) -> list | None:
        """The first seating of the places in ``mask`` at tables ``table``, …
        in dictionary order with at most ``allowed`` repeats, or None."""
        if not mask:
            return []
        big, small = self._left(table)
        checked = mask.bit_count() <= self.CHECKED
        if checked and self._fits(mask, big, small, allowed) is None:
            return None
        key = self._key(mask, big)
        if self._floor(key, small, allowed) > allowed:
            return None
        next_big, next_small = self._left(table + 1)
        head = (mask & -mask).bit_length() - 1
        others = [p for p in range(head + 1, self.count) if mask >> p & 1]
        for chosen, cost in self._companions(head, others, self.sizes[table] - 1, allowed):
            left = mask ^ (1 << head)
            for place in chosen:
                left ^= 1 << place
            if checked and self._fits(left, next_big, next_small, allowed - cost) is None:
                continue
            seating = self._seat(left, table + 1, allowed - cost)
            if seating is not None:
                return [(head, *chosen), *seating]
        self.floor[key] = allowed + 1
        return None

    def _fits(
        self, mask: int, big: int, small: int, allowed: int, lo: int = -1, hi: int | None = None
    ) -> int | None:
        """The repeats of some valid seating of the places in ``mask`` at
        ``big`` and ``small`` tables with at most ``allowed`` repeats, or None
        when there is none. Small tables seat only places placed worse than
        ``lo`` (the worst-placed head of a big table so far), and big tables
        are headed better than ``hi`` (the best-placed head of a small table
        so far): every big table is headed better than every small one."""
        if not mask:
            return 0
        key = self._key(mask, big, lo, hi)
        below_lo, below_hi = key[2], key[3]
        if below_lo > big * self.large or (big and below_hi < big):
            return None
        known = self.fits.get(key)
        if known is not None and known <= allowed:
            return known
        if self._floor(key, small, allowed) > allowed:
            return None
        rules = (big, small, allowed, lo, hi)
        by_freedom = sorted(
            (p for p in range(self.count) if mask >> p & 1),
            key=lambda p: (self.fresh[p] & mask).bit_count(),
        )
        place, fewest = -1, self.OPTIONS
        for candidate in by_freedom[: self.SCANNED]:
            found = len(list(itertools.islice(self._options(candidate, mask, *rules), fewest)))
            if place < 0 or found < fewest:
                place, fewest = candidate, found
            if fewest <= 1:
                break
        # Cheapest first; then big tables headed high, which leave few places
        # for the small tables, and small tables headed high, which leave few
        # heads for the big ones, last.
        tables = self._options(place, mask, *rules)
        first = sorted(
            itertools.islice(tables, self.SORTED),
            key=lambda option: (option[1], option[3] if option[2] else -option[3]),
        )
        options = itertools.chain(first, tables)
        for table, cost, is_big, head in options:
            rest = self._fits(
                mask ^ table,
                big - is_big,
                small - (not is_big),
                allowed - cost,
                max(lo, head) if is_big else lo,
                hi if is_big else head if hi is None else min(hi, head),
            )
            if rest is not None:
                self.fits[key] = cost + rest
                return cost + rest
        self.floor[key] = allowed + 1
        return None

    def _options(
        self, place: int, mask: int, big: int, small: int, allowed: int, lo: int, hi: int | None
    ) -> Iterator[tuple[int, int, bool, int]]:
        """The tables ``place`` could sit at in `_fits`: its places as a mask,
        its repeats, whether it is big, and its head. Companions with fewer
        new companions of their own come first: they are the hardest to seat
        later."""
        row = self.weights[place]
        for is_big, size in ((True, self.large), (False, self.little)):
            if not (big if is_big else small) or (not is_big and place < lo):
                continue
            pool = mask ^ (1 << place)
            if not is_big:
                pool &= ~((1 << (lo + 1)) - 1)
            others = sorted(
                (p for p in range(self.count) if pool >> p & 1),
                key=lambda p: (row.get(p, 0), (self.fresh[p] & mask).bit_count()),
            )
            for chosen, cost in self._companions(place, others, size - 1, allowed):
                table = 1 << place
                for other in chosen:
                    table |= 1 << other
                head = (table & -table).bit_length() - 1
                if not is_big or hi is None or head < hi:
                    yield table, cost, is_big, head

    def _companions(
        self, head: int, others: list[int], wanted: int, allowed: int
    ) -> Iterator[tuple[tuple[int, ...], int]]:
        """Every choice of ``wanted`` companions for ``head`` from ``others``,
        in the order of ``others`` (as words in a dictionary), with the repeats
        at the table; choices whose table alone has more than ``allowed``
        repeats are left out."""
        layers = self.layers
        chosen = [head]

        def extend(start: int, cost: int, seated: int) -> Iterator[tuple[tuple[int, ...], int]]:
            last = len(chosen) == wanted
            # Leave enough places after this one to fill the table.
            for index in range(start, len(others) - wanted + len(chosen)):
                place = others[index]
                extra = 0
                for layer in layers[place]:
                    common = (layer & seated).bit_count()
                    if not common:
                        break
                    extra += common
                if cost + extra > allowed:
                    continue
                if last:
                    yield (*chosen[1:], place), cost + extra
                else:
                    chosen.append(place)
                    yield from extend(index + 1, cost + extra, seated | 1 << place)
                    chosen.pop()

        if not wanted:
            yield (), 0
            return
        yield from extend(0, 0, 1 << head)

    # ----------------------------------------------------------------------- bounds

    def _floor(self, key: tuple, small: int, allowed: int) -> int:
        """`_bound` for a field left, remembered; the dearer bound by crowds
        only once the others allow ``allowed`` repeats."""
        mask, big = key[0], key[1]
        known = self.floor.get(key)
        if known is None:
            known = self.floor[key] = self._bound(mask, big, small)
        if known <= allowed and key not in self.crowded and mask.bit_count() <= self.CHECKED:
            self.crowded.add(key)
            known = self.floor[key] = max(known, self._by_crowds(mask, big + small))
        return known

    def _bound(self, mask: int, big: int, small: int) -> int:
        """A lower bound on the repeats of seating the places in ``mask`` at
        ``big`` and ``small`` tables: the larger of two.

        By tables: a table's repeats are the sum of equal shares of its
        places, and each place's share is at least that of the cheapest table
        of its size it could join in the whole field, or of one repeat when
        no table free of repeats is left for it in this field. Exactly ``big``
        times the larger size of places sit at big tables; the cheapest way
        to choose them counts.

        By companions: each place sits with at least ``k - 1`` others, k the
        smaller size left; those it has not met cost nothing, so it costs at
        least its ``need``, the cheapest companions once the new ones run
        out. A repeat is shared by two places, so half the sum of the needs
        is a bound; the needs of places of which no two met are not shared,
        so their whole sum is one too. In between: weigh each need by 0, 1/2
        or 1 so that two places that met never weigh more than 1 together;
        the weighted sum of the needs is a bound (linear programming duality,
        vertex packing).
        """
        if not mask:
            return 0
        companions = (self.little if small else self.large) - 1
        return max(self._by_tables(mask, big, small), self._by_companions(mask, companions))

    def _by_tables(self, mask: int, big: int, small: int) -> int:
        shares: dict[bool, list[int]] = {True: [], False: []}
        rest = mask
        while rest:
            low = rest & -rest
            rest ^= low
            place = low.bit_length() - 1
            for is_big, size in ((True, self.large), (False, self.little)):
                if big if is_big else small:
                    cost = self.cheapest[size][place]
                    # No table free of repeats left in this field: one at least.
                    if not cost and not self._new_table(self.fresh[place] & mask, size - 1):
                        cost = 1
                    shares[is_big].append(cost * (self.scale // size))
        if not small:
            shared = sum(shares[True])
        elif not big:
            shared = sum(shares[False])
        else:
            moved = sorted(b - s for b, s in zip(shares[True], shares[False], strict=True))
            shared = sum(shares[False]) + sum(moved[: big * self.large])
        return -(-shared // self.scale)

    def _by_companions(self, mask: int, companions: int) -> int:
        left = mask.bit_count()
        # A place that met fewer than this still has enough new companions.
        threshold = left - companions
        needs: dict[int, int] = {}
        for place in self.by_degree:
            if self.degree[place] < threshold:
                break
            if not mask >> place & 1:
                continue
            met_here = self.met[place] & mask
            fresh = left - 1 - met_here.bit_count()
            if fresh < companions:
                row = self.weights[place]
                costs = sorted(row[other] for other in row if met_here >> other & 1)
                needs[place] = sum(costs[: companions - fresh])
        # Twice the weights, to stay in integers: 1 is a half, 2 a whole.
        weight = dict.fromkeys(needs, 1)
        for place in sorted(needs, key=lambda p: -needs[p]):
            if weight[place] != 1:
                continue
            neighbours = [p for p in needs if self.met[place] >> p & 1 and weight[p] == 1]
            if needs[place] > sum(needs[p] for p in neighbours):
                weight[place] = 2
                for p in neighbours:
                    weight[p] = 0
        return (sum(weight[p] * needs[p] for p in needs) + 1) // 2

    def _by_crowds(self, mask: int, tables: int) -> int:
        """A lower bound by crowds: c places among whom no more than m can
        sit together without a repeat (m = 1: all met one another) must share
        ``tables`` tables, so some m-th of a table holds ⌈c / (m·tables)⌉ of
        them; spread evenly they meet least. Crowds without a common place
        add up. The crowds are found greedily, those who met most first."""
        best = 0
        order = sorted(
            (p for p in range(self.count) if mask >> p & 1),
            key=lambda p: -(self.met[p] & mask).bit_count(),
        )
        for most in (1, 2, 3):
            bins = most * tables
            left, total = mask, 0
            while True:
                crowd = 0
                for place in order:
                    if left >> place & 1 and not self._new_table(crowd & self.fresh[place], most):
                        crowd |= 1 << place
                size = crowd.bit_count()
                if size <= bins:
                    break
                full, extra = divmod(size, bins)
                total += extra * (full + 1) * full // 2 + (bins - extra) * full * (full - 1) // 2
                left ^= crowd
            best = max(best, total)
        return best

    def _new_table(self, candidates: int, wanted: int) -> bool:
        """Whether ``wanted`` of ``candidates`` could sit together, no two of
        whom met. The lowest-placed are tried first: late in a tournament the
        field is thickest there."""
        if not wanted:
            return True
        while candidates.bit_count() >= wanted:
            place = candidates.bit_length() - 1
            candidates ^= 1 << place
            if self._new_table(candidates & self.fresh[place], wanted - 1):
                return True
        return False

    def _cheapest(self, place: int, size: int) -> int:
        """The fewest repeats of any table of ``size`` that ``place`` joins."""
        row = self.weights[place]
        others = sorted((p for p in range(self.count) if p != place), key=lambda p: row.get(p, 0))
        chosen = [place]
        best: int | None = None

        def extend(start: int, cost: int) -> None:
            nonlocal best
            wanted = size - len(chosen)
            if not wanted:
                best = cost
                return
            for index in range(start, len(others) - wanted + 1):
                other = others[index]
                # Companions come cheapest first: none later can do better.
                if best is not None and cost + wanted * row.get(other, 0) >= best:
                    return
                extra = sum(self.weights[other].get(sitting, 0) for sitting in chosen)
                if best is None or cost + extra < best:
                    chosen.append(other)
                    extend(index + 1, cost + extra)
                    chosen.pop()
                if best == 0:
                    return

        extend(0, 0)
        return best or 0
