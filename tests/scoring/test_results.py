"""One read of a party's result for every game (`scoring.results.party_results`):
for every party of the demo (Gin Rummy's formats, a night of the other games,
tournaments at tables of two and of four) it says what the two reads it replaces
said, Gin Rummy's kept score (`party_scores`) and a whole table's standing
(`table_results`), in as few queries."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from demo.loader import load_demo
from scoring.engine.games.game import player_margins
from scoring.models import DEFAULT_GAME, Party
from scoring.results import party_results, party_results_of
from scoring.scores import party_scores
from scoring.selectors import party_sheets
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result as Entry
from scoring.services.whole_table_sheet import table_results
from tests.factories import start_party

pytestmark = pytest.mark.django_db


def test_every_demo_party_reads_as_its_keepings_own_read_said(django_assert_num_queries):
    load_demo()
    ids = list(Party.objects.values_list("pk", flat=True))
    kept, tables = party_scores(ids), table_results(ids)
    sheets = party_sheets(ids)
    assert kept and tables, "the demo holds parties of both keepings"
    results = party_results(ids)
    assert set(results) == set(kept) | set(tables) == set(ids)
    for pk, score in kept.items():
        result = results[pk]
        assert (result.finished, result.hands, result.points, result.plus_minus) == (
            score.finished,
            score.hands,
            score.points,
            score.plus_minus,
        )
        assert (result.pending, result.disputed, result.cancelled) == (
            score.pending,
            score.disputed,
            score.cancelled,
        )
        assert result.won == {p for p, amount in score.plus_minus.items() if amount > 0}
        assert result.paid == score.plus_minus
        # By side, as the settlement of the party's hands has it.
        state = sheets[pk]
        player = {seat.position: seat.player_id for seat in state.seats}
        columns = state.outcome.sides
        assert result.sides == tuple(
            tuple(s.player_id for s in state.seats if s.side == n) for n in range(len(columns))
        )
        assert result.players == tuple(s.player_id for s in state.seats)
        assert (result.side_points, result.boxes, result.totals) == (
            tuple(c.points for c in columns),
            tuple(c.boxes for c in columns),
            tuple(c.total for c in columns),
        )
        assert (result.game_bonuses, result.shutouts) == (
            tuple(c.game_bonus for c in columns),
            tuple(c.shutout_bonus for c in columns),
        )
        assert [(p.payer, p.payee, p.amount) for p in result.payments] == [
            (tuple(map(player.get, p.payer)), tuple(map(player.get, p.payee)), p.amount)
            for p in state.outcome.payments
        ]
        assert result.winners == {n for n, side in enumerate(result.sides) if side[0] in result.won}
        if result.finished:
            by_side = [result.plus_minus[side[0]] for side in result.sides]
            assert result.side_places == tuple(1 + sum(o > m for o in by_side) for m in by_side)
        else:
            assert result.side_places == ()
    for pk, table in tables.items():
        result = results[pk]
        assert (result.sides, result.players, result.totals) == (
            table.sides,
            table.players,
            table.totals,
        )
        assert (result.side_places, result.margins, result.winners) == (
            table.places,
            table.margins,
            table.winners,
        )
        assert (result.over, result.finished, result.cancelled) == (
            table.over,
            table.finished,
            table.cancelled,
        )
        assert (result.scored, result.pending, result.disputed) == (
            table.hands,
            table.pending,
            table.disputed,
        )
        assert result.points == table.by_player(table.totals)
        if table.finished:
            assert result.plus_minus == table.by_player(table.margins)
            assert result.places == table.by_player(table.places)
            assert result.won == {p for side in table.winners for p in table.sides[side]}
            assert result.paid == player_margins(table.sides, table.margins)
    # Without the cancelled ones, as either read leaves them out.
    live = party_results(ids, cancelled=False)
    assert set(live) == set(party_scores(ids)) - {
        pk for pk, s in kept.items() if s.cancelled
    } | set(table_results(ids, cancelled=False))
    # As a query of ids too, of parties loaded, and of one game only.
    assert party_results(Party.objects.values("pk")) == results
    assert party_results_of(list(Party.objects.all())) == results
    gin = [pk for pk in ids if pk in kept]
    assert party_results(gin, game=DEFAULT_GAME) == {pk: results[pk] for pk in gin}
    # In no more queries than the reads it replaces: Gin Rummy's kept scores only
    # when every id is Gin Rummy's, then the whole tables' read of the rest.
    party_scores(gin, keep=True)
    with CaptureQueriesContext(connection) as before:
        party_scores(gin)
    with django_assert_num_queries(len(before)):
        party_results(gin)
    with CaptureQueriesContext(connection) as before:
        party_scores(ids)
        table_results([pk for pk in ids if pk not in kept])
    with django_assert_num_queries(len(before)):
        party_results(ids)


def test_no_ids_no_query(django_assert_num_queries):
    with django_assert_num_queries(0):
        assert party_results([]) == {}


def test_a_party_read_again_after_a_hand_reads_the_hand():
    party = start_party()
    a, b = party.seats.order_by("position")
    assert party_results([party.pk])[party.pk].hands == 0
    hand_enter(
        seat=a, number=1, entry=Entry("knock", knocker=0, knocker_deadwood=2, defender_deadwood=30)
    )
    hand_confirm(seat=b, number=1, version=1)
    result = party_results([party.pk])[party.pk]
    assert (result.hands, result.points[a.player_id]) == (1, 28)
