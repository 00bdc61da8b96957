"""The final stage's bracket: seeding, byes, matches of one or three games and the
places, brute-forced over every field of 2 to 64 qualifiers."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.engine.knockout import (
    FINAL,
    QUARTER_FINAL,
    SEMI_FINAL,
    bracket_size,
    final_places,
    first_round,
    games_to_win,
    match_winner,
    next_match,
    next_round,
    round_count,
    round_name,
    seed_order,
    third_place_playable,
)

FIELDS = range(2, 65)
SIZES = [2, 4, 8, 16, 32, 64]


def play(seeds, pick, *, third_place=False):
    """A whole bracket: ``pick(a, b)`` names each match's winner. Returns the
    rounds (each a list of matches), the round each entrant reached, the
    champion and the match for third place as (winner, loser) or None."""
    rounds = [first_round(seeds)]
    reached = {}
    semi_losers = []
    while True:
        number = len(rounds)
        winners, losers = [], []
        for first, second in rounds[-1]:
            reached[first] = number
            if second is None:
                winners.append(first)
                continue
            reached[second] = number
            winner = pick(first, second)
            winners.append(winner)
            losers.append(second if winner == first else first)
        if len(rounds[-1]) == 2:
            semi_losers = losers
        if len(winners) == 1:
            break
        rounds.append(next_round(winners))
    third = None
    if third_place:
        a, b = semi_losers
        winner = pick(a, b)
        third = (winner, b if winner == a else a)
    return rounds, reached, winners[0], third


# --------------------------------------------------------------------------- seeding


def test_a_bracket_of_eight_is_seeded_as_in_chess_and_tennis():
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seed_order(2) == [1, 2]
    assert seed_order(4) == [1, 4, 2, 3]


@pytest.mark.parametrize(("qualifiers", "size"), [(2, 2), (3, 4), (4, 4), (5, 8), (8, 8), (9, 16)])
def test_the_bracket_is_the_next_power_of_two(qualifiers, size):
    assert bracket_size(qualifiers) == size
    assert round_count(qualifiers) == size.bit_length() - 1


@pytest.mark.parametrize("qualifiers", [-1, 0, 1])
def test_fewer_than_two_qualifiers_make_no_knockout(qualifiers):
    with pytest.raises(ValueError, match="at least two"):
        bracket_size(qualifiers)


@pytest.mark.parametrize("size", [0, 1, 3, 6, 12])
def test_a_bracket_size_must_be_a_power_of_two(size):
    with pytest.raises(ValueError, match="power of two"):
        seed_order(size)


@pytest.mark.parametrize("size", SIZES)
def test_every_first_round_pair_adds_up_to_the_size_plus_one(size):
    order = seed_order(size)
    assert sorted(order) == list(range(1, size + 1))
    assert all(a + b == size + 1 for a, b in zip(order[::2], order[1::2], strict=True))
    # The better seed is listed first, so he is the first side of his match.
    assert all(a < b for a, b in zip(order[::2], order[1::2], strict=True))


@pytest.mark.parametrize("size", SIZES)
def test_the_best_seeds_are_kept_in_different_sections(size):
    """For every split of the bracket into 2^k sections, the best 2^k seeds sit in
    different ones: seeds 1 and 2 in different halves (so they meet in the final
    at the earliest), the best four in different quarters, and so on."""
    order = seed_order(size)
    sections = 2
    while sections <= size:
        width = size // sections
        section_of = {seed: place // width for place, seed in enumerate(order)}
        assert len({section_of[seed] for seed in range(1, sections + 1)}) == sections
        sections *= 2


@pytest.mark.parametrize("size", SIZES)
def test_when_the_better_seed_always_wins_each_round_pairs_best_with_worst_left(size):
    rounds, _, champion, _ = play(list(range(1, size + 1)), min)
    assert champion == 1
    for matches in rounds:
        left = 2 * len(matches)
        assert all(a + b == left + 1 for a, b in matches)
    assert rounds[-1] == [(1, 2)]


# --------------------------------------------------------------------------- byes


@pytest.mark.parametrize("qualifiers", FIELDS)
def test_first_round_places_every_qualifier_once_and_byes_go_to_the_best(qualifiers):
    seeds = list(range(1, qualifiers + 1))
    size = bracket_size(qualifiers)
    matches = first_round(seeds)
    assert len(matches) == size // 2
    drawn = [entrant for match in matches for entrant in match if entrant is not None]
    assert sorted(drawn) == seeds
    byes = [first for first, second in matches if second is None]
    assert sorted(byes) == list(range(1, size - qualifiers + 1))
    assert all(first is not None for first, _ in matches)  # no two byes meet
    assert all(a + (b or size + 1 - a) == size + 1 for a, b in matches)


def test_six_qualifiers_give_seeds_one_and_two_a_bye():
    assert first_round("ABCDEF") == [("A", None), ("D", "E"), ("B", None), ("C", "F")]


@pytest.mark.parametrize("qualifiers", FIELDS)
def test_a_simulated_bracket_has_one_champion_and_places_everybody_once(qualifiers):
    rng = random.Random(qualifiers)
    seeds = [f"player {n}" for n in rng.sample(range(1000), qualifiers)]
    rank = {entrant: n for n, entrant in enumerate(seeds, start=1)}
    for _ in range(20):
        third_place = third_place_playable(qualifiers) and rng.random() < 0.5
        rounds, reached, champion, third = play(
            seeds, lambda a, b: rng.choice((a, b)), third_place=third_place
        )
        assert len(rounds) == round_count(qualifiers)
        assert len(rounds[-1]) == 1
        # Byes only in the first round.
        assert all(None not in match for matches in rounds[1:] for match in matches)
        # Seeds 1 and 2 can only meet in the final.
        for matches in rounds[:-1]:
            assert all({rank[a], rank.get(b)} != {1, 2} for a, b in matches)

        places = final_places(seeds, reached, *(third or (None, None)), champion=champion)
        placed = [entrant for group in places for entrant in group]
        assert sorted(placed) == sorted(seeds)
        assert places[0] == [champion]
        assert len(places[1]) == 1
        assert set(rounds[-1][0]) == {champion, *places[1]}
        sizes = [len(group) for group in places]
        if third:
            assert places[2:4] == [[third[0]], [third[1]]]
            assert sizes[:4] == [1, 1, 1, 1]
        elif qualifiers >= 4:
            assert sizes[2] == 2
        # The losers of one round share a place, better seed first, and the
        # later the round, the better the place.
        for group in places[2:]:
            assert len({reached[e] for e in group}) == 1
            assert [rank[e] for e in group] == sorted(rank[e] for e in group)
        came = [reached[group[0]] for group in places]
        assert came == sorted(came, reverse=True)


@pytest.mark.parametrize("qualifiers", [2, 3, 8, 20])
def test_places_follow_the_seeds_when_the_better_seed_always_wins(qualifiers):
    seeds = list(range(1, qualifiers + 1))
    _, reached, champion, third = play(seeds, min, third_place=qualifiers >= 4)
    places = final_places(seeds, reached, *(third or (None, None)), champion=champion)
    assert [n for group in places for n in group] == seeds
    if qualifiers == 20:
        assert places == [[1], [2], [3], [4], list(range(5, 9)), list(range(9, 17)), seeds[16:]]


def test_semi_final_losers_share_third_without_a_match_for_it():
    seeds = list(range(1, 9))
    _, reached, champion, _ = play(seeds, max)
    # The worse seed always won: 8 beat 1, 5 beat 4, 7 beat 2, 6 beat 3; then 8 beat 5
    # and 7 beat 6; 8 beat 7 in the final.
    assert final_places(seeds, reached, champion=champion) == [[8], [7], [5, 6], [1, 2, 3, 4]]


def test_before_the_final_is_decided_its_players_share_the_first_place():
    seeds = list(range(1, 5))
    reached = {1: 2, 2: 2, 3: 1, 4: 1}
    assert final_places(seeds, reached) == [[1, 2], [3, 4]]


def test_places_refuse_what_a_bracket_cannot_give():
    seeds = list(range(1, 5))
    reached = {1: 2, 2: 2, 3: 1, 4: 1}
    with pytest.raises(ValueError, match="only they"):
        final_places(seeds, {1: 2, 2: 2, 3: 1})
    with pytest.raises(ValueError, match="round 3"):
        final_places(seeds, {**reached, 4: 3})
    with pytest.raises(ValueError, match="did not win a final"):
        final_places(seeds, reached, champion=3)
    with pytest.raises(ValueError, match="semi-final losers"):
        final_places(seeds, reached, 1, 3, champion=2)
    with pytest.raises(ValueError, match="winner and its loser"):
        final_places(seeds, reached, 3, None, champion=2)
    with pytest.raises(ValueError, match="twice"):
        final_places([1, 2, 2, 3], reached)


def test_a_match_for_third_place_needs_four_qualifiers():
    assert not third_place_playable(2)
    assert not third_place_playable(3)
    assert all(third_place_playable(n) for n in range(4, 65))


# --------------------------------------------------------------------------- rounds


@pytest.mark.parametrize("qualifiers", FIELDS[2:])
def test_the_winner_of_a_slot_plays_where_next_match_says(qualifiers):
    matches = first_round(list(range(1, qualifiers + 1)))
    winners = [first for first, _ in matches]
    following = next_round(winners)
    for slot, winner in enumerate(winners):
        next_slot, side = next_match(slot)
        assert following[next_slot][side] == winner
        assert next_match(slot ^ 1) == (next_slot, 1 - side)


@pytest.mark.parametrize("winners", [[], ["A"], ["A", "B", "C"], ["A", "A"], ["A", None]])
def test_a_round_pairs_an_even_number_of_distinct_winners(winners):
    with pytest.raises(ValueError):
        next_round(winners)


def test_an_entrant_cannot_be_drawn_twice_nor_be_a_bye():
    with pytest.raises(ValueError, match="twice"):
        first_round(["A", "B", "A"])
    with pytest.raises(ValueError, match="bye"):
        first_round(["A", None, "B"])


@pytest.mark.parametrize(
    ("matches", "name"),
    [(1, FINAL), (2, SEMI_FINAL), (4, QUARTER_FINAL), (8, "round of 16"), (32, "round of 64")],
)
def test_rounds_are_named_by_the_players_they_have_places_for(matches, name):
    assert round_name(matches) == name


@pytest.mark.parametrize("matches", [0, 3, 6])
def test_a_round_of_no_power_of_two_has_no_name(matches):
    with pytest.raises(ValueError):
        round_name(matches)


# --------------------------------------------------------------------------- a match


def test_a_match_is_won_with_one_game_of_one_or_two_of_three():
    assert games_to_win(1) == 1
    assert games_to_win(3) == 2
    for best_of in (0, 2, 5):
        with pytest.raises(ValueError, match="best of 1 or 3"):
            games_to_win(best_of)


def test_best_of_three_is_open_until_a_side_has_two():
    assert match_winner([], 3) is None
    assert match_winner([0], 3) is None
    assert match_winner([0, 1], 3) is None
    assert match_winner([0, 1, 1], 3) == 1
    assert match_winner([1, 1], 3) == 1
    assert match_winner([0], 1) == 0


games = st.lists(st.sampled_from([0, 1]), max_size=6)


@given(won_by=games, best_of=st.sampled_from([1, 3]))
def test_a_match_is_decided_by_the_first_side_to_reach_its_games(won_by, best_of):
    needed = games_to_win(best_of)
    for played in range(len(won_by) + 1):
        wins = [won_by[:played].count(side) for side in (0, 1)]
        before = [won_by[: max(played - 1, 0)].count(side) for side in (0, 1)]
        if max(before) >= needed:
            # A game after the match was decided is refused.
            with pytest.raises(ValueError, match="after the match was decided"):
                match_winner(won_by[:played], best_of)
            break
        winner = match_winner(won_by[:played], best_of)
        if max(wins) >= needed:
            assert winner == wins.index(needed)
            assert winner == won_by[played - 1]  # the deciding game's winner
            assert played <= best_of
        else:
            assert winner is None


@given(won_by=st.lists(st.integers(min_value=-2, max_value=3), min_size=1, max_size=3))
def test_only_sides_zero_and_one_win_games(won_by):
    if all(side in (0, 1) for side in won_by):
        return
    with pytest.raises(ValueError):
        match_winner(won_by, 3)


@pytest.mark.parametrize(
    ("refused", "message"),
    [
        (lambda: next_round(["A", "B", "C"]), "A round pairs an even number of winners (3)."),
        (lambda: next_match(-1), "A slot cannot be negative (-1)."),
        (lambda: round_name(6), "A knockout round has a power of two matches (6)."),
        (lambda: match_winner([0, 2], 3), "Game 2 was won by side 0 or 1, not 2."),
        (lambda: match_winner([1, 1, 0], 3), "Game 3 came after the match was decided."),
        (lambda: first_round(["A", "B", "A"]), "An entrant appears twice in the bracket."),
        (lambda: first_round(["A", None]), "None stands for a bye and cannot be an entrant."),
        (
            lambda: final_places([1, 2, 3, 4], {1: 2, 2: 2, 3: 1}),
            "Every qualifier, and only they, must have the round they reached.",
        ),
        (
            lambda: final_places([1, 2, 3, 4], {1: 2, 2: 2, 3: 1, 4: 1}, 3, None),
            "The match for third place needs its winner and its loser.",
        ),
        (
            lambda: final_places([1, 2, 3, 4], {1: 2, 2: 2, 3: 1, 4: 1}, 1, 3),
            "The match for third place is played by the semi-final losers.",
        ),
    ],
)
def test_each_refusal_says_what_is_wrong(refused, message):
    with pytest.raises(ValueError) as error:
        refused()
    assert str(error.value) == message


def test_a_match_for_third_place_between_one_entrant_is_refused_as_such():
    reached = {1: 2, 2: 2, 3: 1, 4: 1}
    with pytest.raises(ValueError, match="needs its winner and its loser"):
        final_places([1, 2, 3, 4], reached, 3, 3)


def test_a_match_for_third_place_without_semi_final_losers_is_refused():
    # Everyone drawn into the final's round: nobody lost a semi-final.
    with pytest.raises(ValueError, match="played by the semi-final losers"):
        final_places([1, 2, 3, 4], {1: 2, 2: 2, 3: 2, 4: 2}, 3, 4)
