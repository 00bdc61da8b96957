import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.rules import RULESETS, InvalidRules, Rules

CLASSIC = RULESETS["classic"]


# The named rulesets (docs/developers.md, "The engine's contract"; from the seeds).


def test_classic_has_the_club_numbers_of_seeds_000_and_002():
    assert (
        CLASSIC.knock_limit,
        CLASSIC.undercut_bonus,
        CLASSIC.gin_bonus,
        CLASSIC.big_gin_bonus,
        CLASSIC.box_bonus,
        CLASSIC.game_bonus,
        CLASSIC.target,
        CLASSIC.shutout,
        CLASSIC.shutout_bonus,
    ) == (10, 10, 20, None, 20, 100, 100, "bonus", 100)
    assert not (CLASSIC.layoff_on_gin or CLASSIC.ace_high or CLASSIC.round_the_corner)
    assert not CLASSIC.oklahoma


def test_cardgames_has_the_numbers_of_seed_001():
    rules = RULESETS["cardgames"]
    assert (
        rules.undercut_bonus,
        rules.gin_bonus,
        rules.big_gin_bonus,
        rules.box_bonus,
        rules.game_bonus,
        rules.shutout,
    ) == (25, 25, 31, 25, 100, "double")


def test_oklahoma_is_classic_with_the_up_card_limit():
    rules = RULESETS["oklahoma"]
    assert rules.oklahoma and rules.oklahoma_ace_gin_only
    assert rules.but(name="classic", oklahoma=False) == CLASSIC


# A ruleset that makes no sense is refused with every reason at once.


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"name": ""}, "a ruleset needs a name"),
        ({"name": "  "}, "a ruleset needs a name"),
        ({"name": 7}, "a ruleset needs a name"),
        ({"knock_limit": -1}, "the knock limit must be between 0 and 10"),
        ({"knock_limit": 11}, "the knock limit must be between 0 and 10"),
        ({"knock_limit": 2.5}, "the knock limit must be between 0 and 10"),
        ({"knock_limit": True}, "the knock limit must be between 0 and 10"),
        ({"gin_bonus": -1}, "gin bonus must be a whole number of 0 or more"),
        ({"undercut_bonus": "10"}, "undercut bonus must be a whole number of 0 or more"),
        ({"box_bonus": -5}, "box bonus must be a whole number of 0 or more"),
        ({"game_bonus": 1.0}, "game bonus must be a whole number of 0 or more"),
        ({"shutout_bonus": -1}, "shutout bonus must be a whole number of 0 or more"),
        ({"big_gin_bonus": -1}, "big gin bonus must be empty or a whole number of 0 or more"),
        ({"big_gin_bonus": "31"}, "big gin bonus must be empty or a whole number of 0 or more"),
        ({"target": 0}, "the target must be at least 1 point"),
        ({"target": "100"}, "the target must be at least 1 point"),
        ({"shutout": "triple"}, 'shutout must be "bonus" or "double"'),
        ({"layoff_on_gin": 1}, "layoff on gin must be true or false"),
        ({"oklahoma_ace_gin_only": "yes"}, "oklahoma ace gin only must be true or false"),
        ({"undercut_on_tie": None}, "undercut on tie must be true or false"),
    ],
)
def test_a_ruleset_that_makes_no_sense_is_refused(changes, problem):
    with pytest.raises(InvalidRules) as refused:
        CLASSIC.but(**changes)
    assert str(refused.value) == f"Invalid ruleset: {problem}."


def test_every_problem_is_named_at_once():
    with pytest.raises(InvalidRules) as refused:
        Rules(name="", target=0, ace_high="no")
    assert str(refused.value) == (
        "Invalid ruleset: a ruleset needs a name; the target must be at least 1 point; "
        "ace high must be true or false."
    )


@pytest.mark.parametrize(
    "changes",
    [
        {"knock_limit": 0},  # gin only
        {"knock_limit": 10},
        {"gin_bonus": 0, "undercut_bonus": 0, "box_bonus": 0, "game_bonus": 0},
        {"shutout_bonus": 0},
        {"big_gin_bonus": 0},
        {"big_gin_bonus": None},
        {"target": 1},
        {"shutout": "double"},
    ],
)
def test_the_edges_of_sense_are_accepted(changes):
    rules = CLASSIC.but(**changes)
    assert all(getattr(rules, name) == value for name, value in changes.items())


def test_invalid_rules_is_a_value_error():
    assert issubclass(InvalidRules, ValueError)


# Stored with a party: as plain data and back.


def test_the_rules_go_into_plain_data_and_back():
    data = RULESETS["cardgames"].as_dict()
    assert data["name"] == "cardgames"
    assert data["big_gin_bonus"] == 31
    assert data["shutout"] == "double"
    assert Rules.from_dict(data) == RULESETS["cardgames"]


def test_missing_settings_take_the_defaults():
    assert Rules.from_dict({"name": "classic"}) == CLASSIC
    assert Rules.from_dict({"target": 150}) == CLASSIC.but(target=150)


def test_unknown_settings_are_named():
    with pytest.raises(InvalidRules) as refused:
        Rules.from_dict({"name": "classic", "stock": 2, "jokers": True})
    assert str(refused.value) == "Invalid ruleset: unknown setting jokers, stock."


@given(
    knock_limit=st.integers(0, 10),
    gin_bonus=st.integers(0, 50),
    big_gin_bonus=st.none() | st.integers(0, 50),
    target=st.integers(1, 500),
    shutout=st.sampled_from(["bonus", "double"]),
    switches=st.lists(st.booleans(), min_size=5, max_size=5),
)
def test_any_sensible_ruleset_survives_storing(
    knock_limit, gin_bonus, big_gin_bonus, target, shutout, switches
):
    layoff_on_gin, ace_high, round_the_corner, oklahoma, ace_gin_only = switches
    rules = Rules(
        name="house",
        knock_limit=knock_limit,
        gin_bonus=gin_bonus,
        big_gin_bonus=big_gin_bonus,
        target=target,
        shutout=shutout,
        layoff_on_gin=layoff_on_gin,
        ace_high=ace_high,
        round_the_corner=round_the_corner,
        oklahoma=oklahoma,
        oklahoma_ace_gin_only=ace_gin_only,
    )
    assert Rules.from_dict(rules.as_dict()) == rules
