"""Organizers are named to each other by their names, never by their logins' e-mail
addresses: who opened a night (the club record), who decided a hand, who did a step
of a tournament."""

import re

import pytest
from django.urls import reverse

from scoring.models import Hand
from tests.factories import ClubNightFactory, OrganizerFactory, start_night_party
from tournaments import records, registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def greta(organizer):
    """A co-organizer of the club who signed up with her address."""
    return OrganizerFactory(
        club=organizer.club, player__name="Greta Lind", player__user__username="greta@example.org"
    ).player.user


def records_box(page) -> str:
    return page.text[page.text.index('id="club-records"') :]


def test_the_club_record_names_who_opened_a_night_not_her_address(client, organizer, greta):
    club_url = reverse("manage:club-detail", args=[organizer.club.slug])
    client.force_login(greta)
    client.post(club_url, {"name": "Friday night", "date": "2026-01-09", "ruleset": "classic"})
    client.force_login(organizer.player.user)

    box = records_box(client.get(club_url))

    who = re.search(
        r'data-record="night">\s*<td>.*?</td>\s*<td>.*?</td>\s*<td>(.*?)</td>', box, re.S
    )
    assert who.group(1) == "Greta Lind"
    assert "greta@example.org" not in box


def test_a_decided_hand_names_the_organizer_who_decided_it(client, organizer, greta):
    night = ClubNightFactory(club=organizer.club)
    party = start_night_party(night)
    seat = party.seats.order_by("position").first()
    Hand.objects.create(
        party=party,
        number=1,
        status=Hand.Status.VOID,
        ending=Hand.Ending.NO_GAME,
        dealer=seat,
        decided_by=greta,
    )

    page = client.get(reverse("manage:party-detail", args=[party.pk]))

    assert "decided by Greta Lind" in page.text
    assert "greta@example.org" not in page.text


def test_the_tournament_record_names_the_organizer_not_her_address(client, organizer, greta):
    tournament = registration.tournament_create(club=organizer.club, name="Spring Open")
    records.record(tournament, "created", user=greta)

    page = client.get(reverse("manage:tournament-detail", args=[tournament.slug]))

    assert "Greta Lind" in page.text
    assert "greta@example.org" not in page.text


def test_a_login_without_a_player_is_named_without_its_address(client, organizer):
    from django.contrib.auth import get_user_model

    from clubs.templatetags.organizers import organizer_name

    admin = get_user_model().objects.create_user("root@example.org", first_name="")
    assert organizer_name(admin) == "an organizer"
    admin.first_name, admin.last_name = "Site", "Admin"
    assert organizer_name(admin) == "Site Admin"
    assert organizer_name(None) == "–"
