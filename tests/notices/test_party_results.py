"""A finished party of any game tells its players its result, not Gin Rummy's
alone: at another game each player's total and place at the table."""

import pytest

from notices.models import Kind, Notice
from tests.seasons.conftest import play_game_party

pytestmark = pytest.mark.django_db

CHINCHON = {"closer": 0, "chinchon": True, "penalties": [0, 50, 60]}


@pytest.fixture
def chinchon_over(club, members, django_capture_on_commit_callbacks):
    """Anna, Ben and Cleo's Chinchón party, which Anna won at once with a Chinchón."""
    players = members("Anna", "Ben", "Cleo")
    with django_capture_on_commit_callbacks(execute=True):
        party = play_game_party(club, "chinchon", players, [CHINCHON])
    assert party.status == party.Status.FINISHED
    return party


def test_a_finished_chinchon_partys_notice_carries_its_result(smtp, chinchon_over):
    (message,) = [m for m in smtp.to("ben@example.org") if m["Subject"].startswith("Party over")]
    text = message.get_body(("plain",)).get_content()
    assert "is over." in text
    assert "Anna: -10 points, place 1" in text
    assert "Ben: 50 points, place 2" in text and "Cleo: 60 points, place 3" in text
    assert Notice.objects.filter(kind=Kind.SHEET).count() == 3


def test_a_german_clubs_players_read_the_result_in_german(smtp, club, members, chinchon_over):
    from notices import events

    club.language = "de"
    club.save(update_fields=["language"])
    (draft,) = [d for d in events.party_ended(chinchon_over.pk) if d.player.name == "Cleo"]
    assert "Cleo: 60 Punkte, Platz 3" in draft.body
