from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.formats import Payment
from seasons.engine.ratings import (
    Game,
    RatedParty,
    Rating,
    games_from_payments,
    rate_all,
    rate_party,
)

DAY = date(2026, 11, 24)


def party(winner, loser, day=DAY, key=0):
    return RatedParty(key, day, (Game((winner,), (loser,)),), frozenset({winner}))


def test_the_winner_gains_what_the_loser_loses_at_the_start():
    after = rate_party({}, party("ada", "ben"))
    assert after["ada"].mu - 25 == -(after["ben"].mu - 25) > 0
    assert after["ada"].won == 1 and after["ben"].won == 0


def test_a_new_player_is_provisional_and_shown_as_1500_question_mark():
    assert Rating().label() == "1500?"


def test_a_player_is_settled_after_enough_parties_and_uncertain_again_after_a_long_absence():
    ratings = rate_all(
        [party("ada", "ben", key=n) if n % 2 else party("ben", "ada", key=n) for n in range(12)]
    )
    ada = ratings["ada"]
    assert not ada.provisional(DAY)
    assert ada.provisional(DAY + timedelta(days=3 * 365))
    assert ada.sigma_on(DAY + timedelta(days=3 * 365)) > ada.sigma


def test_a_rotation_settles_as_games_between_the_players_the_payments_name():
    # Seed 000 "zu dritt": the highest collects from both others, the second from the lowest.
    payments = [Payment((1,), (0,), 120), Payment((2,), (0,), 60), Payment((2,), (1,), 60)]
    names = {0: "ada", 1: "ben", 2: "cleo"}
    games = games_from_payments(payments, names.__getitem__)
    assert games == (
        Game(("ada",), ("ben",)),
        Game(("ada",), ("cleo",)),
        Game(("ben",), ("cleo",)),
    )


def test_equal_totals_are_no_game():
    assert games_from_payments([Payment((1,), (0,), 0)], str) == ()


players = st.sampled_from(["ada", "ben", "cleo", "dora"])


# A busy machine must not fail a property: no deadline (never a wall-clock test).
@settings(deadline=None)
@given(st.lists(st.tuples(players, players).filter(lambda p: p[0] != p[1]), max_size=25))
def test_a_fold_counts_every_party_once_and_never_resets(pairs):
    parties = [party(a, b, key=n) for n, (a, b) in enumerate(pairs)]
    ratings = rate_all(parties)
    for name, rating in ratings.items():
        assert rating.parties == sum(name in pair for pair in pairs)
        assert rating.won == sum(pair[0] == name for pair in pairs)
    # Folding in two steps is folding at once: what the kept ratings rely on.
    half = len(parties) // 2
    assert rate_all(parties[half:], rate_all(parties[:half])) == ratings


# A busy machine must not fail a property: no deadline (never a wall-clock test).
@settings(deadline=None)
@given(st.integers(min_value=0, max_value=5000))
def test_uncertainty_only_grows_with_absence_and_never_above_a_new_players(days):
    rating = rate_all([party("ada", "ben", key=n) for n in range(5)])["ada"]
    later = rating.sigma_on(DAY + timedelta(days=days))
    assert rating.sigma <= later <= Rating().sigma


def test_one_beta_of_skill_is_shown_as_200_points_either_way():
    beta = 25 / 6
    assert Rating(mu=25 + beta).shown() == 1700
    assert Rating(mu=25 - beta / 2).shown() == 1400


def test_a_rating_is_provisional_only_above_the_limit():
    assert not Rating(sigma=6.0).provisional()
    assert Rating(sigma=6.001).provisional()


def test_a_settled_rating_has_no_question_mark_until_a_year_without_a_party():
    settled = Rating(mu=25, sigma=4.1, parties=30, last_played=DAY)
    assert settled.label() == "1500"
    assert settled.label(DAY + timedelta(days=30)) == "1500"
    assert settled.label(DAY + timedelta(days=400)) == "1500?"


def test_the_spread_is_the_uncertainty_on_the_shown_scale_and_grows_without_parties():
    settled = Rating(sigma=25 / 12, last_played=DAY)
    assert settled.spread() == 100
    assert settled.spread(DAY) == 100
    # Twenty years without a party: as uncertain as a new player (25/3, 400 points).
    assert settled.spread(DAY + timedelta(days=7300)) == 400


def test_a_payment_of_a_single_point_is_a_game():
    assert games_from_payments([Payment((1,), (0,), 1)], str) == (Game(("0",), ("1",)),)


def test_on_the_day_of_his_last_party_a_player_is_as_uncertain_as_he_was_left():
    assert Rating(sigma=9.0, last_played=DAY).sigma_on(DAY) == 9.0


def test_a_settled_player_is_as_uncertain_as_the_limit_after_a_year():
    assert Rating(sigma=4.14, last_played=DAY).sigma_on(DAY + timedelta(days=365)) == (
        pytest.approx(6.0)
    )


def test_beating_a_weaker_player_gains_less_than_beating_an_equal():
    strong, weak = Rating(mu=35, sigma=4), Rating(mu=15, sigma=4)
    equal = rate_party({"ada": Rating(mu=35, sigma=4), "ben": strong}, party("ada", "ben"))
    expected = rate_party({"ada": strong, "ben": weak}, party("ada", "ben"))
    assert 0 < expected["ada"].mu - 35 < equal["ada"].mu - 35


def test_a_year_away_makes_the_next_party_move_a_rating_more():
    back = DAY + timedelta(days=365)
    settled = Rating(sigma=4.14, last_played=DAY)
    after_a_break = rate_party({"ada": settled}, party("ada", "ben", day=back))["ada"]
    without = rate_party({"ada": Rating(sigma=4.14, last_played=back)}, party("ada", "ben", back))
    assert after_a_break.mu > without["ada"].mu > 25


def test_players_may_be_ids_of_any_kind_at_once():
    # A set of players has no order of its own: they are taken in a fixed one.
    after = rate_party({}, party(7, "guest"))
    assert after[7].mu > 25 > after["guest"].mu
