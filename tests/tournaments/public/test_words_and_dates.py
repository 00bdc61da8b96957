"""The German pages say everything in German, and every page writes a date the same
way: the reader's long date format (English "March 5, 2026", German "5. März 2026")."""

import datetime

import pytest
from django.urls import reverse

from tests.factories import ClubNightFactory
from tournaments import withdrawals

pytestmark = pytest.mark.django_db

GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de"}


def test_a_withdrawn_entrant_is_marked_in_german_on_the_public_standings(
    started, client, committed
):
    tournament, _ = started(["Anna", "Ben", "Carl", "Dora"])
    committed(withdrawals.entrant_withdraw, entrant=tournament.entrants.get(player__name="Dora"))

    text = client.get(reverse("public:tournament-detail", args=[tournament.slug]), **GERMAN).text

    assert "Dora (zurückgezogen)" in text
    assert "withdrawn" not in text


def test_the_rules_of_a_new_tournament_are_offered_in_german(organizer, client):
    url = reverse("manage:tournament-create", args=[organizer.club.slug])
    text = client.get(url, **GERMAN).text
    assert "Oklahoma (Klopflimit nach der aufgedeckten Karte)" in text
    assert "knock limit from the up-card" not in text


def test_every_page_writes_a_date_the_same_way(started, client, organizer):
    tournament, _ = started(["Anna", "Ben", "Carl", "Dora"], date=datetime.date(2026, 3, 5))
    night = ClubNightFactory(club=organizer.club, date=datetime.date(2026, 3, 5))
    pages = {
        "tournament": reverse("public:tournament-detail", args=[tournament.slug]),
        "club": reverse("public:club-detail", args=[tournament.club.slug]),
        "nights": reverse("manage:club-detail", args=[night.club.slug]),
        "night": reverse("manage:night-detail", args=[night.pk]),
    }
    for language, written in (("en", "March 5, 2026"), ("de", "5. März 2026")):
        for name, url in pages.items():
            text = client.get(url, HTTP_ACCEPT_LANGUAGE=language).text
            assert written in text, (language, name)
            assert "03/05/2026" not in text and "2026-03-05" not in text, (language, name)
            assert "05.03.2026" not in text, (language, name)


def test_records_and_keys_write_their_day_as_every_other_page(client, organizer):
    from django.utils import timezone, translation
    from django.utils.formats import date_format

    from clubs import services as club_services
    from tests.factories import start_night_party

    party = start_night_party(ClubNightFactory(club=organizer.club))
    club_services.api_token_create(user=organizer.player.user, name="Scoreboard")
    pages = [
        reverse("manage:party-detail", args=[party.pk]),
        reverse("manage:token-list"),
    ]
    for language in ("en", "de"):
        with translation.override(language):
            today = date_format(timezone.localdate(), "DATE_FORMAT")
        for url in pages:
            text = client.get(url, HTTP_ACCEPT_LANGUAGE=language).text
            assert today in text, (language, url)
