import pytest

from tests.factories import MembershipFactory
from tournaments import registration


@pytest.fixture
def post(client, django_capture_on_commit_callbacks):
    """Posts as a browser does, running what the view schedules after commit (the
    pairing task, eager here), and follows the redirect."""

    def send(url, data=None, follow=True):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(url, data or {})
        if follow and response.status_code == 302:
            return client.get(response["Location"])
        return response

    return send


@pytest.fixture
def club(organizer):
    return organizer.club


@pytest.fixture
def members(club):
    def make(*names):
        # Listed: these tests read the names on the public pages too (the privacy of
        # the unlisted is tests/config/test_privacy.py's).
        return [MembershipFactory(club=club, player__name=n, listed=True).player for n in names]

    return make


@pytest.fixture
def tournament(club, members):
    """A Swiss tournament of five members, all checked in, not started."""

    def make(names=("Anna", "Ben", "Carl", "Dora", "Ed"), **options):
        tournament = registration.tournament_create(club=club, name="Spring Open", **options)
        registration.entrant_register(tournament=tournament, players=members(*names))
        for entrant in tournament.entrants.all():
            registration.entrant_check_in(entrant=entrant)
        return tournament

    return make


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]
