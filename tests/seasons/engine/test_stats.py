from hypothesis import given, settings
from hypothesis import strategies as st

from seasons.engine.stats import DEFENDER, KNOCKER, HandFact, PartyFact, player_stats


def test_each_figure_says_how_many_hands_it_rests_on():
    hands = [
        HandFact(KNOCKER, "gin", True, 0),
        HandFact(KNOCKER, "knock", True, 4),
        HandFact(KNOCKER, "undercut", False, 8),
        HandFact(DEFENDER, "undercut", True, 6, laid_off=2),
        HandFact(DEFENDER, "knock", False, 3),
    ]
    stats = player_stats(hands, [])
    assert (stats.gin_rate.value, stats.gin_rate.of) == (0.2, 5)
    assert (stats.knocks_won.value, stats.knocks_won.of) == (0.5, 2)
    assert (stats.undercuts_suffered.value, stats.undercuts_suffered.of) == (0.5, 2)
    assert (stats.undercuts_made.value, stats.undercuts_made.of) == (0.5, 2)
    assert (stats.deadwood_when_knocking.value, stats.deadwood_when_knocking.of) == (6, 2)
    assert (stats.laid_off_when_defending.value, stats.laid_off_when_defending.of) == (2, 1)


def test_head_to_head_lists_the_opponents_met_most_with_what_the_settlements_paid():
    parties = [
        PartyFact(1, None, 120, 3, games=(("ben", 120),)),
        PartyFact(2, None, -50, 1, games=(("ben", -50),)),
        PartyFact(3, None, 300, 5, shutout_made=True, games=(("cleo", 300),)),
    ]
    stats = player_stats([], parties)
    assert [(h.opponent, h.parties, h.won, h.plus_minus) for h in stats.head_to_head] == [
        ("ben", 2, 1, 70),
        ("cleo", 1, 1, 300),
    ]
    assert stats.best_party.key == 3
    assert (stats.shutouts_made.value, stats.shutouts_made.of) == (1, 3)
    assert (stats.boxes_per_party.value, stats.boxes_per_party.of) == (3, 3)


def test_a_player_without_hands_has_no_figures_rather_than_zeros():
    stats = player_stats([], [])
    assert stats.gin_rate.value is None and stats.gin_rate.of == 0
    assert stats.best_party is None


kinds = st.sampled_from(["knock", "undercut", "gin", "big_gin"])
facts = st.builds(
    HandFact, st.sampled_from([KNOCKER, DEFENDER]), kinds, st.booleans(), st.integers(0, 10)
)


# A busy machine must not fail a property: no deadline (never a wall-clock test).
@settings(deadline=None)
@given(st.lists(facts, max_size=40))
def test_rates_lie_between_nothing_and_all_and_rest_on_no_more_hands_than_played(hands):
    stats = player_stats(hands, [])
    for figure in (
        stats.gin_rate,
        stats.knocks_won,
        stats.undercuts_made,
        stats.undercuts_suffered,
    ):
        assert figure.of <= len(hands)
        assert figure.value is None or 0 <= figure.value <= 1
