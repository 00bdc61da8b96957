import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.cards import DECK, Card, InvalidCard, parse_card, parse_cards


@pytest.mark.parametrize(
    ("rank", "suit"), [(0, "H"), (14, "H"), (-1, "C"), (1.0, "S"), ("A", "S"), (5, "X"), (5, "h")]
)
def test_there_is_no_card_outside_the_deck(rank, suit):
    with pytest.raises(InvalidCard) as refused:
        Card(rank, suit)
    assert str(refused.value) == f"There is no card with rank {rank!r} and suit {suit!r}."


@pytest.mark.parametrize(("rank", "suit"), [(1, "C"), (13, "S"), (10, "D")])
def test_the_deck_runs_from_ace_to_king_in_four_suits(rank, suit):
    assert Card(rank, suit) in DECK


def test_a_card_is_shown_by_its_canonical_text():
    assert repr(parse_card("10♥")) == "Card('TH')"
    assert [str(Card(rank, "S")) for rank in (1, 9, 10, 11, 12, 13)] == [
        "AS",
        "9S",
        "TS",
        "JS",
        "QS",
        "KS",
    ]


def test_court_cards_and_ten_count_ten_and_the_ace_one():
    # Seed 000: "Ass - 1 Punkt, König, Dame, Bube - 10 Punkte … Zehner 10".
    assert [Card(rank, "H").value for rank in range(1, 14)] == [*range(1, 11), 10, 10, 10]


@given(st.sampled_from(DECK))
def test_every_card_reads_back_from_its_text(card):
    assert parse_card(str(card)) is card
    assert parse_card(str(card).lower()) is card
    assert DECK[card.index] is card


@pytest.mark.parametrize("text", ["", "1H", "11S", "TX", "H", "10", 7, None, "A S"])
def test_a_text_that_names_no_card_is_refused_by_name(text):
    with pytest.raises(InvalidCard) as refused:
        parse_card(text)
    assert repr(text) in str(refused.value)


def test_a_card_named_twice_is_refused():
    with pytest.raises(InvalidCard) as refused:
        parse_cards("AS 2S as")
    assert str(refused.value) == "AS is named twice: every card is in the deck once."
