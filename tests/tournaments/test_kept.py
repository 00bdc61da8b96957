"""The kept standings (`tournaments.kept`) always equal the standings recomputed
from every table and party (`standings.standings_from`): after random results,
no-shows taken back, hands corrected and voided after the party ended, rounds
closed and taken back, the bye's and forfeit's values changed, whether the
builder kept the moved seats or a reader works them out. And the public board,
whose closed rounds a process keeps between builds, always equals one built anew."""

import contextlib
import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from clubs.models import Player
from scoring import errors
from scoring.models import Hand, Party
from scoring.selectors import state_for
from scoring.services.hands import hand_confirm, hand_decide, hand_enter
from scoring.services.knocks import Result
from tests.factories import UserFactory
from tests.tournaments.conftest import play_out
from tests.tournaments.test_table_tournaments import FOUR, play_chinchon, table_tournament
from tournaments import board, rounds, tables
from tournaments.history import tournament_history
from tournaments.kept import keep_results
from tournaments.models import KeptResult, Round, Table, Tournament
from tournaments.standings import kept_standings, standings_for, standings_from

pytestmark = pytest.mark.django_db


def both(tournament):
    """The kept and the recomputed standings, as plain lines, provisional and not."""
    tournament = Tournament.objects.get(pk=tournament.pk)
    entrants = list(tournament.entrants.select_related("player").order_by("player__name", "pk"))
    found = []
    for live in (False, True):
        rounds_ = list(tournament.round_set.order_by("number"))
        kept = kept_standings(tournament, entrants, rounds_, live=live)
        history = tournament_history(tournament)
        recomputed = standings_from(tournament, entrants, rounds_, history, live=live)
        found.append((_plain(kept), _plain(recomputed)))
    return found


def _plain(standings):
    return [
        (x.place, x.shared, x.entrant.pk, x.points, x.games, x.won, x.byes, x.score, x.draw)
        for x in standings.lines
    ]


def assert_kept_equals_recomputed(tournament):
    for kept, recomputed in both(tournament):
        assert kept == recomputed
    # The public board, its closed rounds as this process kept them from earlier
    # builds, equals one built with none kept.
    tournament = Tournament.objects.get(pk=tournament.pk)
    warm = board.build_board(tournament)
    kept = dict(board._closed)
    board._closed.clear()
    try:
        cold = board.build_board(tournament)
    finally:
        board._closed.update(kept)
    assert warm == cold
    assert warm.crosstable() == cold.crosstable()


def correct_first_hand(hand, organizer, rng):
    """The organizer corrects the hand, or voids it; a correction that would end
    the party before its later hands is refused, and left so."""
    result = None
    if rng.random() < 0.8:
        knocker = rng.choice(list(hand.party.seats.order_by("position"))).position
        result = Result("knock", knocker, rng.randint(0, 10), rng.randint(11, 90))
    with contextlib.suppress(errors.EntryError):
        hand_decide(hand=hand, user=organizer, entry=result, reason="miscounted")


@settings(
    max_examples=4,
    deadline=None,
    # A whole tournament an example: a failure prints its seed rather than shrink.
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**32), count=st.integers(5, 8))
def test_kept_standings_equal_the_recomputed_ones_whatever_happens(started, committed, seed, count):
    rng = random.Random(seed)
    organizer = UserFactory()
    tournament, round = started([f"P{i}" for i in range(count)], bye_value=25, forfeit_value=60)
    while True:
        for view in tables.round_tables(round):
            if view.table.bye:
                continue
            table, first, second = view.table, *view.entrants
            if rng.random() < 0.25:
                table = tables.table_forfeit(table=table, absent=rng.choice([first, second]))
                if rng.random() < 0.5:
                    tables.table_forfeit_undo(table=table, user=organizer)
                    table.refresh_from_db()
                else:
                    continue
            play_out(table, rng.choice([first, second]), deadwood=rng.randint(10, 60))
            if rng.random() < 0.5:
                keep_results(tournament)  # the builder ran in between, or not
            assert_kept_equals_recomputed(tournament)
            if rng.random() < 0.4:
                # The organizer corrects the first hand after the party ended, or voids it.
                correct_first_hand(Hand.objects.get(party=table.party, number=1), organizer, rng)
                assert_kept_equals_recomputed(tournament)
        for view in tables.round_tables(round):
            if view.table.party is not None and view.table.absent is None:
                play_on(view.table.party, rng)  # a voided hand reopened it
        assert_kept_equals_recomputed(tournament)
        rounds.round_close(round=round)
        assert_kept_equals_recomputed(tournament)
        # Every table of the round may have been forfeited: then no hand to correct.
        played = Table.objects.filter(
            round__tournament=tournament, party__isnull=False, absent__isnull=True
        )
        if rng.random() < 0.5 and played.exists():
            # Later, a hand of a closed round is corrected (the board kept that round).
            table = rng.choice(list(played.order_by("pk")))
            correct_first_hand(Hand.objects.get(party=table.party, number=1), organizer, rng)
            assert_kept_equals_recomputed(tournament)
        if rng.random() < 0.3:
            # A player's name is put right: every round shows the new one.
            entrant = rng.choice(list(tournament.entrants.order_by("pk")))
            Player.objects.filter(pk=entrant.player_id).update(name=f"Renamed {rng.random()}")
            assert_kept_equals_recomputed(tournament)
        if rng.random() < 0.3:
            Tournament.objects.filter(pk=tournament.pk).update(
                bye_value=rng.randint(0, 50), forfeit_value=rng.randint(0, 80)
            )
            assert_kept_equals_recomputed(tournament)
        if not tournament.round_set.filter(number=round.number + 1).exists():
            break  # the last round
        committed(rounds.round_pair_next, tournament=tournament)
        round = tournament.round_set.order_by("-number").first()
        if round.status != Round.Status.PLAYING:
            break
        if rng.random() < 0.2:
            rounds.round_undo(round=round, user=organizer)
            assert_kept_equals_recomputed(tournament)
            committed(rounds.round_pair_next, tournament=tournament)
            round = tournament.round_set.order_by("-number").first()
        assert_kept_equals_recomputed(tournament)
    keep_results(tournament)
    assert_kept_equals_recomputed(tournament)


def play_on(party, rng):
    """Plays a party reopened by a voided hand on to its end: gin by either side."""
    party.refresh_from_db()
    while party.status == Party.Status.RUNNING:
        seats = list(party.seats.order_by("position"))
        mine = rng.choice(seats)
        theirs = next(s for s in seats if s.pk != mine.pk)
        number = state_for(party)[0].number
        result = Result("gin", knocker=mine.position, knocker_deadwood=0, defender_deadwood=50)
        entered = hand_enter(seat=mine, number=number, entry=result).hand
        hand_confirm(seat=theirs, number=number, version=entered.version)
        party.refresh_from_db()


def test_each_moved_seat_is_kept_once_and_the_standings_read_them(
    started, committed, django_assert_max_num_queries
):
    tournament, round = started(["Anna", "Ben", "Carl", "Dora", "Emil"], bye_value=20)
    for view in tables.round_tables(round):
        if not view.table.bye:
            play_out(view.table, view.entrants[0], deadwood=40)
    # Each seat was kept when the round was paired, and every played one moved since.
    assert KeptResult.objects.filter(seating__round=round).count() == 5
    assert keep_results(tournament) == 4
    assert keep_results(tournament) == 0  # nothing moved since
    rounds.round_close(round=round)
    assert keep_results(tournament) == 0  # a round's status is read with the sums
    lines = [(x.points, x.games, x.won, x.byes) for x in standings_for(tournament).lines]
    won, bye, lost = lines[:2], lines[2], lines[3:]
    assert bye == (20, 1, 0, 1)
    assert won[0] == won[1] and won[0][0] > 20 and won[0][1:] == (1, 1, 0)
    assert lost == [(-won[0][0], 1, 0, 0)] * 2
    assert_kept_equals_recomputed(tournament)
    # The entrants, the rounds, what is stale, the sums: however many tables.
    with django_assert_max_num_queries(4):
        standings_for(tournament)


def test_a_seat_kept_from_an_older_state_of_its_table_is_worked_out_again(started, committed):
    tournament, round = started(["Anna", "Ben", "Carl", "Dora"])
    first = next(v for v in tables.round_tables(round) if not v.table.bye)
    play_out(first.table, first.entrants[0], deadwood=40)
    keep_results(tournament)
    # A kept row that says something other than its table (a keeping lost midway):
    # the standings do not read it until it is worked out again.
    KeptResult.objects.filter(seating__table=first.table).update(points=999, changes=0)
    assert 999 not in [x.points for x in standings_for(tournament).lines]
    assert_kept_equals_recomputed(tournament)
    assert keep_results(tournament) == 2


def test_kept_standings_of_a_tournament_at_tables_equal_the_recomputed_ones(club, committed):
    tournament, round = table_tournament(club, 9, committed)
    for view in tables.round_tables(round):
        if not view.table.bye:
            size = len(view.entrants)
            play_chinchon(view.table.party, [*FOUR[: size - 1], 100])
            assert_kept_equals_recomputed(tournament)
    rounds.round_close(round=round)
    assert_kept_equals_recomputed(tournament)
    committed(rounds.round_pair_next, tournament=tournament)
    assert_kept_equals_recomputed(tournament)


def test_after_a_confirmed_hand_the_builder_has_kept_its_table(started, confirmed):
    tournament, round = started(["Anna", "Ben", "Carl", "Dora"])
    table = next(v.table for v in tables.round_tables(round) if not v.table.bye)
    confirmed(table, deadwood=30)
    kept = KeptResult.objects.get(seating__table=table, seating__side=0)
    assert (kept.party, kept.changes) == (
        table.party_id,
        Party.objects.get(pk=table.party_id).changes,
    )
    assert keep_results(tournament) == 0
    assert_kept_equals_recomputed(tournament)
