"""The seat poll: what every phone at every table asks every three seconds. It is
answered from the cache, moves only after a change is committed, and a phone that
sends its number back gets an empty 304 while nothing changed."""

import re

import pytest
from django.core.cache import cache
from django.test import override_settings
from django.urls import reverse

from scoring import changes
from scoring.services import parties, seats
from tests.conftest import clear_cache
from tests.factories import ClubNightFactory, MembershipFactory, start_night_party, start_party

pytestmark = pytest.mark.django_db

REDIS_DOWN = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
    }
}


def state_url(token: str) -> str:
    return reverse("seat:table-state", args=[token])


def polled(client, seat_or_token) -> str:
    token = getattr(seat_or_token, "token", seat_or_token)
    response = client.get(state_url(token))
    assert response.status_code == 200
    return response.json()["version"]


def on_page(client, seat) -> str:
    page = client.get(reverse("seat:table", args=[seat.token])).text
    return re.search(r'data-version="([^"]+)"', page)[1]


def enter(client, seat, number=1):
    data = {"number": number, "ending": "knock", "knocker": 0}
    data |= {"knocker_deadwood": 3, "defender_deadwood": 21}
    client.post(reverse("seat:table-enter", args=[seat.token]), data)


def test_the_page_shows_the_polled_number_and_each_committed_change_moves_it(
    client, django_capture_on_commit_callbacks, django_assert_num_queries
):
    party = start_party()
    a, b = party.seats.order_by("position")
    seen = []
    for step in range(3):
        shown = on_page(client, b)
        # The cache knows the seat once its page was drawn: no query at all.
        with django_assert_num_queries(0):
            number = polled(client, b)
        assert number == shown
        seen.append(number)
        with django_capture_on_commit_callbacks(execute=True):
            if step == 0:
                enter(client, a)
            elif step == 1:
                confirm = reverse("seat:table-confirm", args=[b.token])
                client.post(confirm, {"number": 1, "version": 1})
    assert len(set(seen)) == 3
    assert party.hands.get().status == "confirmed"


def test_a_change_moves_the_number_only_once_committed(client):
    # The test's transaction never commits: a phone that saw the new number before
    # the commit would reload to the old rows and then miss the change.
    a, b = start_party().seats.order_by("position")
    before = polled(client, b)
    enter(client, a)
    assert polled(client, b) == before


def test_a_phone_that_sends_its_number_back_gets_an_empty_304(client):
    seat = start_party().seats.first()
    first = client.get(state_url(seat.token))
    etag = first["ETag"]
    assert etag == f'"{first.json()["version"]}"'

    same = client.get(state_url(seat.token), headers={"If-None-Match": etag})
    assert same.status_code == 304
    assert same.content == b""
    assert same["ETag"] == etag
    # A seat's answers are never kept by a browser or proxy (they carry its token).
    assert "no-store" in same["Cache-Control"]

    other = client.get(state_url(seat.token), headers={"If-None-Match": '"12"'})
    assert other.status_code == 200
    assert other.json()["version"] == first.json()["version"]


def test_a_lost_cache_starts_above_every_number_a_phone_holds(
    client, django_capture_on_commit_callbacks
):
    # Redis restarted: the counters are gone. The page a phone still shows must
    # not match the new number, or it would miss the next change.
    a, b = start_party().seats.order_by("position")
    shown = on_page(client, b)
    clear_cache()
    after = polled(client, b)
    assert int(after) > int(shown)
    with django_capture_on_commit_callbacks(execute=True):
        enter(client, a)
    assert int(polled(client, b)) > int(after)


def test_an_unknown_token_is_a_404_and_leaves_nothing_in_the_cache(client):
    token = seats.new_token()
    assert client.get(state_url(token)).status_code == 404
    assert cache.get(changes.seat_key(token)) is None
    assert client.get(state_url("not-a-token")).status_code == 404


@override_settings(CACHES=REDIS_DOWN)
def test_with_the_cache_down_the_poll_asks_the_database_and_still_moves(client):
    a, b = start_party().seats.order_by("position")
    before = polled(client, b)
    assert before == on_page(client, b)
    assert before.startswith("db-")
    enter(client, a)  # the database's own count moves inside the transaction
    assert polled(client, b) != before
    # And the table plays on: the hand was entered, and the other phone confirms it.
    confirm = reverse("seat:table-confirm", args=[b.token])
    assert "Hand 1 confirmed" in client.post(confirm, {"number": 1, "version": 1}, follow=True).text
    assert a.party.hands.get().status == "confirmed"


def test_a_replaced_link_makes_its_phone_reload_to_say_so(
    client, django_capture_on_commit_callbacks
):
    party = start_party()
    a, b = party.seats.order_by("position")
    old_token = a.token
    mine, theirs = polled(client, a), polled(client, b)
    with django_capture_on_commit_callbacks(execute=True):
        seats.seat_link_reissue(seat=a, user=None)
    assert polled(client, old_token) != mine
    assert client.get(reverse("seat:table", args=[old_token])).status_code == 410
    # The other seat's page shows nothing new.
    assert polled(client, b) == theirs


def test_a_swapped_player_shows_on_the_other_phone(client, django_capture_on_commit_callbacks):
    night = ClubNightFactory()
    a, b = start_night_party(night).seats.order_by("position")
    newcomer = MembershipFactory(club=night.club, player__name="Nadia Newcomer").player
    old_token, theirs = a.token, polled(client, b)
    with django_capture_on_commit_callbacks(execute=True):
        parties.party_seat_swap(seat=a, player=newcomer, user=None)
    assert polled(client, b) != theirs
    assert "Nadia Newcomer" in client.get(reverse("seat:table", args=[b.token])).text
    assert client.get(reverse("seat:table", args=[old_token])).status_code == 410


def test_a_cancelled_party_moves_its_phones(client, django_capture_on_commit_callbacks):
    party = start_party()
    seat = party.seats.first()
    before = polled(client, seat)
    with django_capture_on_commit_callbacks(execute=True):
        parties.party_cancel(party=party, user=None, reason="Wrong players")
    assert polled(client, seat) != before
