from random import Random

import pytest

from scoring.services import Result, hand_confirm, hand_enter, party_start


def gin(knocker: int, deadwood: int = 90) -> Result:
    """A gin big enough to end a party of 100 at once."""
    return Result("gin", knocker=knocker, knocker_deadwood=0, defender_deadwood=deadwood)


def play_party(club, players, winner, *, night=None, deadwood=90, seed=1909):
    """A two-player party that ``winner`` (a player) wins with one gin, entered by
    his seat and confirmed by the other."""
    party = party_start(club=club, night=night, format="two", players=players, rng=Random(seed))
    seats = list(party.seats.order_by("position"))
    mine = next(s for s in seats if s.player_id == winner.pk)
    theirs = next(s for s in seats if s is not mine)
    hand_enter(seat=mine, number=1, result=gin(mine.position, deadwood))
    hand_confirm(seat=theirs, number=1, version=1)
    party.refresh_from_db()
    return party


@pytest.fixture
def after_commit(django_capture_on_commit_callbacks):
    """Runs what a service schedules after its commit, as production does."""

    def run():
        return django_capture_on_commit_callbacks(execute=True)

    return run
