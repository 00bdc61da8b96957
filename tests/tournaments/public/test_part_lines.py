"""The parts an open page is carried by its stream go as the lines that changed
(`live.events`): each row of the round's pairings and of the screen's slides is
a line of its own, so a hand at one table changes that table's line only."""

import pytest
from django.utils import translation

from live.events import edits
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result
from tournaments import board, tables
from tournaments.public import parts

pytestmark = pytest.mark.django_db

PARTS = ("tables", "screen")


def rendered(tournament):
    data = board.build_board(tournament)
    with translation.override("en"):
        return {part: parts._render(tournament, data, (part, "", 1)) for part in PARTS}


def test_a_hand_at_one_table_changes_that_tables_line_only(started):
    tournament, round = started([f"P{i}" for i in range(8)], public_pairings=True)
    before = rendered(tournament)
    view = next(v for v in tables.round_tables(round) if v.table.number == 2)
    a, b = view.table.party.seats.order_by("position")
    entered = hand_enter(seat=a, number=1, entry=Result("knock", a.position, 3, 40)).hand
    hand_confirm(seat=b, number=1, version=entered.version)
    after = rendered(tournament)

    for part in PARTS:
        changed = edits(before[part], after[part])
        assert len(changed) == 1, part
        start, end, lines = changed[0]
        assert end - start == 1 and len(lines) == 1, part
        assert 'data-table="2"' in lines[0], part
        assert 'data-table="1"' not in lines[0] and 'data-table="3"' not in lines[0], part
