"""A club's ratings update is sent once for a busy spell, not once a hand: while one
is on its way (sent, not yet started) a change sends none, since that update reads
the record from where the last stopped and so rates the change too."""

import pytest

from seasons import tasks
from seasons.models import Rating
from seasons.services import ratings_rebuild
from tests.factories import ClubFactory, MembershipFactory
from tests.seasons.conftest import play_party

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    """The updates sent to the broker, held there (not run) until the test runs them."""
    held = []

    def apply_async(args, countdown):
        assert countdown == tasks.WAIT_SECONDS
        held.append(args)

    monkeypatch.setattr(tasks.ratings_update, "apply_async", apply_async)
    return held


def ratings(club):
    return {
        (r.game, r.player_id): (r.mu, r.sigma, r.parties) for r in Rating.objects.filter(club=club)
    }


def test_a_busy_spell_sends_one_update_which_rates_all_of_it(sent, after_commit):
    club = ClubFactory()
    players = [MembershipFactory(club=club).player for _ in range(4)]
    with after_commit():
        play_party(club, players[:2], winner=players[0])
        play_party(club, players[2:], winner=players[3], seed=7)
        play_party(club, players[1:3], winner=players[1], seed=8)
    assert sent == [(club.pk,)]  # six hands entered or confirmed, one update
    assert not Rating.objects.filter(club=club).exists()

    tasks.ratings_update(*sent.pop())
    kept = ratings(club)
    assert len(kept) == 4
    ratings_rebuild(club_id=club.pk)
    assert ratings(club) == kept

    # Once it has started, the next change sends a new one.
    with after_commit():
        play_party(club, players[:2], winner=players[1], seed=9)
    assert sent == [(club.pk,)]


def test_another_club_s_update_is_sent_beside_it(sent, after_commit):
    clubs = [ClubFactory(), ClubFactory()]
    with after_commit():
        for club in clubs:
            players = [MembershipFactory(club=club).player for _ in range(2)]
            play_party(club, players, winner=players[0])
    assert sent == [(clubs[0].pk,), (clubs[1].pk,)]


def test_with_the_broker_away_the_next_change_sends_it_again(monkeypatch, after_commit):
    club = ClubFactory()
    players = [MembershipFactory(club=club).player for _ in range(2)]
    tries = []

    def refused(args, countdown):
        tries.append(args)
        raise ConnectionError("broker away")

    monkeypatch.setattr(tasks.ratings_update, "apply_async", refused)
    with after_commit():
        play_party(club, players, winner=players[0])
    with after_commit():
        play_party(club, players, winner=players[1], seed=2)
    # Each change tried: a refused update is not left counted as on its way.
    assert len(tries) == 4
