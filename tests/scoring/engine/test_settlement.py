import pytest
from hypothesis import assume, event, given
from hypothesis import strategies as st

from scoring.engine.deal import ChouetteStart, rotation_turns
from scoring.engine.rules import RULESETS
from scoring.engine.settlement import (
    PartyOver,
    SideTotal,
    chouette_next_party,
    partnership_round,
    partnership_rules,
    score_sheet,
    settle_chouette,
    settle_partnership,
    settle_party,
    settle_rotation,
)

CLASSIC = RULESETS["classic"]
CARDGAMES = RULESETS["cardgames"]
NAMED = list(RULESETS.values())

# Seed 000, "Beispiel einer Abrechnung": A is side 0, B side 1.
SEED_SHEET = [(0, 23), (0, 27), (1, 32), (0, 35), (1, 10), (0, 19)]


# Two sides (seed 000 and 002 "Abrechnung").


def test_seed_sheet_settles_284_to_82():
    settlement = settle_party(CLASSIC, SEED_SHEET)
    a, b = settlement.sides
    assert a == SideTotal(points=104, boxes=4, box_bonus=80, game_bonus=100)
    assert a.total == 284
    assert b == SideTotal(points=42, boxes=2, box_bonus=40)
    assert b.total == 82
    assert settlement.finished
    assert settlement.winner == 0
    assert settlement.margin == 202
    assert settlement.first_to_target == 0


def test_unfinished_party_has_no_bonuses_and_no_winner():
    settlement = settle_party(CLASSIC, SEED_SHEET[:5])
    assert not settlement.finished
    assert settlement.winner is None
    assert settlement.margin == 0
    assert [side.total for side in settlement.sides] == [85, 42]
    assert [side.boxes for side in settlement.sides] == [3, 2]
    assert all(side.box_bonus == side.game_bonus == 0 for side in settlement.sides)


def test_empty_sheet_is_an_unfinished_party():
    settlement = settle_party(CLASSIC, [])
    assert not settlement.finished
    assert settlement.sides == (SideTotal(0, 0), SideTotal(0, 0))


def test_a_hand_after_the_party_is_over_raises():
    with pytest.raises(PartyOver, match="decided after hand 6; hand 7"):
        settle_party(CLASSIC, [*SEED_SHEET, (1, 5)])


def test_even_a_no_game_after_the_party_is_over_raises():
    with pytest.raises(PartyOver):
        settle_party(CLASSIC, [*SEED_SHEET, None])
    assert issubclass(PartyOver, ValueError)


def test_points_over_the_target_count():
    # Seed 000: "In der Abrechnung werden auch die Punkte über 100 gewertet."
    assert settle_party(CLASSIC, [(1, 60), (1, 75)]).sides[1].points == 135


def test_no_game_wins_no_box():
    settlement = settle_party(CLASSIC, [None, (0, 50), None, (0, 50)])
    assert settlement.sides[0].boxes == 2


def test_a_hand_with_nothing_to_write_wins_no_box():
    settlement = settle_party(CLASSIC, [(1, 0), (0, 60), (0, 40)])
    assert settlement.sides[1].boxes == 0


def test_classic_shutout_bonus_when_the_loser_wrote_nothing():
    # Seed 000 "Schneider": 100 more for the winner.
    settlement = settle_party(CLASSIC, [(0, 40), None, (0, 70)])
    assert settlement.sides[0] == SideTotal(110, 2, 40, 100, 100)
    assert settlement.sides[0].total == 350
    assert settlement.margin == 350


def test_classic_shutout_is_not_given_when_the_loser_scored():
    settlement = settle_party(CLASSIC, [(1, 2), (0, 100)])
    assert settlement.sides[0].shutout_bonus == 0


def test_cardgames_shutout_doubles_the_hand_points_before_the_bonuses():
    # Seed 001: won every hand, no no-game: points doubled, then 25 per line and 100 game.
    settlement = settle_party(CARDGAMES, [(1, 30), (1, 45), (1, 40)])
    winner = settlement.sides[1]
    assert winner == SideTotal(points=115, boxes=3, box_bonus=75, game_bonus=100, shutout_bonus=115)
    assert winner.total == 2 * 115 + 75 + 100


def test_cardgames_shutout_is_spoiled_by_a_no_game():
    # Seed 001: "du [musst] alle Runden gewinnen … und keine unentschieden enden".
    settlement = settle_party(CARDGAMES, [(1, 30), None, (1, 45), (1, 40)])
    assert settlement.sides[1].shutout_bonus == 0
    assert settlement.sides[1].total == 115 + 75 + 100


def test_cardgames_shutout_is_spoiled_by_a_hand_that_scored_nothing():
    settlement = settle_party(CARDGAMES, [(0, 0), (1, 100)])
    assert settlement.sides[1].shutout_bonus == 0


def test_the_first_to_the_target_is_not_always_the_winner():
    # Seed 000 "Anmerkung": boxes can decide. B 80 points in 8 hands, then A 100 in one.
    hands = [(1, 10)] * 8 + [(0, 100)]
    settlement = settle_party(CLASSIC, hands)
    assert settlement.first_to_target == 0
    assert settlement.winner == 1
    assert settlement.margin == (80 + 160) - (100 + 20 + 100)


def test_equal_totals_have_no_winner_and_no_margin():
    hands = [(1, 11)] * 6 + [(1, 14), (0, 100)]
    settlement = settle_party(CLASSIC, hands)
    assert [side.total for side in settlement.sides] == [220, 220]
    assert settlement.finished
    assert settlement.winner is None
    assert settlement.margin == 0


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        ([(2, 5)], "Hand 1: the side must be 0 or 1"),
        ([None, (0, -1)], "Hand 2: points must be a whole number of 0 or more"),
        ([(0, "12")], "points must be a whole number"),
        (["A"], "write None for a no-game or"),
        ("00", "list of None or"),
    ],
)
def test_bad_hands_are_named_in_the_error(hands, message):
    with pytest.raises(ValueError, match=message):
        settle_party(CLASSIC, hands)


def test_score_sheet_follows_the_seed_sheet():
    rows = score_sheet(CLASSIC, SEED_SHEET)
    assert [row.points for row in rows] == [
        (23, 0),
        (50, 0),
        (50, 32),
        (85, 32),
        (85, 42),
        (104, 42),
    ]
    assert rows[3].boxes == (3, 1)
    assert rows[3].needed == (15, 68)
    assert rows[-1].needed == (0, 58)
    assert [row.finished for row in rows] == [False] * 5 + [True]


def test_score_sheet_refuses_hands_after_the_end():
    with pytest.raises(PartyOver):
        score_sheet(CLASSIC, [*SEED_SHEET, (0, 1)])


# Three players in rotation (seed 000 "Gin Rummy zu dritt" 1).

# B (1) and C (2) start, A (0) sits out. B beats C; A beats B, C and B: A wins three
# hands and 102 points, B one hand and 17 points, C nothing.
ROTATION = [(1, 17), (0, 30), (0, 35), (0, 37)]


def test_rotation_seed_example_totals():
    settlement = settle_rotation(CLASSIC, ROTATION, first_players=(1, 2))
    assert [p.total for p in settlement.players] == [262, 37, 0]
    assert settlement.players[0] == SideTotal(102, 3, 60, 100)
    assert settlement.first_to_target == 0


def test_rotation_seed_example_payments():
    # "B zahlt an A … 225 Punkten; C zahlt an A … 362 Punkte … C zahlt an B … 37 Punkten."
    settlement = settle_rotation(CLASSIC, ROTATION, first_players=(1, 2))
    assert settlement.payments == [(1, 0, 225), (2, 0, 362), (2, 1, 37)]


def test_rotation_checks_who_was_at_the_table():
    # With A and B starting, B beats A and A sits out the second hand.
    with pytest.raises(ValueError, match="Hand 2: player 0 sat out"):
        settle_rotation(CLASSIC, ROTATION, first_players=(0, 1))


def test_rotation_credit_to_the_player_sitting_out_first_is_an_error():
    with pytest.raises(ValueError, match="Hand 1: player 0 sat out"):
        settle_rotation(CLASSIC, [(0, 30)], first_players=(1, 2))


def test_unfinished_rotation_pays_nothing():
    settlement = settle_rotation(CLASSIC, ROTATION[:3], first_players=(1, 2))
    assert not settlement.finished
    assert settlement.payments == []


def test_rotation_after_the_end_raises():
    with pytest.raises(PartyOver):
        settle_rotation(CLASSIC, [*ROTATION, None], first_players=(1, 2))


def test_rotation_players_with_equal_totals_pay_each_other_nothing():
    # A wins everything: B and C both have 0 and both pay A the shutout, not each other.
    hands = [(0, 50), (0, 50)]
    settlement = settle_rotation(CLASSIC, hands)
    assert settlement.payments == [(1, 0, 340), (2, 0, 340)]


def test_rotation_shutout_is_paid_only_to_the_first_to_the_target():
    # Seed 000: "…so zahlt er den Shutout bonus jedoch nur an den Spieler, der als erster
    # die 100-Punkte-Marke erreicht hat." A wins twelve small hands (96 points) against
    # B and C in turn, then B beats A and C and reaches 110 first. A's boxes give him the
    # highest total, but C's shutout goes to B.
    hands = [(0, 8)] * 12 + [(1, 60), (1, 50)]
    settlement = settle_rotation(CLASSIC, hands, first_players=(0, 1))
    assert [p.total for p in settlement.players] == [96 + 240, 110 + 40 + 100, 0]
    assert settlement.first_to_target == 1
    assert settlement.payments == [(1, 0, 86), (2, 0, 336), (2, 1, 350)]


def test_rotation_under_double_shutout_doubles_instead_of_paying_a_bonus():
    settlement = settle_rotation(CARDGAMES, [(0, 50), (0, 50)])
    assert settlement.players[0].shutout_bonus == 100
    assert settlement.players[0].total == 200 + 50 + 100
    assert settlement.payments == [(1, 0, 350), (2, 0, 350)]


# Chouette (seed 000 "zu dritt" 2, seed 002 "Chouette").


def test_box_collects_the_margin_from_every_partner():
    # "…oder er zieht von beiden Gegnern den Gewinn ein."
    settlement = settle_chouette(CLASSIC, [(0, 50), (1, 10), (0, 60)], box="x", team=("p", "q"))
    assert settlement.party.margin == 220
    assert settlement.payments == [("p", "x", 220), ("q", "x", 220)]
    assert settlement.captains == ("p", "q", "q")


def test_box_pays_every_partner_when_the_team_wins():
    # "Der Alleinspieler zahlt, wenn er verliert, an beide Gegner den Gewinn aus".
    settlement = settle_chouette(CLASSIC, [(1, 60), (0, 5), (1, 45)], box="x", team=("p", "q", "r"))
    margin = (105 + 40 + 100) - (5 + 20)
    assert settlement.party.winner == 1
    assert settlement.payments == [("x", "p", margin), ("x", "q", margin), ("x", "r", margin)]


def test_unfinished_chouette_pays_nothing():
    assert settle_chouette(CLASSIC, [(1, 60)]).payments == []


def test_box_who_won_the_last_hand_stays_box_and_meets_the_player_who_sat_out():
    # "…so bleibt er Alleinspieler und trifft … auf den zuletzt pausierenden Spieler,
    # der auch die Karten teilt." q played the last hand, p sat out.
    start = chouette_next_party(CLASSIC, [(0, 50), (1, 10), (0, 60)], box="x", team=("p", "q"))
    assert start == ChouetteStart(box="x", team=("p", "q"))
    assert start.dealer == "p"


def test_winner_of_the_last_hand_becomes_box_and_meets_his_former_partner():
    # "…so wird der Gewinner des letzten Spieles neuer Alleinspieler. Er trifft … auf
    # seinen bisherigen Partner, der die Karten teilt, während der bisherige
    # Alleinspieler pausiert." p wins the last hand against x.
    start = chouette_next_party(
        CLASSIC, [(1, 60), (0, 5), (0, 10), (1, 45)], box="x", team=("p", "q")
    )
    assert start == ChouetteStart(box="p", team=("q", "x"))
    assert start.dealer == "q"


def test_next_chouette_party_with_three_partners_keeps_the_line():
    start = chouette_next_party(CLASSIC, [(0, 5), (1, 100)], box="x", team=("p", "q", "r"))
    assert start == ChouetteStart(box="q", team=("r", "p", "x"))


def test_next_chouette_party_needs_a_finished_party():
    with pytest.raises(ValueError, match="not over yet"):
        chouette_next_party(CLASSIC, [(0, 5)])


# Partnerships (seed 000 "Sind vier Spieler beteiligt…", "zu sechst").


def test_partnership_round_adds_the_table_results():
    # Seed 000: A loses 18, his partner B wins 25: the partnership writes 7.
    assert partnership_round([(1, 18), (0, 25)]) == (0, 7)


def test_partnership_writes_the_net_and_a_box_and_the_losers_deal_next():
    # "…dann schreibt die Partnerschaft 7 Punkte + 20 Punkte Prämie. Das nächste Spiel
    # teilen also die Spieler C und D."
    rules = partnership_rules(CLASSIC, 2)
    settlement = settle_partnership(rules, [[(1, 18), (0, 25)]])
    assert settlement.rounds == ((0, 7),)
    assert settlement.party.sides[0].points == 7
    assert settlement.party.sides[0].boxes == 1
    assert settlement.dealing_team == 1
    finished = settle_partnership(rules, [[(1, 18), (0, 25)], [(0, 60), (0, 60)]])
    assert finished.party.sides[0].box_bonus == 40


def test_partnership_targets_are_125_and_150():
    assert partnership_rules(CLASSIC, 2).target == 125
    assert partnership_rules(CLASSIC, 3).target == 150
    assert partnership_rules(CARDGAMES, 2).box_bonus == 25
    with pytest.raises(ValueError, match="two or three"):
        partnership_rules(CLASSIC, 4)


def test_partnership_party_ends_at_125():
    rules = partnership_rules(CLASSIC, 2)
    rounds = [[(0, 30), (0, 30)], [(0, 30), (1, 0)], [(0, 30), None], [(0, 6), None]]
    settlement = settle_partnership(rules, rounds)
    assert settlement.party.sides[0].points == 126
    assert settlement.party.finished
    with pytest.raises(PartyOver, match="round 5"):
        settle_partnership(rules, [*rounds, [None, None]])


def test_a_round_with_a_net_of_zero_wins_no_box_and_the_same_team_deals():
    settlement = settle_partnership(CLASSIC, [[(0, 12), (1, 12)]])
    assert settlement.rounds == (None,)
    assert settlement.party.sides[0].boxes == settlement.party.sides[1].boxes == 0
    assert settlement.dealing_team == 1


def test_six_player_partnership_adds_three_tables():
    settlement = settle_partnership(
        partnership_rules(CLASSIC, 3), [[(0, 20), (1, 5), (1, 40)]], team_size=3
    )
    assert settlement.rounds == ((1, 25),)
    assert settlement.dealing_team == 0


def test_partnership_round_needs_one_result_per_table():
    with pytest.raises(ValueError, match="Round 2: write one result for each of the 2 tables"):
        settle_partnership(CLASSIC, [[None, None], [(0, 5)]])
    with pytest.raises(ValueError, match="Round 1: Table 2: the side must be 0 or 1"):
        settle_partnership(CLASSIC, [[(0, 5), (3, 5)]])


# Properties: settle_party against a second implementation.


def reference_settlement(rules, hands):
    """Seed 000 "Abrechnung" computed from whole columns, not hand by hand."""
    won = [[p for side_, p in filter(None, hands) if side_ == side and p > 0] for side in (0, 1)]
    points = [sum(column) for column in won]
    running = [0, 0]
    first = None
    for hand in hands:
        if hand is not None:
            running[hand[0]] += hand[1]
            if running[hand[0]] >= rules.target:
                first = hand[0]
                break
    if first is None:
        return points, points, None
    totals = [points[s] + len(won[s]) * rules.box_bonus for s in (0, 1)]
    totals[first] += rules.game_bonus
    if rules.shutout == "double":
        if len(won[first]) == len(hands):
            totals[first] += points[first]
    elif points[1 - first] == 0:
        totals[first] += rules.shutout_bonus
    return points, totals, first


sheets = st.lists(
    st.one_of(st.none(), st.tuples(st.integers(0, 1), st.integers(0, 70))), max_size=25
)


def until_finished(rules, hands):
    """The sheet cut after the hand that reaches the target: a sheet that can happen."""
    running = [0, 0]
    for number, hand in enumerate(hands, start=1):
        if hand is not None:
            running[hand[0]] += hand[1]
            if max(running) >= rules.target:
                return hands[:number]
    return hands


@given(st.sampled_from(NAMED), sheets)
def test_settlement_agrees_with_the_column_reference(rules, hands):
    hands = until_finished(rules, hands)
    settlement = settle_party(rules, hands)
    points, totals, first = reference_settlement(rules, hands)
    assert [side.points for side in settlement.sides] == points
    assert [side.total for side in settlement.sides] == totals
    assert settlement.first_to_target == first


@given(st.sampled_from(NAMED), sheets)
def test_totals_are_points_plus_bonuses_and_the_margin_is_their_difference(rules, hands):
    settlement = settle_party(rules, until_finished(rules, hands))
    for side in settlement.sides:
        assert side.total == side.points + side.box_bonus + side.game_bonus + side.shutout_bonus
        assert side.box_bonus == (side.boxes * rules.box_bonus if settlement.finished else 0)
    assert settlement.margin >= 0
    a, b = (side.total for side in settlement.sides)
    if settlement.winner is not None:
        assert settlement.margin == abs(a - b) > 0
        assert settlement.sides[settlement.winner].total == max(a, b)
    elif settlement.finished:
        assert a == b


@given(st.sampled_from(NAMED), sheets)
def test_the_party_finishes_exactly_when_a_side_first_reaches_the_target(rules, hands):
    hands = until_finished(rules, hands)
    for n in range(len(hands) + 1):
        settlement = settle_party(rules, hands[:n])
        reached = settlement.sides[0].points >= rules.target or (
            settlement.sides[1].points >= rules.target
        )
        assert settlement.finished == reached
        if not settlement.finished:
            assert all(
                s.box_bonus == s.game_bonus == s.shutout_bonus == 0 for s in settlement.sides
            )


@given(
    st.sampled_from(NAMED),
    sheets,
    st.one_of(st.none(), st.tuples(st.integers(0, 1), st.integers(0, 70))),
)
def test_any_hand_after_the_finish_raises(rules, hands, extra):
    hands = until_finished(rules, hands)
    if settle_party(rules, hands).finished:
        with pytest.raises(PartyOver):
            settle_party(rules, [*hands, extra])


@given(st.sampled_from(NAMED), sheets)
def test_score_sheet_ends_where_the_settlement_stands(rules, hands):
    hands = until_finished(rules, hands)
    rows = score_sheet(rules, hands)
    settlement = settle_party(rules, hands)
    assert len(rows) == len(hands)
    if rows:
        assert rows[-1].points == tuple(s.points for s in settlement.sides)
        assert rows[-1].boxes == tuple(s.boxes for s in settlement.sides)
        assert rows[-1].finished == settlement.finished
        assert all(n >= 0 for row in rows for n in row.needed)


# Properties: rotation payments.


def rotation_sheet(rules, choices):
    """A legal rotation sheet: each hand is a no-game or won by one of the two at the table."""
    hands = []
    turn = rotation_turns([])[-1]
    for choice in choices:
        if choice is None:
            hands.append(None)
        else:
            forehand_wins, points = choice
            hands.append((turn.forehand if forehand_wins else turn.dealer, points))
        if settle_rotation(rules, hands).finished:
            break
        turn = rotation_turns(hands)[-1]
    return hands


rotation_choices = st.lists(
    st.one_of(st.none(), st.tuples(st.booleans(), st.integers(0, 60))), max_size=30
)


@given(st.sampled_from(NAMED), rotation_choices)
def test_rotation_payments_follow_the_totals(rules, choices):
    settlement = settle_rotation(rules, rotation_sheet(rules, choices))
    totals = [p.total for p in settlement.players]
    if not settlement.finished:
        assert settlement.payments == []
        return
    first = settlement.first_to_target
    for payer, payee, amount in settlement.payments:
        assert payer != payee
        assert totals[payee] >= totals[payer]
        shutout = (
            rules.shutout_bonus
            if rules.shutout == "bonus" and payee == first and settlement.players[payer].points == 0
            else 0
        )
        assert amount == totals[payee] - totals[payer] + shutout > 0
    paid = {(payer, payee) for payer, payee, _ in settlement.payments}
    for i in range(3):
        for j in range(3):
            if totals[i] > totals[j]:
                assert (j, i) in paid


@given(st.sampled_from(NAMED), rotation_choices)
def test_rotation_money_only_changes_hands(rules, choices):
    settlement = settle_rotation(rules, rotation_sheet(rules, choices))
    net = [0, 0, 0]
    for payer, payee, amount in settlement.payments:
        net[payer] -= amount
        net[payee] += amount
    assert sum(net) == 0
    totals = [p.total for p in settlement.players]
    if settlement.finished and rules.shutout == "double":
        # Without a separate shutout payment, money follows the totals exactly.
        assert all(net[i] == 3 * totals[i] - sum(totals) for i in range(3))


# Properties: chouette and partnership columns.


@given(st.sampled_from(NAMED), sheets, st.integers(2, 4))
def test_box_settles_the_same_margin_with_every_team_member(rules, hands, size):
    team = tuple(range(1, size + 1))
    settlement = settle_chouette(rules, until_finished(rules, hands), box=0, team=team)
    if settlement.party.winner is None:
        assert settlement.payments == []
    else:
        assert len(settlement.payments) == size
        assert {amount for *_, amount in settlement.payments} == {settlement.party.margin}
        members = {payer if payee == 0 else payee for payer, payee, _ in settlement.payments}
        assert members == set(team)


@given(st.lists(st.one_of(st.none(), st.tuples(st.integers(0, 1), st.integers(0, 60))), max_size=3))
def test_partnership_round_writes_the_signed_sum_of_the_tables(tables):
    net = sum(points if side == 0 else -points for side, points in filter(None, tables))
    entry = partnership_round(tables)
    if net == 0:
        assert entry is None
    else:
        assert entry == ((0, net) if net > 0 else (1, -net))


# Rare paths, reached on purpose.


@st.composite
def close_finishes(draw):
    """A finished two-sided party whose totals are equal or a few points apart, so
    that the side that reached the target first may tie or lose (seed 000,
    "Anmerkung: Der Gewinner der Partie ist nicht notwendig derjenige Spieler, der als
    erster die Grenze von 100 Punkten erreicht hat"). The other side wins many small
    hands (many boxes); the first side's last hand takes it over the target.
    Returns the rules, the sheet, the first side and both totals worked out by hand."""
    rules = draw(st.sampled_from(NAMED))
    first = draw(st.sampled_from([0, 1]))
    small = draw(st.lists(st.integers(1, 7), min_size=12, max_size=14))  # < 100 in all
    early = draw(st.lists(st.integers(1, 30), max_size=1))
    other_total = sum(small) + len(small) * rules.box_bonus
    # The last hand that makes the first side's total equal to the other's, give or take.
    level = other_total - sum(early) - (len(early) + 1) * rules.box_bonus - rules.game_bonus
    last = level + draw(st.integers(-3, 3))
    assume(sum(early) + last >= rules.target)
    sides = draw(st.permutations([first] * len(early) + [1 - first] * len(small)))
    points = iter(early), iter(small)
    hands = [(side, next(points[side != first])) for side in sides] + [(first, last)]
    # No shutout: both sides scored, and the first side did not win every hand.
    first_total = sum(early) + last + (len(early) + 1) * rules.box_bonus + rules.game_bonus
    return rules, hands, first, first_total, other_total


@given(close_finishes())
def test_the_higher_total_wins_whoever_reached_the_target_first(finish):
    rules, hands, first, first_total, other_total = finish
    settlement = settle_party(rules, hands)
    assert settlement.finished
    assert settlement.first_to_target == first
    assert (settlement.sides[first].total, settlement.sides[1 - first].total) == (
        first_total,
        other_total,
    )
    event(
        "equal totals"
        if first_total == other_total
        else "the first to the target loses"
        if first_total < other_total
        else "the first to the target wins"
    )
    if first_total == other_total:
        assert (settlement.winner, settlement.margin) == (None, 0)
    elif first_total < other_total:
        assert (settlement.winner, settlement.margin) == (1 - first, other_total - first_total)
    else:
        assert (settlement.winner, settlement.margin) == (first, first_total - other_total)


def test_a_tied_party_still_knows_who_reached_the_target():
    # B wins 11 hands of 5 (55 + 11 × 20 = 275); A's one hand of 155 reaches 100 first:
    # 155 + 20 + 100 = 275. Equal totals: nobody pays (seed 000 "zu dritt").
    settlement = settle_party(CLASSIC, [(1, 5)] * 11 + [(0, 155)])
    assert [side.total for side in settlement.sides] == [275, 275]
    assert (settlement.finished, settlement.winner, settlement.margin) == (True, None, 0)
    assert settlement.first_to_target == 0


def test_every_sheet_row_carries_its_number_and_entry():
    rows = score_sheet(CLASSIC, [(0, 23), None, (1, 32)])
    assert [(row.number, row.entry) for row in rows] == [(1, (0, 23)), (2, None), (3, (1, 32))]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: settle_party(CLASSIC, [(0, 100), None]),
            "The party was decided after hand 1; hand 2 cannot be added.",
        ),
        (
            lambda: score_sheet(CLASSIC, [(0, 60), (0, 40), (1, 5)]),
            "The party was decided after hand 2; hand 3 cannot be added.",
        ),
        (
            lambda: settle_rotation(CLASSIC, [(0, 100), (2, 5)]),
            "The party was decided after hand 1; hand 2 cannot be added.",
        ),
        (
            lambda: settle_partnership(CLASSIC, [[(0, 100), None], [None, None]]),
            "The party was decided after round 1; round 2 cannot be added.",
        ),
        (
            lambda: settle_rotation(CLASSIC, [(3, 10)]),
            "Hand 1: the side must be 0, 1 or 2, not 3.",
        ),
        (
            lambda: settle_partnership(CLASSIC, [], team_size=4),
            "Partnership teams have two or three players, not 4.",
        ),
        (
            lambda: chouette_next_party(CLASSIC, [(0, 50)]),
            "The chouette party is not over yet: the next box is not known.",
        ),
        # The line-up is checked before the hands.
        (
            lambda: settle_chouette(CLASSIC, "no hands", box=1, team=(1, 2)),
            "The box and the team members must be different players.",
        ),
        (
            lambda: chouette_next_party(CLASSIC, "no hands", box=1, team=(1, 2)),
            "The box and the team members must be different players.",
        ),
    ],
)
def test_a_sheet_that_cannot_be_is_refused_with_its_reason(call, message):
    with pytest.raises(ValueError) as refused:
        call()
    assert str(refused.value) == message


def test_an_unfinished_rotation_is_not_finished():
    settlement = settle_rotation(CLASSIC, [(1, 30)])
    assert settlement.finished is False
    assert settlement.first_to_target is None


def test_a_rotation_pays_a_difference_of_a_single_point():
    # No bonuses, to 5: player 1 wins 4 (player 0 sits out), player 2 wins 4 and 1.
    # Totals 0, 4, 5: player 2 collects 1 from player 1 and 5 from player 0, and
    # player 1 collects 4 from player 0.
    rules = CLASSIC.but(target=5, box_bonus=0, game_bonus=0, shutout_bonus=0)
    settlement = settle_rotation(rules, [(1, 4), (2, 4), (2, 1)])
    assert sorted(settlement.payments) == [(0, 1, 4), (0, 2, 5), (1, 2, 1)]


def test_a_chouette_settlement_names_the_box_and_the_team():
    settlement = settle_chouette(CLASSIC, [(0, 100)], box="X", team=["Y", "Z"])
    assert (settlement.box, settlement.team) == ("X", ("Y", "Z"))
    assert settlement.captains == ("Y",)


def test_a_rotation_sheet_has_a_column_for_each_of_the_three():
    # Seed 000 "zu dritt" 1: position 0 wins the first hand, 17; position 2, who sat
    # it out, wins the second, 30.
    _, row = score_sheet(CLASSIC, [(0, 17), (2, 30)], sides=3)
    assert (row.points, row.boxes, row.needed) == ((17, 0, 30), (1, 0, 1), (83, 100, 70))


def test_a_partnership_round_won_by_one_point_is_written_for_the_team_ahead():
    # A wins 5, his partner loses 4: the team writes 1.
    assert partnership_round([(0, 5), (1, 4)]) == (0, 1)
