"""A round robin of another game at tables of three to six, through the
services: every two at one table exactly once where the field has such a
schedule, each round the schedule's tables, points by place as in the Swiss at
tables; any other field of one table or more plays a schedule planned ahead,
the organizer told how many pairs meet more than once and how many never; a
field smaller than one table refused at the start in the organizer's language,
with nothing written."""

import itertools
from collections import Counter

import pytest
from django.utils import translation

from scoring.engine.games import GAMES
from tests.factories import MembershipFactory
from tests.tournaments.test_table_tournaments import (
    blaue_vierzehn,
    close_and_pair,
    play_round,
    seatings,
    table_tournament,
    tables_of,
)
from tournaments import explanations, registration, rounds, withdrawals
from tournaments.models import Round, Tournament
from tournaments.records import NoTableSchedule, TournamentError
from tournaments.seating import rounds_pair_waiting
from tournaments.standings import standings_for

pytestmark = pytest.mark.django_db

#: A Chinchón hand by seat at tables of three and of two.
HANDS = {3: [0, 50, 100], 2: [0, 100], 4: [0, 20, 40, 100]}


def robin(club, count, committed, **more):
    return table_tournament(club, count, committed, format="round_robin", **more)


def entered(club, count, game="chinchon", size=4, **more):
    """A round robin of ``game`` at tables of ``size`` with ``count`` checked in,
    not started."""
    tournament = registration.tournament_create(
        club=club, name="Robin", game=game, table_size=size, format="round_robin", **more
    )
    players = [MembershipFactory(club=club).player for _ in range(count)]
    registration.entrant_register(tournament=tournament, players=players)
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    return tournament


def play_all(tournament, round, committed, count):
    """Every round played and closed; returns the meetings and the rounds' tables."""
    met, played = Counter(), []
    for number in range(1, count + 1):
        tables = seatings(round)
        played.append(tables)
        for table in tables:
            met.update(frozenset(pair) for pair in itertools.combinations(table, 2))
        play_round(round, HANDS)
        if number < count:
            round = close_and_pair(tournament, round, committed)
        else:
            rounds.round_close(round=round)
    return met, played


def test_nine_at_tables_of_three_meet_everyone_once_in_four_rounds(club, committed):
    tournament, round = robin(club, 9, committed, size=3)
    assert tournament.rounds == 4  # the affine plane of order 3: k + 1 rounds

    # Round 1 is the lot cut in order, kept for every later round.
    assert seatings(round) == [round.standings[i : i + 3] for i in (0, 3, 6)]
    assert round.how == Round.How.SCHEDULE
    met, _ = play_all(tournament, round, committed, 4)

    assert len(met) == 36 and set(met.values()) == {1}
    # The schedule is complete: no fifth round waits.
    assert tournament.round_set.count() == 4
    with pytest.raises(TournamentError, match="no round waiting"):
        rounds.round_pair_next(tournament=tournament)
    lines = standings_for(tournament).lines
    # Points by place as in the Swiss at tables: three tables of three (6 each) a round.
    assert sum(line.points for line in lines) == 4 * 3 * 6
    assert sum(line.score for line in lines) == 0
    assert all(line.games == 4 and not line.byes for line in lines)
    finished = rounds.tournament_finish(tournament=tournament)
    assert finished.status == Tournament.Status.FINISHED


def test_sixteen_at_tables_of_four_play_the_plane_of_gf4_in_five_rounds(club, committed):
    tournament, round = robin(club, 16, committed, size=4)
    assert tournament.rounds == 5

    met, played = play_all(tournament, round, committed, 5)

    assert len(met) == 120 and set(met.values()) == {1}
    for tables in played:
        assert [len(t) for t in tables] == [4, 4, 4, 4]
    # The crosstable's history is the same as the meetings counted.
    assert sum(line.points for line in standings_for(tournament).lines) == 5 * 4 * 12


def test_fifteen_at_tables_of_four_play_one_table_of_three_a_round(club, committed):
    tournament, round = robin(club, 15, committed, size=4)

    met, played = play_all(tournament, round, committed, 5)

    assert len(met) == 105 and set(met.values()) == {1}
    short = Counter()
    for tables in played:
        assert [len(t) for t in tables] == [4, 4, 4, 3]
        short.update(tables[-1])
    # Everyone plays exactly one round at the table of three.
    assert set(short.values()) == {1} and len(short) == 15


def test_each_table_is_explained_as_the_schedules(club, committed):
    tournament, round = robin(club, 9, committed, size=3)
    entrants = {e.pk: e for e in tournament.entrants.select_related("player")}

    sentences = explanations.round_explanation(round, entrants)
    assert len(sentences) == 3
    assert all("the round-robin schedule's table" in s for s in sentences)
    assert sentences[0].startswith("Table 1: ")
    with translation.override("de"):
        german = explanations.round_explanation(round, entrants)
    assert all("Tisch des Spielplans des Rundenturniers" in s for s in german)


@pytest.mark.parametrize(
    ("count", "size", "game", "least"),
    [
        (2, 4, "chinchon", 3),
        # Blaue Vierzehn is not played by two: no table of three plays short.
        (2, 3, "blaue_vierzehn", 3),
        (4, 6, "canasta", 5),
    ],
)
def test_a_field_smaller_than_one_table_is_refused_at_the_start_and_nothing_is_written(
    club, committed, count, size, game, least
):
    tournament = entered(club, count, game=game, size=size)

    with pytest.raises(NoTableSchedule) as refused:
        committed(rounds.round_start, tournament=tournament)

    message = str(refused.value)
    assert f"A round robin at tables of {size} needs at least {least} entrants" in message
    assert f"{count} are checked in" in message
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.REGISTRATION
    assert tournament.rounds is None and not tournament.round_set.exists()


def test_the_refusal_speaks_german(club, committed):
    tournament = entered(club, 2)

    with translation.override("de"), pytest.raises(NoTableSchedule) as refused:
        rounds.round_start(tournament=tournament)

    assert str(refused.value) == (
        "Ein Rundenturnier an Tischen zu 4 braucht mindestens 3 Teilnehmende. Eingecheckt sind 2."
    )


@pytest.mark.parametrize(
    ("count", "size", "game"),
    [(10, 4, "chinchon"), (12, 3, "chinchon"), (7, 3, "chinchon")],
)
def test_a_field_without_a_perfect_schedule_plays_one_planned_ahead_and_is_told_so(
    club, committed, count, size, game
):
    tournament = entered(club, count, game=game, size=size)
    warning = rounds.schedule_warning(tournament, count)
    assert f"No schedule seats every two of {count} entrants" in warning

    round = committed(rounds.round_start, tournament=tournament)
    tournament.refresh_from_db()
    # The rounds in which each could meet every other: ⌈(n − 1) / (k − 1)⌉.
    assert tournament.rounds == -(-(count - 1) // (size - 1))
    assert f"plays {tournament.rounds} rounds planned ahead" in warning
    met, played = play_all(tournament, round, committed, tournament.rounds)
    again = sum(times > 1 for times in met.values())
    never = count * (count - 1) // 2 - len(met)
    # The organizer was told plainly what the evening would make of the pairs.
    assert f"{again} pair" in warning and f"{never} pair" in warning
    for tables in played:
        seated = [pk for table in tables for pk in table]
        assert len(seated) == len(set(seated))
        assert all(len(table) in GAMES[game].table_sizes for table in tables)


def test_a_smaller_table_the_game_is_not_played_at_sits_players_out_instead(club, committed):
    # Blaue Vierzehn is not played by two: eight at tables of three play 3 and 3,
    # two sit out each round, never the same two.
    tournament, round = robin(club, 8, committed, game="blaue_vierzehn", size=3)
    assert "No schedule seats every two of 8" in rounds.schedule_warning(tournament, 8)
    assert [len(table) for table in seatings(round)] == [3, 3]
    assert round.tables.filter(bye=True).count() == 2
    lines = explanations.round_explanation(round, {e.pk: e for e in tournament.entrants.all()})
    assert sum("sits out, as planned" in line for line in lines) == 2


def test_the_planned_round_robin_is_offered_in_german(club):
    tournament = entered(club, 10)
    with translation.override("de"):
        warning = rounds.schedule_warning(tournament, 10)
    assert warning.startswith("Kein Spielplan setzt je zwei von 10 Teilnehmenden")


def test_checking_one_more_in_makes_the_field_a_perfect_one(club, committed):
    tournament = entered(club, 14)
    assert "No schedule seats every two of 14" in rounds.schedule_warning(tournament, 14)
    # Before anyone is checked in the desk says nothing yet.
    assert rounds.schedule_warning(tournament, 0) == ""
    late = registration.entrant_register(
        tournament=tournament, players=[MembershipFactory(club=club).player]
    )
    registration.entrant_check_in(entrant=late[0])

    assert rounds.schedule_warning(tournament, 15) == ""
    round = committed(rounds.round_start, tournament=tournament)
    round.refresh_from_db()
    assert [len(t) for t in seatings(round)] == [4, 4, 4, 3]


def test_an_entrant_withdrawn_before_the_start_is_not_counted(club, committed):
    tournament = entered(club, 10, size=3)
    withdrawals.entrant_withdraw(entrant=tournament.entrants.first())

    round = committed(rounds.round_start, tournament=tournament)
    round.refresh_from_db()

    assert [len(t) for t in seatings(round)] == [3, 3, 3]


def test_one_table_plays_the_rounds_it_agreed_with_the_seats_turned(club, committed):
    tournament, round = robin(club, 4, committed, rounds=3)
    assert tournament.rounds == 3

    first = seatings(round)
    play_round(round, HANDS)
    second = seatings(close_and_pair(tournament, round, committed))

    assert len(first) == 1 and sorted(first[0]) == sorted(second[0])
    assert second[0] == first[0][1:] + first[0][:1]


def test_one_table_without_a_number_of_rounds_plays_one(club, committed):
    tournament, _ = robin(club, 4, committed)

    assert tournament.rounds == 1


def test_one_table_one_short_plays_where_the_game_is_played_by_fewer(club, committed):
    _, round = robin(club, 3, committed)

    assert [len(t) for t in seatings(round)] == [3]


def test_more_rounds_than_the_schedule_are_cut_to_the_schedule_at_the_start(club, committed):
    tournament, _ = robin(club, 9, committed, size=3, rounds=7)

    assert tournament.rounds == 4


def test_a_withdrawn_entrants_table_plays_short_and_says_so(club, committed):
    tournament, round = robin(club, 9, committed, size=3)
    play_round(round, HANDS)
    gone = tables_of(round)[0].entrants[0]
    withdrawals.entrant_withdraw(entrant=gone)
    round = close_and_pair(tournament, round, committed)

    tables = seatings(round)
    assert sorted(len(t) for t in tables) == [2, 3, 3]
    assert gone.pk not in {pk for t in tables for pk in t}
    short = next(line for line in round.explanation if line["absent"])
    assert short["absent"] == [gone.pk]
    entrants = {e.pk: e for e in tournament.entrants.select_related("player")}
    sentence = explanations.round_explanation(round, entrants)[short["number"] - 1]
    assert f"one short: {gone} withdrew" in sentence


def test_a_table_left_too_short_for_the_game_sits_out_with_a_bye(club, committed):
    tournament, round = robin(
        club, 9, committed, game="blaue_vierzehn", size=3, game_options={"deals": 1}
    )
    for view in tables_of(round):
        blaue_vierzehn(view.table.party, [10, 16, 30])
    gone = tables_of(round)[0].entrants[0]
    withdrawals.entrant_withdraw(entrant=gone)
    round = close_and_pair(tournament, round, committed)

    views = tables_of(round)
    byes = [v.entrants[0] for v in views if v.table.bye]
    assert len(byes) == 2 and [len(t) for t in seatings(round)] == [3, 3]
    assert round.explanation[-1] == {"kind": "schedule_bye", "entrant": byes[-1].pk}
    entrants = {e.pk: e for e in tournament.entrants.select_related("player")}
    assert (
        "sits out: players of the round-robin schedule's table withdrew"
        in (explanations.round_explanation(round, entrants)[-1])
    )
    for view in views:
        if not view.table.bye:
            blaue_vierzehn(view.table.party, [10, 16, 30])
    rounds.round_close(round=round)
    lines = {line.entrant.pk: line for line in standings_for(tournament).lines}
    # A bye scores the middle of the scale at a full table, as in the Swiss.
    assert all(lines[e.pk].byes == 1 for e in byes)


def test_an_entrant_withdrawn_while_round_one_waits_leaves_his_seat_empty(club, committed):
    tournament = entered(club, 9, size=3)
    rounds.round_start(tournament=tournament)  # the pairing task is not sent yet
    withdrawals.entrant_withdraw(entrant=tournament.entrants.first())

    assert rounds_pair_waiting() == 1
    round = tournament.round_set.get(number=1)
    assert sorted(len(t) for t in seatings(round)) == [2, 3, 3]
    assert len(round.standings) == 9


def test_an_undone_round_is_seated_again_the_same(club, committed):
    tournament, round = robin(club, 9, committed, size=3)
    play_round(round, HANDS)
    round = close_and_pair(tournament, round, committed)
    before = seatings(round)

    rounds.round_undo(round=round)
    committed(rounds.round_pair_next, tournament=tournament)
    round.refresh_from_db()

    assert seatings(round) == before


def test_a_round_robin_takes_no_late_entrants(club, committed):
    tournament, _ = robin(club, 9, committed, size=3)

    with pytest.raises(TournamentError, match="no late entrants"):
        registration.entrant_register(
            tournament=tournament, players=[MembershipFactory(club=club).player]
        )


def test_a_knockout_of_another_game_is_still_refused(club):
    with pytest.raises(TournamentError, match="Swiss system, as a round robin"):
        registration.tournament_create(
            club=club, name="Cup", game="chinchon", table_size=4, format="knockout"
        )
