"""`party_results` and `party_scores`: what tournaments read of a party, in any format."""

import pytest

from scoring.results import party_results
from scoring.scores import party_scores
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result
from tests.factories import start_party

pytestmark = pytest.mark.django_db

# Seed 000, "Beispiel einer Abrechnung": A scores 23, 27, 35, 19; B 32, 10.
SEED_SHEET = [(0, 23), (0, 27), (1, 32), (0, 35), (1, 10), (0, 19)]


def play_seed_sheet(party):
    seats = list(party.seats.order_by("position"))
    for number, (side, points) in enumerate(SEED_SHEET, start=1):
        result = Result("knock", knocker=side, knocker_deadwood=2, defender_deadwood=2 + points)
        hand_enter(seat=seats[side], number=number, entry=result)
        hand_confirm(seat=seats[1 - side], number=number, version=1)
    return seats


def test_a_finished_party_credits_the_margin_to_the_winner_and_debits_the_loser():
    party = start_party()
    a, b = play_seed_sheet(party)

    outcome = party_results([party.pk], cancelled=False)[party.pk]

    assert outcome.finished
    assert outcome.totals == (284, 82)
    assert outcome.plus_minus == {a.player_id: 202, b.player_id: -202}


def test_a_running_party_is_not_finished_and_nobody_is_plus_or_minus_yet():
    party = start_party(format="rotation", players=3)
    players = set(party.seats.values_list("player_id", flat=True))

    outcome = party_results([party.pk], cancelled=False)[party.pk]

    assert not outcome.finished
    assert outcome.plus_minus == dict.fromkeys(players, 0)


def test_parties_that_do_not_exist_are_left_out():
    party = start_party()
    assert set(party_results([party.pk, party.pk + 1000], cancelled=False)) == {party.pk}


@pytest.mark.parametrize("count", [1, 8])
def test_reading_outcomes_takes_three_queries_however_many_parties(
    django_assert_max_num_queries, count
):
    formats = [("two", 2), ("rotation", 3), ("chouette", 4), ("partners", 6)]
    parties = [start_party(*formats[i % len(formats)]) for i in range(count)]
    play_seed_sheet(parties[0])

    with django_assert_max_num_queries(3):
        outcomes = party_results([party.pk for party in parties], cancelled=False)

    assert len(outcomes) == count
    assert outcomes[parties[0].pk].finished


def test_party_scores_give_each_players_running_points_and_the_open_hand():
    waiting, disputed = start_party(), start_party()
    a, b = list(waiting.seats.order_by("position"))
    # The seed sheet's first three hands: A 23 + 27 = 50, B 32; a fourth one waits.
    for number, (side, points) in enumerate(SEED_SHEET[:3], start=1):
        result = Result("knock", knocker=side, knocker_deadwood=2, defender_deadwood=2 + points)
        hand_enter(seat=[a, b][side], number=number, entry=result)
        hand_confirm(seat=[a, b][1 - side], number=number, version=1)
    hand_enter(
        seat=a, number=4, entry=Result("knock", knocker=0, knocker_deadwood=2, defender_deadwood=9)
    )
    c, d = list(disputed.seats.order_by("position"))
    hand_enter(
        seat=c, number=1, entry=Result("knock", knocker=0, knocker_deadwood=2, defender_deadwood=9)
    )
    hand_enter(
        seat=d, number=1, entry=Result("knock", knocker=1, knocker_deadwood=2, defender_deadwood=9)
    )

    scores = party_scores([waiting.pk, disputed.pk])

    first = scores[waiting.pk]
    assert (first.hands, first.pending, first.disputed, first.finished) == (3, True, False, False)
    assert first.points == {a.player_id: 50, b.player_id: 32}
    assert first.plus_minus == {a.player_id: 0, b.player_id: 0}
    second = scores[disputed.pk]
    assert (second.hands, second.pending, second.disputed) == (0, False, True)
    assert second.points == {c.player_id: 0, d.player_id: 0}
