"""Chinchón, checked against a search over every partition of the hand and the seed's rules."""

from itertools import combinations, pairwise

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring.engine.games.chinchon import (
    GAME,
    Arrangement,
    InvalidScore,
    InvalidSpanishCard,
    SpanishCard,
    Standing,
    WrongHandSize,
    arrange,
    hand_scores,
    is_chinchon,
    is_meld,
    least_penalty,
    may_close,
    parse_card,
    parse_cards,
    spanish_deck,
    standing,
)
from scoring.engine.games.game import EntryError, Outcome

CHECKS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Written out from the seed, not taken from the module: the 40-card pack drops the 8s and 9s.
RANKS_IN_ORDER = {40: [1, 2, 3, 4, 5, 6, 7, 10, 11, 12], 48: list(range(1, 13))}
SUIT_LETTERS = ["O", "C", "E", "B"]


def pack(deck):
    return [f"{rank}{suit}" for suit in SUIT_LETTERS for rank in RANKS_IN_ORDER[deck]]


def rank_of(text):
    return int(text[:-1])


def suit_of(text):
    return text[-1]


def meld_by_the_rules(cards, deck):
    """Three or four of one rank, or three or more of one suit whose places in
    the pack's order have no gap."""
    if len(cards) < 3:
        return False
    if len({rank_of(card) for card in cards}) == 1:
        return len(cards) <= 4
    if len({suit_of(card) for card in cards}) != 1:
        return False
    places = sorted(RANKS_IN_ORDER[deck].index(rank_of(card)) for card in cards)
    return all(b == a + 1 for a, b in pairwise(places))


def partitions(cards):
    """Every way to split the cards into groups."""
    if not cards:
        yield []
        return
    first, rest = cards[0], cards[1:]
    for size in range(len(rest) + 1):
        for partners in combinations(rest, size):
            others = [card for card in rest if card not in partners]
            for split in partitions(others):
                yield [(first, *partners), *split]


def penalty_by_brute_force(cards, deck):
    """Try every partition; a group that is a meld costs nothing, any other group
    counts the ranks of its cards."""
    return min(
        sum(0 if meld_by_the_rules(group, deck) else sum(map(rank_of, group)) for group in split)
        for split in partitions(list(cards))
    )


ANY_SIZE = st.integers(0, 8)


@st.composite
def hands(draw, sizes=ANY_SIZE):
    """A pack and a hand from it: from the whole pack; crowded into a few
    neighbouring ranks; or built round a set of four and a sequence through one
    of its cards, so that sets, sequences and their conflicts are common."""
    deck = draw(st.sampled_from([40, 48]))
    size = draw(sizes)
    cards = pack(deck)
    ranks = RANKS_IN_ORDER[deck]
    shape = draw(st.sampled_from(["any", "crowded", "crossing"]))
    if shape == "any":
        return deck, draw(st.permutations(cards))[:size]
    if shape == "crowded":
        start = draw(st.integers(0, len(ranks) - 3))
        near = ranks[start : start + draw(st.integers(3, 4))]
        wanted = [card for card in cards if rank_of(card) in near]
    else:
        place = draw(st.integers(0, len(ranks) - 1))
        suit = draw(st.sampled_from(SUIT_LETTERS))
        sequence = [f"{rank}{suit}" for rank in ranks[max(place - 2, 0) : place + 3]]
        wanted = [f"{ranks[place]}{letter}" for letter in SUIT_LETTERS]
        wanted += [card for card in sequence if card not in wanted]
    rest = [card for card in cards if card not in wanted]
    return deck, (draw(st.permutations(wanted)) + draw(st.permutations(rest)))[:size]


@st.composite
def chinchones(draw):
    """Seven neighbouring cards of one suit in either pack, shuffled."""
    deck = draw(st.sampled_from([40, 48]))
    ranks = RANKS_IN_ORDER[deck]
    start = draw(st.integers(0, len(ranks) - 7))
    suit = draw(st.sampled_from(SUIT_LETTERS))
    return deck, draw(st.permutations([f"{rank}{suit}" for rank in ranks[start : start + 7]]))


# --- Cards ----------------------------------------------------------------------


@pytest.mark.parametrize("deck", [40, 48])
def test_every_card_of_the_pack_reads_back_as_its_text(deck):
    cards = [parse_card(text, deck) for text in pack(deck)]
    assert [str(card) for card in cards] == pack(deck)
    assert [str(card) for card in spanish_deck(deck)] == pack(deck)


def test_the_pack_is_of_forty_cards_unless_told():
    assert spanish_deck() == spanish_deck(40)
    assert len(spanish_deck()) == 40


def test_a_card_reads_in_either_case_and_with_spaces_around_it():
    assert parse_card("12e") == parse_card(" 12E ") == SpanishCard(12, "E")
    assert parse_cards("1O, 2o 3O") == parse_cards(["1O", "2O", SpanishCard(3, "O")])


def test_a_card_shows_its_text():
    assert repr(SpanishCard(12, "E")) == "SpanishCard('12E')"


def test_a_card_counts_its_rank_in_penalty_points():
    assert [SpanishCard(rank, "B").penalty for rank in (1, 7, 10, 11, 12)] == [1, 7, 10, 11, 12]


@pytest.mark.parametrize("text", ["13O", "0O", "1X", "O1", "", "10", "1 O", "1OO", "K"])
def test_a_text_that_names_no_spanish_card_is_refused_by_name(text):
    with pytest.raises(InvalidSpanishCard, match=f"'{text}' is not a Spanish card"):
        parse_card(text)


@pytest.mark.parametrize("text", ["8O", "9C", "8b"])
def test_the_forty_card_pack_holds_no_eights_and_nines(text):
    with pytest.raises(ValueError, match=f"'{text}' is not in the 40-card pack"):
        least_penalty([text, "1O", "2O"])
    assert least_penalty([text, "1O", "2O"], deck=48) == 3 + rank_of(text)


def test_a_card_named_twice_is_refused():
    with pytest.raises(ValueError, match="3C is named twice"):
        least_penalty("3C 4C 3c")


def test_only_packs_of_forty_and_forty_eight_cards_are_spanish():
    with pytest.raises(ValueError, match="40 or 48 cards, not 52"):
        least_penalty(["1O"], deck=52)


def test_a_card_outside_the_pack_is_refused_even_as_a_card():
    with pytest.raises(ValueError, match="not in the 40-card pack"):
        is_chinchon([SpanishCard(9, "O")])
    with pytest.raises(InvalidSpanishCard):
        SpanishCard(13, "O")


def test_a_hand_holds_at_most_eight_cards():
    nine = pack(40)[:9]
    with pytest.raises(WrongHandSize, match="this one has 9"):
        least_penalty(nine)
    with pytest.raises(ValueError):
        is_chinchon(nine)


# --- The least penalty ----------------------------------------------------------


@CHECKS
@given(dealt=hands())
def test_least_penalty_is_the_best_of_every_partition(dealt):
    deck, hand = dealt
    assert least_penalty(hand, deck) == penalty_by_brute_force(hand, deck)


@CHECKS
@given(dealt=hands())
def test_the_arrangement_shown_uses_every_card_once_in_legal_melds(dealt):
    deck, hand = dealt
    arrangement = arrange(hand, deck)
    shown = [str(card) for meld in arrangement.melds for card in meld]
    shown += [str(card) for card in arrangement.left]
    assert sorted(shown) == sorted(hand)
    assert all(meld_by_the_rules([str(card) for card in meld], deck) for meld in arrangement.melds)
    assert arrangement.penalty == sum(card.rank for card in arrangement.left)
    assert arrangement.penalty == least_penalty(hand, deck)


@CHECKS
@given(dealt=hands(), data=st.data())
def test_the_penalty_does_not_depend_on_the_order_the_cards_are_given(dealt, data):
    deck, hand = dealt
    shuffled = data.draw(st.permutations(hand))
    assert arrange(" ".join(shuffled), deck) == arrange(hand, deck)


@CHECKS
@given(dealt=hands(sizes=st.integers(0, 7)), data=st.data())
def test_a_card_more_costs_at_most_its_rank(dealt, data):
    deck, hand = dealt
    card = data.draw(st.sampled_from([card for card in pack(deck) if card not in hand]))
    assert least_penalty([*hand, card], deck) <= least_penalty(hand, deck) + rank_of(card)


def test_seven_ten_and_soldat_follow_each_other_only_in_the_forty_card_pack():
    assert least_penalty("6O 7O 10O") == 0
    assert least_penalty("6O 7O 10O", deck=48) == 23
    assert least_penalty("7O 8O 9O", deck=48) == 0


def test_sequences_do_not_turn_the_corner():
    assert least_penalty("11E 12E 1E") == 24


def test_a_set_holds_one_card_of_each_suit_it_names():
    assert least_penalty("5O 5C 5E 5B") == 0
    assert least_penalty("5O 5C") == 10


def test_the_fourth_card_of_a_rank_may_go_into_a_sequence():
    arrangement = arrange("5O 5C 5E 5B 6O 7O 12C")
    assert arrangement == Arrangement(
        melds=(parse_cards("5O 6O 7O"), parse_cards("5C 5E 5B")),
        left=parse_cards("12C"),
        penalty=12,
    )


def test_a_set_or_a_sequence_that_leave_the_same_penalty_show_the_sequence():
    # 4O 5O 6O leaves 5C 5E, the three fives leave 4O 6O: 10 either way.
    assert arrange("5O 5C 5E 4O 6O") == Arrangement(
        melds=(parse_cards("4O 5O 6O"),), left=parse_cards("5C 5E"), penalty=10
    )


def test_a_card_is_in_one_meld_only():
    # 3O could finish both the set and the sequence; the sequence leaves less.
    assert least_penalty("3O 3C 3E 4O 5O 11B 12B") == 6 + 23
    assert least_penalty("3O 3C 3E 1O 2O") == 3


def test_an_empty_hand_leaves_no_penalty():
    assert arrange([]) == Arrangement(melds=(), left=(), penalty=0)


@pytest.mark.parametrize(
    ("cards", "meld"),
    [
        ("1O 2O 3O", True),
        ("7C 10C 11C", True),
        ("4E 4B 4O 4C", True),
        ("4E 4B", False),
        ("1O 2C 3O", False),
        ("1O 2O 4O", False),
        ("3O 2O 1O", True),
    ],
)
def test_is_meld_reads_sets_and_sequences(cards, meld):
    assert is_meld(cards) is meld


def test_is_meld_reads_the_pack_in_play():
    assert is_meld("7O 8O 9O", deck=48)
    assert not is_meld("6O 7O 10O", deck=48)
    with pytest.raises(InvalidSpanishCard, match="not in the 40-card pack"):
        is_meld("7O 8O 9O")


# --- Chinchón -------------------------------------------------------------------


@CHECKS
@given(dealt=chinchones())
def test_seven_neighbouring_cards_of_one_suit_are_a_chinchon(dealt):
    deck, hand = dealt
    assert is_chinchon(hand, deck)
    assert least_penalty(hand, deck) == 0


@CHECKS
@given(dealt=hands())
def test_a_chinchon_is_seven_of_the_cards_in_one_sequence(dealt):
    deck, hand = dealt
    expected = any(
        len({suit_of(card) for card in seven}) == 1 and meld_by_the_rules(seven, deck)
        for seven in combinations(hand, 7)
    )
    assert is_chinchon(hand, deck) is expected


@CHECKS
@given(dealt=chinchones(), data=st.data())
def test_a_chinchon_with_the_card_just_drawn_is_still_one(dealt, data):
    deck, hand = dealt
    drawn = data.draw(st.sampled_from([card for card in pack(deck) if card not in hand]))
    assert is_chinchon([*hand, drawn], deck)
    assert not is_chinchon(hand[:6], deck)


def test_a_hand_all_melded_in_two_suits_is_no_chinchon():
    assert least_penalty("1O 2O 3O 4O 5C 6C 7C") == 0
    assert not is_chinchon("1O 2O 3O 4O 5C 6C 7C")


def test_the_forty_card_chinchon_over_the_gap_is_none_in_forty_eight_cards():
    assert is_chinchon("4B 5B 6B 7B 10B 11B 12B")
    assert not is_chinchon("4B 5B 6B 7B 10B 11B 12B", deck=48)


# --- One hand -------------------------------------------------------------------

penalty_tables = st.dictionaries(
    st.sampled_from(["Ana", "Beto", "Carla", "Diego"]), st.integers(0, 90), min_size=2
)


@given(penalties=penalty_tables, data=st.data())
def test_every_player_writes_his_penalty_and_a_clean_closer_minus_ten(penalties, data):
    closer = data.draw(st.sampled_from(sorted(penalties)))
    scores = hand_scores(penalties, closer)
    assert scores.keys() == penalties.keys()
    for player, penalty in penalties.items():
        clean_close = player == closer and penalty == 0
        assert scores[player] == (-10 if clean_close else penalty)


def test_the_bonus_is_the_closers_alone():
    assert hand_scores({"Ana": 0, "Beto": 0, "Carla": 17}, "Ana") == {
        "Ana": -10,
        "Beto": 0,
        "Carla": 17,
    }
    assert hand_scores([3, 0, 25], 0) == {0: 3, 1: 0, 2: 25}


@pytest.mark.parametrize(
    ("penalties", "closer", "message"),
    [
        ({"Ana": 0, "Beto": 4}, "Carla", "'Carla' is not one of the players"),
        ({"Ana": -1, "Beto": 4}, "Ana", "cannot have -1 penalty points"),
        ({"Ana": 2.5, "Beto": 4}, "Ana", "must be a whole number"),
        ("Ana", "Ana", "given per player"),
    ],
)
def test_impossible_hands_are_refused(penalties, closer, message):
    with pytest.raises(InvalidScore, match=message):
        hand_scores(penalties, closer)


# --- The party ------------------------------------------------------------------

totals_tables = st.dictionaries(
    st.sampled_from(["Ana", "Beto", "Carla", "Diego"]), st.integers(-40, 140), min_size=2
)


@given(totals=totals_tables)
def test_the_classic_party_ends_at_one_hundred_and_the_lowest_wins(totals):
    result = standing(totals)
    assert result.out == {player for player, total in totals.items() if total >= 100}
    assert result.over is any(total >= 100 for total in totals.values())
    lowest = [player for player, total in totals.items() if total == min(totals.values())]
    if result.over and len(lowest) == 1:
        assert result.winner == lowest[0]
    else:
        assert result.winner is None


@given(totals=totals_tables)
def test_la_conga_ends_with_one_player_left_under_one_hundred(totals):
    left = [player for player, total in totals.items() if total < 100]
    assume(left)
    result = standing(totals, conga=True)
    assert result.out == set(totals) - set(left)
    assert result.over is (len(left) == 1)
    assert result.winner == (left[0] if len(left) == 1 else None)


def test_classic_party_sheet():
    assert standing({"Ana": 45, "Beto": 99}) == Standing(over=False, out=frozenset(), winner=None)
    assert standing({"Ana": 45, "Beto": 100, "Carla": 60}) == Standing(
        over=True, out=frozenset({"Beto"}), winner="Ana"
    )
    assert standing([50, 120, 50]).winner is None


def test_la_conga_goes_on_past_the_first_player_out():
    assert standing({"Ana": 45, "Beto": 104, "Carla": 60}, conga=True) == Standing(
        over=False, out=frozenset({"Beto"}), winner=None
    )
    assert standing({"Ana": 101, "Beto": 104, "Carla": 60}, conga=True) == Standing(
        over=True, out=frozenset({"Ana", "Beto"}), winner="Carla"
    )


def test_when_the_last_players_go_out_together_the_lowest_of_them_wins():
    before = {"Ana": 102, "Beto": 95, "Carla": 90}
    after = {"Ana": 102, "Beto": 110, "Carla": 121}
    assert standing(after, conga=True, before=before) == Standing(
        over=True, out=frozenset(after), winner="Beto"
    )
    # Ana went out earlier with less; the totals alone cannot say who is last out.
    assert standing(after, conga=True) == Standing(over=True, out=frozenset(after), winner=None)
    tied = {"Ana": 102, "Beto": 110, "Carla": 110}
    assert standing(tied, conga=True, before=before).winner is None


def test_a_player_at_exactly_one_hundred_before_the_last_hand_was_already_out():
    before = {"Ana": 100, "Beto": 99}
    after = {"Ana": 110, "Beto": 120}
    assert standing(after, conga=True, before=before).winner == "Beto"


@pytest.mark.parametrize(
    ("before", "said"),
    [
        ("Ana", "The totals are given per player, not as 'Ana'."),
        ({"Ana": 90.5, "Beto": 95}, "The total of 'Ana' must be a whole number, not 90.5."),
        ({"Ana": 90}, "The totals before the last hand must name the same players."),
    ],
)
def test_the_totals_before_the_last_hand_are_checked_like_the_totals(before, said):
    after = {"Ana": 110, "Beto": 120}
    assert words(lambda: standing(after, conga=True, before=before)) == said


def test_a_chinchon_wins_the_party_at_once():
    assert standing({"Ana": 30, "Beto": 80}, chinchon="Beto") == Standing(
        over=True, out=frozenset(), winner="Beto"
    )
    assert standing({"Ana": 130, "Beto": 80}, conga=True, chinchon="Beto").winner == "Beto"
    with pytest.raises(InvalidScore, match="is out of the party"):
        standing({"Ana": 130, "Beto": 80}, conga=True, chinchon="Ana")
    with pytest.raises(InvalidScore, match="not in this party"):
        standing({"Ana": 30, "Beto": 80}, chinchon="Carla")


def test_totals_must_be_whole_numbers():
    with pytest.raises(InvalidScore, match="The total of 'Ana' must be a whole number"):
        standing({"Ana": "30", "Beto": 80})
    with pytest.raises(InvalidScore, match="same players"):
        standing({"Ana": 130, "Beto": 120}, conga=True, before={"Ana": 90})


# --- Closing in La Conga --------------------------------------------------------


@given(total=st.integers(-40, 99), penalty=st.integers(0, 90))
def test_la_conga_closes_from_ninety_six_on_only_with_five_or_fewer(total, penalty):
    assert may_close(total, penalty) is True
    assert may_close(total, penalty, conga=True) is (total < 96 or penalty <= 5)


def test_closing_at_the_edge_of_la_conga():
    assert may_close(95, 40, conga=True)
    assert may_close(96, 5, conga=True)
    assert not may_close(96, 6, conga=True)
    assert not may_close(100, 0, conga=True)
    assert words(lambda: may_close(50, -3)) == "A hand cannot leave -3 penalty points."


@pytest.mark.parametrize(("total", "penalty"), [(50, 2.5), ("50", 3), (50.0, 3), (True, 3)])
def test_closing_is_asked_in_whole_numbers(total, penalty):
    with pytest.raises(InvalidScore) as refused:
        may_close(total, penalty)
    assert str(refused.value) == (
        f"Total and penalty are whole numbers, not {total!r} and {penalty!r}."
    )


# --- What a player reads when something cannot be -------------------------------


def words(action):
    with pytest.raises(ValueError) as refused:
        action()
    return str(refused.value)


def test_cards_that_cannot_be_are_refused_in_full_words():
    assert words(lambda: SpanishCard(13, "O")) == (
        "There is no Spanish card with rank 13 and suit 'O'."
    )
    assert (
        words(lambda: SpanishCard(1, "X")) == "There is no Spanish card with rank 1 and suit 'X'."
    )
    assert words(lambda: parse_card(SpanishCard(9, "C"))) == (
        "'9C' is not in the 40-card pack: it has no 8s and 9s (they are played with 48 cards)."
    )
    assert words(lambda: parse_card(7)) == "7 is not a Spanish card."
    assert words(lambda: parse_card("13O")) == (
        "'13O' is not a Spanish card (write the rank 1–12, then the suit O, C, E or B, e.g. 12E)."
    )
    assert words(lambda: parse_cards(5)) == "5 is no list of Spanish cards."
    assert words(lambda: parse_cards("3C 3c")) == (
        "3C is named twice: the pack holds every card once."
    )
    assert words(lambda: least_penalty(pack(48)[:9], deck=48)) == (
        "A Chinchón hand holds seven cards, eight with the card just drawn; this one has 9."
    )


def test_scores_that_cannot_be_are_refused_in_full_words():
    assert words(lambda: hand_scores({"Ana": -1, "Beto": 3}, "Ana")) == (
        "'Ana' cannot have -1 penalty points."
    )
    assert words(lambda: hand_scores({"Ana": 1, "Beto": 3}, "Carla")) == (
        "The closer 'Carla' is not one of the players of this hand."
    )
    assert words(lambda: hand_scores("Ana", "Ana")) == (
        "The penalties are given per player, not as 'Ana'."
    )
    assert words(lambda: hand_scores({"Ana": 1.5}, "Ana")) == (
        "The penalty of 'Ana' must be a whole number, not 1.5."
    )
    assert words(lambda: standing({"Ana": "30"})) == (
        "The total of 'Ana' must be a whole number, not '30'."
    )
    assert words(lambda: standing(30)) == "The totals are given per player, not as 30."


# --- A hand entered at the table (the game behind the interface) ----------------

CLASSIC = {"deck": 40, "conga": False}
CONGA = {"deck": 40, "conga": True}


@pytest.mark.parametrize(
    ("entry", "totals", "options", "said"),
    [
        (
            {"closer": 2, "penalties": [1, 2]},
            [0, 0],
            CLASSIC,
            "Say who closed the hand: one of the players still in.",
        ),
        (
            {"closer": 1, "penalties": [1, None]},
            [0, 104],
            CONGA,
            "Say who closed the hand: one of the players still in.",
        ),
        (
            {"closer": 0, "penalties": [1]},
            [0, 0],
            CLASSIC,
            "Give every player's penalty, or every player's cards.",
        ),
        ({"closer": 0}, [0, 0], CLASSIC, "Give every player's penalty, or every player's cards."),
        (
            {"closer": 0, "penalties": [2, 3, 4]},
            [0, 104, 0],
            CONGA,
            "Player 2 is out and plays no more hands.",
        ),
        (
            {"closer": 0, "penalties": [2, 3, 4]},
            [0, 100, 0],
            CONGA,
            "Player 2 is out and plays no more hands.",
        ),
        (
            {"closer": 0, "penalties": [2, 5], "chinchon": True},
            [0, 0],
            CLASSIC,
            "A Chinchón melds all seven cards: the closer's penalty is 0.",
        ),
        (
            {"closer": 0, "penalties": [6, 5]},
            [97, 0],
            CONGA,
            "At 97 points a player may close only with 5 or fewer (La Conga).",
        ),
        (
            {"closer": 1, "cards": ["1O 2O 3O", "8O 1C 2C"]},
            [0, 0],
            CLASSIC,
            "'8O' is not in the 40-card pack: it has no 8s and 9s (they are played with 48 cards).",
        ),
    ],
)
def test_a_hand_entry_that_cannot_be_is_refused_in_words(entry, totals, options, said):
    with pytest.raises(EntryError) as refused:
        GAME.hand(entry, totals, options)
    assert refused.value.problems == [said]


def play(entries, options):
    """The hands of a party entered one after the other, each from the totals before it."""
    hands = []
    for entry in entries:
        totals = [sum(hand.scores[side] for hand in hands) for side in range(3)]
        hands.append(GAME.hand(entry, totals, options))
    return hands


def test_la_conga_goes_on_with_a_player_out():
    hands = play(
        [{"closer": 1, "penalties": [50, 45, 40]}, {"closer": 1, "penalties": [52, 50, 50]}], CONGA
    )
    assert GAME.standing(hands, 3, CONGA) == Outcome(False, out=frozenset({0}))
    # The classic game ends as soon as someone reaches 100.
    assert GAME.standing(hands, 3, CLASSIC) == Outcome(True, frozenset({2}), frozenset({0}))


def test_la_conga_all_out_at_once_is_won_by_the_lowest_of_those_still_in_before():
    hands = play(
        [
            {"closer": 1, "penalties": [50, 45, 40]},
            {"closer": 1, "penalties": [52, 50, 50]},  # 102, 95, 90: the first is out
            {"closer": 1, "penalties": [None, 15, 31]},  # 102, 110, 121: all out
        ],
        CONGA,
    )
    assert GAME.standing(hands, 3, CONGA) == Outcome(True, frozenset({1}), frozenset({0, 1, 2}))


def test_la_conga_all_out_at_once_and_tied_is_shared_by_the_tied_still_in_before():
    hands = play(
        [
            {"closer": 1, "penalties": [50, 45, 40]},
            {"closer": 1, "penalties": [50, 50, 50]},  # 100, 95, 90: 100 is out
            {"closer": 1, "penalties": [None, 15, 20]},  # 100, 110, 110: all out
        ],
        CONGA,
    )
    assert GAME.standing(hands, 3, CONGA) == Outcome(True, frozenset({1, 2}), frozenset({0, 1, 2}))


def test_a_classic_party_tied_for_the_lowest_is_shared():
    hands = play([{"closer": 0, "penalties": [30, 101, 30]}], CLASSIC)
    assert GAME.standing(hands, 3, CLASSIC) == Outcome(True, frozenset({0, 2}), frozenset({1}))


def test_a_hand_tells_who_closed_and_whether_clean_or_a_chinchon():
    clean = GAME.hand({"closer": 1, "penalties": [12, 0, 0]}, [0, 0, 0], CLASSIC)
    assert clean.scores == (12, -10, 0)
    assert clean.facts == {"closer": 1, "chinchon": False, "clean": True}
    left = GAME.hand({"closer": 0, "penalties": [1, 0, 30]}, [0, 0, 0], CLASSIC)
    assert left.scores == (1, 0, 30)
    assert left.facts == {"closer": 0, "chinchon": False, "clean": False}
    cards = ["1B 2B 3B 4B 5B 6B 7B", "1O 1C 12E 11E 3O 5C 6E", "2O 2C 2E 10B 11B 12B 4O"]
    chinchon = GAME.hand({"closer": 0, "cards": cards}, [0, 0, 0], CLASSIC)
    assert chinchon.scores == (-10, 1 + 1 + 12 + 11 + 3 + 5 + 6, 4)
    assert chinchon.facts == {"closer": 0, "chinchon": True, "clean": True}


def test_a_negative_penalty_names_the_player_as_the_table_does():
    with pytest.raises(EntryError) as refused:
        GAME.hand({"closer": 0, "penalties": [0, -1, 4]}, [0, 0, 0], CLASSIC)
    assert refused.value.problems == ["Player 2 cannot have -1 penalty points."]
