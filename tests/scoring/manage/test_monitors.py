"""The organizer's night monitor polls every few seconds: while nothing changed it
gets an empty 304 for the number it sends back, not the tables again; every change
the tables show moves the number. The party page's times are valid HTML."""

import re

import pytest
from django.urls import reverse

from scoring.services import nights, parties, seats
from scoring.services.hands import hand_enter
from scoring.services.knocks import Result
from tests.factories import (
    ClubNightFactory,
    MembershipFactory,
    OrganizerFactory,
    start_night_party,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(organizer):
    return ClubNightFactory(club=organizer.club, name="Friday night")


@pytest.fixture
def after_commit(django_capture_on_commit_callbacks):
    """Runs a service with what it schedules after its commit, as a request does."""

    def call(service, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return service(**kwargs)

    return call


def poll(client, night, etag=None):
    headers = {"If-None-Match": etag} if etag else {}
    return client.get(reverse("manage:night-tables", args=[night.pk]), headers=headers)


def test_an_unchanged_night_answers_304_to_the_number_it_gave(client, night, after_commit):
    after_commit(start_night_party, night=night, label="Table 1")
    first = poll(client, night)
    assert first.status_code == 200
    assert "Table 1" in first.text
    again = poll(client, night, first["ETag"])
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == first["ETag"]


def test_each_change_of_the_nights_tables_moves_its_number(client, organizer, night, after_commit):
    user = organizer.player.user
    party = after_commit(start_night_party, night=night, label="Table 1")
    a, b = party.seats.order_by("position")
    guest = MembershipFactory(club=night.club).player
    seen = [poll(client, night)["ETag"]]
    changes = {
        "a new party": lambda: after_commit(start_night_party, night=night, label="Table 2"),
        "a new link": lambda: after_commit(seats.seat_link_reissue, seat=a, user=user),
        "a swap": lambda: after_commit(parties.party_seat_swap, seat=b, player=guest, user=user),
        "a hand": lambda: after_commit(hand_enter, seat=a, number=1, entry=Result("gin", 0, 0, 30)),
        "the stake": lambda: after_commit(nights.night_set_stake, night=night, stake="0.05"),
        "a cancel": lambda: after_commit(
            parties.party_cancel, party=party, user=user, reason="Wrong table"
        ),
    }
    for change, make in changes.items():
        make()
        answer = poll(client, night, seen[-1])
        assert answer.status_code == 200, change
        seen.append(answer["ETag"])
    assert len(set(seen)) == len(seen)


def test_the_number_depends_on_the_language(client, night):
    english = poll(client, night)["ETag"]
    client.cookies["django_language"] = "de"
    german = poll(client, night, english)
    assert german.status_code == 200
    assert german["ETag"] != english


def test_another_clubs_organizer_gets_no_304_for_a_known_number(client, night):
    etag = poll(client, night)["ETag"]
    client.logout()
    client.force_login(OrganizerFactory().player.user)
    assert poll(client, night, etag).status_code in (403, 404)


def test_the_party_pages_times_carry_no_microseconds(client, night):
    party = start_night_party(night, label="Table 1")
    a, _ = party.seats.order_by("position")
    hand_enter(seat=a, number=1, entry=Result("gin", 0, 0, 30))
    text = client.get(reverse("manage:party-detail", args=[party.pk])).text
    times = re.findall(r'<time datetime="([^"]+)"', text)
    assert times
    for value in times:
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4}", value), value
