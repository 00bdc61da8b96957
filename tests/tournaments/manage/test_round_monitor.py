"""The organizer's round page polls its tables every few seconds: while nothing
changed it gets an empty 304 for the numbers it sends back, not the tables again;
a hand at any table, a tournament service or the clock's next minute moves them."""

import datetime

import pytest
from django.urls import reverse

from scoring.services.hands import hand_enter
from scoring.services.knocks import Result
from tournaments import rounds, tables

pytestmark = pytest.mark.django_db


@pytest.fixture
def after_commit(django_capture_on_commit_callbacks):
    def call(service, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return service(**kwargs)

    return call


@pytest.fixture
def playing(tournament, after_commit):
    t = tournament(names=("Anna", "Ben", "Carl", "Dora"))
    round = after_commit(rounds.round_start, tournament=t)
    round.refresh_from_db()
    return round


def poll(client, round, etag=None):
    path = reverse("manage:round-tables", args=[round.tournament.slug, round.number])
    return client.get(path, headers={"If-None-Match": etag} if etag else {})


def test_an_unchanged_round_answers_304_with_its_status(client, playing):
    first = poll(client, playing)
    assert first.status_code == 200
    again = poll(client, playing, first["ETag"])
    assert again.status_code == 304
    assert again.content == b""
    assert again["X-Round-Status"] == "playing"


def test_a_hand_and_a_forfeit_move_the_rounds_number(client, playing, after_commit):
    first, second = (v for v in tables.round_tables(playing) if not v.table.bye)
    seen = [poll(client, playing)["ETag"]]
    seat = first.table.party.seats.order_by("position").first()
    after_commit(hand_enter, seat=seat, number=1, entry=Result("gin", 0, 0, 30))
    answer = poll(client, playing, seen[-1])
    assert answer.status_code == 200
    seen.append(answer["ETag"])
    absent = second.entrants[1]
    after_commit(tables.table_forfeit, table=second.table, absent=absent)
    answer = poll(client, playing, seen[-1])
    assert answer.status_code == 200
    assert answer["ETag"] not in seen


def test_the_clock_moves_the_number_each_minute(client, tournament, after_commit):
    t = tournament(names=("Anna", "Ben", "Carl", "Dora"), round_minutes=60)
    round = after_commit(rounds.round_start, tournament=t)
    round.refresh_from_db()
    etag = poll(client, round)["ETag"]
    # Two minutes on: the clock on the page shows two minutes fewer.
    round.started_at -= datetime.timedelta(minutes=2)
    round.save(update_fields=["started_at"])
    assert poll(client, round, etag).status_code == 200
