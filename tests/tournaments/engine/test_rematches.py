"""Pairing with the fewest rematches, for when none without one exists."""

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings

from tests.tournaments.engine.test_pairing import as_positions, fields
from tournaments.engine.pairing import (
    NoPairing,
    Pairing,
    round_robin,
    swiss_pairings,
    swiss_pairings_fewest_rematches,
)


def every_pairing(field):
    """Every pairing of ``field`` (rematches allowed), as each leader's opponent."""
    if not field:
        yield ()
        return
    rest = field[1:]
    for i, opponent in enumerate(rest):
        for more in every_pairing(rest[:i] + rest[i + 1 :]):
            yield (opponent, *more)


def brute_force(ranking, played, byes):
    """The decision of the docstring by exhaustion: fewest rematches, then the bye
    by (byes had, lowest placed), then each leader's choice in turn, an opponent
    not met before any old one, and the best placed first."""
    met = {frozenset(pair) for pair in played}

    def old(a, b):
        return frozenset((ranking[a], ranking[b])) in met

    def rematches(field, opponents):
        seated, count, left = [], 0, list(field)
        for opponent in opponents:
            leader = left.pop(0)
            left.remove(opponent)
            count += old(leader, opponent)
            seated.append((old(leader, opponent), opponent))
        return count, seated

    positions = list(range(len(ranking)))
    bye_counts = Counter(byes)
    bye_order = sorted(positions, key=lambda p: (bye_counts[ranking[p]], -p))
    candidates = bye_order if len(ranking) % 2 else [None]
    best = None
    for rank, bye in enumerate(candidates):
        field = [p for p in positions if p != bye]
        for opponents in every_pairing(field):
            count, seated = rematches(field, opponents)
            key = (count, rank, seated)
            if best is None or key < best[0]:
                best = (key, opponents, bye)
    return best[1], best[2]


@settings(max_examples=300, deadline=None)
@given(fields(max_size=9))
def test_fewest_rematches_equals_the_exhaustive_search(field):
    ranking, played, byes = field

    pairing = swiss_pairings_fewest_rematches(ranking, played, byes)

    assert as_positions(ranking, pairing) == brute_force(ranking, played, byes)


@settings(max_examples=150, deadline=None)
@given(fields(max_size=30))
def test_when_a_pairing_without_rematches_exists_it_is_the_seeds_pairing(field):
    ranking, played, byes = field
    try:
        expected = swiss_pairings(ranking, played, byes)
    except NoPairing:
        return

    assert swiss_pairings_fewest_rematches(ranking, played, byes) == expected


def test_after_a_finished_round_robin_the_seeds_order_is_played_again():
    played = list(itertools.chain.from_iterable(round_robin(list("ABCD"))))

    pairing = swiss_pairings_fewest_rematches(list("ABCD"), played)

    assert pairing == Pairing(pairs=[("A", "B"), ("C", "D")], bye=None)


def test_a_leader_takes_a_new_opponent_first_and_an_old_one_only_when_none_is_left():
    # A and C have met everyone but B: one of them has to play an old opponent.
    played = [(x, y) for x in "AC" for y in "ACDEF" if x != y]

    pairing = swiss_pairings_fewest_rematches(list("ABCDEF"), played)

    with pytest.raises(NoPairing):
        swiss_pairings(list("ABCDEF"), played)
    assert pairing.pairs == [("A", "B"), ("C", "D"), ("E", "F")]


def test_a_second_bye_is_still_better_than_a_rematch():
    played = [("A", "B")]

    pairing = swiss_pairings_fewest_rematches(list("ABC"), played, byes=list("ABC"))

    assert pairing == Pairing(pairs=[("A", "C")], bye="B")


def test_an_entrant_listed_twice_is_refused_by_name():
    with pytest.raises(ValueError, match=r"^A is listed twice in the ranking\.$"):
        swiss_pairings_fewest_rematches(["A", "B", "A", "C"], [])
