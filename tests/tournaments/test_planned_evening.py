"""An evening planned ahead (the format "planned", a mixer), through the
services: every round fixed when round 1 is paired and seated as planned; a
late entrant and a withdrawal re-plan the rounds not yet played, keeping those
played; a smaller table only where the game is played by that many; refused for
a game played two at a table."""

import itertools
from collections import Counter

import pytest

from tests.factories import MembershipFactory
from tests.tournaments.test_table_tournaments import (
    close_and_pair,
    play_round,
    seatings,
    table_tournament,
)
from tournaments import explanations, registration, rounds, withdrawals
from tournaments.models import Round
from tournaments.planned import plan_view
from tournaments.records import GameSettingsError
from tournaments.standings import standings_for

pytestmark = pytest.mark.django_db

HANDS = {3: [0, 50, 100], 4: [0, 20, 40, 100], 2: [0, 100]}


def planned(club, count, committed, **more):
    return table_tournament(club, count, committed, format="planned", **more)


def tables_planned(tournament, number):
    tournament.refresh_from_db()
    return tournament.plan[number - 1]["tables"]


def test_thirteen_at_tables_of_four_play_four_rounds_as_planned_meeting_nobody_twice(
    club, committed
):
    tournament, round = planned(club, 13, committed, rounds=4)
    assert len(tournament.plan) == 4
    assert round.how == Round.How.PLANNED
    met = Counter()
    for number in range(1, 5):
        # Every round is seated exactly as the plan made at the start said.
        assert seatings(round) == tables_planned(tournament, number)
        assert sorted(len(t) for t in seatings(round)) == [3, 3, 3, 4]
        for table in seatings(round):
            met.update(frozenset(p) for p in itertools.combinations(table, 2))
        play_round(round, HANDS)
        if number < 4:
            round = close_and_pair(tournament, round, committed)
    rounds.round_close(round=round)
    assert set(met.values()) == {1}
    view = plan_view(tournament)
    assert view.meetings.repeats == 0
    assert len(view.cards) == 13 and all(len(card["rounds"]) == 4 for card in view.cards)
    # Points by place, as the game's usual standings at tables.
    assert all(line.games == 4 for line in standings_for(tournament).lines)


def test_a_withdrawal_re_plans_the_rounds_not_played_and_keeps_round_one(club, committed):
    tournament, round = planned(club, 12, committed, rounds=3)
    first = tables_planned(tournament, 1)
    leaving = tournament.entrants.get(pk=first[0][0])
    withdrawals.entrant_withdraw(entrant=leaving)

    tournament.refresh_from_db()
    assert tournament.plan[0]["tables"] == first
    for later in tournament.plan[1:]:
        seated = [pk for table in later["tables"] for pk in table]
        assert leaving.pk not in seated and len(seated) == 11
    play_round(round, HANDS)
    round = close_and_pair(tournament, round, committed)
    assert seatings(round) == tables_planned(tournament, 2)


def test_a_late_entrant_is_planned_into_the_rounds_not_played(club, committed):
    tournament, round = planned(club, 12, committed, rounds=3)
    late = MembershipFactory(club=club).player
    (entrant,) = registration.entrant_register(tournament=tournament, players=[late])

    later = tables_planned(tournament, 2)
    assert entrant.pk in {pk for table in later for pk in table}
    play_round(round, HANDS)
    round = close_and_pair(tournament, round, committed)
    assert entrant.pk in {pk for table in seatings(round) for pk in table}


def test_a_smaller_table_the_game_is_not_played_at_makes_a_bye_instead(club, committed):
    # Blaue Vierzehn is played by three to six: ten at tables of three would sit
    # 3, 3, 2, 2, so one sits out each round, a different one each time.
    tournament, round = planned(club, 10, committed, game="blaue_vierzehn", size=3, rounds=3)
    byes = [entry["byes"] for entry in tournament.plan]
    assert all(len(out) == 1 for out in byes) and len({out[0] for out in byes}) == 3
    assert all(len(t) == 3 for entry in tournament.plan for t in entry["tables"])
    lines = explanations.round_explanation(round, {e.pk: e for e in tournament.entrants.all()})
    assert any("as planned" in line for line in lines)


def test_gin_rummy_is_not_planned_ahead(club):
    with pytest.raises(GameSettingsError, match="tables of three to six"):
        registration.tournament_create(club=club, name="Mixer", format="planned")


def test_rounds_not_set_are_those_in_which_each_could_meet_every_other(club, committed):
    tournament, _ = planned(club, 13, committed)
    assert tournament.rounds == 4  # ⌈12 / 3⌉


def test_the_rounds_are_cut_to_ten(club, committed):
    tournament, _ = planned(club, 8, committed, rounds=12)
    assert tournament.rounds == 10 and len(tournament.plan) == 10
