"""Self check-in on the player's phone with the door link: his name from those not
yet here, once per phone, closed with the link or when round 1 is paired; a wrong
link is a 404 like a wrong seat link."""

import threading
from http.cookies import SimpleCookie

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import MembershipFactory
from tests.test_races import concurrent, race
from tournaments import registration, rounds
from tournaments.models import CheckIn

pytestmark = pytest.mark.django_db


@pytest.fixture
def door():
    """A tournament of Anna, Ben and Carl with self check-in open; Anna is in."""
    club = MembershipFactory(player__name="Anna").club
    players = [club.memberships.get().player] + [
        MembershipFactory(club=club, player__name=n).player for n in ("Ben", "Carl")
    ]
    tournament = registration.tournament_create(club=club, name="Door Cup")
    registration.entrant_register(tournament=tournament, players=players)
    names = {e.player.name: e for e in tournament.entrants.select_related("player")}
    registration.entrants_check_in(tournament=tournament, entrant_ids=[names["Anna"].pk])
    tournament = registration.door_link_issue(tournament=tournament)
    return tournament, names, reverse("seat:door", args=[tournament.door_token])


def test_the_phone_page_offers_those_not_yet_here_and_says_who_is(client, door):
    _, names, link = door

    page = client.get(link).content.decode()

    form = page.split('id="door-form"')[1].split("</form>")[0]
    here = page.split('id="door-here"')[1]
    assert f'value="{names["Ben"].pk}"' in form and f'value="{names["Carl"].pk}"' in form
    assert f'value="{names["Anna"].pk}"' not in form
    assert "Already here: 1 player" in here and "Anna" in here


def test_a_player_checks_himself_in_and_his_phone_cannot_check_in_another(client, door):
    _, names, link = door
    client.get(link)

    done = client.post(link, {"entrant": names["Ben"].pk}, follow=True)
    again = client.post(link, {"entrant": names["Carl"].pk}, follow=True)

    assert "Welcome, Ben: you are checked in." in done.content.decode()
    assert "You are checked in, Ben." in done.content.decode()
    assert "This phone has already checked in Ben" in again.content.decode()
    names["Carl"].refresh_from_db()
    assert not names["Carl"].checked_in
    assert [(r.entrant.player.name, r.by) for r in CheckIn.objects.filter(by="self")] == [
        ("Ben", "self")
    ]


def test_someone_already_in_or_not_an_entrant_is_refused_with_a_message(client, door):
    _, names, link = door
    client.get(link)

    taken = client.post(link, {"entrant": names["Anna"].pk}, follow=True)
    junk = client.post(link, {"entrant": "not a number"}, follow=True)
    huge = client.post(link, {"entrant": "9" * 40}, follow=True)
    odd = client.post(link, {"entrant": "²"}, follow=True)

    assert "Anna is already checked in. If that is not you, see the organizer." in (
        taken.content.decode()
    )
    for answer in (junk, huge, odd):
        assert "Choose your name from the list." in answer.content.decode()
    assert CheckIn.objects.filter(by="self").count() == 0


def test_a_replaced_or_closed_link_is_a_404_and_round_one_closes_the_page(client, door):
    tournament, names, link = door

    registration.door_link_issue(tournament=tournament)
    assert client.get(link).status_code == 404
    tournament.refresh_from_db()
    fresh = reverse("seat:door", args=[tournament.door_token])
    registration.entrants_check_in(tournament=tournament, entrant_ids=[names["Ben"].pk])
    rounds.round_start(tournament=tournament)

    page = client.get(fresh).content.decode()
    refused = client.post(fresh, {"entrant": names["Carl"].pk}, follow=True).content.decode()

    assert "Self check-in is closed: round 1 is paired." in page
    assert 'id="door-form"' not in page
    assert "Self check-in is closed. Please see the organizer at the door." in refused
    registration.door_link_close(tournament=tournament)
    assert client.get(fresh).status_code == 404


def test_the_door_page_is_never_kept_in_a_cache(client, door):
    _, _, link = door

    assert "no-store" in client.get(link)["Cache-Control"]


def test_guessing_door_links_is_stopped_like_guessing_seat_links(client, door, settings):
    _, _, link = door
    settings.SEAT_TOKEN_MISS_LIMIT = 3

    misses = [client.get(f"/door/guess-{n}/").status_code for n in range(4)]

    assert misses == [404, 404, 404, 429]
    # A right link is no guess: it opens, whoever shares the address.
    assert client.get(link).status_code == 200


def test_a_phone_that_drops_its_cookies_checks_in_no_one(client, door):
    """Issue 44: a client that dropped the door's cookie checked in five players."""
    _, names, link = door

    for name in ("Ben", "Carl"):
        client.get(link)
        client.cookies.clear()
        client.post(link, {"entrant": names[name].pk})
    client.cookies.clear()
    told = client.post(link, {"entrant": names["Ben"].pk}, follow=True)

    assert "This phone kept no cookie from the page" in told.content.decode()
    assert CheckIn.objects.filter(by="self").count() == 0


def test_a_phone_remembered_by_the_server_checks_in_once_even_with_an_old_cookie(client, door):
    _, names, link = door
    client.get(link)
    shown = SimpleCookie(client.cookies)
    client.post(link, {"entrant": names["Ben"].pk})
    # Every cookie as it was before the check-in: the server's record counts.
    client.cookies = shown

    again = client.post(link, {"entrant": names["Carl"].pk}, follow=True)

    assert "This phone has already checked in Ben" in again.content.decode()
    assert CheckIn.objects.filter(by="self").count() == 1


@pytest.mark.parametrize("token", ["%00", "a%00b", "%E2%80%AE", "a%20b", "a.b", "A" * 65])
def test_a_door_token_out_of_shape_is_a_404_counted_by_the_guard(
    client, door, token, settings, django_assert_num_queries
):
    settings.SEAT_TOKEN_MISS_LIMIT = 1

    with django_assert_num_queries(0):
        first = client.get(f"/door/{token}/")
    second = client.get(f"/door/{token}x/")

    assert (first.status_code, second.status_code) == (404, 429)


@concurrent
@pytest.mark.django_db(transaction=True)
def test_one_phone_posting_every_name_at_once_checks_in_one(door):
    """A script keeping the page's session, firing a post per name at the same
    moment: the server's record of the phone lets one through."""
    _, names, link = door
    phone = Client()
    phone.get(link)
    cookie = phone.cookies["sessionid"].value
    wanted = iter(["Ben", "Carl"] * 2)
    lock = threading.Lock()

    def post():
        with lock:
            name = next(wanted)
        same_phone = Client()
        same_phone.cookies["sessionid"] = cookie
        return same_phone.post(link, {"entrant": names[name].pk}).status_code

    answers = race(post, times=4)

    assert answers == [302] * 4
    assert CheckIn.objects.filter(by="self").count() == 1
