"""What the ratings read of a finished party (`seasons.parties.rated_parties`),
through the one read of a party's result: Gin Rummy's from its kept score, as
its settlement says, whether the score was kept or settled again."""

import pytest
from django.utils import timezone

from scoring.models import KeptScore
from scoring.scores import party_scores
from seasons.engine.ratings import Game
from seasons.parties import rated_parties
from tests.factories import ClubFactory, MembershipFactory
from tests.seasons.conftest import play_party

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("kept", [False, True])
def test_a_won_gin_rummy_party_gives_the_settlements_payment_boxes_and_shutout(kept):
    club = ClubFactory()
    ada, ben = (MembershipFactory(club=club, player__name=n).player for n in ("Ada", "Ben"))
    party = play_party(club, [ada, ben], winner=ada)
    if kept:
        party_scores([party.pk], keep=True)
    assert KeptScore.objects.filter(party=party).exists() == kept
    now = timezone.now()

    rated, results = rated_parties({party.pk: now})[party.pk]

    assert rated.games == (Game((ada.pk,), (ben.pk,)),)
    assert (rated.won, rated.players, rated.day) == ({ada.pk}, {ada.pk, ben.pk}, now.date())
    margin = 20 + 90 + 20 + 100 + 100  # gin, deadwood, box, game, shutout (seed 000)
    assert results == {
        ada.pk: (margin, 1, True, False, [[ben.pk, margin]], 1),
        ben.pk: (-margin, 0, False, True, [[ada.pk, -margin]], 2),
    }


def test_a_party_not_over_is_not_rated():
    club = ClubFactory()
    ada, ben = (MembershipFactory(club=club, player__name=n).player for n in ("Ada", "Ben"))
    over = play_party(club, [ada, ben], winner=ada)
    running = play_party(club, [ada, ben], winner=ada, deadwood=10)
    assert set(rated_parties({over.pk: timezone.now(), running.pk: timezone.now()})) == {over.pk}
