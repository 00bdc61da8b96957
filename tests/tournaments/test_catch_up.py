"""A pairing whose task never reached a worker — the broker (Redis) was away when
the organizer started the round — or went down with its worker: the organizer's
action stands, the round shows "being paired", and the catch-up that beat runs
every 30 s pairs it, once."""

from unittest import mock

from kombu.exceptions import OperationalError

from tests.tournaments.conftest import play_out
from tournaments import registration, rounds, tables, tasks
from tournaments.models import Round, Seating

BROKER_AWAY = OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")


def test_a_round_started_with_the_broker_away_is_paired_by_the_catch_up(club, members, committed):
    tournament = registration.tournament_create(club=club, name="Winter Open")
    registration.entrant_register(tournament=tournament, players=members(*"ABCDEF"))
    tournament.entrants.update(checked_in=True)
    with mock.patch.object(tasks.pair_round, "delay", side_effect=BROKER_AWAY):
        round = committed(rounds.round_start, tournament=tournament)  # no error

    round.refresh_from_db()
    assert round.status == Round.Status.PAIRING
    assert not round.tables.exists()

    assert tasks.pair_waiting_rounds() == 1
    round.refresh_from_db()
    assert round.status == Round.Status.PLAYING
    assert Seating.objects.filter(round=round).count() == 6  # each entrant once
    assert round.tables.filter(party__isnull=False).count() == 3

    # Run again (and a late task arriving after all): nothing changes.
    assert tasks.pair_waiting_rounds() == 0
    tasks.pair_round(round.pk)
    assert Seating.objects.filter(round=round).count() == 6


def test_the_catch_up_pairs_with_the_fewest_rematches_when_the_organizer_chose_so(
    started, committed
):
    # Four players after three Swiss rounds have all met: only rematches are left.
    tournament, round = started(list("ABCD"), rounds=4)
    for _ in range(3):
        for view in tables.round_tables(round):
            play_out(view.table, view.entrants[0])
        rounds.round_close(round=round)
        committed(rounds.round_pair_next, tournament=tournament)
        round = tournament.round_set.get(number=round.number + 1)
    assert round.status == Round.Status.STUCK

    with mock.patch.object(tasks.pair_round, "delay", side_effect=BROKER_AWAY):
        committed(rounds.round_pair_next, tournament=tournament, fewest_rematches=True)
    assert tasks.pair_waiting_rounds() == 1

    round.refresh_from_db()
    assert round.status == Round.Status.PLAYING
    assert round.how == Round.How.FEWEST_REMATCHES
