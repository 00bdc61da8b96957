"""The calendar feeds: a club's and a player's, read back as a calendar program
reads them."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar

from seasons.services import player_link_issue
from tests.factories import ClubNightFactory, MembershipFactory, start_night_party
from tournaments import registration

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()


def feed(client, url):
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return response, Calendar.from_ical(response.content)


def events(calendar) -> dict[str, tuple]:
    return {
        str(event["summary"]): (event.decoded("dtstart"), event.decoded("dtend"), str(event["uid"]))
        for event in calendar.walk("VEVENT")
    }


@pytest.fixture
def club():
    return MembershipFactory(
        club__name="Herz Ass", player__name="Ada Lovelace", player__email="ada@example.org"
    ).club


def test_the_club_feed_holds_its_nights_and_published_tournaments_as_all_day_events(client, club):
    ClubNightFactory(club=club, name="Friday", date=datetime.date(2026, 12, 4))
    registration.tournament_create(club=club, name="Spring Cup", date=datetime.date(2027, 3, 6))
    registration.tournament_create(
        club=club,
        name="Secret Cup",
        public_pairings=False,
        public_standings=False,
        public_results=False,
    )
    ClubNightFactory(name="Elsewhere")

    response, calendar = feed(client, reverse("public:club-calendar", args=[club.slug]))
    found = events(calendar)
    assert set(found) == {"Friday · Herz Ass", "Spring Cup · Herz Ass"}
    start, end, _uid = found["Friday · Herz Ass"]
    assert (start, end) == (datetime.date(2026, 12, 4), datetime.date(2026, 12, 5))
    assert found["Spring Cup · Herz Ass"][:2] == (
        datetime.date(2027, 3, 6),
        datetime.date(2027, 3, 7),
    )
    assert str(calendar["x-wr-timezone"]) == "Europe/Berlin"
    club.time_zone = "America/New_York"
    club.save(update_fields=["time_zone"])
    _, calendar = feed(client, reverse("public:club-calendar", args=[club.slug]))
    assert str(calendar["x-wr-timezone"]) == "America/New_York"
    assert str(calendar["version"]) == "2.0"
    for event in calendar.walk("VEVENT"):
        assert event.decoded("dtstamp").tzinfo is not None
        assert event.decoded("dtstamp").utcoffset() == datetime.timedelta(0)
    assert b"ada@example.org" not in response.content
    assert b"Ada" not in response.content


def test_an_events_uid_stays_the_same_from_one_fetch_to_the_next(client, club):
    ClubNightFactory(club=club, name="Friday")
    url = reverse("public:club-calendar", args=[club.slug])
    first = events(feed(client, url)[1])["Friday · Herz Ass"][2]
    again = events(feed(client, url)[1])["Friday · Herz Ass"][2]
    assert first == again
    assert first.startswith("club-night-")


def test_an_unknown_club_has_no_feed(client):
    assert client.get(reverse("public:club-calendar", args=["nowhere"])).status_code == 404


def test_the_players_feed_holds_his_tournaments_his_nights_and_the_nights_to_come(client, club):
    past = ClubNightFactory(club=club, name="Played", date=TODAY - datetime.timedelta(days=10))
    party = start_night_party(past)
    player = party.seats.first().player
    ClubNightFactory(club=club, name="Missed", date=TODAY - datetime.timedelta(days=3))
    ClubNightFactory(club=club, name="Next", date=TODAY + datetime.timedelta(days=4))
    entered = registration.tournament_create(club=club, name="His Cup")
    registration.entrant_register(tournament=entered, players=[player])
    registration.tournament_create(club=club, name="Other Cup")
    link = player_link_issue(club=club, player=player, user=None)

    _, calendar = feed(client, reverse("public:player-calendar", args=[link.token]))
    assert set(events(calendar)) == {
        "Played · Herz Ass",
        "Next · Herz Ass",
        "His Cup · Herz Ass",
    }
    assert "my events" in str(calendar["x-wr-calname"])


def test_a_replaced_or_unknown_personal_link_has_no_feed(client, club):
    player = MembershipFactory(club=club).player
    old = player_link_issue(club=club, player=player, user=None).token
    new = player_link_issue(club=club, player=player, user=None).token
    assert client.get(reverse("public:player-calendar", args=[old])).status_code == 404
    assert client.get(reverse("public:player-calendar", args=["no-such-link"])).status_code == 404
    assert client.get(reverse("public:player-calendar", args=[new])).status_code == 200


def test_the_club_page_and_the_players_own_page_offer_to_subscribe(client, club):
    page = client.get(club.get_absolute_url()).text
    assert reverse("public:club-calendar", args=[club.slug]) in page
    assert "webcal://" in page
    player = MembershipFactory(club=club).player
    token = player_link_issue(club=club, player=player, user=None).token
    own = client.get(reverse("public:player-own", args=[token])).text
    assert reverse("public:player-calendar", args=[token]) in own
    listed = MembershipFactory(club=club, listed=True).player
    public = client.get(reverse("public:club-player", args=[club.slug, listed.pk])).text
    assert "calendar.ics" not in public


@pytest.mark.parametrize("nights", [1, 40])
def test_the_feed_query_count_does_not_grow_with_events(
    client, club, django_assert_max_num_queries, nights
):
    ClubNightFactory.create_batch(nights, club=club)
    with django_assert_max_num_queries(3):
        _, calendar = feed(client, reverse("public:club-calendar", args=[club.slug]))
    assert len(calendar.walk("VEVENT")) == nights
