import pytest

from scoring.services import Result, hand_confirm, hand_enter
from tournaments import selectors


@pytest.fixture
def confirmed(django_capture_on_commit_callbacks):
    """Plays one hand at a table as a request would: entered by the table's first
    entrant (gin against ``deadwood``), confirmed by the other, each committed with
    what it schedules after the commit."""

    def play(table, number=1, deadwood=30, knock=None):
        party = table.party
        seats = list(party.seats.order_by("position"))
        first_player = table.seatings.get(side=0).entrant.player_id
        mine = next(s for s in seats if s.player_id == first_player)
        theirs = next(s for s in seats if s.pk != mine.pk)
        result = Result(
            "gin", knocker=mine.position, knocker_deadwood=0, defender_deadwood=deadwood
        )
        if knock is not None:  # (knocker's deadwood, defender's deadwood)
            result = Result("knock", mine.position, *knock)
        with django_capture_on_commit_callbacks(execute=True):
            hand_enter(seat=mine, number=number, result=result)
        with django_capture_on_commit_callbacks(execute=True):
            hand_confirm(seat=theirs, number=number)
        return mine, theirs

    return play


def first_table(round):
    return next(v.table for v in selectors.round_tables(round) if not v.table.bye)
