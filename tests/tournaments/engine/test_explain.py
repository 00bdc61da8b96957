"""Every pairing says why, one line per pair and one for the bye."""

from tournaments.engine.explain import (
    BY_HAND,
    HAD_BYE,
    KEPT_APART,
    LOT,
    PLAYED,
    SCHEDULE,
    STRANDS,
    Line,
    Skip,
    describe,
    english_ordinal,
    explain_plain,
    explain_swiss,
)
from tournaments.engine.pairing import (
    Pairing,
    swiss_pairings,
    swiss_pairings_fewest_rematches,
)

TOTALS = {"Anna": 212, "Carl": 150, "Ben": 90, "Dora": -10, "Ed": -40, "Fay": -402}
RANKING = list(TOTALS)


def label(entrant):
    place = RANKING.index(entrant) + 1
    return f"{entrant} ({english_ordinal(place)}, {TOTALS[entrant]:+d})"


def test_the_leader_passing_over_an_old_opponent_says_so():
    played = [("Carl", "Anna")]
    pairing = swiss_pairings(RANKING[:4], played)

    lines = explain_swiss(RANKING[:4], pairing, played)

    assert lines[0] == Line("Anna", "Ben", skipped=(Skip("Carl", PLAYED),))
    assert describe(lines[0], label=label) == (
        "Anna (1st, +212) plays Ben (3rd, +90): Carl (2nd, +150) already played Anna"
    )
    assert describe(lines[1], label=label) == "Carl (2nd, +150) plays Dora (4th, -10)"


def test_kept_apart_pairs_are_named_as_such():
    kept_apart = [("Anna", "Carl")]
    pairing = swiss_pairings(RANKING[:4], kept_apart)

    lines = explain_swiss(RANKING[:4], pairing, [], kept_apart=kept_apart)

    assert lines[0].skipped == (Skip("Carl", KEPT_APART),)
    assert "Carl is kept apart from Anna" in describe(lines[0])


def test_an_entrant_passed_over_so_the_rest_can_be_paired_is_named():
    # Dora has met everyone but Anna and Carl: if Anna took Carl, Dora would be stuck.
    ranking = ["Anna", "Carl", "Ben", "Dora"]
    played = [("Dora", "Ben")]
    pairing = swiss_pairings(ranking, played)

    lines = explain_swiss(ranking, pairing, played)

    assert pairing.pairs == [("Anna", "Ben"), ("Carl", "Dora")]
    assert lines[0].skipped == (Skip("Carl", STRANDS),)
    assert describe(lines[0]) == ("Anna plays Ben: Carl would leave others without a new opponent")


def test_the_bye_line_says_lowest_placed_without_one_or_who_had_one():
    ranking = RANKING[:5]

    plain = explain_swiss(ranking, swiss_pairings(ranking), [])
    passed = explain_swiss(ranking, swiss_pairings(ranking, byes=["Ed"]), [], byes=["Ed"])

    assert describe(plain[-1]) == "Ed has the bye: lowest placed without one"
    assert passed[-1] == Line("Dora", None, skipped=(Skip("Ed", HAD_BYE),))
    assert describe(passed[-1]) == "Dora has the bye: Ed already had one"


def test_a_rematch_is_marked_as_one():
    ranking = ["A", "B"]
    pairing = swiss_pairings_fewest_rematches(ranking, [("A", "B")])

    lines = explain_swiss(ranking, pairing, [("A", "B")])

    assert lines[0].rematch
    assert describe(lines[0]) == "A plays B: a rematch: no pairing without one was possible"


def test_a_round_by_lot_says_so_and_lines_survive_a_round_trip():
    lines = explain_plain(Pairing(pairs=[("A", "B")], bye="C"), LOT)

    assert [describe(line) for line in lines] == [
        "A plays B: drawn by lot",
        "C has the bye: drawn by lot",
    ]
    assert [Line.from_dict(line.as_dict()) for line in lines] == lines


def test_ordinals():
    assert [english_ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
        "101st",
        "111th",
    ]


def test_lines_with_skips_and_a_rematch_survive_a_round_trip():
    lines = [
        Line("Anna", "Ben", skipped=(Skip("Carl", PLAYED), Skip("Dora", STRANDS))),
        Line("A", "B", rematch=True),
        Line("Ed", None, skipped=(Skip("Fay", HAD_BYE),)),
    ]
    assert [Line.from_dict(line.as_dict()) for line in lines] == lines


def test_an_entrant_below_the_bye_with_as_many_byes_would_strand_others():
    # The bye went to D, though E is placed lower: neither had a bye, so E was
    # passed over because taking it would have left others without a new opponent.
    lines = explain_swiss(
        ["A", "B", "C", "D", "E"], Pairing(pairs=[("A", "B"), ("C", "E")], bye="D"), []
    )
    assert lines[-1] == Line("D", None, skipped=(Skip("E", STRANDS),))
    assert describe(lines[-1]) == "D has the bye: E would leave others without a new opponent"


def test_the_ordinal_counts_the_last_two_digits():
    assert [english_ordinal(n) for n in (121, 1012, 1020)] == ["121st", "1012th", "1020th"]


def test_a_round_by_the_schedule_or_by_hand_says_so():
    pairing = Pairing(pairs=[("A", "B")], bye=None)
    assert describe(explain_plain(pairing, SCHEDULE)[0]) == "A plays B: round-robin schedule"
    assert describe(explain_plain(pairing, BY_HAND)[0]) == "A plays B: paired by hand"
