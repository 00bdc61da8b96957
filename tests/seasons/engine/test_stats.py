from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.games import GAMES
from seasons.engine.stats import (
    DEFENDER,
    KNOCKER,
    Figure,
    HandFact,
    HeadToHead,
    PartyFact,
    player_stats,
)

# The game whose figures these are: its record reads knocks, gins and undercuts.
GAME = GAMES["gin_rummy"]


def test_each_figure_says_how_many_hands_it_rests_on():
    hands = [
        HandFact(KNOCKER, "gin", True, 0),
        HandFact(KNOCKER, "knock", True, 4),
        HandFact(KNOCKER, "undercut", False, 8),
        HandFact(DEFENDER, "undercut", True, 6, laid_off=2),
        HandFact(DEFENDER, "knock", False, 3),
    ]
    stats = player_stats(GAME, hands, [])
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
    stats = player_stats(GAME, [], parties)
    assert [(h.opponent, h.parties, h.won, h.plus_minus) for h in stats.head_to_head] == [
        ("ben", 2, 1, 70),
        ("cleo", 1, 1, 300),
    ]
    assert stats.best_party.key == 3
    assert (stats.shutouts_made.value, stats.shutouts_made.of) == (1, 3)
    assert (stats.boxes_per_party.value, stats.boxes_per_party.of) == (3, 3)


def test_a_player_without_hands_has_no_figures_rather_than_zeros():
    stats = player_stats(GAME, [], [])
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
    stats = player_stats(GAME, hands, [])
    for figure in (
        stats.gin_rate,
        stats.knocks_won,
        stats.undercuts_made,
        stats.undercuts_suffered,
    ):
        assert figure.of <= len(hands)
        assert figure.value is None or 0 <= figure.value <= 1


def test_each_rate_counts_its_own_hands():
    hands = [
        HandFact(KNOCKER, "gin", True, 0),
        HandFact(KNOCKER, "big_gin", True, 0),
        HandFact(KNOCKER, "knock", True, 3),
        HandFact(KNOCKER, "knock", True, 5),
        HandFact(KNOCKER, "undercut", False, 7),
        HandFact(DEFENDER, "undercut", True, 2, laid_off=1),
        HandFact(DEFENDER, "undercut", True, 4),
        HandFact(DEFENDER, "knock", False, 6, laid_off=3),
        HandFact(DEFENDER, "gin", False, 0),
    ]
    stats = player_stats(GAME, hands, [])
    assert stats.hands == 9
    # A big gin is a gin; the defender's gin hands are not his.
    assert stats.gin_rate == Figure(2 / 9, 9)
    # His knocks: two won, one undercut.
    assert stats.knocks_won == Figure(2 / 3, 3)
    assert stats.undercuts_suffered == Figure(1 / 3, 3)
    assert stats.deadwood_when_knocking == Figure(5, 3)
    # The knocks he defended: two undercut of three.
    assert stats.undercuts_made == Figure(2 / 3, 3)
    assert stats.laid_off_when_defending == Figure(2, 2)


def test_a_party_is_won_above_nothing_and_every_party_counts_in_the_totals():
    parties = [
        PartyFact(1, None, 0, 2, games=(("ben", 0),)),
        PartyFact(2, None, 1, 3, games=(("ben", 1),)),
        PartyFact(3, None, -41, 0, shutout_suffered=True, games=(("cleo", -41),)),
        PartyFact(4, None, -60, 1, shutout_suffered=True, games=(("cleo", -60),)),
    ]
    stats = player_stats(GAME, [], parties)
    assert (stats.parties, stats.won, stats.plus_minus, stats.hands) == (4, 1, -100, 0)
    assert stats.shutouts_suffered == Figure(2, 4)
    assert stats.shutouts_made == Figure(0, 4)
    # Against Ben: a party level (not won) and one won by a point.
    assert stats.head_to_head[0] == HeadToHead("ben", 2, 1, 1)


def test_what_one_party_paid_between_two_players_is_added_up():
    # Two games with Ben in one party: one party met, paid what they add up to.
    parties = [PartyFact(1, None, 30, 2, games=(("ben", 50), ("ben", -20)))]
    assert player_stats(GAME, [], parties).head_to_head == [HeadToHead("ben", 1, 1, 30)]


def test_rivals_are_the_opponents_met_most_then_those_who_paid_most_then_by_name():
    met = {"ben": 1, "ada": 1, "cleo": 3, "dan": 2, "eve": 1, "fred": 1}
    paid = {"ben": 10, "ada": 10, "cleo": -5, "dan": 0, "eve": 40, "fred": -80}
    parties = [
        PartyFact((opponent, n), None, paid[opponent], 1, games=((opponent, paid[opponent]),))
        for opponent, times in met.items()
        for n in range(times)
    ]
    stats = player_stats(GAME, [], parties)
    assert [(h.opponent, h.parties, h.plus_minus) for h in stats.head_to_head] == [
        ("cleo", 3, -15),
        ("dan", 2, 0),
        ("eve", 1, 40),
        ("ada", 1, 10),
        ("ben", 1, 10),
    ]
    # Five rivals unless told otherwise.
    assert len(player_stats(GAME, [], parties, rivals=6).head_to_head) == 6


@settings(deadline=None)
@given(st.lists(facts, max_size=40))
def test_the_hand_figures_are_counted_as_seed_000_names_them(hands):
    # Counted here by hand, independently of the game's record the page now reads.
    knocks = [h for h in hands if h.role == KNOCKER and h.kind in ("knock", "undercut")]
    defended = [h for h in hands if h.role == DEFENDER and h.kind in ("knock", "undercut")]
    gins = sum(h.role == KNOCKER and h.kind in ("gin", "big_gin") for h in hands)

    def share(part, whole):
        return Figure(part / whole if whole else None, whole)

    stats = player_stats(GAME, hands, [])

    ended = [h for h in hands if h.kind in ("knock", "undercut", "gin", "big_gin")]
    assert stats.gin_rate == share(gins, len(ended))
    assert stats.knocks_won == share(sum(h.kind == "knock" for h in knocks), len(knocks))
    assert stats.undercuts_made == share(sum(h.kind == "undercut" for h in defended), len(defended))
    assert stats.undercuts_suffered == share(sum(h.kind == "undercut" for h in knocks), len(knocks))
    deadwood = [h.knocker_deadwood for h in knocks if h.knocker_deadwood is not None]
    assert stats.deadwood_when_knocking == Figure(
        sum(deadwood) / len(deadwood) if deadwood else None, len(deadwood)
    )
