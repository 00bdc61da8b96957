"""Taking back what the organizer did: a forfeit while its round is played, a
withdrawal until a round is paired without the entrant, a pair kept apart; each
restores the state before, is written into the tournament's record, and is
refused with a message once it would harm someone."""

import pytest

from scoring.models import Party
from tests.tournaments.conftest import entrant, first_table, play_out, seated
from tournaments import registration, rounds, standings, tables, withdrawals
from tournaments.models import Round, TournamentRecord
from tournaments.records import TournamentError

pytestmark = pytest.mark.django_db


def actions(tournament) -> list[str]:
    return list(tournament.records.order_by("pk").values_list("action", flat=True))


def table_state(table):
    """What a table is, apart from its party's seat links."""
    table.refresh_from_db()
    party = table.party
    seats = None
    if party is not None:
        seats = [(s.position, s.player_id) for s in party.seats.order_by("position")]
    return {
        "absent": table.absent,
        "seatings": [(s.entrant_id, s.side) for s in table.seatings.order_by("side")],
        "party": None if party is None else (party.status, party.hands.count(), seats),
        "dealer": None if party is None else party.first_dealer,
    }


# --------------------------------------------------------------------------- forfeits


def test_a_forfeit_taken_back_gives_the_table_its_party_again(started):
    tournament, round = started(list("ABCD"))
    table = first_table(round)
    before = table_state(table)
    old_party = table.party_id
    absent = table.seatings.get(side=1).entrant

    tables.table_forfeit(table=table, absent=absent)
    assert table_state(table)["absent"] == 1
    tables.table_forfeit_undo(table=table)

    # The same players, the same seats and first dealer from the round's seed, no hand.
    assert table_state(table) == before
    assert table.party_id != old_party
    assert Party.objects.get(pk=old_party).status == Party.Status.CANCELLED
    assert actions(tournament) == ["forfeit", "forfeit_undone"]
    record = tournament.records.get(action="forfeit_undone")
    assert record.details == {"round": 1, "table": table.number, "absent": str(absent)}


def test_a_forfeit_stands_once_its_round_is_closed(started):
    tournament, round = started(list("ABCD"))
    views = tables.round_tables(round)
    tables.table_forfeit(table=views[0].table, absent=views[0].entrants[0])
    play_out(views[1].table, views[1].entrants[0])
    rounds.round_close(round=round)

    with pytest.raises(TournamentError, match="Round 1 is closed: its forfeits stand"):
        tables.table_forfeit_undo(table=views[0].table)
    assert actions(tournament) == ["forfeit"]


def test_a_table_without_a_forfeit_has_nothing_to_take_back(started):
    _, round = started(list("ABCD"))
    with pytest.raises(TournamentError, match="has no forfeit to take back"):
        tables.table_forfeit_undo(table=first_table(round))


def test_a_round_with_a_forfeit_but_no_hand_can_still_be_undone(started, committed):
    tournament, round = started(list("ABCDE"))
    before = seated(round)
    table = first_table(round)
    absent = table.seatings.get(side=0).entrant
    tables.table_forfeit(table=table, absent=absent)

    rounds.round_undo(round=round)

    round.refresh_from_db()
    assert round.status == Round.Status.PENDING and not round.tables.exists()
    record = tournament.records.get(action="round_undone")
    assert record.details == {"round": 1, "forfeits_dropped": [str(absent)]}
    committed(rounds.round_pair_next, tournament=tournament)
    round.refresh_from_db()
    assert seated(round) == before


# --------------------------------------------------------------------------- withdrawals


def test_a_withdrawal_taken_back_before_the_next_pairing_pairs_him_again(started, committed):
    tournament, round = started(list("ABCD"), rounds=3)
    quitter = entrant(tournament, "A")
    withdrawals.entrant_withdraw(entrant=quitter)
    for view in tables.round_tables(round):
        play_out(view.table, view.entrants[0])
    rounds.round_close(round=round)

    withdrawals.entrant_reinstate(entrant=quitter)

    quitter.refresh_from_db()
    assert quitter.withdrawn_after is None
    assert actions(tournament) == ["withdrawn", "reinstated"]
    assert tournament.records.get(action="reinstated").details == {
        "entrant": "A",
        "was_withdrawn_after": 1,
    }
    committed(rounds.round_pair_next, tournament=tournament)
    second = tournament.round_set.get(number=2)
    assert "A" in {name for table in seated(second) for name in table}


def test_a_withdrawal_stands_once_a_round_was_paired_without_him(started, committed):
    tournament, round = started(list("ABCDE"), rounds=3)
    quitter = entrant(tournament, "A")
    withdrawals.entrant_withdraw(entrant=quitter)
    for view in tables.round_tables(round):
        if not view.table.bye:
            play_out(view.table, view.entrants[0])
    rounds.round_close(round=round)
    committed(rounds.round_pair_next, tournament=tournament)

    with pytest.raises(TournamentError, match="Round 2 was paired without A"):
        withdrawals.entrant_reinstate(entrant=quitter)
    quitter.refresh_from_db()
    assert quitter.withdrawn_after == 1
    assert actions(tournament) == ["withdrawn"]


def test_only_a_withdrawn_entrant_is_reinstated(started):
    tournament, _ = started(list("ABCD"))
    with pytest.raises(TournamentError, match="A has not withdrawn"):
        withdrawals.entrant_reinstate(entrant=entrant(tournament, "A"))


def test_an_undone_round_leaves_a_withdrawal_made_during_it_before_it(started):
    tournament, round = started(list("ABCD"))
    quitter = entrant(tournament, "A")
    withdrawals.entrant_withdraw(entrant=quitter)

    rounds.round_undo(round=round)

    quitter.refresh_from_db()
    assert quitter.withdrawn_after == 0


# --------------------------------------------------------------------------- kept apart


def test_a_pair_no_longer_kept_apart_may_meet(started):
    tournament, _ = started(list("ABCD"))
    a, b = entrant(tournament, "A"), entrant(tournament, "B")
    pair = registration.keep_apart_add(tournament=tournament, first=a, second=b)
    assert standings.kept_apart(tournament)

    registration.keep_apart_remove(pair=pair)

    assert not tournament.apart.exists()
    assert not standings.kept_apart(tournament)
    assert actions(tournament) == ["apart", "apart_removed"]
    assert tournament.records.last().details == {"first": "A", "second": "B"}


def test_a_finished_tournament_keeps_its_pairs(started):
    tournament, round = started(list("AB"), rounds=1)
    pair = registration.keep_apart_add(
        tournament=tournament, first=entrant(tournament, "A"), second=entrant(tournament, "B")
    )
    view = tables.round_tables(round)[0]
    play_out(view.table, view.entrants[0])
    rounds.round_close(round=round)
    rounds.tournament_finish(tournament=tournament)

    with pytest.raises(TournamentError, match="The tournament is finished"):
        registration.keep_apart_remove(pair=pair)
    assert tournament.apart.count() == 1


def test_the_record_is_written_with_who_did_it(started, organizer):
    tournament, round = started(list("ABCD"))
    user = organizer.player.user
    table = first_table(round)

    tables.table_forfeit(table=table, absent=table.seatings.first().entrant, user=user)

    record = TournamentRecord.objects.get()
    assert (record.user, record.tournament) == (user, tournament)
