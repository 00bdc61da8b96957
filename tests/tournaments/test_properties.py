"""Whole Swiss tournaments with random results, no-shows and withdrawals: whatever
happens, nobody is seated twice, nobody meets an opponent twice, a withdrawn
entrant is never paired again, and the points add up."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.conftest import play_out
from tournaments import rounds, tables, withdrawals
from tournaments.models import Round, Seating, Table
from tournaments.standings import standings_for


@pytest.mark.django_db
@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    count=st.integers(5, 9),
    events=st.lists(st.tuples(st.booleans(), st.booleans(), st.integers(0, 8)), min_size=40),
)
def test_swiss_tournaments_keep_their_invariants(started, committed, count, events):
    tournament, round = started([f"P{i}" for i in range(count)], bye_value=30, forfeit_value=70)
    events = iter(events)
    withdrawn = set()
    while True:
        for view in tables.round_tables(round):
            if view.table.bye:
                continue
            first_wins, no_show, _ = next(events, (True, False, 0))
            if no_show:
                tables.table_forfeit(table=view.table, absent=view.entrants[1])
            else:
                play_out(view.table, view.entrants[0 if first_wins else 1], deadwood=40)
        _, _, quitter = next(events, (True, False, 0))
        active = [e for e in tournament.entrants.all() if e.withdrawn_after is None]
        if len(active) > 4 and quitter < len(active):
            withdrawals.entrant_withdraw(entrant=active[quitter])
            withdrawn.add(active[quitter].pk)
        rounds.round_close(round=round)
        following = tournament.round_set.filter(number=round.number + 1).first()
        if following is None:
            break
        committed(rounds.round_pair_next, tournament=tournament)
        round = Round.objects.get(pk=following.pk)
        if round.status == Round.Status.STUCK:
            break
        seated = list(Seating.objects.filter(round=round).values_list("entrant_id", flat=True))
        assert not set(seated) & withdrawn

    seatings = Seating.objects.filter(round__tournament=tournament)
    per_round = {}
    for seating in seatings:
        per_round.setdefault(seating.round_id, []).append(seating.entrant_id)
    assert all(len(ids) == len(set(ids)) for ids in per_round.values())
    games = [
        frozenset(t.seatings.values_list("entrant_id", flat=True))
        for t in Table.objects.filter(round__tournament=tournament, bye=False)
    ]
    assert len(games) == len(set(games))
    standings = standings_for(tournament)
    byes = Table.objects.filter(round__tournament=tournament, round__status="closed", bye=True)
    assert sum(line.points for line in standings.lines) == 30 * byes.count()
