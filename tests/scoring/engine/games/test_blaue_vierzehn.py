from itertools import pairwise, product

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from scoring.engine.cards import InvalidCard
from scoring.engine.games.blaue_vierzehn import (
    DEAL_POINTS,
    DECK,
    GAME,
    Card,
    blue_fourteen_taken,
    deal_check,
    hand_size,
    parse_card,
    parse_cards,
    standing,
    trick_points,
)
from scoring.engine.games.game import EntryError

PLAYERS = ["Anna", "Bernd", "Clara", "Dieter", "Emil", "Frieda"]
TABLE_SIZES = st.integers(3, 6)


@st.composite
def played_deals(draw, table_sizes=TABLE_SIZES):
    """A whole deal as the table ends it: the 60 cards in some order, cut into tricks
    of one card per player, each trick taken by some player. Returns the piles."""
    players = PLAYERS[: draw(table_sizes)]
    cards = draw(st.permutations(DECK))
    tricks = len(DECK) // len(players)
    takers = draw(st.lists(st.sampled_from(players), min_size=tricks, max_size=tricks))
    piles = {player: [] for player in players}
    for number, taker in enumerate(takers):
        piles[taker].extend(cards[number * len(players) : (number + 1) * len(players)])
    return piles


def deal_points(piles):
    return {player: trick_points(cards) for player, cards in piles.items()}


def cards_can_give(values):
    """Brute force, independent of the module: put each of the four fourteens
    (5, 5, 5 and the blue 13) with some player; the rest of every player's points
    must then be red cards, 2 each."""
    fourteens = [Card(14, colour).points for colour in "RYGB"]
    for holders in product(range(len(values)), repeat=len(fourteens)):
        rest = list(values)
        for holder, points in zip(holders, fourteens, strict=True):
            rest[holder] -= points
        if all(left >= 0 and left % 2 == 0 for left in rest):
            return True
    return False


# The cards (seed 003: "Elfer raus" cards 1 to 15 in four colours).


def test_the_pack_holds_one_to_fifteen_in_four_colours():
    assert len(DECK) == len(set(DECK)) == 60
    assert {card.number for card in DECK} == set(range(1, 16))
    assert {card.colour for card in DECK} == {"R", "Y", "G", "B"}


@given(st.sampled_from(DECK))
def test_every_card_reads_back_from_its_text_in_either_case(card):
    assert parse_card(str(card)) == card
    assert parse_card(str(card).lower()) == card
    assert parse_card(card) is card


def test_a_card_is_written_number_then_colour():
    assert str(Card(14, "B")) == "14B"
    assert repr(parse_card(" 7r ")) == "Card('7R')"


@pytest.mark.parametrize(
    "text", ["0R", "16B", "20Y", "14X", "14", "B14", "01R", "1 4B", "", "14BB", 14, None]
)
def test_a_text_that_names_no_card_is_refused_by_name(text):
    with pytest.raises(InvalidCard, match="is not a Blaue Vierzehn card") as refused:
        trick_points([text])
    assert repr(text) in str(refused.value)
    assert issubclass(InvalidCard, ValueError)


@pytest.mark.parametrize(("number", "colour"), [(0, "R"), (16, "R"), (True, "R"), (5, "RY")])
def test_there_is_no_card_outside_the_pack(number, colour):
    with pytest.raises(ValueError, match="numbers run from 1 to 15"):
        Card(number, colour)


def test_a_card_given_twice_is_refused():
    with pytest.raises(ValueError, match="3R is named twice"):
        trick_points(["3R", "9G", "3r"])


def test_cards_are_read_from_a_string_too():
    assert parse_cards("14B, 3R 9g") == (Card(14, "B"), Card(3, "R"), Card(9, "G"))


# Counting the tricks: "Für jede rote Karte bekommt man 2 Punkte, für jede Vierzehn
# 5 Punkte (auch für die rote Vierzehn) und für die blaue Vierzehn gibt es 13 Punkte."


@pytest.mark.parametrize("number", [n for n in range(1, 16) if n != 14])
def test_every_red_card_counts_two(number):
    assert trick_points([Card(number, "R")]) == 2


@pytest.mark.parametrize("colour", ["R", "Y", "G"])
def test_every_fourteen_counts_five_the_red_one_too(colour):
    assert trick_points([f"14{colour}"]) == 5


def test_the_blue_fourteen_counts_thirteen():
    assert trick_points(["14B"]) == 13


@pytest.mark.parametrize("colour", ["Y", "G", "B"])
def test_other_cards_count_nothing(colour):
    assert trick_points([f"{number}{colour}" for number in range(1, 16) if number != 14]) == 0


def test_a_pile_counts_the_sum_of_its_cards():
    assert trick_points("14B 14R 3R 9G 15B") == 13 + 5 + 2


def test_no_tricks_count_nothing():
    assert trick_points([]) == 0


def test_a_whole_deal_is_worth_fifty_six():
    reds = sum(1 for card in DECK if card.colour == "R" and card.number != 14)
    assert DEAL_POINTS == 56 == reds * 2 + 3 * 5 + 13
    assert trick_points(DECK) == DEAL_POINTS


@given(st.permutations(DECK), st.lists(st.integers(0, 60), max_size=12))
def test_the_deck_cut_into_any_piles_counts_a_whole_deal(cards, cuts):
    edges = [0, *sorted(cuts), 60]
    piles = [cards[start:end] for start, end in pairwise(edges)]
    assert sum(trick_points(pile) for pile in piles) == DEAL_POINTS


@given(played_deals())
def test_exactly_one_player_takes_the_blue_fourteen(piles):
    takers = [player for player, cards in piles.items() if blue_fourteen_taken(cards)]
    assert len(takers) == 1
    assert trick_points(piles[takers[0]]) >= 13


def test_blue_fourteen_taken_examples():
    assert blue_fourteen_taken("14b 1R")
    assert not blue_fourteen_taken(["14R", "14Y", "14G", "15B"])
    with pytest.raises(ValueError, match="named twice"):
        blue_fourteen_taken(["14B", "14B"])


# The table: "Gespielt werden kann mit 3 bis 6 Spielern", "alle Karten gleichmäßig".


@pytest.mark.parametrize(("players", "cards"), [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_all_sixty_cards_are_dealt_evenly(players, cards):
    assert hand_size(players) == cards
    assert type(hand_size(players)) is int
    assert players * hand_size(players) == len(DECK)


@pytest.mark.parametrize("players", [0, 2, 7, 3.0, "4", True])
def test_tables_outside_three_to_six_are_refused(players):
    with pytest.raises(ValueError, match="three to six players"):
        hand_size(players)


# Checking a deal's points.


@given(played_deals())
def test_every_played_deal_adds_up_and_passes_the_check(piles):
    points = deal_points(piles)
    assert sum(points.values()) == DEAL_POINTS
    assert deal_check(points) == []


@given(played_deals(), st.data())
def test_a_deal_written_wrong_is_refused_for_its_sum(piles, data):
    points = deal_points(piles)
    player = data.draw(st.sampled_from(list(points)))
    points[player] += data.draw(st.integers(-30, 30).filter(bool))
    problems = deal_check(points)
    assert f"The points add up to {sum(points.values())}, not 56" in " ".join(problems)


@given(
    st.integers(3, 6).flatmap(
        lambda n: st.lists(st.integers(0, 20), min_size=n - 1, max_size=n - 1)
    )
)
def test_deal_check_accepts_exactly_what_some_sharing_out_of_the_cards_gives(values):
    values = [*values, DEAL_POINTS - sum(values)]
    points = dict(zip(PLAYERS, values, strict=False))
    possible = cards_can_give(values)
    event("possible" if possible else "impossible")
    assert (deal_check(points) == []) == possible


def test_one_player_may_take_every_point():
    assert deal_check({"Anna": 56, "Bernd": 0, "Clara": 0}) == []


def test_a_number_no_cards_are_worth_is_named():
    reachable = {0}
    for card in DECK:
        reachable |= {value + trick_points([card]) for value in reachable}
    for value in range(DEAL_POINTS + 1):
        problems = deal_check({"Anna": value, "Bernd": DEAL_POINTS - value, "Clara": 0})
        assert (problems == []) == (value in reachable and DEAL_POINTS - value in reachable)
        named = any(
            problem.startswith(f"Anna: no set of cards is worth {value} ") for problem in problems
        )
        assert named == (value not in reachable)
    assert set(range(DEAL_POINTS + 1)) - reachable == {1, 3, 53, 55}
    assert deal_check({"Anna": 1, "Bernd": 55, "Clara": 0}) == [
        "Anna: no set of cards is worth 1 (a red card counts 2, a fourteen 5, "
        "the blue fourteen 13).",
        "Bernd: no set of cards is worth 55 (a red card counts 2, a fourteen 5, "
        "the blue fourteen 13).",
    ]


def test_four_players_cannot_all_write_fourteen():
    # Each would need the fourteens in pairs (5 + 5, or 13 + 5): no pile of 14.
    assert deal_check(dict.fromkeys(PLAYERS[:4], 14)) == [
        "No sharing-out of the cards gives these points together: the fourteens count 5, 5, "
        "5 and 13, every other point comes in twos from the red cards."
    ]


def test_no_more_than_four_players_write_an_odd_number():
    # Only the four fourteens count an odd number.
    points = dict(zip(PLAYERS, [5, 5, 5, 5, 5, 31], strict=True))
    assert deal_check(points) != []
    points = dict(zip(PLAYERS, [5, 5, 5, 13, 2, 26], strict=True))
    assert deal_check(points) == []


def test_points_below_zero_or_above_a_deal_are_named():
    problems = deal_check({"Anna": -2, "Bernd": 60, "Clara": -2})
    assert "Anna: -2 is below 0; tricks never take points away." in problems
    assert "Bernd: 60 is more than the 56 a whole deal is worth." in problems


@pytest.mark.parametrize("players", [2, 7])
def test_a_deal_at_a_table_of_the_wrong_size_is_refused(players):
    points = dict.fromkeys(range(players), 0)
    points[0] = DEAL_POINTS
    assert deal_check(points) == [
        f"Blaue Vierzehn is played by three to six players; this deal has {players}."
    ]


@pytest.mark.parametrize("value", ["12", 12.0, None, True])
def test_points_that_are_not_a_whole_number_raise(value):
    with pytest.raises(ValueError, match="Anna's points must be a whole number"):
        deal_check({"Anna": value, "Bernd": 44, "Clara": 0})


# The party: "über alle Runden aufsummiert", "möglichst wenig Punkte".


def test_the_fewest_points_win_once_the_agreed_deals_are_played():
    result = standing({"Anna": 30, "Bernd": 70, "Clara": 12}, deals_played=2, deals_agreed=2)
    assert result.over
    assert result.winners == result.leaders == {"Clara"}
    assert result.deals_left == 0


def test_before_the_last_deal_there_is_a_leader_but_no_winner():
    result = standing({"Anna": 30, "Bernd": 70, "Clara": 12}, deals_played=2, deals_agreed=6)
    assert not result.over
    assert result.leaders == {"Clara"}
    assert result.winners == frozenset()
    assert result.deals_left == 4


def test_players_tied_on_the_fewest_points_share_the_win():
    result = standing({"Anna": 20, "Bernd": 72, "Clara": 20}, deals_played=2, deals_agreed=2)
    assert result.winners == {"Anna", "Clara"}


def test_before_the_first_deal_everybody_leads():
    result = standing(dict.fromkeys(PLAYERS[:4], 0), deals_played=0, deals_agreed=8)
    assert result.leaders == set(PLAYERS[:4])
    assert not result.over


@given(st.lists(played_deals(table_sizes=st.just(4)), min_size=1, max_size=5), st.integers(0, 3))
def test_a_party_of_played_deals_stands_on_its_totals(deals, more):
    totals = dict.fromkeys(PLAYERS[:4], 0)
    for piles in deals:
        for player, points in deal_points(piles).items():
            totals[player] += points
    result = standing(totals, deals_played=len(deals), deals_agreed=len(deals) + more)
    fewest = min(totals.values())
    assert result.leaders == {player for player, total in totals.items() if total == fewest}
    assert result.over == (more == 0)
    assert result.winners == (result.leaders if result.over else set())


def test_more_deals_than_agreed_are_refused():
    with pytest.raises(ValueError, match="3 deals played, but the party was agreed on 2"):
        standing({"Anna": 56, "Bernd": 56, "Clara": 56}, deals_played=3, deals_agreed=2)


def test_totals_that_do_not_add_up_to_the_deals_played_are_refused():
    with pytest.raises(ValueError, match="add up to 100, but 2 deals of 56 points make 112"):
        standing({"Anna": 50, "Bernd": 50, "Clara": 0}, deals_played=2, deals_agreed=4)


@pytest.mark.parametrize(
    ("totals", "played", "agreed", "message"),
    [
        ({"Anna": 56, "Bernd": 0}, 1, 2, "three to six players"),
        ({"Anna": 60, "Bernd": -4, "Clara": 0}, 1, 2, "Bernd's total must be a whole number"),
        ({"Anna": 56.0, "Bernd": 0, "Clara": 0}, 1, 2, "Anna's total must be a whole number"),
        ({"Anna": 0, "Bernd": 0, "Clara": 0}, 0, 0, "at least one deal"),
        ({"Anna": 0, "Bernd": 0, "Clara": 0}, -1, 2, "deals played must be a whole number"),
    ],
)
def test_a_broken_standing_is_refused(totals, played, agreed, message):
    with pytest.raises(ValueError, match=message):
        standing(totals, played, agreed)


# A deal entered at the table (the game behind the interface): the players are
# numbered from 1 in what the table reads.


def test_a_deal_entered_as_points_scores_them():
    scored = GAME.hand({"points": [13, 0, 43]}, [0, 0, 0], {})
    assert scored.scores == (13, 0, 43)
    assert scored.facts == {}


def test_a_deal_entered_as_cards_counts_them_and_names_who_took_the_blue_fourteen():
    red = [f"{number}R" for number in range(1, 16)]
    piles = [["1Y", "2G"], [*red, "14Y"], ["14G", "14B", "15B"]]
    scored = GAME.hand({"cards": piles}, [0, 0, 0], {})
    assert scored.scores == (0, 14 * 2 + 5 + 5, 5 + 13)
    assert scored.facts == {"blue_fourteen": 2}


def test_a_deal_whose_cards_lack_the_blue_fourteen_is_refused_for_its_sum():
    red = [f"{number}R" for number in range(1, 16)]
    with pytest.raises(EntryError) as refused:
        GAME.hand({"cards": [red, ["14Y"], ["14G"]]}, [0, 0, 0], {})
    assert refused.value.problems == [
        "The points add up to 43, not 56: every deal's points add up to 56."
    ]


@pytest.mark.parametrize(
    ("entry", "problems"),
    [
        ({}, ["Give every player's points, or the cards of every player's tricks."]),
        (
            {"points": [28, 28]},
            ["Give every player's points, or the cards of every player's tricks."],
        ),
        (
            {"points": [60, -4, 0]},
            [
                "1: 60 is more than the 56 a whole deal is worth.",
                "2: -4 is below 0; tricks never take points away.",
            ],
        ),
        (
            {"points": [55, 1, 0]},
            [
                "1: no set of cards is worth 55 (a red card counts 2, a fourteen 5, the blue "
                "fourteen 13).",
                "2: no set of cards is worth 1 (a red card counts 2, a fourteen 5, the blue "
                "fourteen 13).",
            ],
        ),
        (
            {"cards": [["14B"], ["14X"], []]},
            [
                "'14X' is not a Blaue Vierzehn card (write the number 1 to 15, then R, Y, G "
                "or B, e.g. 14B)."
            ],
        ),
        ({"points": [56, 0, 0.0]}, ["3's points must be a whole number, not 0.0."]),
    ],
)
def test_a_deal_entry_that_cannot_be_is_refused_in_words(entry, problems):
    with pytest.raises(EntryError) as refused:
        GAME.hand(entry, [0, 0, 0], {})
    assert refused.value.problems == problems


@pytest.mark.parametrize(
    ("action", "said"),
    [
        (
            lambda: Card(0, "R"),
            "There is no Blaue Vierzehn card 0 'R': the numbers run from 1 to 15 in the colours "
            "R, Y, G and B.",
        ),
        (
            lambda: Card(5, "RY"),
            "There is no Blaue Vierzehn card 5 'RY': the numbers run from 1 to 15 in the colours "
            "R, Y, G and B.",
        ),
        (
            lambda: parse_card("16B"),
            "'16B' is not a Blaue Vierzehn card (write the number 1 to 15, then R, Y, G or B, "
            "e.g. 14B).",
        ),
        (lambda: parse_cards("3R 3r"), "3R is named twice: the pack holds every card once."),
        (
            lambda: deal_check({"Anna": "1", "Bernd": 0}),
            "Anna's points must be a whole number, not '1'.",
        ),
    ],
)
def test_what_cannot_be_is_refused_in_full_words(action, said):
    with pytest.raises(ValueError) as refused:
        action()
    assert str(refused.value) == said


def test_a_card_named_in_two_players_tricks_is_refused_though_the_deal_adds_up():
    # Every card but 3R in the first pile, and 2R again in the second: still 56.
    whole = [card for card in DECK if str(card) != "3R"]
    with pytest.raises(EntryError) as refused:
        GAME.hand({"cards": [whole, ["2R"], []]}, [0, 0, 0], {})
    assert refused.value.problems == ["2R is named twice: the pack holds every card once."]
