import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.cards import DECK, parse_card
from scoring.engine.games.canasta import (
    ALL_CARDS_POINTS,
    GAME,
    MOST_CANASTAS,
    BonusCard,
    card_points,
    card_points_sum,
    check_hand,
    check_side,
    first_meld_minimum,
    red_three_points,
    side_score,
    sides_for,
    sitting_out,
    winner,
)
from scoring.engine.games.game import EntryError, Outcome

# Seed 003, "Jede Karte hat einen Punktwert", by rank letter; the black threes count 5.
SEED_POINTS = {
    "A": 20, "2": 20,
    "K": 10, "Q": 10, "J": 10, "T": 10, "9": 10, "8": 10,
    "7": 5, "6": 5, "5": 5, "4": 5, "3": 5,
}  # fmt: skip
RED_THREES = ["3H", "3D"]
MELD_CARDS = [str(card) for card in DECK if str(card) not in RED_THREES] + ["JK"]
BOTH_PACKS = [*MELD_CARDS, *MELD_CARDS, "JK", "JK", "JK", "JK"]

fives = st.integers(0, 200).map(lambda n: 5 * n)
counts = st.integers(0, 6)
red_threes = st.integers(0, 4)
sides = st.fixed_dictionaries(
    {
        "meld_points": fives,
        "natural_canastas": counts,
        "mixed_canastas": counts,
        "red_threes": red_threes,
        "went_out": st.booleans(),
        "concealed": st.booleans(),
        "hand_points": fives,
        "has_melded": st.booleans(),
    }
)


def seed_red_threes(count):
    # Seed 003: "Jede rote Drei zählt 100 Punkte. Hat eine Partei alle vier Karten …
    # jede rote Drei mit 200 Punkten".
    return 200 * count if count == 4 else 100 * count


# What the cards count.


@pytest.mark.parametrize("card", DECK, ids=str)
def test_every_card_of_the_pack_counts_as_the_seed_says(card):
    if str(card) in RED_THREES:
        with pytest.raises(BonusCard):
            card_points(card)
    else:
        assert card_points(str(card)) == SEED_POINTS[str(card)[0]]
        assert card_points(card) == card_points(str(card))


@pytest.mark.parametrize("text", ["JK", "jk", " Jk "])
def test_a_joker_counts_fifty(text):
    assert card_points(text) == 50


def test_card_text_is_read_as_everywhere_in_knock():
    assert [card_points(text) for text in ["10♥", "qs", "a♣", "4d", "3S", "3c"]] == [
        10,
        10,
        20,
        5,
        5,
        5,
    ]


@pytest.mark.parametrize("text", ["3H", "3d", "3♥", "3♦"])
def test_a_red_three_is_a_bonus_card_not_a_meld_card(text):
    with pytest.raises(BonusCard) as refused:
        card_points(text)
    assert str(refused.value) == (
        f"{parse_card(text)} is a red three: a bonus card, laid out at once and never melded. "
        "Count it with the red threes."
    )
    assert issubclass(BonusCard, ValueError)


@pytest.mark.parametrize("text", ["", "J", "1H", "14S", "TX", "JOKER", "K", None, 7])
def test_a_text_that_names_no_card_is_refused_by_name(text):
    with pytest.raises(ValueError) as refused:
        card_points(text)
    assert repr(text) in str(refused.value)
    assert "JK for a joker" in str(refused.value)


@given(st.lists(st.sampled_from(MELD_CARDS), max_size=20, unique=True))
def test_cards_count_together_what_they_count_one_by_one(cards):
    assert card_points_sum(cards) == sum(card_points(card) for card in cards)
    assert card_points_sum(" ".join(cards)) == card_points_sum(cards)
    assert card_points_sum(",".join(reversed(cards))) == card_points_sum(cards)


def test_both_packs_count_what_all_the_cards_are_worth():
    assert card_points_sum(BOTH_PACKS) == ALL_CARDS_POINTS
    assert ALL_CARDS_POINTS == 2 * (4 * 20 + 4 * 20 + 6 * 4 * 10 + 4 * 4 * 5 + 2 * 5) + 6 * 50


def test_the_two_packs_hold_every_card_twice():
    assert card_points_sum("KS KS KH KH KD KC KC") == 70
    with pytest.raises(ValueError, match="KS is named 3 times: the two packs hold it twice"):
        card_points_sum(["KS", "ks", parse_card("KS")])


def test_the_two_packs_hold_six_jokers():
    assert card_points_sum(["JK"] * 6) == 300
    with pytest.raises(ValueError, match="hold 6 jokers, not 7"):
        card_points_sum(["JK"] * 7)


def test_a_red_three_among_cards_to_count_is_refused():
    with pytest.raises(BonusCard):
        card_points_sum("AS KS 3D")


# The first meld.


@pytest.mark.parametrize(
    ("score", "minimum"),
    [
        (-5000, 15),
        (-5, 15),
        (-1, 15),
        (0, 50),
        (1495, 50),
        (1499, 50),
        (1500, 90),
        (2995, 90),
        (2999, 90),
        (3000, 120),
        (12000, 120),
    ],
)
def test_the_first_meld_minimum_follows_the_seed_table(score, minimum):
    assert first_meld_minimum(score) == minimum


@given(st.integers(-10_000, 10_000), st.integers(-10_000, 10_000))
def test_the_better_side_never_needs_less_for_its_first_meld(lower, higher):
    lower, higher = sorted((lower, higher))
    assert first_meld_minimum(lower) <= first_meld_minimum(higher)
    assert first_meld_minimum(lower) in (15, 50, 90, 120)


@given(st.sampled_from([(-10_000, -1), (0, 1499), (1500, 2999), (3000, 99_999)]), st.data())
def test_the_first_meld_minimum_is_the_same_within_each_step(step, data):
    a, b = (data.draw(st.integers(*step)) for _ in range(2))
    assert first_meld_minimum(a) == first_meld_minimum(b)


@pytest.mark.parametrize("score", [1500.0, "1500", None, True])
def test_a_score_must_be_a_whole_number(score):
    with pytest.raises(ValueError, match="The score must be a whole number"):
        first_meld_minimum(score)


# A side's score for one hand (seed 003, "Abrechnung").


def test_the_seed_schema_scores_a_hand_of_three_sides():
    # Side A went out: kings (natural canasta), sevens with a two and a joker
    # (mixed canasta), three aces; one red three; the partner still holds ♣9 ♦4.
    a_melds = card_points_sum("KS KS KH KH KD KC KC  7S 7S 7H 7D 7C 2H JK  AS AH AD")
    assert a_melds == 70 + (25 + 20 + 50) + 60
    a = side_score(
        meld_points=a_melds,
        natural_canastas=1,
        mixed_canastas=1,
        red_threes=1,
        went_out=True,
        hand_points=card_points_sum("9C 4D"),
    )
    assert a == 225 + 500 + 300 + 100 + 100 - 15
    # Side B melded queens and fives with a two, holds two red threes.
    b = side_score(
        meld_points=card_points_sum("QS QH QD 5S 5H 2C"),
        red_threes=2,
        hand_points=card_points_sum("JK AS 8D"),
    )
    assert b == 60 + 200 - 80
    # Side C melded nothing: its red three is taken off.
    c = side_score(meld_points=0, red_threes=1, hand_points=40, has_melded=False)
    assert c == -100 - 40


def test_going_out_concealed_scores_two_hundred():
    assert side_score(meld_points=120, natural_canastas=1, went_out=True, concealed=True) == 820


@given(sides)
def test_each_natural_canasta_adds_five_hundred(side):
    more = {**side, "natural_canastas": side["natural_canastas"] + 1}
    assert side_score(**more) - side_score(**side) == 500


@given(sides)
def test_each_mixed_canasta_adds_three_hundred(side):
    more = {**side, "mixed_canastas": side["mixed_canastas"] + 1}
    assert side_score(**more) - side_score(**side) == 300


@given(sides, fives)
def test_melded_cards_add_and_cards_in_hand_subtract_their_points(side, points):
    melded = {**side, "meld_points": side["meld_points"] + points}
    held = {**side, "hand_points": side["hand_points"] + points}
    assert side_score(**melded) - side_score(**side) == points
    assert side_score(**side) - side_score(**held) == points


@given(sides)
def test_red_threes_add_a_hundred_each_and_two_hundred_each_when_all_four(side):
    none = {**side, "red_threes": 0}
    sign = 1 if side["has_melded"] else -1
    expected = sign * seed_red_threes(side["red_threes"])
    assert side_score(**side) - side_score(**none) == expected
    assert red_three_points(side["red_threes"]) == seed_red_threes(side["red_threes"])


@given(sides)
def test_red_threes_count_against_a_side_that_melded_nothing(side):
    melded = {**side, "has_melded": True}
    nothing = {**side, "has_melded": False}
    gap = side_score(**melded) - side_score(**nothing)
    assert gap == 2 * seed_red_threes(side["red_threes"])
    if side["red_threes"]:
        assert side_score(**nothing) < side_score(**melded)


@given(sides)
def test_going_out_adds_a_hundred(side):
    stayed = {**side, "went_out": False, "concealed": False}
    out = {**stayed, "went_out": True}
    assert side_score(**out) - side_score(**stayed) == 100


@given(sides)
def test_going_out_concealed_is_going_out_and_a_hundred_more(side):
    stayed = {**side, "went_out": False, "concealed": False}
    concealed = {**side, "concealed": True}
    assert side_score(**concealed) - side_score(**stayed) == 200


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ({"meld_points": -5}, "Meld points cannot be negative"),
        ({"meld_points": 50, "hand_points": -10}, "Hand points cannot be negative"),
        ({"meld_points": 50, "natural_canastas": -1}, "Natural canastas cannot be negative"),
        ({"meld_points": 50, "mixed_canastas": -1}, "Mixed canastas cannot be negative"),
        ({"meld_points": 50, "red_threes": -1}, "0 to 4 red threes, not -1"),
        ({"meld_points": 50, "red_threes": 5}, "0 to 4 red threes, not 5"),
        ({"meld_points": 50.0}, "Meld points must be a whole number"),
        ({"meld_points": 50, "red_threes": True}, "Red threes must be a whole number"),
        ({"meld_points": "50"}, "Meld points must be a whole number"),
    ],
)
def test_numbers_that_cannot_be_are_refused(entries, message):
    with pytest.raises(ValueError, match=message):
        side_score(**entries)


# The winner of a party.

totals = st.lists(st.integers(-3000, 9000).map(lambda n: 5 * (n // 5)), min_size=2, max_size=3)


@given(st.lists(st.integers(-5000, 4995), min_size=2, max_size=3))
def test_nobody_wins_before_a_side_reaches_five_thousand(below):
    assert winner(below) is None


@given(totals)
def test_the_winner_has_the_highest_total_at_five_thousand_or_more(sheet):
    side = winner(sheet)
    if side is not None:
        assert sheet[side] >= 5000
        assert all(total < sheet[side] for other, total in enumerate(sheet) if other != side)


@given(totals)
def test_a_side_alone_at_the_top_at_five_thousand_or_more_wins(sheet):
    best = max(sheet)
    if best >= 5000 and sheet.count(best) == 1:
        assert winner(sheet) == sheet.index(best)


@given(totals)
def test_the_winner_does_not_depend_on_how_the_sides_are_listed(sheet):
    named = {f"side {n}": total for n, total in enumerate(sheet)}
    by_index = winner(sheet)
    assert winner(named) == (None if by_index is None else f"side {by_index}")
    reversed_sheet = list(reversed(sheet))
    by_reversed = winner(reversed_sheet)
    assert by_reversed == (None if by_index is None else len(sheet) - 1 - by_index)


def test_exactly_five_thousand_wins():
    assert winner([4995, 5000]) == 1


def test_when_both_cross_in_one_hand_the_higher_total_wins():
    # Seed 003: "Überschreiten beide Parteien während einer Runde diese Marke,
    # gewinnt, wer die höchste Punktzahl hat."
    assert winner([5350, 5200]) == 0
    assert winner({"north-south": 5200, "east-west": 6100}) == "east-west"


@given(st.integers(5000, 9000), st.integers(-3000, 9000))
def test_an_exact_tie_at_the_top_decides_nothing_yet(top, third):
    assert winner([top, top]) is None
    if third != top:
        assert winner([top, third, top]) == (None if third < top else 1)


@pytest.mark.parametrize("sheet", [[], [6000], {"us": 6000}])
def test_a_party_needs_two_sides(sheet):
    with pytest.raises(ValueError, match="at least two sides"):
        winner(sheet)


def test_a_total_must_be_a_whole_number():
    with pytest.raises(ValueError) as refused:
        winner([5000.0, 100])
    assert str(refused.value) == "A side's total must be a whole number, not 5000.0."


def test_a_party_of_one_side_is_refused_in_full_words():
    with pytest.raises(ValueError) as refused:
        winner([6000])
    assert str(refused.value) == "A party of Canasta has at least two sides."


# The scorer's checks.


@st.composite
def fitting_sides(draw):
    natural, mixed = draw(st.integers(0, 3)), draw(st.integers(0, 3))
    canastas = natural + mixed
    extra = draw(st.integers(3 if canastas == 0 else 0, 60).map(lambda n: 5 * n))
    went_out = canastas > 0 and draw(st.booleans())
    return {
        "meld_points": 35 * natural + 50 * mixed + extra,
        "natural_canastas": natural,
        "mixed_canastas": mixed,
        "red_threes": draw(red_threes),
        "went_out": went_out,
        "concealed": went_out and draw(st.booleans()),
        "hand_points": draw(st.integers(0, 60).map(lambda n: 5 * n)),
    }


@given(fitting_sides())
def test_a_side_whose_entries_fit_together_has_no_problems(side):
    assert check_side(**side) == []


def test_a_side_may_hold_every_card_of_the_two_packs():
    # 106 meldable cards make fifteen canastas of seven; together worth 1,280.
    assert check_side(meld_points=1000, natural_canastas=1, hand_points=280) == []
    assert check_side(meld_points=15 * 35, natural_canastas=15) == []


@given(red_threes, fives)
def test_a_side_that_melded_nothing_has_no_problems(count, hand_points):
    assert (
        check_side(meld_points=0, red_threes=count, hand_points=hand_points, has_melded=False) == []
    )


@given(sides)
def test_every_side_the_checks_pass_can_be_scored(side):
    if check_side(**side) == []:
        assert isinstance(side_score(**side), int)


@pytest.mark.parametrize(
    ("entries", "problem"),
    [
        ({"meld_points": 200, "went_out": True}, "A side can only go out once it has a canasta."),
        (
            {"meld_points": 200, "natural_canastas": 1, "concealed": True},
            "Going out concealed is going out: tick 'went out' too.",
        ),
        ({"meld_points": 200, "red_threes": 5}, "There are only 4 red threes, not 5."),
        ({"meld_points": -5}, "Meld points cannot be negative (-5)."),
        ({"meld_points": 50, "natural_canastas": -2}, "Natural canastas cannot be negative (-2)."),
        ({"meld_points": 50, "mixed_canastas": -1}, "Mixed canastas cannot be negative (-1)."),
        ({"meld_points": 50, "red_threes": -1}, "Red threes cannot be negative (-1)."),
        ({"meld_points": 50, "hand_points": -20}, "Hand points cannot be negative (-20)."),
        ({"meld_points": "50"}, "Meld points must be a whole number, not '50'."),
        (
            {"meld_points": 50, "natural_canastas": 1.5},
            "Natural canastas must be a whole number, not 1.5.",
        ),
        (
            {"meld_points": 50, "mixed_canastas": True},
            "Mixed canastas must be a whole number, not True.",
        ),
        ({"meld_points": 50, "red_threes": 1.5}, "Red threes must be a whole number, not 1.5."),
        ({"meld_points": 50, "hand_points": None}, "Hand points must be a whole number, not None."),
        (
            {"meld_points": 52},
            "Meld points come in fives (every card counts 5, 10, 20 or 50): 52.",
        ),
        (
            {"meld_points": 50, "hand_points": 12},
            "Hand points come in fives (every card counts 5, 10, 20 or 50): 12.",
        ),
        (
            {"meld_points": 100, "natural_canastas": 2, "mixed_canastas": 1},
            "2 natural canastas and 1 mixed canasta hold at least 120 points of cards, "
            "more than the 100 meld points entered.",
        ),
        (
            {"meld_points": 45, "mixed_canastas": 1},
            "1 mixed canasta holds at least 50 points of cards, more than the 45 meld points "
            "entered.",
        ),
        (
            {"meld_points": 30, "natural_canastas": 1},
            "1 natural canasta holds at least 35 points of cards, more than the 30 meld points "
            "entered.",
        ),
        (
            {"meld_points": 100, "mixed_canastas": 3},
            "3 mixed canastas hold at least 150 points of cards, more than the 100 meld points "
            "entered.",
        ),
        (
            {"meld_points": 100, "natural_canastas": 1, "mixed_canastas": 2},
            "1 natural canasta and 2 mixed canastas hold at least 135 points of cards, more "
            "than the 100 meld points entered.",
        ),
        (
            {"meld_points": 0},
            "No meld points: if the side melded nothing, say so (its red threes then count "
            "against it).",
        ),
        (
            {"meld_points": 30, "has_melded": False},
            "A side that melded nothing has no meld points and no canastas.",
        ),
        (
            {"meld_points": 0, "has_melded": False, "went_out": True},
            "A side that melded nothing cannot have gone out.",
        ),
        (
            {"meld_points": 1200, "natural_canastas": 1, "hand_points": 100},
            "Melds and hands of 1300 points: all the cards of the two packs are worth 1280.",
        ),
        (
            {"meld_points": 1000, "natural_canastas": 16},
            "16 canastas need 112 cards; the two packs have 106 to meld.",
        ),
        (
            {"meld_points": 60, "score": 1500},
            "At 1500 points a side's first meld is worth at least 90; its melds cannot be "
            "worth 60.",
        ),
    ],
)
def test_the_checks_name_what_does_not_fit(entries, problem):
    assert check_side(**entries) == [problem]


@given(fitting_sides(), st.integers(-3000, 6000))
def test_melds_are_worth_at_least_the_first_meld_they_began_with(side, score):
    problems = check_side(**side, score=score)
    assert (problems == []) == (side["meld_points"] >= first_meld_minimum(score))


def test_a_hand_of_fitting_sides_has_no_problems():
    assert (
        check_hand(
            [
                {"meld_points": 225, "natural_canastas": 1, "mixed_canastas": 1, "went_out": True},
                {"meld_points": 60, "red_threes": 2, "hand_points": 80, "score": 1200},
                {"meld_points": 0, "red_threes": 1, "hand_points": 40, "has_melded": False},
            ]
        )
        == []
    )


def test_only_one_side_goes_out_in_a_hand():
    out = {"meld_points": 100, "natural_canastas": 1, "went_out": True}
    assert check_hand([out, out, {**out, "went_out": False}]) == [
        "Only one side goes out in a hand; sides 1 and 2 are marked as gone out."
    ]


@given(red_threes, red_threes)
def test_the_sides_hold_four_red_threes_between_them(a, b):
    problems = check_hand(
        [{"meld_points": 50, "red_threes": a}, {"meld_points": 50, "red_threes": b}]
    )
    assert (problems == []) == (a + b <= 4)


def test_all_sides_together_hold_no_more_than_the_two_packs():
    side = {"meld_points": 700, "natural_canastas": 8}
    assert check_hand([side, side]) == [
        "Melds and hands of 1400 points in all: the cards of the two packs are worth 1280.",
        "16 canastas in one hand need 112 cards; the two packs have 106 to meld.",
    ]
    assert MOST_CANASTAS == 15


def test_three_sides_gone_out_are_all_named():
    out = {"meld_points": 100, "natural_canastas": 1, "went_out": True}
    assert check_hand([out, out, out]) == [
        "Only one side goes out in a hand; sides 1, 2 and 3 are marked as gone out."
    ]


def test_a_side_that_went_out_concealed_counts_as_gone_out():
    out = {"meld_points": 100, "natural_canastas": 1, "went_out": True}
    concealed = {"meld_points": 100, "natural_canastas": 1, "concealed": True}
    assert check_hand([out, concealed]) == [
        "Side 2: Going out concealed is going out: tick 'went out' too.",
        "Only one side goes out in a hand; sides 1 and 2 are marked as gone out.",
    ]


def test_one_side_may_hold_all_four_red_threes_when_the_other_gives_none():
    assert check_hand([{"meld_points": 50, "red_threes": 4}, {"meld_points": 50}]) == []
    assert check_hand(
        [{"meld_points": 50, "red_threes": 3}, {"meld_points": 50, "red_threes": 2}]
    ) == ["There are 4 red threes; the sides hold 5."]


def test_the_cards_in_the_hands_count_towards_what_the_two_packs_hold():
    assert check_hand([{"meld_points": 700, "hand_points": 300}, {"meld_points": 300}]) == [
        "Melds and hands of 1300 points in all: the cards of the two packs are worth 1280."
    ]
    assert check_hand([{"meld_points": 700, "hand_points": 300}, {"meld_points": 280}]) == []


def test_the_canastas_of_all_sides_together_need_the_cards_of_the_two_packs():
    # 106 meldable cards make at most fifteen canastas of seven, natural or mixed.
    eight, seven = ({"meld_points": 50 * count, "mixed_canastas": count} for count in (8, 7))
    assert check_hand([eight, seven]) == []
    assert check_hand([eight, eight]) == [
        "16 canastas in one hand need 112 cards; the two packs have 106 to meld."
    ]
    natural = {"meld_points": 35 * 8, "natural_canastas": 8}
    assert check_hand([natural, eight]) == [
        "16 canastas in one hand need 112 cards; the two packs have 106 to meld."
    ]


def test_each_side_s_problems_are_headed_by_its_number():
    problems = check_hand([{"meld_points": 100}, {"meld_points": 100, "went_out": True}])
    assert problems == ["Side 2: A side can only go out once it has a canasta."]


def test_unreadable_numbers_leave_the_totals_across_sides_unchecked():
    problems = check_hand([{"meld_points": "many"}, {"meld_points": 100, "red_threes": 9}])
    assert problems == [
        "Side 1: Meld points must be a whole number, not 'many'.",
        "Side 2: There are only 4 red threes, not 9.",
    ]


@pytest.mark.parametrize(
    ("sides_entered", "message"),
    [
        ([{"meld_points": 50}], "at least two sides"),
        ([{"meld_points": 50}, {"meld_points": 50, "canastas": 1}], "Side 2: no such entry"),
        ([{"meld_points": 50}, {"red_threes": 1}], "Side 2: the meld points are missing"),
    ],
)
def test_a_hand_that_cannot_be_read_is_refused(sides_entered, message):
    with pytest.raises(ValueError, match=message):
        check_hand(sides_entered)


@pytest.mark.parametrize(
    ("sides_entered", "message"),
    [
        ([{"meld_points": 50}], "A hand of Canasta has at least two sides."),
        (
            [{"meld_points": 50}, {"meld_points": 50, "melds": 1, "canastas": 1}],
            "Side 2: no such entry canastas, melds.",
        ),
        ([{"red_threes": 1}, {"meld_points": 50}], "Side 1: the meld points are missing."),
    ],
)
def test_a_hand_that_cannot_be_read_says_why_in_full(sides_entered, message):
    with pytest.raises(ValueError) as refused:
        check_hand(sides_entered)
    assert str(refused.value) == message


# Who plays with whom (seed 003: two to six players).

# (players, partnerships, sides): up to three each for himself, four and five as two.
TABLES = [
    (2, None, 2), (3, None, 3),
    (4, None, 2), (4, 2, 2), (5, None, 2), (5, 2, 2),
    (6, 2, 2), (6, 3, 3),
]  # fmt: skip


@pytest.mark.parametrize(("players", "partnerships", "count"), TABLES)
def test_every_player_is_on_exactly_one_side(players, partnerships, count):
    sides_found = sides_for(players, partnerships)
    places = sorted(place for side in sides_found for place in side)
    assert places == list(range(players))
    assert len(sides_found) == count
    assert max(map(len, sides_found)) - min(map(len, sides_found)) <= 1


def test_up_to_three_play_each_for_himself():
    assert sides_for(2) == [(0,), (1,)]
    assert sides_for(3) == [(0,), (1,), (2,)]


def test_four_play_as_two_partnerships_sitting_opposite():
    assert sides_for(4) == [(0, 2), (1, 3)]


def test_six_play_as_two_or_three_partnerships():
    assert sides_for(6, 2) == [(0, 2, 4), (1, 3, 5)]
    assert sides_for(6, 3) == [(0, 3), (1, 4), (2, 5)]


def test_five_play_three_against_two():
    assert sides_for(5) == [(0, 2, 4), (1, 3)]


@given(st.integers(1, 300))
def test_at_five_one_of_the_three_sits_out_in_turn(hand):
    three = sides_for(5)[0]
    out = sitting_out(5, hand)
    assert len(out) == 1
    assert out[0] in three
    in_turn = {sitting_out(5, hand + k)[0] for k in range(3)}
    assert in_turn == set(three)
    assert sitting_out(5, hand + 3) == out


def test_at_five_the_first_hand_is_played_as_one_of_four():
    assert [sitting_out(5, hand) for hand in range(1, 5)] == [(4,), (0,), (2,), (4,)]


@given(st.integers(1, 300))
def test_at_six_in_two_partnerships_each_sits_one_out(hand):
    out = sitting_out(6, hand, 2)
    assert [sum(place in side for place in out) for side in sides_for(6, 2)] == [1, 1]
    assert {place % 2 for place in out} == {0, 1}


@pytest.mark.parametrize(("players", "partnerships"), [(2, None), (3, None), (4, 2), (6, 3)])
@given(hand=st.integers(1, 100))
def test_nobody_sits_out_without_a_partnership_of_three(players, partnerships, hand):
    assert sitting_out(players, hand, partnerships) == ()


@pytest.mark.parametrize(
    ("players", "partnerships", "message"),
    [
        (1, None, "Canasta is played by two to six, not 1."),
        (7, None, "Canasta is played by two to six, not 7."),
        (6, None, "Six players play as two or three partnerships: choose one."),
        (6, 4, "Six players play as two or three partnerships: choose one."),
        (4, 3, "4 players play as two partnerships."),
        (5, 1, "5 players play as two partnerships."),
        (3, 3, "3 players play each on their own, without partnerships."),
        (2, 2, "2 players play each on their own, without partnerships."),
        ("4", None, "The number of players must be a whole number, not '4'."),
    ],
)
def test_a_table_the_seed_does_not_know_is_refused(players, partnerships, message):
    with pytest.raises(ValueError) as refused:
        sides_for(players, partnerships)
    assert str(refused.value) == message


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        (0, "Hands are counted from 1, not 0."),
        (-1, "Hands are counted from 1, not -1."),
        (1.0, "The hand number must be a whole number, not 1.0."),
    ],
)
def test_hands_are_counted_from_one(hand, message):
    with pytest.raises(ValueError) as refused:
        sitting_out(5, hand)
    assert str(refused.value) == message


# The game behind the interface.


def test_the_hints_give_each_side_its_first_meld_minimum():
    assert GAME.hints([-20, 0, 1495, 1500, 3000]) == [15, 50, 50, 90, 120]


def test_a_hand_entered_scores_each_side_and_names_who_went_out():
    went_out = {"went_out": True, "concealed": True}
    entry = {
        "sides": [
            {"meld_points": 120, "red_threes": 1, "hand_points": 30},
            {"meld_points": 160, "natural_canastas": 1, "mixed_canastas": 1, **went_out},
        ]
    }
    scored = GAME.hand(entry, [0, 0], {})
    assert scored.scores == (120 + 100 - 30, 160 + 500 + 300 + 100 + 100)
    assert scored.facts == {"canastas": [0, 2], "went_out": 1}


def test_a_hand_names_the_side_that_went_out():
    entry = {
        "sides": [
            {"meld_points": 70},
            {"meld_points": 90, "mixed_canastas": 1, "went_out": True, "hand_points": 0},
        ]
    }
    scored = GAME.hand(entry, [0, 0], {})
    assert scored.scores == (70, 90 + 300 + 100)
    assert scored.facts == {"canastas": [0, 1], "went_out": 1}


def test_a_hand_nobody_went_out_of_names_no_one():
    entry = {"sides": [{"meld_points": 90, "mixed_canastas": 1}, {"meld_points": 50}]}
    scored = GAME.hand(entry, [0, 0], {})
    assert scored.scores == (390, 50)
    assert scored.facts == {"canastas": [1, 0], "went_out": None}


def test_a_side_that_went_out_concealed_is_the_one_that_went_out():
    # The concealed side forgot to tick "went out": the check asks for it.
    concealed = {"meld_points": 200, "natural_canastas": 1, "concealed": True}
    entry = {"sides": [{"meld_points": 50}, concealed]}
    with pytest.raises(EntryError) as refused:
        GAME.hand(entry, [0, 0], {})
    assert refused.value.problems == [
        "Side 2: Going out concealed is going out: tick 'went out' too."
    ]


@pytest.mark.parametrize(
    ("entry", "problems"),
    [
        ({"sides": [{"meld_points": 50}]}, ["Give the entries of all 2 sides."]),
        ({"sides": None}, ["Give the entries of all 2 sides."]),
        ({"sides": [{"meld_points": 50}, [50]]}, ["Each side's entries are given by name."]),
        (
            {"sides": [{"meld_points": 50}, {"melds": 50}]},
            ["Side 2: no such entry melds."],
        ),
        (
            {"sides": [{"meld_points": 50}, {"red_threes": 1}]},
            ["Side 2: the meld points are missing."],
        ),
    ],
)
def test_a_hand_entry_that_cannot_be_read_is_refused_in_words(entry, problems):
    with pytest.raises(EntryError) as refused:
        GAME.hand(entry, [0, 0], {})
    assert refused.value.problems == problems


def test_the_party_goes_on_until_a_side_reaches_five_thousand():
    hand = GAME.hand({"sides": [{"meld_points": 50}, {"meld_points": 60}]}, [0, 0], {})
    assert GAME.standing([hand], 2, {}) == Outcome(over=False)
    assert GAME.standing([], 2, {}) == Outcome(over=False)
