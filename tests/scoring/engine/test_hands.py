import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.cards import DECK, parse_card
from scoring.engine.hands import (
    HandScore,
    IllegalKnock,
    ImpossibleClaim,
    hand_winner,
    knock_limit_for_up_card,
    read_hands,
    score_hand,
    sheet_entry,
)
from scoring.engine.rules import RULESETS

CLASSIC = RULESETS["classic"]
CARDGAMES = RULESETS["cardgames"]
OKLAHOMA = RULESETS["oklahoma"]
NAMED = list(RULESETS.values())


# Seed 000 §§ 7–11 and seed 002 "Klopfen", "Gin": the club numbers.


def test_knocker_writes_the_difference_of_the_deadwood():
    # Seed 000: A knocks with 5, B has 17, so A writes 12.
    assert score_hand(CLASSIC, knocker_points=5, defender_points=17) == HandScore(
        "knocker", 12, "knock"
    )


def test_undercut_awards_difference_and_bonus_to_defender():
    # Seed 000: A knocks with 5, B lays off 8 of his 12 and keeps 4: 1 + 10 = 11.
    assert score_hand(CLASSIC, knocker_points=5, defender_points=4) == HandScore(
        "defender", 11, "undercut"
    )


@pytest.mark.parametrize("rules", NAMED, ids=lambda r: r.name)
def test_equal_deadwood_is_an_undercut_in_every_named_ruleset(rules):
    # Seed 000 "gleich oder niedriger", seed 001 "weniger oder gleich viele".
    score = score_hand(rules, knocker_points=7, defender_points=7)
    assert score == HandScore("defender", rules.undercut_bonus, "undercut")


def test_gin_writes_the_defenders_deadwood_and_the_gin_bonus():
    # Seed 000 and 002: 20 points plus the defender's deadwood; the defender writes nothing.
    assert score_hand(CLASSIC, knocker_points=0, defender_points=31, gin=True) == HandScore(
        "knocker", 51, "gin"
    )


def test_gin_is_never_undercut_even_against_no_deadwood():
    # Seed 001: "wenn der Klopfer jedoch Gin erreicht, gibt es niemals einen Undercut".
    assert score_hand(CARDGAMES, knocker_points=0, defender_points=0, gin=True) == HandScore(
        "knocker", 25, "gin"
    )


def test_cardgames_knock_writes_the_difference():
    # Seed 001: the knocker has 3, the defender 21, the knocker gets 21 - 3 = 18.
    assert score_hand(CARDGAMES, knocker_points=3, defender_points=21).points == 18


def test_cardgames_undercut_bonus_is_25():
    # Seed 001: the defender gets 25 plus the difference.
    assert score_hand(CARDGAMES, knocker_points=9, defender_points=2) == HandScore(
        "defender", 32, "undercut"
    )


def test_cardgames_big_gin_adds_31():
    # Seed 001: Big Gin bonus 31.
    assert score_hand(CARDGAMES, knocker_points=0, defender_points=14, big_gin=True) == HandScore(
        "knocker", 45, "big_gin"
    )


def test_big_gin_counts_as_gin_when_the_rules_do_not_know_it():
    assert score_hand(CLASSIC, knocker_points=0, defender_points=14, big_gin=True) == HandScore(
        "knocker", 34, "gin"
    )


def test_a_tie_scores_nothing_when_the_rules_say_so():
    rules = CLASSIC.but(name="no tie undercut", undercut_on_tie=False)
    score = score_hand(rules, knocker_points=6, defender_points=6)
    assert score == HandScore("knocker", 0, "knock")
    assert sheet_entry(score, knocker=0, defender=1) is None


def test_a_lower_defender_still_undercuts_when_ties_score_nothing():
    rules = CLASSIC.but(name="no tie undercut", undercut_on_tie=False)
    assert score_hand(rules, knocker_points=6, defender_points=5).kind == "undercut"


# Knock limit (seed 000 § 8, seed 002 Varianten: Oklahoma).


def test_knocking_with_more_than_ten_is_illegal():
    with pytest.raises(IllegalKnock, match="at most 10 points"):
        score_hand(CLASSIC, knocker_points=11, defender_points=40)


def test_knocking_with_exactly_the_limit_is_legal():
    assert score_hand(CLASSIC, knocker_points=10, defender_points=40).points == 30


def test_illegal_knock_is_a_value_error():
    assert issubclass(IllegalKnock, ValueError)
    assert issubclass(ImpossibleClaim, ValueError)


def test_oklahoma_limit_argument_overrides_the_rules():
    # Seed 002: "wird etwa eine Sieben aufgedeckt, so darf man nur mit sieben … klopfen".
    assert score_hand(OKLAHOMA, knocker_points=7, defender_points=9, knock_limit=7).points == 2
    with pytest.raises(IllegalKnock):
        score_hand(OKLAHOMA, knocker_points=8, defender_points=30, knock_limit=7)


def test_oklahoma_ace_lets_only_gin_end_the_hand():
    # Seed 002: "bei einem Ass [darf] das Spiel nur mit Gin beendet werden".
    with pytest.raises(IllegalKnock, match="Only gin"):
        score_hand(OKLAHOMA, knocker_points=1, defender_points=30, knock_limit=0)
    score = score_hand(OKLAHOMA, knocker_points=0, defender_points=30, gin=True, knock_limit=0)
    assert score.kind == "gin"


@pytest.mark.parametrize(
    ("up_card", "limit"), [("7H", 7), ("KD", 10), ("TS", 10), ("AS", 0), ("2C", 2), (5, 5)]
)
def test_oklahoma_up_card_sets_the_knock_limit(up_card, limit):
    # Seed 002, Varianten.
    assert knock_limit_for_up_card(OKLAHOMA, up_card) == limit


def test_an_ace_up_card_allows_a_knock_with_one_when_the_club_does_not_ask_for_gin():
    # Seed 002: only "meistens" does an ace mean gin only; without that rule the ace
    # is worth one point and so is the limit.
    lenient = OKLAHOMA.but(oklahoma_ace_gin_only=False)
    assert knock_limit_for_up_card(lenient, "AS") == 1
    assert knock_limit_for_up_card(lenient, 1) == 1
    assert knock_limit_for_up_card(lenient, "9C") == 9


def test_a_lower_house_limit_caps_the_up_card():
    # A club that knocks with at most 7 keeps 7 when a king (10) is turned up.
    assert knock_limit_for_up_card(OKLAHOMA.but(knock_limit=7), "KH") == 7
    assert knock_limit_for_up_card(OKLAHOMA.but(knock_limit=7), "6H") == 6


def test_up_card_does_not_change_the_limit_outside_oklahoma():
    assert knock_limit_for_up_card(CLASSIC, parse_card("3H")) == 10


@pytest.mark.parametrize("value", [0, 11, -1])
def test_up_card_value_must_be_a_card_value(value):
    with pytest.raises(ValueError, match=f"^A card's value is between 1 and 10, not {value}.$"):
        knock_limit_for_up_card(OKLAHOMA, value)


def test_an_up_card_value_of_one_or_ten_is_a_card():
    assert knock_limit_for_up_card(OKLAHOMA, 10) == 10
    assert knock_limit_for_up_card(OKLAHOMA.but(oklahoma_ace_gin_only=False), 1) == 1


UP_CARDS = st.sampled_from(DECK)


@given(
    up_card=UP_CARDS,
    ace_gin_only=st.booleans(),
    house=st.integers(0, 10),
    knocker=st.integers(0, 10),
    defender=st.integers(0, 60),
)
def test_under_oklahoma_the_up_card_decides_who_may_knock(
    up_card, ace_gin_only, house, knocker, defender
):
    # Seed 002, Varianten: "wird etwa eine Sieben aufgedeckt, so darf man nur mit
    # sieben oder weniger Punkten klopfen … bei einem Ass … nur mit Gin".
    rules = OKLAHOMA.but(oklahoma_ace_gin_only=ace_gin_only, knock_limit=house)
    worth = 1 if up_card.rank == 1 else min(up_card.rank, 10)
    limit = 0 if up_card.rank == 1 and ace_gin_only else min(worth, house)
    assert knock_limit_for_up_card(rules, up_card) == limit
    assert knock_limit_for_up_card(rules, str(up_card)) == limit
    assert knock_limit_for_up_card(rules.but(oklahoma=False), up_card) == house
    legal = knocker <= limit
    try:
        score_hand(rules, knocker_points=knocker, defender_points=defender, knock_limit=limit)
    except IllegalKnock:
        assert not legal
    else:
        assert legal


# Input errors a player can act on.


def test_gin_with_deadwood_is_an_impossible_claim():
    with pytest.raises(ImpossibleClaim, match="Gin means no deadwood, but 4 points"):
        score_hand(CLASSIC, knocker_points=4, defender_points=20, gin=True)


def test_big_gin_with_deadwood_is_an_impossible_claim():
    with pytest.raises(ImpossibleClaim):
        score_hand(CARDGAMES, knocker_points=2, defender_points=20, big_gin=True)


@pytest.mark.parametrize(
    "points",
    [{"knocker_points": -1, "defender_points": 5}, {"knocker_points": 3, "defender_points": -2}],
)
def test_negative_deadwood_is_rejected(points):
    with pytest.raises(ValueError, match="whole number of 0 or more"):
        score_hand(CLASSIC, **points)


@pytest.mark.parametrize("bad", [2.5, "7", True, None])
def test_deadwood_must_be_a_whole_number(bad):
    with pytest.raises(ValueError, match="deadwood"):
        score_hand(CLASSIC, knocker_points=bad, defender_points=5)


@pytest.mark.parametrize(
    ("numbers", "message"),
    [
        (
            {"knocker_points": -1},
            "The knocker's deadwood must be a whole number of 0 or more, not -1.",
        ),
        (
            {"defender_points": "7"},
            "The defender's deadwood must be a whole number of 0 or more, not '7'.",
        ),
        (
            {"knocker_missing_cards": -1},
            "The knocker's missing cards must be a whole number of 0 or more, not -1.",
        ),
        (
            {"defender_missing_cards": 1.5},
            "The defender's missing cards must be a whole number of 0 or more, not 1.5.",
        ),
        ({"knock_limit": -3}, "The knock limit must be a whole number of 0 or more, not -3."),
        (
            {"knocker_points": 12},
            "A knock is allowed with at most 10 points of deadwood, but 12 were entered.",
        ),
        (
            {"knocker_points": 2, "knock_limit": 0},
            "Only gin may end this hand, but the knocker has 2 points of deadwood.",
        ),
        (
            {"knocker_points": 0, "gin": True, "knocker_missing_cards": 1},
            "Gin needs all ten cards in melds, but the knocker is short.",
        ),
        (
            {"defender_missing_cards": 1, "defender_too_many_cards": True},
            "The defender cannot have too few and too many cards at once.",
        ),
    ],
)
def test_a_player_is_told_exactly_what_is_wrong_with_the_numbers(numbers, message):
    # These messages reach the players' phones as they are.
    with pytest.raises(ValueError) as refused:
        score_hand(CLASSIC, **{"knocker_points": 3, "defender_points": 20, **numbers})
    assert str(refused.value) == message


# Irregularities, seed 000 § 14.


def test_accepted_illegal_knock_scores_as_a_normal_knock():
    # § 14.7: the defender may accept a knock with more than ten points.
    score = score_hand(CLASSIC, knocker_points=14, defender_points=30, illegal_knock_accepted=True)
    assert score == HandScore("knocker", 16, "knock")


def test_accepted_illegal_knock_can_still_be_undercut():
    # § 14.8: once the defender has laid down, the knock counts as accepted.
    score = score_hand(CLASSIC, knocker_points=14, defender_points=12, illegal_knock_accepted=True)
    assert score == HandScore("defender", 12, "undercut")


def test_knocker_missing_a_card_counts_ten_for_it():
    # § 14.11: "Hat der Klopfer weniger als zehn Karten, so wird jede fehlende Karte mit
    # 10 Punkten bewertet." 5 deadwood + 10 for the missing card against 22.
    score = score_hand(CLASSIC, knocker_points=5, defender_points=22, knocker_missing_cards=1)
    assert score == HandScore("knocker", 7, "knock")


def test_knocker_missing_cards_is_an_accepted_irregular_knock_not_checked_against_the_limit():
    # § 14.11 refers to § 14.7/8: the short knock is only scored once accepted.
    score = score_hand(CLASSIC, knocker_points=8, defender_points=12, knocker_missing_cards=1)
    assert score == HandScore("defender", 16, "undercut")


def test_knocker_missing_cards_cannot_have_gin():
    # § 14.11: gin means all ten cards in melds.
    with pytest.raises(ImpossibleClaim, match="short"):
        score_hand(CLASSIC, knocker_points=0, defender_points=12, gin=True, knocker_missing_cards=1)


def test_defender_missing_cards_count_ten_each():
    # § 14.12: "hat der Gegner weniger als zehn Karten, so wird jede fehlende Karte mit
    # 10 Punkten bewertet." 3 deadwood + 20 for two missing cards against a knock with 5.
    score = score_hand(CLASSIC, knocker_points=5, defender_points=3, defender_missing_cards=2)
    assert score == HandScore("knocker", 18, "knock")


def test_defender_missing_cards_count_on_gin_too():
    # § 14.12 applies to every knock, gin included.
    score = score_hand(
        CLASSIC, knocker_points=0, defender_points=4, gin=True, defender_missing_cards=1
    )
    assert score == HandScore("knocker", 34, "gin")


def test_defender_with_too_many_cards_and_more_deadwood_loses_as_usual():
    # § 14.13: "Sollte er mehr Schlechtpunkte als der Klopfer besitzen, so schreibt der
    # Klopfer wie üblich die Differenz".
    score = score_hand(CLASSIC, knocker_points=6, defender_points=20, defender_too_many_cards=True)
    assert score == HandScore("knocker", 14, "knock")


def test_defender_with_too_many_cards_and_less_deadwood_voids_the_hand():
    # § 14.13: "hat er aber weniger Schlechtpunkte als der Klopfer, so gilt die Partie
    # als unentschieden, und es wird neu geteilt."
    score = score_hand(CLASSIC, knocker_points=6, defender_points=2, defender_too_many_cards=True)
    assert score == HandScore(None, 0, "void")
    assert score.void
    assert sheet_entry(score, knocker=0, defender=1) is None


def test_defender_with_too_many_cards_and_equal_deadwood_voids_the_hand():
    # § 14.13 scores only "mehr Schlechtpunkte"; the player at fault wins no undercut.
    score = score_hand(CLASSIC, knocker_points=6, defender_points=6, defender_too_many_cards=True)
    assert score.void


def test_gin_against_a_defender_with_too_many_cards_is_never_void():
    # § 14.13 "wie üblich": gin is scored as gin, and gin is never undercut.
    score = score_hand(
        CLASSIC, knocker_points=0, defender_points=0, gin=True, defender_too_many_cards=True
    )
    assert score == HandScore("knocker", 20, "gin")


def test_defender_cannot_have_too_few_and_too_many_cards():
    with pytest.raises(ValueError, match="too few and too many"):
        score_hand(
            CLASSIC,
            knocker_points=3,
            defender_points=9,
            defender_missing_cards=1,
            defender_too_many_cards=True,
        )


# Sheet entries.


def test_sheet_entry_credits_the_winner():
    knock = HandScore("knocker", 12, "knock")
    undercut = HandScore("defender", 11, "undercut")
    assert sheet_entry(knock, knocker=1, defender=0) == (1, 12)
    assert sheet_entry(undercut, knocker=1, defender=0) == (0, 11)
    assert sheet_entry(undercut, knocker="ann", defender="bob") == ("bob", 11)


def test_hand_winner_of_a_no_game_or_empty_hand_is_nobody():
    assert hand_winner(None) is None
    assert hand_winner((1, 0)) is None
    assert hand_winner((1, 9)) == 1


def test_read_hands_accepts_lists_and_tuples():
    assert read_hands([None, [0, 5], (1, 7)]) == [None, (0, 5), (1, 7)]


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ((2, 5), "Hand 1: the side must be 0 or 1, not 2"),
        ((0, -5), "Hand 1: points must be a whole number"),
        ((0, 2.5), "Hand 1: points must be a whole number"),
        ((True, 5), "the side must be"),
        ("05", "write None for a no-game"),
        ((0, 1, 2), "write None for a no-game"),
        (7, "write None for a no-game"),
    ],
)
def test_read_hands_names_the_bad_item(item, message):
    with pytest.raises(ValueError, match=message):
        read_hands([item])


@pytest.mark.parametrize("hands", ["23 27", None, b"23"])
def test_a_sheet_that_is_no_list_of_hands_is_refused(hands):
    with pytest.raises(ValueError) as refused:
        read_hands(hands)
    assert str(refused.value) == "The hands must be a list of None or (side, points) items."


def test_read_hands_for_three_players_allows_player_two():
    assert read_hands([(2, 5)], players=3) == [(2, 5)]
    with pytest.raises(ValueError, match="0, 1 or 2"):
        read_hands([(3, 5)], players=3)


# Properties: score_hand against a second, literal reading of the rules.


def reference_score(rules, knocker, defender, gin, big_gin):
    """Seed 000 §§ 9–11 and seed 001 written as a table of cases."""
    if big_gin and rules.big_gin_bonus is not None:
        return ("knocker", defender + rules.big_gin_bonus, "big_gin")
    if gin or big_gin:
        return ("knocker", defender + rules.gin_bonus, "gin")
    if defender > knocker:
        return ("knocker", defender - knocker, "knock")
    if defender < knocker:
        return ("defender", knocker - defender + rules.undercut_bonus, "undercut")
    if rules.undercut_on_tie:
        return ("defender", rules.undercut_bonus, "undercut")
    return ("knocker", 0, "knock")


rulesets = st.sampled_from([*NAMED, CLASSIC.but(name="strict", undercut_on_tie=False)])


@given(rulesets, st.integers(0, 10), st.integers(0, 100))
def test_a_knock_scores_as_the_rule_table_says(rules, knocker, defender):
    score = score_hand(rules, knocker_points=knocker, defender_points=defender)
    assert (score.winner, score.points, score.kind) == reference_score(
        rules, knocker, defender, False, False
    )


@given(rulesets, st.integers(0, 100), st.booleans())
def test_gin_is_never_undercut(rules, defender, big):
    score = score_hand(rules, knocker_points=0, defender_points=defender, gin=not big, big_gin=big)
    assert score.winner == "knocker"
    assert score.kind in ("gin", "big_gin")
    assert (score.winner, score.points, score.kind) == reference_score(
        rules, 0, defender, not big, big
    )


@given(rulesets, st.integers(0, 60), st.integers(0, 100), st.integers(0, 10))
def test_a_knock_above_the_limit_always_raises_and_below_never(rules, knocker, defender, limit):
    if knocker > limit:
        with pytest.raises(IllegalKnock):
            score_hand(rules, knocker_points=knocker, defender_points=defender, knock_limit=limit)
    else:
        score = score_hand(
            rules, knocker_points=knocker, defender_points=defender, knock_limit=limit
        )
        assert score.points >= 0


@given(rulesets, st.integers(0, 30), st.integers(0, 100))
def test_accepted_illegal_knocks_follow_the_same_table(rules, knocker, defender):
    score = score_hand(
        rules, knocker_points=knocker, defender_points=defender, illegal_knock_accepted=True
    )
    assert (score.winner, score.points, score.kind) == reference_score(
        rules, knocker, defender, False, False
    )


@given(
    rulesets,
    st.integers(0, 10),
    st.integers(0, 100),
    st.integers(0, 3),
    st.integers(0, 3),
)
def test_missing_cards_count_as_ten_points_of_deadwood(
    rules, knocker, defender, knocker_short, defender_short
):
    score = score_hand(
        rules,
        knocker_points=knocker,
        defender_points=defender,
        knocker_missing_cards=knocker_short,
        defender_missing_cards=defender_short,
    )
    expected = reference_score(
        rules, knocker + 10 * knocker_short, defender + 10 * defender_short, False, False
    )
    assert (score.winner, score.points, score.kind) == expected


@given(rulesets, st.integers(0, 10), st.integers(0, 100))
def test_a_defender_with_too_many_cards_never_wins(rules, knocker, defender):
    score = score_hand(
        rules, knocker_points=knocker, defender_points=defender, defender_too_many_cards=True
    )
    assert score.winner != "defender"
    assert score.void == (defender <= knocker)


def test_an_illegal_knock_says_the_limit_and_the_points():
    # Seed 000 § 8: the classic limit is 10; a knock with 11 is refused.
    with pytest.raises(IllegalKnock) as refused:
        score_hand(CLASSIC, knocker_points=11, defender_points=20)
    assert (refused.value.limit, refused.value.points) == (10, 11)
