import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.cards import parse_card
from scoring.engine.deal import (
    ChouetteStart,
    NextHand,
    chouette_start,
    chouette_turns,
    dealer_for_hand,
    draw_cards,
    first_dealer,
    order_by_draw,
    partnership_seating,
    partnership_tables,
    rotation_start,
    rotation_turns,
)

SEED_SHEET = [(0, 23), (0, 27), (1, 32), (0, 35), (1, 10), (0, 19)]


# The draw (seed 000 "Vor Beginn einer Partie zieht jeder Spieler eine Karte").


def test_draw_gives_every_player_a_different_card_from_one_deck():
    draws = draw_cards(["ann", "bob", "cid", "dan"], random.Random(7))
    assert list(draws) == ["ann", "bob", "cid", "dan"]
    assert len(set(draws.values())) == 4


def test_draw_depends_only_on_the_rng_it_is_given():
    players = ["ann", "bob", "cid"]
    assert draw_cards(players, random.Random(42)) == draw_cards(players, random.Random(42))


def test_draw_rejects_a_player_named_twice():
    with pytest.raises(ValueError, match="named twice"):
        draw_cards(["ann", "ann"], random.Random(1))


def test_king_is_high_and_ace_low_in_the_draw():
    # Seed 000: "In jeder Farbe gilt der König als die höchste, das Ass als die niederste Karte."
    assert order_by_draw({"ann": "AS", "bob": "KC", "cid": "7D"}) == ["bob", "cid", "ann"]


def test_equal_ranks_are_ordered_clubs_diamonds_hearts_spades():
    assert order_by_draw({"ann": "7♣", "bob": "7♠", "cid": "7♥", "dan": "7♦"}) == [
        "bob",
        "cid",
        "dan",
        "ann",
    ]


def test_two_players_cannot_draw_the_same_card():
    with pytest.raises(ValueError, match="same card"):
        order_by_draw({"ann": "7H", "bob": parse_card("7h")})


def test_lower_card_deals_the_first_hand():
    # Seed 000: the higher card is forehand, the lower card shuffles and deals.
    assert first_dealer({"ann": "QH", "bob": "3S"}) == "bob"


def test_first_dealer_is_drawn_between_two_players():
    with pytest.raises(ValueError, match="two players"):
        first_dealer({"ann": "QH", "bob": "3S", "cid": "4S"})


# Who deals the next hand (seed 000 "Der Verlierer eines Spiels teilt", § 12).


def test_loser_of_a_hand_deals_the_next():
    assert dealer_for_hand(1, [(1, 20)]) == 0
    assert dealer_for_hand(1, [(0, 20)]) == 1


def test_after_a_no_game_the_same_dealer_deals_again():
    # Seed 000 § 12, seed 002 "No game".
    assert dealer_for_hand(0, [None]) == 0
    assert dealer_for_hand(0, [(0, 12), None, None]) == 1


def test_a_hand_that_scored_nothing_is_dealt_again_by_the_same_dealer():
    assert dealer_for_hand(0, [(1, 0)]) == 0


def test_dealers_of_the_seed_sheet():
    # Seed 000 sheet, B dealing first: A wins 1, 2 (B deals 2, 3), B wins 3 (A deals 4) …
    dealers = [dealer_for_hand(1, SEED_SHEET, n) for n in range(1, 8)]
    assert dealers == [1, 1, 1, 0, 1, 0, 1]


def test_dealer_for_a_hand_not_yet_reachable_is_an_error():
    with pytest.raises(ValueError, match="Hand 4 cannot be dealt after 2 hands"):
        dealer_for_hand(0, [(0, 5), (1, 5)], 4)


def test_first_dealer_is_a_side():
    with pytest.raises(ValueError, match="side 0 or 1"):
        dealer_for_hand(2, [])


@given(
    st.integers(0, 1),
    st.lists(st.one_of(st.none(), st.tuples(st.integers(0, 1), st.integers(0, 40)))),
)
def test_dealer_is_always_the_loser_of_the_last_scored_hand(first, hands):
    scored = [side for side, points in filter(None, hands) if points > 0]
    expected = 1 - scored[-1] if scored else first
    assert dealer_for_hand(first, hands) == expected


# Three players (seed 000 "Gin Rummy zu dritt" 1).


def test_three_player_draw_lowest_sits_out_second_deals_highest_leads():
    start = rotation_start({"ann": "9C", "bob": "KD", "cid": "2H"})
    assert start == NextHand(dealer="ann", forehand="bob", sitting_out=("cid",))


def test_winner_plays_the_player_who_sat_out_and_he_deals():
    # Seed 000: "Nach dem ersten Spiel passt der Verlierer und der Gewinner spielt nun …
    # gegen C, der die Karten teilt."
    turns = rotation_turns([(0, 25)], first_players=(0, 1))
    assert turns[0] == NextHand(dealer=1, forehand=0, sitting_out=(2,))
    assert turns[1] == NextHand(dealer=2, forehand=0, sitting_out=(1,))


def test_rotation_no_game_keeps_the_table_and_the_dealer():
    turns = rotation_turns([None], first_players=(0, 1))
    assert turns[1] == turns[0]


def test_a_hand_credited_to_the_player_sitting_out_is_an_error():
    with pytest.raises(ValueError, match="Hand 2: player 1 sat out that hand"):
        rotation_turns([(0, 25), (1, 10)], first_players=(0, 1))


@pytest.mark.parametrize("first", [(0, 0), (0, 3), (1,), (True, 2)])
def test_first_players_are_two_of_the_three(first):
    with pytest.raises(ValueError, match="two different players"):
        rotation_turns([], first_players=first)


@given(st.lists(st.one_of(st.none(), st.tuples(st.booleans(), st.integers(0, 30)))))
def test_in_a_rotation_the_loser_always_sits_out_next(choices):
    # Build a legal sheet by letting either player at the table win each hand.
    turns = rotation_turns([])
    hands = []
    for choice in choices:
        if choice is None:
            hands.append(None)
        else:
            forehand_wins, points = choice
            hands.append((turns[-1].forehand if forehand_wins else turns[-1].dealer, points))
        turns = rotation_turns(hands)
    for before, hand, after in zip(turns, hands, turns[1:], strict=False):
        assert set(before.players) | set(before.sitting_out) == {0, 1, 2}
        if hand is None or hand[1] == 0:
            assert after == before
        else:
            (loser,) = set(before.players) - {hand[0]}
            assert after.sitting_out == (loser,)
            assert after.dealer == before.sitting_out[0]
            assert hand[0] in after.players


# Chouette (seed 000 "zu dritt" 2, seed 002 "Chouette").


def test_chouette_highest_draw_is_the_box_and_the_higher_partner_deals_first():
    start = chouette_start({"ann": "4C", "bob": "JH", "cid": "8S"})
    assert start == ChouetteStart(box="bob", team=("cid", "ann"))
    assert start.dealer == "cid"


def test_chouette_with_more_players_lines_up_the_team_in_draw_order():
    start = chouette_start({"a": "4C", "b": "JH", "c": "8S", "d": "QS"})
    assert start == ChouetteStart(box="d", team=("b", "c", "a"))


def test_chouette_partner_plays_until_he_loses_then_the_next_takes_over():
    # Seed 000: "er spielt so lange, bis er ein Spiel verliert. Dann übernimmt sein Partner".
    turns = chouette_turns([(1, 10), (1, 12), (0, 30), (0, 5), None], box="x", team=("p", "q"))
    partners = [next(p for p in t.players if p != "x") for t in turns]
    assert partners == ["p", "p", "p", "q", "p", "p"]


def test_chouette_loser_deals_the_next_hand():
    turns = chouette_turns([(1, 10), (0, 30), None], box="x", team=("p", "q"))
    assert [t.dealer for t in turns] == ["p", "x", "q", "q"]
    assert turns[2].sitting_out == ("p",)


def test_chouette_team_rotates_through_three_partners():
    turns = chouette_turns([(0, 9), (0, 9), (0, 9)], box=0, team=(1, 2, 3))
    assert [t.dealer for t in turns] == [1, 2, 3, 1]
    assert turns[1].sitting_out == (3, 1)


def test_chouette_box_cannot_be_in_the_team():
    with pytest.raises(ValueError, match="different players"):
        chouette_turns([], box=1, team=(1, 2))


# Partnerships (seed 000 "Sind vier Spieler beteiligt…").


FOUR = {"h1": "KS", "h2": "QD", "l1": "8H", "l2": "3C"}


def test_two_highest_partner_against_two_lowest():
    seating = partnership_seating(FOUR)
    assert seating.teams == (("h1", "h2"), ("l1", "l2"))


def test_partner_sits_opposite_third_on_the_left_lowest_on_the_right():
    # Clockwise from the highest: his left neighbour, opposite, his right neighbour.
    assert partnership_seating(FOUR).seats == ("h1", "l1", "h2", "l2")


def test_lowest_deals_the_first_hand_against_his_right_hand_opponent():
    # Seed 000: the lowest deals and plays his opponent on the right; his partner deals
    # and plays the other opponent. Clockwise seats h1, l1, h2, l2: l2's right is h2.
    tables = partnership_tables(partnership_seating(FOUR).teams, 1)
    assert tables == (
        NextHand(dealer="l1", forehand="h1"),
        NextHand(dealer="l2", forehand="h2"),
    )


def test_partners_change_opponents_every_round():
    # Seed 000: "jeder Spieler spielt somit abwechselnd gegen seinen Gegner zur Rechten
    # und seinen Gegner zur Linken."
    teams = partnership_seating(FOUR).teams
    pairs = [
        {(t.forehand, t.dealer) for t in partnership_tables(teams, n, dealing_team=1)}
        for n in (1, 2, 3)
    ]
    assert pairs[0] == {("h1", "l1"), ("h2", "l2")}
    assert pairs[1] == {("h2", "l1"), ("h1", "l2")}
    assert pairs[2] == pairs[0]


def test_high_team_deals_when_it_lost_the_round():
    tables = partnership_tables(partnership_seating(FOUR).teams, 2, dealing_team=0)
    assert {t.dealer for t in tables} == {"h1", "h2"}


def test_six_players_three_high_against_three_low_and_everyone_meets_everyone():
    # Seed 000: "Die drei hohen Karten bilden ein Team gegen die drei niedrigen Karten."
    draws = {"a": "KS", "b": "KH", "c": "QC", "d": "9D", "e": "5S", "f": "AC"}
    seating = partnership_seating(draws)
    assert seating.teams == (("a", "b", "c"), ("d", "e", "f"))
    assert seating.seats == ("a", "d", "b", "e", "c", "f")
    met = {frozenset(t.players) for n in (1, 2, 3) for t in partnership_tables(seating.teams, n)}
    assert met == {frozenset((h, lo)) for h in "abc" for lo in "def"}


def test_partnership_needs_four_or_six_players():
    with pytest.raises(ValueError, match="four or six"):
        partnership_seating({"a": "KS", "b": "KH", "c": "QC"})


@given(st.integers(0, 2**32), st.sampled_from([4, 6]), st.integers(1, 20))
def test_every_player_plays_at_exactly_one_table_each_round(seed, count, round_number):
    draws = draw_cards(range(count), random.Random(seed))
    seating = partnership_seating(draws)
    tables = partnership_tables(seating.teams, round_number)
    seated = [p for t in tables for p in t.players]
    assert sorted(seated) == list(range(count))
    for table in tables:
        assert table.dealer in seating.teams[1]
        assert table.forehand in seating.teams[0]


def test_six_players_meet_the_next_opponent_along_each_round():
    # Low player j meets high player j + round - 1: his right-hand opponent first,
    # then the one on his left, then the one across the table.
    teams = (("a", "b", "c"), ("d", "e", "f"))
    rounds = [[(t.dealer, t.forehand) for t in partnership_tables(teams, n)] for n in (1, 2, 3, 4)]
    assert rounds[0] == [("d", "a"), ("e", "b"), ("f", "c")]
    assert rounds[1] == [("d", "b"), ("e", "c"), ("f", "a")]
    assert rounds[2] == [("d", "c"), ("e", "a"), ("f", "b")]
    assert rounds[3] == rounds[0]


def test_when_the_high_team_deals_the_low_team_plays_first():
    tables = partnership_tables((("h1", "h2"), ("l1", "l2")), 1, dealing_team=0)
    assert tables == (
        NextHand(dealer="h1", forehand="l1"),
        NextHand(dealer="h2", forehand="l2"),
    )


def test_the_partner_who_deals_plays_against_the_box_who_leads():
    # Seed 000 "zu dritt" 2: the first partner deals; the box, not the dealer, is forehand.
    first, after_a_team_win = chouette_turns([(1, 12)], box="X", team=("Y", "Z"))
    assert first == NextHand(dealer="Y", forehand="X", sitting_out=("Z",))
    # The box lost, so he deals, and the same partner plays first.
    assert after_a_team_win == NextHand(dealer="X", forehand="Y", sitting_out=("Z",))


def test_the_player_not_named_for_the_first_hand_sits_it_out():
    for first, out in (((0, 1), 2), ((2, 0), 1), ((1, 2), 0)):
        (turn,) = rotation_turns([], first)
        assert turn == NextHand(dealer=first[1], forehand=first[0], sitting_out=(out,))


def test_a_rotation_hand_for_a_fourth_player_names_the_three():
    with pytest.raises(ValueError) as refused:
        rotation_turns([(3, 10)])
    assert str(refused.value) == "Hand 1: the side must be 0, 1 or 2, not 3."


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: draw_cards(["ann", "bob", "ann"], random.Random(1)),
            "Every player draws once: a player is named twice.",
        ),
        (lambda: draw_cards([], random.Random(1)), "Between 1 and 52 players can draw, not 0."),
        (
            lambda: draw_cards(range(53), random.Random(1)),
            "Between 1 and 52 players can draw, not 53.",
        ),
        (
            lambda: order_by_draw({"ann": "KS", "bob": "ks"}),
            "Two players cannot draw the same card: the draw is from one deck.",
        ),
        (
            lambda: rotation_start({"a": "KS", "b": "2H"}),
            "The rotation is for three players, not 2.",
        ),
        (
            lambda: chouette_start({"a": "KS", "b": "2H"}),
            "A chouette needs at least three players, not 2.",
        ),
        (
            lambda: chouette_turns([], box="X", team=("Y",)),
            "A chouette team has at least two players.",
        ),
        (
            lambda: chouette_turns([], box="X", team=("Y", "X")),
            "The box and the team members must be different players.",
        ),
        (
            lambda: partnership_tables((("a", "b"), ("c",)), 1),
            "Partnerships are two teams of two or two teams of three.",
        ),
        (
            lambda: partnership_tables((("a",), ("c",)), 1),
            "Partnerships are two teams of two or two teams of three.",
        ),
        (
            lambda: partnership_tables((("a", "b"), ("c", "d")), 0),
            "Rounds are numbered from 1, not 0.",
        ),
        (
            lambda: partnership_tables((("a", "b"), ("c", "d")), 1.0),
            "Rounds are numbered from 1, not 1.0.",
        ),
        (
            lambda: partnership_tables((("a", "b"), ("c", "d")), 1, dealing_team=2),
            "The dealing team must be 0 or 1, not 2.",
        ),
        (
            lambda: partnership_tables((("a", "b"), ("c", "d")), 1, dealing_team=True),
            "The dealing team must be 0 or 1, not True.",
        ),
    ],
)
def test_a_line_up_that_cannot_be_is_refused_with_its_reason(call, message):
    with pytest.raises(ValueError) as refused:
        call()
    assert str(refused.value) == message


@pytest.mark.parametrize("count", [1, 52])
def test_one_to_fifty_two_players_can_draw(count):
    assert len(draw_cards(range(count), random.Random(3))) == count
