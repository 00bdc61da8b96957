"""Settling up a night: the payments settle every balance exactly, and are as few as
can be (checked against every way of splitting the players into groups)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.payments import EXACT_UP_TO, Transfer, settle_up


@st.composite
def balances(draw, max_players=EXACT_UP_TO):
    """Balances of a night: whole numbers of points that add up to nought."""
    amounts = draw(st.lists(st.integers(-300, 300), min_size=1, max_size=max_players - 1))
    amounts.append(-sum(amounts))
    return {f"P{index}": amount for index, amount in enumerate(amounts)}


def paid(transfers, players):
    """Each player's balance after the transfers: what he received minus what he paid."""
    result = dict.fromkeys(players, 0)
    for transfer in transfers:
        result[transfer.payer] -= transfer.amount
        result[transfer.payee] += transfer.amount
    return result


def set_partitions(items):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in set_partitions(rest):
        yield [[first], *partition]
        for index in range(len(partition)):
            yield [*partition[:index], [first, *partition[index]], *partition[index + 1 :]]


def fewest_by_every_split(balances):
    """The fewest payments found by trying every split of the players with a balance
    into groups: each group that adds up to nought settles in one payment fewer than
    it has players."""
    amounts = [amount for amount in balances.values() if amount]
    most_groups = max(
        (
            len(partition)
            for partition in set_partitions(amounts)
            if all(sum(group) == 0 for group in partition)
        ),
        default=0,
    )
    return len(amounts) - most_groups


@settings(max_examples=300, deadline=None)
@given(balances(max_players=30))
def test_the_payments_settle_every_balance_exactly_in_at_most_n_minus_one(night):
    transfers = settle_up(night)
    assert paid(transfers, night) == night
    assert all(t.amount > 0 and night[t.payer] < 0 < night[t.payee] for t in transfers)
    players = sum(1 for amount in night.values() if amount)
    assert len(transfers) <= max(players - 1, 0)


@settings(max_examples=200, deadline=None)
@given(balances(max_players=8))
def test_the_payments_are_the_fewest_there_can_be(night):
    assert len(settle_up(night)) == fewest_by_every_split(night)


def test_two_pairs_that_cancel_out_pay_twice_not_three_times():
    # Greedy from the largest would need three payments here.
    night = {"Ada": -7, "Ben": -5, "Cy": 5, "Di": 7}
    assert sorted(settle_up(night), key=lambda t: t.payer) == [
        Transfer("Ada", "Di", 7),
        Transfer("Ben", "Cy", 5),
    ]


def test_a_tied_night_pays_nothing():
    assert settle_up({"Ada": 0, "Ben": 0}) == ()
    assert settle_up({}) == ()


@pytest.mark.parametrize("night", [{"Ada": 5, "Ben": -4}, {"Ada": 1.5, "Ben": -1.5}])
def test_balances_that_do_not_add_up_are_refused(night):
    with pytest.raises(ValueError):
        settle_up(night)
