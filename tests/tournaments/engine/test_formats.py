"""The tournament formats behind one interface: each answers every question the
tournament asks (rounds, pairing, late entrants, getting stuck, standings,
explanations), for any field."""

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.engine.explain import HAD_BYE, KEPT_APART, LOT, PLAYED, SCHEDULE, SWISS, Line, Skip
from tournaments.engine.formats import (
    BY_LOT,
    BY_SCHEDULE,
    DEFAULT_FORMAT,
    FEWEST_REMATCHES,
    FORMATS,
    SWISS_RULE,
    Knockout,
    RoundPlan,
    RoundRobin,
    ScheduleComplete,
    SwissSystem,
    TournamentFormat,
    format_of,
)
from tournaments.engine.pairing import NoPairing, round_robin, swiss_round_count

ALL = sorted(FORMATS.values(), key=lambda f: f.key)
# The formats that play rounds of two at a table (a knockout plays only its
# bracket, tournaments.engine.knockout, tested in test_knockout.py; an evening
# planned ahead only tables of three to six, test_mixer.py).
ROUNDS = [f for f in ALL if f.plays_rounds and not f.only_at_tables]


def test_each_format_is_looked_up_by_its_stored_value():
    assert isinstance(format_of("swiss"), SwissSystem)
    assert isinstance(format_of("round_robin"), RoundRobin)
    assert isinstance(format_of("knockout"), Knockout)
    assert format_of(DEFAULT_FORMAT) is format_of("swiss")
    with pytest.raises(KeyError):
        format_of("ladder")


@pytest.mark.parametrize("tournament_format", ALL, ids=lambda f: f.key)
def test_each_format_says_what_the_desk_allows(tournament_format):
    assert isinstance(tournament_format, TournamentFormat)
    questions = ("takes_late_entrants", "can_get_stuck", "pairs_from_standings", "plays_rounds")
    for question in questions:
        assert isinstance(getattr(tournament_format, question), bool)


def test_a_knockout_plays_no_rounds_at_tables():
    knockout = format_of("knockout")
    assert not knockout.plays_rounds
    assert not knockout.takes_late_entrants
    assert knockout.round_count(8) == 0
    with pytest.raises(ScheduleComplete):
        knockout.first_round(list("ABCDEFGH"), random.Random(1))
    with pytest.raises(ScheduleComplete):
        knockout.next_round(2, list("ABCDEFGH"))


@pytest.mark.parametrize("tournament_format", ROUNDS, ids=lambda f: f.key)
def test_each_format_answers_every_question(tournament_format):
    assert tournament_format.round_count(8) >= 1
    assert tournament_format.rounds_without_rematch(8) == 7
    plan = tournament_format.first_round(list("ABCDEFGH"), random.Random(1))
    assert isinstance(plan, RoundPlan)
    following = tournament_format.next_round(
        2, list("ABCDEFGH"), first_order=plan.order, ranking=list("ABCDEFGH"), played=plan.pairs
    )
    assert isinstance(following, RoundPlan)


def test_an_evening_planned_ahead_is_played_only_at_tables_and_takes_late_entrants():
    planned = format_of("planned")
    assert planned.plans_ahead and planned.only_at_tables and planned.seats_tables
    assert planned.takes_late_entrants and not planned.pairs_from_standings
    with pytest.raises(ScheduleComplete):
        planned.first_round(list("ABCDEFGH"), random.Random(1))


def test_swiss_is_asked_as_the_seed_says():
    """Seed 000: late entrants join the next round, a round may find no pairing
    without a rematch, and the standings pair the next round (so ties are drawn)."""
    swiss = format_of("swiss")
    assert swiss.takes_late_entrants
    assert swiss.can_get_stuck
    assert swiss.pairs_from_standings


def test_round_robin_is_fixed_at_the_start():
    robin = format_of("round_robin")
    assert not robin.takes_late_entrants
    assert not robin.can_get_stuck
    assert not robin.pairs_from_standings


@pytest.mark.parametrize(
    ("entrants", "rounds"),
    [(5, 3), (8, 3), (9, 4), (16, 4), (17, 5), (32, 5), (33, 6), (4, 3), (3, 3), (2, 1)],
)
def test_swiss_rounds_follow_the_seed_table(entrants, rounds):
    assert format_of("swiss").round_count(entrants) == rounds


@pytest.mark.parametrize(("entrants", "rounds"), [(2, 1), (3, 3), (4, 3), (7, 7), (8, 7)])
def test_a_round_robin_has_everyone_meet_once(entrants, rounds):
    assert format_of("round_robin").round_count(entrants) == rounds


def test_only_swiss_warns_of_rounds_beyond_the_table():
    swiss, robin = format_of("swiss"), format_of("round_robin")
    assert swiss.entrants_needed(3) is None
    assert swiss.entrants_needed(4) == 5
    assert swiss.entrants_needed(6) == 7
    assert robin.entrants_needed(6) is None


@pytest.mark.parametrize("rounds", [1, 2, 3])
def test_a_short_swiss_is_no_cause_for_a_warning(rounds):
    # One or two rounds: any two or three entrants play them without a rematch.
    assert format_of("swiss").entrants_needed(rounds) is None


def test_swiss_first_round_is_drawn_by_lot_and_keeps_the_entry_order():
    plan = format_of("swiss").first_round([3, 1, 2], random.Random(7))
    assert plan.how == BY_LOT
    assert plan.order == [3, 1, 2]
    assert len(plan.pairs) == 1 and len(plan.byes) == 1
    assert {line.how for line in plan.lines} == {LOT}


def test_round_robin_keeps_the_order_drawn_in_round_one():
    robin = format_of("round_robin")
    plan = robin.first_round([1, 2, 3, 4], random.Random(7))
    assert sorted(plan.order) == [1, 2, 3, 4]
    assert plan.how == BY_SCHEDULE
    assert plan.pairs == round_robin(plan.order)[0]
    assert {line.how for line in plan.lines} == {SCHEDULE}
    later = robin.next_round(3, [1, 2, 3, 4], first_order=plan.order)
    assert later.pairs == round_robin(plan.order)[2]
    assert later.order is None


def test_a_round_robin_player_whose_opponent_withdrew_sits_out():
    order = list("ABCD")
    robin = format_of("round_robin")
    opponent = {a: b for pair in round_robin(order)[1] for a, b in (pair, pair[::-1])}["A"]
    playing = [e for e in order if e != opponent]
    plan = robin.next_round(2, playing, first_order=order)
    assert plan.byes == ["A"]
    assert [line.second for line in plan.lines][-1] is None


def test_a_round_robin_ends_with_its_schedule():
    with pytest.raises(ScheduleComplete):
        format_of("round_robin").next_round(4, list("ABCD"), first_order=list("ABCD"))


def test_swiss_pairs_from_the_ranking_and_explains_why():
    plan = format_of("swiss").next_round(
        2, list("ABCD"), ranking=list("ABCD"), played=[("A", "B"), ("C", "D")], byes=()
    )
    assert plan.pairs == [("A", "C"), ("B", "D")]
    assert plan.how == SWISS_RULE
    assert plan.order == list("ABCD")
    assert plan.lines[0].how == SWISS
    assert [s.entrant for s in plan.lines[0].skipped] == ["B"]


def test_swiss_counts_kept_apart_as_met():
    plan = format_of("swiss").next_round(
        2, list("ABCD"), ranking=list("ABCD"), played=[("A", "B")], kept_apart=[("A", "C")]
    )
    assert plan.pairs == [("A", "D"), ("B", "C")]


def test_swiss_gets_stuck_when_everyone_has_met_and_then_pairs_with_fewest_rematches():
    swiss = format_of("swiss")
    played = list(itertools.combinations("ABCD", 2))
    with pytest.raises(NoPairing):
        swiss.next_round(4, list("ABCD"), ranking=list("ABCD"), played=played)
    plan = swiss.next_round(
        4, list("ABCD"), ranking=list("ABCD"), played=played, fewest_rematches=True
    )
    assert plan.how == FEWEST_REMATCHES
    assert len(plan.pairs) == 2


def play_out(tournament_format, count, seed):
    """Every round the format gives ``count`` entrants, the standings a random order
    each round (Swiss, when stuck, paired with the fewest rematches)."""
    rng = random.Random(seed)
    entrants = list(range(count))
    plan = tournament_format.first_round(entrants, rng)
    plans, first_order = [plan], plan.order
    for number in range(2, tournament_format.round_count(count) + 1):
        played = [p for done in plans for p in done.pairs]
        byes = [b for done in plans for b in done.byes]
        ranking = rng.sample(entrants, count)
        history = {"first_order": first_order, "ranking": ranking, "played": played, "byes": byes}
        try:
            plan = tournament_format.next_round(number, entrants, **history)
        except NoPairing:
            plan = tournament_format.next_round(number, entrants, fewest_rematches=True, **history)
        plans.append(plan)
    return plans


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(ROUNDS), st.integers(2, 18), st.integers(0, 2**32))
def test_every_round_seats_each_entrant_once(tournament_format, count, seed):
    for plan in play_out(tournament_format, count, seed):
        seated = [e for pair in plan.pairs for e in pair] + list(plan.byes)
        assert sorted(seated) == list(range(count))
        assert len(plan.lines) == len(plan.pairs) + len(plan.byes)
        assert len(plan.byes) == count % 2


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(ROUNDS), st.integers(2, 70))
def test_round_counts_are_what_a_field_can_play(tournament_format, count):
    rounds = tournament_format.round_count(count)
    assert 1 <= rounds <= tournament_format.rounds_without_rematch(count)
    assert rounds <= max(swiss_round_count(count), len(round_robin(range(count))))


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 14), st.integers(0, 2**32))
def test_a_played_out_round_robin_has_each_pair_meet_exactly_once(count, seed):
    plans = play_out(format_of("round_robin"), count, seed)
    met = Counter(frozenset(pair) for plan in plans for pair in plan.pairs)
    assert set(met) == {frozenset(p) for p in itertools.combinations(range(count), 2)}
    assert set(met.values()) == {1}


@settings(max_examples=40, deadline=None)
@given(st.integers(5, 32), st.integers(0, 2**32))
def test_a_swiss_of_the_seed_table_needs_no_rematch(count, seed):
    """3 rounds for 5–8, 4 for 9–16, 5 for 17–32: always pairable without a rematch."""
    plans = play_out(format_of("swiss"), count, seed)
    met = Counter(frozenset(pair) for plan in plans for pair in plan.pairs)
    assert set(met.values()) == {1}


def test_a_played_out_schedule_says_how_many_rounds_it_had():
    with pytest.raises(ScheduleComplete, match=r"^The schedule has only 3 rounds\.$") as done:
        format_of("round_robin").next_round(4, list("ABCD"), first_order=list("ABCD"))
    assert done.value.rounds == 3


def test_a_knockout_has_no_rounds_at_tables_to_play_or_to_play_without_rematch():
    knockout = format_of("knockout")
    assert knockout.rounds_without_rematch(8) == 0
    for ask in (
        lambda: knockout.first_round(list("ABCD"), random.Random(1)),
        lambda: knockout.next_round(2, list("ABCD")),
    ):
        with pytest.raises(ScheduleComplete, match=r"^The schedule has only 0 rounds\.$") as done:
            ask()
        assert done.value.rounds == 0


def test_fewer_than_two_entrants_play_no_round_without_rematch():
    assert [format_of("swiss").rounds_without_rematch(n) for n in (0, 1, 2, 3)] == [0, 0, 1, 3]


def test_swiss_warns_of_odd_numbers_of_rounds_beyond_the_table_too():
    # Five rounds need five entrants (each sits out once), seven need seven.
    swiss = format_of("swiss")
    assert [swiss.entrants_needed(rounds) for rounds in (5, 7, 8)] == [5, 7, 9]


@pytest.mark.parametrize("fewest_rematches", [False, True])
def test_swiss_gives_the_bye_to_the_lowest_placed_without_one_and_says_why(fewest_rematches):
    plan = format_of("swiss").next_round(
        2,
        list("ABCDE"),
        ranking=list("ABCDE"),
        played=[("A", "B"), ("C", "D")],
        byes=["E"],
        fewest_rematches=fewest_rematches,
    )
    assert plan.byes == ["D"]
    assert plan.lines[-1] == Line("D", None, SWISS, (Skip("E", HAD_BYE),))


def test_swiss_explains_a_pair_kept_apart_apart_from_one_played():
    plan = format_of("swiss").next_round(
        2, list("ABCD"), ranking=list("ABCD"), played=[("A", "B")], kept_apart=[("A", "C")]
    )
    assert plan.lines[0].skipped == (Skip("B", PLAYED), Skip("C", KEPT_APART))


def test_a_round_robin_player_whose_opponent_withdrew_sits_out_by_the_schedule():
    order = list("ABCD")
    opponent = {a: b for pair in round_robin(order)[1] for a, b in (pair, pair[::-1])}["A"]
    playing = [e for e in order if e != opponent]
    plan = format_of("round_robin").next_round(2, playing, first_order=order)
    assert plan.lines[-1] == Line("A", None, SCHEDULE)
