"""With a real worker, a club's ratings follow a confirmed party by themselves:
the update is sent after the commit and the worker rates it."""

import time

import pytest

from seasons.models import Rating
from tests.factories import ClubFactory, MembershipFactory
from tests.seasons.conftest import play_party

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_the_worker_rates_a_confirmed_party_after_the_commit():
    club = ClubFactory()
    ada, ben = (MembershipFactory(club=club, player__name=n).player for n in ("Ada", "Ben"))

    play_party(club, [ada, ben], winner=ada)

    deadline = time.monotonic() + 30
    while Rating.objects.filter(club=club).count() < 2:
        assert time.monotonic() < deadline, "the worker did not rate the party"
        time.sleep(0.2)
    ratings = {r.player_id: r for r in Rating.objects.filter(club=club)}
    assert ratings[ada.pk].mu > ratings[ben.pk].mu
