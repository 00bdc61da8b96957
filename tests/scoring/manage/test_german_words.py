"""The organizer's night and a table's page as a German club reads them: counts
agree with their number, a player already seated is named with the party, and a
heading does not say the game twice."""

import pytest
from django.urls import reverse

from tests.factories import ClubNightFactory, start_game_party, start_night_party

pytestmark = pytest.mark.django_db

GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de"}


@pytest.fixture
def night(organizer):
    return ClubNightFactory(club=organizer.club, name="Freitag")


def test_the_counts_of_tables_agree_with_their_number(client, night):
    for seed in range(4):
        start_night_party(night, seed=seed)
    text = client.get(reverse("manage:night-tables", args=[night.pk]), **GERMAN).text
    assert "<strong>4</strong> Tische warten auf einen Eintrag" in text
    assert "<strong>0</strong> Tische warten auf Bestätigung" in text
    start_night_party(night, seed=9)
    english = client.get(reverse("manage:night-tables", args=[night.pk])).text
    assert "<strong>5</strong> tables waiting for an entry" in english


def test_a_running_hand_says_since_when_it_is_played(client, night):
    start_night_party(night)
    text = client.get(reverse("manage:night-tables", args=[night.pk]), **GERMAN).text
    assert "Spiel 1 läuft seit" in text
    assert "Spielt Spiel" not in text


def test_a_player_already_seated_is_named_with_the_party_not_with_an_article(client, night):
    party = start_night_party(night, label="Running party")
    seated = party.seats.first().player
    page = client.get(reverse("manage:night-detail", args=[night.pk]), **GERMAN)
    assert f"{seated.name} (spielt gerade: Running party)" in page.text


def test_a_party_named_after_its_game_does_not_say_the_game_twice(client, night):
    party = start_game_party("canasta", 4, night=night, label="Canasta")
    seat = party.seats.order_by("position").first()
    text = client.get(reverse("seat:table", args=[seat.token]), **GERMAN).text
    assert "Canasta · Canasta" not in text
    other = start_game_party("canasta", 4, night=night, label="Tisch 3")
    seat = other.seats.order_by("position").first()
    assert "Canasta · Tisch 3" in client.get(reverse("seat:table", args=[seat.token])).text
