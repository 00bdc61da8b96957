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


def test_the_refusals_say_what_is_wrong():
    with pytest.raises(ValueError, match=r"^'Ada''s balance must be a whole number, not 1\.5\.$"):
        settle_up({"Ada": 1.5, "Ben": -1.5})
    refusal = r"^The balances must add up to 0, not 1: every point won is a point paid\.$"
    with pytest.raises(ValueError, match=refusal):
        settle_up({"Ada": 5, "Ben": -4})


def test_groups_that_cancel_out_settle_among_themselves_in_the_order_of_the_balances():
    # Ada pays 9, Ben receives 4, Cy 5: one group (two payments, the largest credit
    # first); Di pays 8 to Ed (1) and Flo (7): the other. Largest debt to largest
    # credit over all six would take five: 9→7, 8→5, 2 and 3 spread over 4 and 1.
    night = {"Ada": -9, "Ben": 4, "Cy": 5, "Di": -8, "Ed": 1, "Flo": 7}
    assert settle_up(night) == (
        Transfer("Ada", "Cy", 5),
        Transfer("Ada", "Ben", 4),
        Transfer("Di", "Flo", 7),
        Transfer("Di", "Ed", 1),
    )


def test_the_group_first_in_the_balances_pays_first_and_the_largest_balance_first():
    # Cy and Ben cancel out, and Ada and Di: Cy comes first in the balances.
    assert settle_up({"Cy": -5, "Ada": -7, "Di": 7, "Ben": 5}) == (
        Transfer("Cy", "Ben", 5),
        Transfer("Ada", "Di", 7),
    )
    # One group: the larger credit (Bo, 4) is paid first, then Cy.
    assert settle_up({"Ada": -5, "Cy": 1, "Bo": 4}) == (
        Transfer("Ada", "Bo", 4),
        Transfer("Ada", "Cy", 1),
    )
    # The larger debt (Bo, 4) pays first.
    assert settle_up({"Cy": -1, "Bo": -4, "Ada": 5}) == (
        Transfer("Bo", "Ada", 4),
        Transfer("Cy", "Ada", 1),
    )
    # Equal credits are paid in the order of the balances: Zed before Yan.
    assert settle_up({"Zed": 2, "Yan": 2, "Xi": -4}) == (
        Transfer("Xi", "Zed", 2),
        Transfer("Xi", "Yan", 2),
    )


def test_fifteen_players_still_get_the_fewest_payments():
    # Five groups of three that cancel out (9 = 4 + 5, 8 = 1 + 7, 27 = 12 + 15,
    # 22 = 15 + 7, 25 = 12 + 13) and no two balances that do: no group has fewer than
    # three players, so five groups are the most, and 15 − 5 = 10 payments the fewest.
    amounts = [-9, 4, 5, -8, 1, 7, -27, 12, 15, -22, 15, 7, -25, 12, 13]
    assert len(amounts) == EXACT_UP_TO
    night = {f"P{index}": amount for index, amount in enumerate(amounts)}
    assert len(settle_up(night)) == 10


def test_more_players_pay_equal_and_opposite_balances_to_each_other_first():
    # Twenty players: four each of −5, −4, +4, +3 and +2. Each −4 pays a +4 (four
    # payments), then each −5 pays a +3 and a +2 (eight): twelve, the fewest.
    amounts = [-5] * 4 + [-4] * 4 + [4] * 4 + [3] * 4 + [2] * 4
    night = {f"P{index}": amount for index, amount in enumerate(amounts)}
    transfers = settle_up(night)
    assert len(transfers) == 12
    assert sum(t.amount == 4 for t in transfers) == 4
