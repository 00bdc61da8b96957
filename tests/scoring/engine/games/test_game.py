"""Every game behind one interface: sides for each table size, hands scored from
what a table enters, a party that ends with its winners, and what all games share
(places, margins that add up to zero)."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.games import GAMES
from scoring.engine.games.chinchon import spanish_deck
from scoring.engine.games.game import (
    EntryError,
    Outcome,
    Problem,
    margins,
    places,
    player_margins,
    ranked_winners,
    reason,
    settle_options,
    side_totals,
)

CHINCHON, CANASTA = GAMES["chinchon"], GAMES["canasta"]
VIERZEHN, CRUZO = GAMES["blaue_vierzehn"], GAMES["cruzo"]


@pytest.mark.parametrize("game", GAMES.values(), ids=GAMES.keys())
def test_every_table_size_seats_each_player_on_one_side(game):
    options = settle_options(game, {})
    for players in game.table_sizes:
        sides = game.sides(players, options)
        seats = sorted(seat for side in sides for seat in side)
        assert seats == list(range(players))
        assert len(sides) >= 2


@pytest.mark.parametrize("game", GAMES.values(), ids=GAMES.keys())
def test_a_table_the_game_is_not_played_at_is_refused_in_words(game):
    too_many = max(game.table_sizes) + 1
    with pytest.raises(EntryError, match=f"not {too_many}"):
        game.sides(too_many, settle_options(game, {}))


@pytest.mark.parametrize(
    ("game", "players", "said"),
    [
        (CHINCHON, 5, "Chinchón is played by 2, 3, 4 players, not 5."),
        (CANASTA, 1, "Canasta is played by 2, 3, 4, 5, 6 players, not 1."),
        (VIERZEHN, 2, "Blaue Vierzehn is played by 3, 4, 5, 6 players, not 2."),
        (CRUZO, 8, "Cruzo is played by 2, 3, 4, 5, 6, 7 players, not 8."),
    ],
)
def test_the_refusal_of_a_table_names_the_sizes_the_game_is_played_at(game, players, said):
    with pytest.raises(EntryError) as refused:
        game.sides(players, settle_options(game, {}))
    assert refused.value.problems == [said]


def test_an_entry_error_puts_each_problem_on_its_own_line():
    error = EntryError(["Side 1: no meld points.", "Side 2: no meld points."])
    assert str(error) == "Side 1: no meld points.\nSide 2: no meld points."
    assert EntryError("One problem.").problems == ["One problem."]


def test_options_default_and_refuse_what_the_game_does_not_know():
    assert settle_options(CHINCHON, {}) == {"deck": 40, "conga": False}
    assert settle_options(CHINCHON, {"deck": 48})["deck"] == 48
    with pytest.raises(EntryError, match="deck is one of 40, 48"):
        settle_options(CHINCHON, {"deck": 52})
    with pytest.raises(EntryError, match="no rule called jokers"):
        settle_options(CHINCHON, {"jokers": 2})
    with pytest.raises(EntryError, match="whole number from 1"):
        settle_options(VIERZEHN, {"deals": 0})


@pytest.mark.parametrize(
    ("game", "given", "said"),
    [
        (CHINCHON, {"stake": 1, "jokers": 2}, "Chinchón has no rule called jokers, stake."),
        (CHINCHON, {"deck": 52}, "deck is one of 40, 48, not 52."),
        (CHINCHON, {"conga": "yes"}, "conga is one of False, True, not 'yes'."),
        (VIERZEHN, {"deals": 0}, "deals is a whole number from 1, not 0."),
        (VIERZEHN, {"deals": 2.5}, "deals is a whole number from 1, not 2.5."),
        (CRUZO, {"games": "3"}, "games is a whole number from 1, not '3'."),
        (CRUZO, {"games": True}, "games is a whole number from 1, not True."),
    ],
)
def test_an_option_that_cannot_be_is_refused_in_full_words(game, given, said):
    with pytest.raises(EntryError) as refused:
        settle_options(game, given)
    assert refused.value.problems == [said]


def test_a_whole_number_option_takes_its_least_value_and_none():
    assert settle_options(VIERZEHN, {"deals": 1}) == {"deals": 1}
    assert settle_options(CRUZO, {}) == {"games": None}


def test_canasta_seats_four_and_five_as_two_partnerships_and_six_as_asked():
    options = settle_options(CANASTA, {})
    assert CANASTA.sides(4, options) == [(0, 2), (1, 3)]
    assert len(CANASTA.sides(5, options)) == 2
    assert len(CANASTA.sides(6, settle_options(CANASTA, {"partnerships": 3}))) == 3
    assert len(CANASTA.sides(6, options)) == 2  # unless six say three
    with pytest.raises(EntryError):
        CANASTA.sides(3, settle_options(CANASTA, {"partnerships": 3}))


@given(st.lists(st.integers(-500, 5000), min_size=2, max_size=6), st.booleans())
def test_margins_add_up_to_zero_and_follow_the_places(totals, lower_wins):
    paid = margins(totals, lower_wins)
    placed = places(totals, lower_wins)
    assert sum(paid) == 0
    for a in range(len(totals)):
        for b in range(len(totals)):
            if placed[a] < placed[b]:
                assert paid[a] > paid[b]
            if totals[a] == totals[b]:
                assert paid[a] == paid[b] and placed[a] == placed[b]
    assert {placed[s] for s in ranked_winners(totals, lower_wins)} == {1}


def test_two_sides_settle_the_difference():
    assert margins([40, 100], lower_wins=True) == [60, -60]
    assert margins([3000, 5100], lower_wins=False) == [-2100, 2100]


def chinchon_hand(rng: random.Random, players: int, deck: int) -> dict:
    cards = list(spanish_deck(deck))
    rng.shuffle(cards)
    hands = [" ".join(str(c) for c in cards[7 * n : 7 * n + 7]) for n in range(players)]
    return {"closer": rng.randrange(players), "cards": hands}


@given(st.integers(2, 4), st.sampled_from([40, 48]), st.randoms(use_true_random=False))
def test_a_chinchon_party_of_dealt_hands_ends_with_the_lowest_total_winning(players, deck, rng):
    options = settle_options(CHINCHON, {"deck": deck})
    hands = []
    outcome = CHINCHON.standing(hands, players, options)
    while not outcome.over:
        entry = chinchon_hand(rng, players, deck)
        hands.append(CHINCHON.hand(entry, side_totals(hands, players), options))
        outcome = CHINCHON.standing(hands, players, options)
    totals = side_totals(hands, players)
    if not hands[-1].facts["chinchon"]:
        assert max(totals) >= 100
        assert outcome.winners == ranked_winners(totals, lower_wins=True)


def test_a_chinchon_closer_with_penalty_cannot_claim_a_chinchon():
    options = settle_options(CHINCHON, {})
    with pytest.raises(EntryError, match="penalty is 0"):
        CHINCHON.hand({"closer": 0, "penalties": [5, 20], "chinchon": True}, [0, 0], options)


def test_la_conga_refuses_a_close_above_five_from_96_and_skips_the_players_out():
    options = settle_options(CHINCHON, {"conga": True})
    with pytest.raises(EntryError, match="only with 5 or fewer"):
        CHINCHON.hand({"closer": 0, "penalties": [6, 20, 9]}, [96, 10, 20], options)
    with pytest.raises(EntryError, match="is out"):
        CHINCHON.hand({"closer": 0, "penalties": [2, 20, 9]}, [96, 104, 20], options)
    scored = CHINCHON.hand({"closer": 0, "penalties": [2, None, 9]}, [96, 104, 20], options)
    assert scored.scores == (2, 0, 9)


def test_a_canasta_entry_that_does_not_fit_together_lists_each_problem():
    options = settle_options(CANASTA, {})
    entry = {
        "sides": [{"meld_points": 120, "went_out": True}, {"meld_points": 90, "red_threes": 5}]
    }
    with pytest.raises(EntryError) as refused:
        CANASTA.hand(entry, [0, 0], options)
    assert len(refused.value.problems) >= 2


def test_each_problem_reads_in_english_and_keeps_what_a_translation_needs():
    options = settle_options(CANASTA, {})
    entry = {"sides": [{"meld_points": 60, "natural_canastas": 2}, {"meld_points": 95}]}
    with pytest.raises(EntryError) as refused:
        CANASTA.hand(entry, [0, 0], options)

    (problem,) = refused.value.problems
    assert problem == (
        "Side 1: 2 natural canastas hold at least 70 points of cards, "
        "more than the 60 meld points entered."
    )
    assert str(refused.value) == problem
    assert problem.template == "Side %(number)s: %(problem)s"
    inner = problem.params["problem"]
    assert isinstance(inner, Problem)
    assert inner.params["floor"] == 70
    assert inner.params["canastas"].params == {"count": 2}


def test_a_problem_raised_inside_the_rules_reaches_the_entry_error_whole():
    options = settle_options(CRUZO, {})
    with pytest.raises(EntryError) as refused:
        CRUZO.hand({"went_out": [], "cards_left": {0: 1, 1: 2}}, [0, 0], options)

    (problem,) = refused.value.problems
    assert isinstance(problem, Problem)
    assert problem == "The game is won by the first player to go out; nobody went out yet."


def test_a_canasta_party_ends_at_5000_with_the_highest_side():
    options = settle_options(CANASTA, {})
    good = {"meld_points": 600, "natural_canastas": 2, "mixed_canastas": 1, "went_out": True}
    poor = {"meld_points": 300, "hand_points": 40}
    hands = []
    while not CANASTA.standing(hands, 2, options).over:
        hands.append(CANASTA.hand({"sides": [good, poor]}, side_totals(hands, 2), options))
    assert CANASTA.standing(hands, 2, options).winners == {0}
    assert side_totals(hands, 2)[0] >= 5000


@given(st.integers(3, 6), st.randoms(use_true_random=False))
def test_a_blaue_vierzehn_deal_counted_from_the_cards_adds_up_to_56(players, rng):
    from scoring.engine.games.blaue_vierzehn import DECK

    cards = [str(card) for card in DECK]
    rng.shuffle(cards)
    piles = [cards[n::players] for n in range(players)]
    options = settle_options(VIERZEHN, {})
    scored = VIERZEHN.hand({"cards": piles}, [0] * players, options)
    assert sum(scored.scores) == 56
    assert scored.facts["blue_fourteen"] in range(players)


def test_blaue_vierzehn_ends_after_the_deals_agreed_with_the_fewest_points():
    options = settle_options(VIERZEHN, {"deals": 2})
    deal = VIERZEHN.hand({"points": [10, 33, 13]}, [0, 0, 0], options)
    assert not VIERZEHN.standing([deal], 3, options).over
    assert VIERZEHN.standing([deal, deal], 3, options).winners == {0}
    with pytest.raises(EntryError, match="add up to 57"):
        VIERZEHN.hand({"points": [11, 33, 13]}, [0, 0, 0], options)


def test_cruzo_places_the_table_and_scores_the_places():
    options = settle_options(CRUZO, {"games": 1})
    game = CRUZO.hand({"went_out": [2], "cards_left": {0: 3, 1: 1}}, [0, 0, 0], options)
    assert game.scores == (0, 1, 2)
    assert CRUZO.standing([game], 3, options).winners == {2}
    with pytest.raises(EntryError, match="Every player has a place"):
        CRUZO.hand({"went_out": [2], "cards_left": {0: 3}}, [0, 0, 0], options)


# What each player wins or pays at the night's stake (player_margins)


def test_each_partner_wins_or_pays_the_whole_margin_of_two_partnerships():
    sides = [("ada", "cy"), ("ben", "di")]
    assert player_margins(sides, margins([5800, 300], False)) == {
        "ada": 5500,
        "cy": 5500,
        "ben": -5500,
        "di": -5500,
    }


def test_a_player_on_their_own_wins_or_pays_their_margin():
    assert player_margins([("a",), ("b",), ("c",)], margins([-10, 40, 100], True)) == {
        "a": 160,
        "b": 10,
        "c": -170,
    }


def test_three_against_two_share_what_two_partners_pay():
    # Five at Canasta: the three share twice the margin, the odd point to the first.
    shares = player_margins([("a", "c", "e"), ("b", "d")], [100, -100])
    assert shares == {"a": 67, "c": 67, "e": 66, "b": -100, "d": -100}


def test_the_players_of_every_side_need_its_margin():
    with pytest.raises(ValueError):
        player_margins([("a",), ("b",)], [10, -5, -5])
    with pytest.raises(ValueError):
        player_margins([("a",), ("b",), ("c",)], [10, -10])


@given(
    st.lists(st.integers(-2000, 6000), min_size=2, max_size=3),
    st.integers(1, 3),
    st.booleans(),
)
def test_the_players_amounts_add_up_to_nought(totals, size, lower_wins):
    sides = [tuple(f"{side}-{n}" for n in range(size + side % 2)) for side in range(len(totals))]
    assert sum(player_margins(sides, margins(totals, lower_wins)).values()) == 0


# What an error says (reason): the Problem itself, else the error's words.


def test_the_reason_of_a_problem_is_the_problem_with_its_template():
    problem = Problem("%(card)s is named twice.", card="3C")
    found = reason(ValueError(problem))
    assert found == "3C is named twice."
    assert isinstance(found, Problem) and found.params == {"card": "3C"}


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (ValueError("The deck has 52 cards."), "The deck has 52 cards."),
        (ValueError(42), "42"),
        (ValueError(), ""),
        (ValueError(Problem("first"), "second"), "('first', 'second')"),
    ],
)
def test_the_reason_of_any_other_error_is_what_it_says(error, said):
    found = reason(error)
    assert found == said
    assert not isinstance(found, Problem)


def test_a_party_of_agreed_deals_is_not_over_before_the_last_one():
    options = settle_options(VIERZEHN, {"deals": 2})
    deal = VIERZEHN.hand({"points": [10, 33, 13]}, [0, 0, 0], options)
    assert VIERZEHN.standing([deal], 3, options) == Outcome(over=False)
    assert VIERZEHN.standing([deal, deal], 3, options) == Outcome(True, frozenset({0}))
