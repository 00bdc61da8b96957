"""A new login founding several clubs at the same moment (ten tabs, a double
submit): each club is made, with one player for the login as the owner of all
(`clubs.accounts.player_for`), never a 500 on its one-player-per-login
constraint. Concurrent, so on PostgreSQL (see tests/test_races.py)."""

import threading

import pytest

from clubs.founding import club_create
from clubs.models import Membership, Player
from tests.factories import UserFactory
from tests.test_races import concurrent, race, refused

TIMES = 10


@concurrent
@pytest.mark.django_db(transaction=True)
def test_ten_clubs_founded_at_once_by_a_new_login_share_one_player():
    user = UserFactory(first_name="Nora Nash")
    numbers = iter(range(TIMES))
    lock = threading.Lock()

    def found():
        with lock:
            slug = f"club-{next(numbers)}"
        return club_create(name=slug, slug=slug, language="en", time_zone="Europe/Berlin", by=user)

    results = race(found, times=TIMES)

    assert refused(results) == []
    (player,) = Player.objects.filter(user=user)
    owned = Membership.objects.filter(player=player, role=Membership.Role.OWNER)
    assert owned.count() == TIMES
