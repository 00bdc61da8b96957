"""Gin Rummy behind the same `Game` as the other games: its hands scored as
`score_hand` scores them, its parties standing as the formats' settlement says,
and a player's figures from the hands' facts."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.formats import FORMATS
from scoring.engine.games import ENTRY_GAMES, GAMES
from scoring.engine.games.game import EntryError, Figure, HandScore, PlayedHand, settle_options
from scoring.engine.games.gin_rummy import GAME as GIN
from scoring.engine.hands import score_hand
from scoring.engine.rules import RULESETS

CLASSIC = RULESETS["classic"].as_dict()


def test_gin_rummy_is_one_of_the_games_and_enters_its_hands_at_its_formats_tables():
    assert GAMES["gin_rummy"] is GIN
    assert set(GAMES) == {"gin_rummy", "chinchon", "canasta", "blaue_vierzehn", "cruzo"}
    assert "gin_rummy" not in ENTRY_GAMES
    assert GIN.formats is FORMATS


@pytest.mark.parametrize(
    ("players", "format", "sides"),
    [
        (2, "two", [(0,), (1,)]),
        (3, "rotation", [(0,), (1,), (2,)]),
        (4, "partners", [(0, 1), (2, 3)]),
        (5, "chouette", [(0,), (1, 2, 3, 4)]),
        (6, "partners", [(0, 1, 2), (3, 4, 5)]),
    ],
)
def test_each_table_size_sits_as_the_format_that_plays_it(players, format, sides):
    assert GIN.sides(players, settle_options(GIN, {})) == sides
    assert GIN.sides(players, {"format": format}) == sides


def test_a_format_chosen_for_the_wrong_number_is_refused_in_words():
    with pytest.raises(EntryError, match="played by 2 players, not 3"):
        GIN.sides(3, {"format": "two"})


def test_a_knock_scores_for_the_knocker_the_difference():
    scored = GIN.hand(
        {"ending": "knock", "knocker": 1, "knocker_deadwood": 4, "defender_deadwood": 30},
        [0, 0],
        CLASSIC,
    )
    assert scored.scores == (0, 26)
    assert scored.facts == {
        "kind": "knock",
        "winner": 1,
        "knocker": 1,
        "defender": 0,
        "knocker_deadwood": 4,
    }


def test_an_undercut_scores_for_the_defender_with_the_bonus():
    scored = GIN.hand(
        {"ending": "knock", "knocker": 0, "knocker_deadwood": 9, "defender_deadwood": 5},
        [0, 0],
        CLASSIC,
    )
    assert scored.scores == (0, 14)
    assert (scored.facts["kind"], scored.facts["winner"]) == ("undercut", 1)


def test_a_no_game_scores_nothing_for_anyone():
    scored = GIN.hand({"ending": "no_game"}, [10, 20, 30], CLASSIC)
    assert scored.scores == (0, 0, 0)
    assert scored.facts["winner"] is None


def test_a_rotation_hand_names_both_players_at_the_table():
    scored = GIN.hand(
        {
            "ending": "gin",
            "knocker": 2,
            "defender": 0,
            "knocker_deadwood": 0,
            "defender_deadwood": 12,
        },
        [0, 0, 0],
        CLASSIC,
    )
    assert scored.scores == (0, 0, 32)
    with pytest.raises(EntryError, match="knocker and the defender"):
        GIN.hand({"ending": "gin", "knocker": 2}, [0, 0, 0], CLASSIC)


@pytest.mark.parametrize(
    "entry",
    [
        {"ending": "knock", "knocker": 0, "knocker_deadwood": 11, "defender_deadwood": 30},
        {"ending": "gin", "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 30},
        {"ending": "knock", "knocker": 0, "knocker_deadwood": 4, "defender_deadwood": 999},
        {"ending": "knock", "knocker": 0, "knocker_deadwood": True, "defender_deadwood": 9},
        {"ending": "knock", "knocker": 0, "knocker_deadwood": "4", "defender_deadwood": 9},
        {"ending": "knock", "knocker": 0, "knocker_deadwood": -1, "defender_deadwood": 9},
        {"ending": "big_gin", "knocker": 0, "knocker_deadwood": 0, "defender_deadwood": 9},
        {"ending": "bogus"},
        {"ending": "knock", "knocker": 0, "defender": 0, "knocker_deadwood": 1},
        {"ending": "knock", "knocker": True, "knocker_deadwood": 1, "defender_deadwood": 9},
    ],
)
def test_an_entry_the_cards_could_not_have_made_is_refused_in_words(entry):
    with pytest.raises(EntryError) as refused:
        GIN.hand(entry, [0, 0], CLASSIC)
    assert refused.value.problems and all(refused.value.problems)


def test_oklahoma_takes_its_knock_limit_from_the_up_card():
    oklahoma = RULESETS["oklahoma"].as_dict()
    entry = {"ending": "knock", "knocker": 0, "knocker_deadwood": 5, "defender_deadwood": 20}
    with pytest.raises(EntryError):
        GIN.hand({**entry, "up_card": "4C"}, [0, 0], oklahoma)
    assert GIN.hand({**entry, "up_card": "7C"}, [0, 0], oklahoma).scores == (15, 0)


deadwood = st.integers(min_value=0, max_value=98)
two_player_hand = st.one_of(
    st.just({"ending": "no_game"}),
    st.builds(
        lambda side, k, d: {
            "ending": "knock",
            "knocker": side,
            "knocker_deadwood": k,
            "defender_deadwood": d,
        },
        st.integers(0, 1),
        st.integers(0, 10),
        deadwood,
    ),
    st.builds(
        lambda side, d: {
            "ending": "gin",
            "knocker": side,
            "knocker_deadwood": 0,
            "defender_deadwood": d,
        },
        st.integers(0, 1),
        deadwood,
    ),
)


def _play(entries, sides, options):
    """The hands scored one after the other, as a table enters them, until the
    game says the party is over."""
    scored = []
    for entry in entries:
        if GIN.standing(scored, sides, options).over:
            break
        scored.append(GIN.hand(entry, [0] * sides, options))
    return scored


@given(st.lists(two_player_hand, max_size=30), st.sampled_from(sorted(RULESETS)))
def test_a_two_player_party_stands_as_its_settlement_says(entries, ruleset):
    options = RULESETS[ruleset].as_dict()
    entries = [{**e, "up_card": "KS"} if ruleset == "oklahoma" else e for e in entries]
    scored = _play(entries, 2, options)
    rounds = [[_sheet_entry(hand)] for hand in scored]
    outcome = FORMATS["two"].outcome(RULESETS[ruleset], {0: [0], 1: [1]}, rounds)
    standing = GIN.standing(scored, 2, options)
    assert standing.over == outcome.finished
    if outcome.finished:
        expected = {outcome.winner} if outcome.winner is not None else {0, 1}
        assert standing.winners == expected
    for hand, entry in zip(scored, entries, strict=False):
        if entry["ending"] != "no_game":
            score = score_hand(
                RULESETS[ruleset],
                knocker_points=entry["knocker_deadwood"],
                defender_points=entry["defender_deadwood"],
                gin=entry["ending"] == "gin",
                knock_limit=10 if ruleset == "oklahoma" else None,
            )
            assert sum(hand.scores) == score.points


def _sheet_entry(hand: HandScore):
    return next(((side, p) for side, p in enumerate(hand.scores) if p), None)


@given(st.lists(st.tuples(st.integers(0, 1), st.integers(1, 60)), min_size=2, max_size=40))
def test_a_partnership_round_nets_its_tables(tables):
    """Two tables a round, their facts naming the round: the team column is the
    net of each round's tables, as `Partnerships.outcome` settles it."""
    rules = RULESETS["classic"].but(target=125)
    hands, rounds = [], []
    for n in range(0, len(tables) - 1, 2):
        pair = tables[n : n + 2]
        entries = [(side, points) for side, points in pair]
        candidate = [*rounds, entries]
        if FORMATS["partners"].outcome(rules, {0: [0, 1], 1: [2, 3]}, rounds).finished:
            break
        rounds = candidate
        for side, points in pair:
            scores = [0, 0]
            scores[side] = points
            hands.append(HandScore(tuple(scores), {"round": n // 2 + 1}))
    outcome = FORMATS["partners"].outcome(rules, {0: [0, 1], 1: [2, 3]}, rounds)
    standing = GIN.standing(hands, 2, rules.as_dict())
    assert standing.over == outcome.finished
    if outcome.finished and outcome.winner is not None:
        assert standing.winners == {outcome.winner}


def test_a_rotation_is_over_when_a_player_reaches_the_target_and_the_highest_wins():
    # Seed 000: the loser sits out, so 0 beats 1, 2 beats 0, 2 beats 1.
    hands = [HandScore((60, 0, 0), {}), HandScore((0, 0, 50), {}), HandScore((0, 0, 55), {})]
    standing = GIN.standing(hands, 3, CLASSIC)
    assert standing.over and standing.winners == {2}
    assert not GIN.standing(hands[:2], 3, CLASSIC).over


def test_a_players_figures_come_from_the_hands_facts():
    def played(side, kind, knocker, deadwood=None):
        return PlayedHand(
            side,
            (0, 0),
            {
                "kind": kind,
                "knocker": knocker,
                "defender": 1 - knocker,
                "knocker_deadwood": deadwood,
            },
        )

    hands = [
        played(0, "gin", 0, 0),
        played(0, "knock", 0, 6),
        played(0, "undercut", 0, 8),
        played(0, "undercut", 1, 4),
        played(0, "knock", 1, 2),
        PlayedHand(0, (0, 0), {"kind": "no_game"}),
    ]
    record = GIN.record(hands, [], 0)
    assert record == {
        "gins": Figure(1, 5),
        "knocks_won": Figure(1, 2),
        "undercuts_made": Figure(1, 2),
        "undercuts_suffered": Figure(1, 2),
        "deadwood_when_knocking": Figure(7.0, 2),
    }
    assert set(record) == set(GIN.figures)


@pytest.mark.parametrize("game", GAMES.values(), ids=GAMES.keys())
def test_every_game_names_each_figure_of_its_record(game):
    assert set(game.record([], [], 0)) == set(game.figures)


def test_tied_gin_rummy_entrants_draw_cards_and_table_games_order_ties_by_their_score():
    assert GIN.draws_for_ties
    assert not any(game.draws_for_ties for game in ENTRY_GAMES.values())


def test_gin_rummy_needs_one_confirmation_from_the_other_side():
    assert GIN.confirmations_needed([(0, 1), (2, 3)], 0) == 1
    assert GAMES["blaue_vierzehn"].confirmations_needed([(0,), (1,), (2,), (3,)], 0) == 2
    assert GAMES["chinchon"].confirmations_needed([(0,), (1,), (2,)], 1) == 2
    assert GAMES["canasta"].confirmations_needed([(0, 2), (1, 3)], 0) == 1
