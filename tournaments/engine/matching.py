"""The matching behind the Swiss pairing (`pairing.swiss_pairings`): the graph of
who may still meet, with a maximum matching kept as entrants are seated, so the
leader is only given an opponent that leaves everyone else someone new to play.
Plain Python, like the rest of the engine."""

from __future__ import annotations

from collections import Counter


class Graph:
    """The "not yet played" graph of the entrants still to be seated, with a
    maximum matching kept up to date as entrants are seated.

    Vertices are standings positions (0 = leader). ``mate[v]`` is v's partner
    in the current matching, or -1.
    """

    def __init__(self, count: int, blocked: list[set[int]]):
        self.blocked = blocked
        # A dict keeps removal cheap and iteration deterministic.
        self.alive = dict.fromkeys(range(count))
        self.mate = [-1] * count

    def can_meet(self, first: int, second: int) -> bool:
        return first != second and second not in self.blocked[first]

    def remove(self, vertex: int) -> None:
        """Take ``vertex`` out; its partner, if any, becomes unmatched."""
        del self.alive[vertex]
        partner = self.mate[vertex]
        if partner != -1:
            self.mate[partner] = -1
            self.mate[vertex] = -1

    def restore(self, vertex: int, partner: int) -> None:
        self.alive[vertex] = None
        if partner != -1:
            self.mate[vertex] = partner
            self.mate[partner] = vertex

    # The literal rule already pairs almost everyone: starting from its
    # result makes most later checks trivial, because the leader's first
    # choice is then usually his current partner.
    def match_greedily(self) -> None:
        mate = self.mate
        count = len(mate)
        for leader in range(count):
            if mate[leader] != -1:
                continue
            for other in range(leader + 1, count):
                if mate[other] == -1 and self.can_meet(leader, other):
                    mate[leader], mate[other] = other, leader
                    break

    def maximise(self) -> list[int]:
        """Grow the matching to a maximum one; return the vertices left unmatched.

        One try per unmatched vertex is enough: a vertex without an augmenting
        path never gains one when the matching grows elsewhere.
        """
        parity = len(self.alive) % 2
        exposed = [v for v in self.alive if self.mate[v] == -1]
        for vertex in reversed(exposed):
            left = [v for v in exposed if self.mate[v] == -1]
            # With one left over in an odd field the matching is maximum.
            if len(left) <= parity:
                break
            if self.mate[vertex] == -1:
                others = (v for v in left if v != vertex)
                if not any(self._join_short(vertex, other) for other in others):
                    self.search(vertex)
        return [v for v in exposed if self.mate[v] == -1]

    def choose_bye(self, unmatched: int, bye_counts: Counter) -> int:
        """Take out the bye of an odd field whose maximum matching leaves
        ``unmatched`` out, and return it. The rest keeps a perfect matching."""
        order = sorted(self.alive, key=lambda v: (bye_counts[v], -v))
        if self._take_out(order[0], unmatched):
            return order[0]
        # The favourite strands someone. Those who can sit out are exactly
        # those some maximum matching leaves unmatched: one search finds all.
        possible = self.search(unmatched)
        bye = next(v for v in order if v in possible)
        self._take_out(bye, unmatched)
        return bye

    def _take_out(self, vertex: int, unmatched: int) -> bool:
        """Remove ``vertex`` if the rest can still be paired perfectly."""
        if vertex == unmatched:
            del self.alive[vertex]
            return True
        partner = self.mate[vertex]
        self.remove(vertex)
        if self._join(unmatched, partner):
            return True
        self.restore(vertex, partner)
        return False

    def choose_opponent(self, leader: int) -> int:
        """Seat ``leader`` against the best-placed entrant he has not played
        for whom the rest can still be paired, and return that entrant.

        The matching is perfect on the alive vertices before and after.
        """
        later = range(leader + 1, len(self.mate))
        first_choice = next(v for v in later if v in self.alive and self.can_meet(leader, v))
        if self._seat(leader, first_choice):
            return first_choice
        # The literal choice strands someone. The entrants the leader can
        # still meet are exactly those some maximum matching leaves unmatched
        # once the leader is gone: one search finds them all.
        partner = self.mate[leader]
        self.remove(leader)
        possible = self.search(partner)
        self.restore(leader, partner)
        opponent = next(v for v in later if v in possible and self.can_meet(leader, v))
        self._seat(leader, opponent)
        return opponent

    def take_out_keeping_size(self, vertex: int) -> bool:
        """Remove ``vertex`` if a maximum matching of the rest is as large as
        the current (maximum) one; otherwise change nothing."""
        partner = self.mate[vertex]
        self.remove(vertex)
        if partner == -1 or self.search(partner) is None:
            return True
        self.restore(vertex, partner)
        return False

    def seat_within_budget(self, leader: int, opponent: int, cost: int) -> bool:
        """Seat the two if the rest still needs no more rematches than the
        budget allows after this pair's ``cost`` (1 for a rematch); otherwise
        change nothing. The matching is maximum on the alive vertices before
        and after, and its shortfall is the budget.

        Only the partners the two leave behind can start an augmenting path:
        any other would have augmented the maximum matching before.
        """
        saved = self.mate[:]
        pair = (leader, opponent)
        freed = [m for m in (self.mate[leader], self.mate[opponent]) if m not in (-1, *pair)]
        lost = len(freed) + (self.mate[leader] == opponent)
        self.remove(leader)
        self.remove(opponent)
        # Needed: as many pairs as before, less the one just seated, plus
        # one more when that one is a rematch.
        missing = lost - 1 + cost
        for root in freed:
            if missing <= 0:
                break
            if self.search(root) is None:
                missing -= 1
        if missing <= 0:
            return True
        self.alive[leader] = None
        self.alive[opponent] = None
        self.mate[:] = saved
        return False

    def _seat(self, leader: int, opponent: int) -> bool:
        """Seat the two if the rest can be paired; otherwise change nothing."""
        leader_mate, opponent_mate = self.mate[leader], self.mate[opponent]
        if leader_mate == opponent:
            self.remove(leader)
            del self.alive[opponent]
            return True
        self.remove(leader)
        self.remove(opponent)
        if self._join(leader_mate, opponent_mate):
            return True
        self.restore(leader, leader_mate)
        self.restore(opponent, opponent_mate)
        return False

    def _join(self, first: int, second: int) -> bool:
        """Make the matching perfect again when ``first`` and ``second`` are
        the only unmatched vertices; return False (changing nothing) if the
        alive vertices have no perfect matching."""
        return self._join_short(first, second) or self.search(first) is None

    def _join_short(self, first: int, second: int) -> bool:
        """Match two unmatched vertices directly or by re-pairing one pair.

        Almost always one of these works, and it costs far less than a full
        search. Pairs are tried from the bottom of the standings up, so the
        leaders' partners (their likely choices) stay as they are.
        """
        mate, alive = self.mate, self.alive
        if self.can_meet(first, second):
            mate[first], mate[second] = second, first
            return True
        # Here ``second`` is among the opponents ``first`` has met, and
        # neither has a partner, which the checks below rely on.
        met_first, met_second = self.blocked[first], self.blocked[second]
        for vertex in range(len(mate) - 1, -1, -1):
            if vertex in met_first or vertex not in alive:
                continue
            partner = mate[vertex]
            if partner != -1 and partner not in met_second:
                mate[first], mate[vertex] = vertex, first
                mate[partner], mate[second] = second, partner
                return True
        return False

    def search(self, root: int) -> set[int] | None:
        """Edmonds' blossom search from the unmatched vertex ``root``.

        If an alternating path leads to another unmatched vertex, the matching
        is flipped along it (one more pair) and ``None`` is returned. Otherwise
        the matching is unchanged and the set of vertices reachable from
        ``root`` by an even alternating path is returned: with ``root`` the
        only unmatched vertex, these are exactly the vertices that some
        maximum matching leaves unmatched (Gallai-Edmonds).
        """
        alive, mate, blocked = self.alive, self.mate, self.blocked
        parent: dict[int, int] = {}
        base: dict[int, int] = {root: root}
        outer = {root}
        tree = [root]
        queue = [root]

        def lowest_common_base(a: int, b: int) -> int:
            seen = set()
            while True:
                a = base[a]
                seen.add(a)
                if mate[a] == -1:
                    break
                a = parent[mate[a]]
            while True:
                b = base[b]
                if b in seen:
                    return b
                b = parent[mate[b]]

        # Outer vertices on the odd cycle get a parent across the cycle, so a
        # path entering the shrunk blossom anywhere can be walked back to
        # the root. Stepping to the bases here instead would lose the way
        # through blossoms nested inside this one.
        def mark_path(v: int, stop: int, child: int, blossom: set[int]) -> None:
            while base[v] != stop:
                blossom.add(base[v])
                blossom.add(base[mate[v]])
                parent[v] = child
                child = mate[v]
                v = parent[mate[v]]

        # The queue grows while it is walked: new outer vertices join it.
        for v in queue:
            blocked_v = blocked[v]
            for to in alive:
                if to == v or to in blocked_v or mate[v] == to:
                    continue
                if to in base and base[v] == base[to]:
                    continue
                if to in outer:
                    stop = lowest_common_base(v, to)
                    blossom: set[int] = set()
                    mark_path(v, stop, to, blossom)
                    mark_path(to, stop, v, blossom)
                    for member in tree:
                        if base[member] in blossom:
                            base[member] = stop
                            if member not in outer:
                                outer.add(member)
                                queue.append(member)
                elif to not in parent:
                    parent[to] = v
                    if mate[to] == -1:
                        self._flip(to, parent)
                        return None
                    base[to] = to
                    tree.append(to)
                    partner = mate[to]
                    base[partner] = partner
                    tree.append(partner)
                    outer.add(partner)
                    queue.append(partner)
        return outer

    def _flip(self, end: int, parent: dict[int, int]) -> None:
        """Swap matched and unmatched edges along the path from ``end`` to the root."""
        mate = self.mate
        vertex = end
        while vertex != -1:
            previous = parent[vertex]
            following = mate[previous]
            mate[vertex], mate[previous] = previous, vertex
            vertex = following
