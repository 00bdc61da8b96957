"""The party formats behind one interface: seats, the next table, and one outcome."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.deal import NextHand
from scoring.engine.formats import FORMATS, Payment, SheetLine, WrongPlayerCount
from scoring.engine.rules import RULESETS

CLASSIC = RULESETS["classic"]
# Seed 000, "Beispiel einer Abrechnung": A 284, B 82, margin 202.
SEED_SHEET = [(0, 23), (0, 27), (1, 32), (0, 35), (1, 10), (0, 19)]


def lineup_of(format_key, count):
    seating = FORMATS[format_key].seating(count)
    lineup = {}
    for position, side in enumerate(seating.sides):
        lineup.setdefault(side, []).append(position)
    return lineup


@pytest.mark.parametrize(
    ("key", "count", "sides"),
    [
        ("two", 2, (0, 1)),
        ("rotation", 3, (0, 1, 2)),
        ("chouette", 4, (0, 1, 1, 1)),
        ("partners", 4, (0, 0, 1, 1)),
        ("partners", 6, (0, 0, 0, 1, 1, 1)),
    ],
)
def test_the_draw_seats_the_best_cards_first_and_the_low_side_deals(key, count, sides):
    seating = FORMATS[key].seating(count)
    assert seating.sides == sides
    assert seating.first_dealer == 1


@pytest.mark.parametrize(("key", "count"), [("two", 3), ("rotation", 2), ("partners", 5)])
def test_a_format_refuses_a_player_count_it_is_not_played_by(key, count):
    with pytest.raises(WrongPlayerCount):
        FORMATS[key].seating(count)


def test_the_refusal_names_the_counts_the_format_is_played_by():
    with pytest.raises(WrongPlayerCount) as refused:
        FORMATS["chouette"].seating(2)
    assert str(refused.value) == "This format is played by 3 or 4 or 5 or 6, not 2."
    assert (refused.value.sizes, refused.value.count) == ((3, 4, 5, 6), 2)


def test_one_table_plays_each_round_but_in_partnerships_one_per_pair():
    assert FORMATS["two"].table_count({0: [0], 1: [1]}) == 1
    assert FORMATS["chouette"].table_count({0: [0], 1: [1, 2, 3]}) == 1
    assert FORMATS["partners"].table_count({0: [0, 1, 2], 1: [3, 4, 5]}) == 3


def test_the_running_sheet_of_the_seed_has_a_line_per_hand():
    # Seed 000 "Beispiel einer Abrechnung": A (side 0) 23, 27, 35, 19; B 32, 10.
    lines = FORMATS["two"].sheet(CLASSIC, {0: [0], 1: [1]}, [[entry] for entry in SEED_SHEET])
    assert lines == [
        SheetLine((0, 23), (23, 0), (1, 0), (77, 100)),
        SheetLine((0, 27), (50, 0), (2, 0), (50, 100)),
        SheetLine((1, 32), (50, 32), (2, 1), (50, 68)),
        SheetLine((0, 35), (85, 32), (3, 1), (15, 68)),
        SheetLine((1, 10), (85, 42), (3, 2), (15, 58)),
        SheetLine((0, 19), (104, 42), (4, 2), (0, 58)),
    ]


def test_a_rotations_sheet_has_a_column_for_each_of_the_three():
    # Seed 000 "zu dritt" 1: position 0 wins the first hand, 17; position 2, who sat
    # it out, wins the second against him, 30.
    lineup = {0: [0], 1: [1], 2: [2]}
    assert FORMATS["rotation"].sheet(CLASSIC, lineup, [[(0, 17)], [(2, 30)]]) == [
        SheetLine((0, 17), (17, 0, 0), (1, 0, 0), (83, 100, 100)),
        SheetLine((2, 30), (17, 0, 30), (1, 0, 1), (83, 100, 70)),
    ]


def test_partners_meet_their_right_opponent_first_and_the_losing_team_deals():
    # Seed 000, "Sind vier Spieler beteiligt…": the low team (2, 3) deals the first
    # round, each to the opponent on his right; then the partners change opponents,
    # and the team that lost the round deals.
    lineup = {0: [0, 1], 1: [2, 3]}
    partners = FORMATS["partners"]
    assert partners.next_tables(1, lineup, []) == (
        NextHand(dealer=2, forehand=0),
        NextHand(dealer=3, forehand=1),
    )
    # The low team wins the first round 30 to nothing: the high team deals the second.
    assert partners.next_tables(1, lineup, [[(1, 30), None]]) == (
        NextHand(dealer=1, forehand=2),
        NextHand(dealer=0, forehand=3),
    )


def test_partnerships_play_to_125_for_teams_of_two_and_150_for_three():
    assert FORMATS["partners"].rules(CLASSIC, 4).target == 125
    assert FORMATS["partners"].rules(CLASSIC, 6).target == 150


def test_two_players_the_winner_is_plus_the_margin_and_the_loser_minus():
    rounds = [[entry] for entry in SEED_SHEET]
    outcome = FORMATS["two"].outcome(CLASSIC, {0: [0], 1: [1]}, rounds)
    assert outcome.finished
    assert [side.total for side in outcome.sides] == [284, 82]
    assert (outcome.winner, outcome.margin) == (0, 202)
    assert outcome.payments == (Payment((1,), (0,), 202),)
    assert outcome.plus_minus == {0: 202, 1: -202}


def test_a_running_two_player_party_has_no_winner_and_no_payment():
    outcome = FORMATS["two"].outcome(CLASSIC, {0: [0], 1: [1]}, [[(0, 23)]])
    assert (outcome.finished, outcome.winner, outcome.payments) == (False, None, ())


def test_rotation_each_player_is_the_sum_of_his_payments():
    # Seed 000 "zu dritt" 1 with B at position 0, C at 1 and A at 2 (B and C start):
    # B pays A 225, C pays A 362, C pays B 37.
    rounds = [[(0, 17)], [(2, 30)], [(2, 35)], [(2, 37)]]
    outcome = FORMATS["rotation"].outcome(CLASSIC, {0: [0], 1: [1], 2: [2]}, rounds)
    assert [side.total for side in outcome.sides] == [37, 0, 262]
    assert outcome.plus_minus == {2: 225 + 362, 0: 37 - 225, 1: -362 - 37}
    assert set(outcome.payments) == {
        Payment((0,), (2,), 225),
        Payment((1,), (2,), 362),
        Payment((1,), (0,), 37),
    }
    assert (outcome.finished, outcome.winner, outcome.margin) == (True, None, None)


def test_chouette_the_box_collects_the_margin_from_every_partner():
    rounds = [[entry] for entry in SEED_SHEET]
    outcome = FORMATS["chouette"].outcome(CLASSIC, {0: [0], 1: [1, 2, 3]}, rounds)
    assert outcome.plus_minus == {0: 3 * 202, 1: -202, 2: -202, 3: -202}
    assert (outcome.winner, outcome.margin) == (0, 202)
    assert set(outcome.payments) == {Payment((member,), (0,), 202) for member in (1, 2, 3)}


def test_partners_each_player_wins_or_pays_the_teams_margin():
    # Teams of two at two tables: each round's net goes in the team column (seed 000).
    rounds = [[(0, 30), (1, 10)]] * 5 + [[(0, 30), None]]
    lineup = {0: [0, 1], 1: [2, 3]}
    rules = FORMATS["partners"].rules(CLASSIC, 4)
    outcome = FORMATS["partners"].outcome(rules, lineup, rounds)
    assert outcome.finished
    # 5 × 20 + 30 = 130 points, six boxes (120) and the game (100); B wrote nothing
    # and pays the shutout bonus (100) too: 450.
    assert [side.total for side in outcome.sides] == [450, 0]
    assert outcome.plus_minus == {0: 450, 1: 450, 2: -450, 3: -450}
    assert outcome.payments == (Payment((2, 3), (0, 1), 450),)


def test_a_running_party_has_no_payments_and_everyone_at_zero():
    outcome = FORMATS["chouette"].outcome(CLASSIC, {0: [0], 1: [1, 2]}, [[(0, 20)]])
    assert not outcome.finished
    assert outcome.payments == ()
    assert outcome.plus_minus == {0: 0, 1: 0, 2: 0}


def _play(key, lineup, entries, rules):
    """Plays the entries as far as the party runs, each at the table the format
    seats next (the entry's side is taken from the players at that table)."""
    party_format = FORMATS[key]
    rounds = []
    for pick, points in entries:
        if party_format.outcome(rules, lineup, rounds).finished:
            break
        tables = party_format.next_tables(1, lineup, rounds)
        side_of = {p: side for side, positions in lineup.items() for p in positions}
        rounds.append(
            [(side_of[table.players[pick % 2]], points) if points else None for table in tables]
        )
    return party_format.outcome(rules, lineup, rounds)


@given(
    st.sampled_from(
        [
            ("two", 2),
            ("rotation", 3),
            ("chouette", 3),
            ("chouette", 5),
            ("partners", 4),
            ("partners", 6),
        ]
    ),
    st.lists(st.tuples(st.integers(0, 1), st.integers(0, 60)), max_size=40),
    st.sampled_from(sorted(RULESETS)),
)
def test_what_the_players_win_and_pay_adds_up_to_nothing(game, entries, ruleset):
    key, count = game
    rules = FORMATS[key].rules(RULESETS[ruleset], count)
    outcome = _play(key, lineup_of(key, count), entries, rules)
    assert sum(outcome.plus_minus.values()) == 0
    assert set(outcome.plus_minus) == set(range(count))
    if not outcome.finished:
        assert set(outcome.plus_minus.values()) == {0}
