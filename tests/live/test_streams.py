"""Live push (live/streams.py): a page's stream is told when its counter moves,
after the commit, with nothing in the event but the counter's name and number;
in memory on the embedded default, through Redis publish/subscribe with it. A
replaced seat link gets no stream, and a server that cannot hold one says "poll".

The streams are read through the site's ASGI application (config/asgi.py, as
uvicorn serves it), each test one coroutine; the services run in the test's
thread (sync_to_async)."""

import asyncio
import json
import os
import threading

import pytest
import redis
from asgiref.sync import async_to_sync, sync_to_async
from django.core.cache import cache
from django.core.handlers.asgi import ASGIHandler
from django.db import OperationalError, connection, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import Client
from django.urls import reverse

from config.asgi import application
from live import events, streams
from scoring import changes, selectors
from scoring.services import hands
from scoring.services.knocks import Result
from scoring.services.seats import seat_link_reissue
from tests.conftest import cache_keys
from tests.factories import (
    ClubNightFactory,
    MembershipFactory,
    OrganizerFactory,
    start_night_party,
    start_party,
)
from tournaments import registration, rounds, stored_board

pytestmark = pytest.mark.django_db(transaction=True)

REDIS_TEST_URL = "redis://127.0.0.1:6379/12"


def redis_up() -> bool:
    try:
        return redis.Redis.from_url(REDIS_TEST_URL, socket_connect_timeout=0.5).ping()
    except redis.RedisError:
        return False


@pytest.fixture(params=["memory", "redis"])
def delivery(request, settings):
    """Both ways a bump reaches a stream: in this process's memory (no REDIS_URL),
    and through Redis publish/subscribe (db 12), whatever the suite runs on."""
    if request.param == "redis":
        if not redis_up():
            pytest.skip("no Redis at 127.0.0.1:6379")
        settings.REDIS_URL = REDIS_TEST_URL
    else:
        settings.REDIS_URL = ""
    return request.param


def knock(knocker=0):
    return Result("knock", knocker=knocker, knocker_deadwood=3, defender_deadwood=21)


def enter(party, number):
    a = party.seats.get(position=0)
    hands.hand_enter(seat=a, number=number, entry=knock())


def play(party, number):
    a, b = party.seats.order_by("position")
    hands.hand_enter(seat=a, number=number, entry=knock())
    hands.hand_confirm(seat=b, number=number, version=1)


def events_url(seat) -> str:
    return reverse("seat:table-events", args=[seat.token])


class Answer:
    """One GET through the ASGI application, its body read as it arrives."""

    def __init__(self, path: str, cookie: str = "", language: str = "", last_id: str = ""):
        self.messages: asyncio.Queue = asyncio.Queue()
        self.left = asyncio.Event()
        self.asked = False
        self.buffer = ""
        self.raw = ""  # everything the stream said, as read so far
        self.last_id = ""  # the id of the last event read, as a browser keeps it
        headers = [(b"host", b"testserver")]
        if cookie:
            headers.append((b"cookie", cookie.encode()))
        if language:
            headers.append((b"accept-language", language.encode()))
        if last_id:  # as a browser reopening a stream sends it
            headers.append((b"last-event-id", last_id.encode()))
        path, _, query = path.partition("?")
        scope = {
            "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "method": "GET", "scheme": "http", "path": path, "raw_path": path.encode(),
            "query_string": query.encode(), "root_path": "", "headers": headers,
            "client": ("127.0.0.1", 50000), "server": ("testserver", 80),
        }  # fmt: skip
        self.task = asyncio.ensure_future(application(scope, self.receive, self.messages.put))
        OPEN.append(self)

    async def receive(self):
        if not self.asked:
            self.asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await self.left.wait()
        return {"type": "http.disconnect"}

    async def start(self):
        message = await asyncio.wait_for(self.messages.get(), 10)
        self.status = message["status"]
        self.headers = {k.decode().lower(): v.decode() for k, v in message["headers"]}
        return self

    async def close(self):
        self.left.set()
        await asyncio.wait_for(self.task, 10)


OPEN: list[Answer] = []


async def open_stream(path, cookie="", language="", last_id=""):
    answer = await Answer(path, cookie, language, last_id).start()
    assert answer.status == 200, answer.status
    assert answer.headers["content-type"].startswith("text/event-stream")
    assert answer.headers["x-accel-buffering"] == "no"
    assert streams.MARK.lower() not in answer.headers  # the counters stay inside
    return answer


async def next_event(stream, wait=10.0) -> tuple[str, dict]:
    """The next event (a comment or the retry line alone is skipped)."""
    while True:
        while "\n\n" not in stream.buffer:
            message = await asyncio.wait_for(stream.messages.get(), wait)
            stream.buffer += message.get("body", b"").decode()
            stream.raw += message.get("body", b"").decode()
        block, stream.buffer = stream.buffer.split("\n\n", 1)
        fields = dict(
            line.split(": ", 1)
            for line in block.splitlines()
            if line.startswith(("event", "data", "id"))
        )
        if "id" in fields:
            stream.last_id = fields["id"]
        if "event" in fields:
            return fields["event"], json.loads(fields["data"])


def run(scenario):
    """Runs the test's coroutine, then closes its streams and ends the Redis
    subscription it started. What the coroutine returned."""

    async def whole():
        try:
            return await scenario()
        finally:
            for answer in OPEN:
                await answer.close()
            OPEN.clear()
            await streams.relay_stop()

    return async_to_sync(whole)()


def test_a_seat_stream_hears_each_confirmed_hand_and_nothing_else(delivery):
    party = start_party()
    b = party.seats.order_by("position")[1]

    async def scenario():
        # Where the seat's counter stands, as its page shows it (`seat_poll`).
        now = await sync_to_async(selectors.seat_poll)(b.token)
        stream = await open_stream(events_url(b))
        kind, hello = await next_event(stream)
        assert kind == "hello"
        assert hello == {
            "ping": streams.PING_SECONDS,
            "settle": 0,
            "reopen": streams.REOPEN_SECONDS,
            "versions": {"seat": now},
        }

        await sync_to_async(play)(party, 1)
        kind, data = await next_event(stream)
        assert kind == "moved"
        # Only the counter's name and its number: no token, no score.
        assert set(data) == {"counter", "version"}
        assert data["counter"] == "seat"
        first = data["version"]
        assert str(first) != now

        await sync_to_async(play)(party, 2)
        kind, data = await next_event(stream)
        assert (kind, data["counter"]) == ("moved", "seat")
        assert data["version"] > first

    run(scenario)


def test_a_hello_tells_the_seat_page_whether_it_missed_anything(client, delivery):
    """The number the seat's page was drawn at is the hello's while nothing moved
    (the page then asks nothing); after a hand, a new stream's hello carries the
    new one."""
    party = start_party()
    b = party.seats.order_by("position")[1]
    drawn = client.get(b.get_absolute_url()).content.decode()

    async def scenario():
        kind, hello = await next_event(await open_stream(events_url(b)))
        assert f'data-version="{hello["versions"]["seat"]}"' in drawn
        await sync_to_async(play)(party, 1)
        kind, later = await next_event(await open_stream(events_url(b)))
        assert kind == "hello"
        assert f'data-version="{later["versions"]["seat"]}"' not in drawn
        assert later["versions"]["seat"] == await sync_to_async(selectors.seat_poll)(b.token)

    run(scenario)


def test_a_hello_without_the_cache_carries_no_versions(monkeypatch, settings):
    """The cache away: the hello says nothing of the counters, and the page asks."""
    settings.REDIS_URL = ""
    url = events_url(start_party().seats.first())

    class Away:
        def get_many(self, keys):
            raise ConnectionError("cache away")

    monkeypatch.setattr(events, "cache", Away())

    async def scenario():
        kind, hello = await next_event(await open_stream(url))
        assert (kind, hello["versions"]) == ("hello", {})

    run(scenario)


def test_a_hand_rolled_back_tells_no_stream(delivery):
    party = start_party()
    seat = party.seats.first()

    def rolled_back():
        with transaction.atomic():
            enter(party, 1)
            transaction.set_rollback(True)

    async def scenario():
        stream = await open_stream(events_url(seat))
        assert (await next_event(stream))[0] == "hello"
        await sync_to_async(rolled_back)()
        await sync_to_async(enter)(party, 1)
        # The first event is the committed entry's: the counter moved once.
        kind, data = await next_event(stream)
        assert kind == "moved"
        counter = await sync_to_async(lambda: changes.seat_counter(seat.token)[0])()
        assert data["version"] == counter

    run(scenario)


def test_a_replaced_seat_link_gets_no_stream_and_an_open_one_hears_no_more_hands(
    delivery, organizer
):
    party = start_party()
    b = party.seats.order_by("position")[1]
    old = events_url(b)

    async def scenario():
        stream = await open_stream(old)
        assert (await next_event(stream))[0] == "hello"
        user = organizer.player.user
        await sync_to_async(seat_link_reissue)(seat=b, user=user)
        # The replacement itself is told, so the phone reloads and learns so.
        assert (await next_event(stream))[0] == "moved"

        refused = await Answer(old).start()
        assert refused.status == 404

        new_seat = await sync_to_async(lambda: party.seats.get(position=b.position))()
        fresh = await open_stream(events_url(new_seat))
        assert (await next_event(fresh))[0] == "hello"
        await sync_to_async(play)(party, 1)
        assert (await next_event(fresh))[0] == "moved"
        with pytest.raises(TimeoutError):
            await next_event(stream, wait=0.5)

    run(scenario)


def test_the_public_stream_speaks_only_once_the_board_with_the_hand_is_stored(settings):
    settings.REDIS_URL = ""
    settings.PUBLIC_REFRESH_SECONDS = 10
    tournament, party = cup_in_play()
    stored = f"board-3:{tournament.pk}"

    async def scenario():
        url = reverse("public:tournament-events", args=[tournament.slug])
        stream = await open_stream(url)
        kind, hello = await next_event(stream)
        # The stream speaks after each board stored, which is seldom enough: the
        # page asks at once (no settle time), whatever the refresh.
        assert (kind, hello["settle"]) == ("hello", 0)
        await sync_to_async(play)(party, 1)  # entered, then confirmed: two boards
        last = cache.get(stored_board.board_stored_key(tournament.pk))
        kind, data = await next_event(stream)
        assert (kind, data["counter"]) == ("moved", "board")
        if data["version"] != last:
            kind, data = await next_event(stream)
        assert data["version"] == last
        # By then the board stored shows the hand: a knock of 3 against 21.
        assert sorted(s.points for s in cache.get(stored).rounds[0].tables[0].sides) == [0, 18]

    run(scenario)


def cup_in_play():
    """A tournament's round in play at one table: the tournament and its party."""
    night = ClubNightFactory()
    tournament = registration.tournament_create(club=night.club, name="Cup")
    players = [MembershipFactory(club=night.club).player for _ in range(2)]
    registration.entrant_register(tournament=tournament, players=players)
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    rounds.round_start(tournament=tournament)  # paired after the commit (eagerly here)
    return tournament, tournament.round_set.get().tables.get().party


def public_stream(tournament, shown) -> str:
    url = reverse("public:tournament-events", args=[tournament.slug])
    return f"{url}?parts={shown}"


def held_after(held: dict, data: dict) -> dict:
    """What a page holds after an event, as static/js/live.js: by part, the version
    and text, whole where the event carried it whole, else its changes applied to
    the text held (which must be the version they start from)."""
    for part, text in data.get("parts", {}).items():
        held[part] = (data["shown"], text)
    for part, change in data.get("changes", {}).items():
        version, text = held[part]
        assert version == change["from"]
        held[part] = (data["shown"], events.patched(text, change["edits"]))
    return held


def assert_as_asked(client, tournament, held):
    """Each part held is what an ask is answered, under the same flags."""
    for part, (shown, html) in held.items():
        asked = client.get(reverse("public:tournament-live", args=[tournament.slug, part]))
        # The same board, or one built again since from the same hands.
        assert int(asked["X-Board-Version"].split("-")[0]) >= int(shown.split("-")[0])
        assert asked["X-Board-Version"].split("-")[1:] == shown.split("-")[1:]
        assert asked.text == html


def test_the_public_stream_carries_the_parts_the_page_shows_as_kept_with_the_board(
    delivery, client
):
    """The page names its parts when it opens its stream; each stored board's news
    then carries them as the builder rendered them with that board (whole, or the
    lines changed since the stream carried them last): the same text an ask is
    answered, under the version an ask would have got."""
    tournament, party = cup_in_play()

    async def scenario():
        stream = await open_stream(public_stream(tournament, "standings,tables"))
        assert (await next_event(stream))[0] == "hello"
        await sync_to_async(play)(party, 1)  # entered, then confirmed
        # Each board's news until the one with the confirmed hand (built by the
        # worker when there is one: its boards come when they come).
        held = {}
        while True:
            kind, data = await next_event(stream)
            carried_parts = set(data["parts"]) | set(data.get("changes", {}))
            assert (kind, data["counter"], carried_parts) == (
                "moved",
                "board",
                {"standings", "tables"},
            )
            held_after(held, data)
            if ">18<" in held["tables"][1]:  # a knock of 3 against 21
                return held

    assert_as_asked(client, tournament, run(scenario))


def test_after_the_first_board_a_stream_carries_only_the_lines_that_changed(client, settings):
    """A stream that carried a part carries the next board's as the lines changed
    since; a stream opened since gets it whole. Both make the text an ask is
    answered."""
    settings.REDIS_URL = ""
    tournament, party = cup_in_play()
    other = party.seats.get(position=1)

    async def scenario():
        first = await open_stream(public_stream(tournament, "tables"))
        assert (await next_event(first))[0] == "hello"
        await sync_to_async(enter)(party, 1)  # a board: carried whole
        _, data = await next_event(first)
        whole = data["parts"]["tables"]
        held = held_after({}, data)
        later = await open_stream(public_stream(tournament, "tables"))
        assert (await next_event(later))[0] == "hello"
        await sync_to_async(hands.hand_confirm)(seat=other, number=1, version=1)
        _, data = await next_event(first)
        assert "tables" not in data["parts"]
        edits = data["changes"]["tables"]["edits"]
        # The one table's row, a line of its own, in place of the line it was.
        [(start, end, lines)] = edits
        assert end - start == 1 and len(lines) == 1 and 'data-table="1"' in lines[0]
        assert len(json.dumps(edits)) < len(whole) / 2
        held_after(held, data)
        _, fresh = await next_event(later)
        assert held["tables"] == (fresh["shown"], fresh["parts"]["tables"])
        return held

    assert_as_asked(client, tournament, run(scenario))


def test_a_reopened_stream_resumes_from_the_last_event_id_with_the_lines_it_missed(
    client, settings
):
    """A browser reopens a broken stream with the id of the last event it heard:
    the new stream says it resumes (the page asks nothing) and carries at once the
    lines changed since the version that event carried, which make the text an ask
    is answered."""
    settings.REDIS_URL = ""
    tournament, party = cup_in_play()
    other = party.seats.get(position=1)
    url = public_stream(tournament, "tables")

    async def scenario():
        stream = await open_stream(url)
        assert (await next_event(stream))[0] == "hello"
        await sync_to_async(enter)(party, 1)
        _, data = await next_event(stream)
        held = held_after({}, data)
        assert stream.last_id.startswith(f"board={data['version']}@")
        await stream.close()
        # While the page has no stream, the hand is confirmed: a board it missed.
        await sync_to_async(hands.hand_confirm)(seat=other, number=1, version=1)
        again = await open_stream(url, last_id=stream.last_id)
        kind, hello = await next_event(again)
        assert (kind, hello["resumed"]) == ("hello", True)
        kind, data = await next_event(again)
        assert kind == "moved" and "tables" not in data["parts"]
        assert data["changes"]["tables"]["from"] == held["tables"][0]
        held_after(held, data)
        assert ">18<" in held["tables"][1]  # a knock of 3 against 21
        assert again.last_id.startswith(f"board={data['version']}@")
        return held

    assert_as_asked(client, tournament, run(scenario))


def test_a_stream_resumed_after_its_version_is_no_longer_kept_carries_the_part_whole(settings):
    settings.REDIS_URL = ""
    tournament, party = cup_in_play()
    other = party.seats.get(position=1)
    url = public_stream(tournament, "tables")

    async def scenario():
        stream = await open_stream(url)
        assert (await next_event(stream))[0] == "hello"
        await sync_to_async(enter)(party, 1)
        _, data = await next_event(stream)
        await stream.close()
        # Too much missed: the version the page holds is no longer in the cache.
        stored = await sync_to_async(cache_keys)(f"tables-part:{tournament.pk}:")
        gone = [key.split(":", 2)[2] for key in stored if key.endswith(f":{data['shown']}")]
        assert gone
        await cache.adelete_many(gone)
        # Reopened on another `live` process (the one that held it was killed),
        # which never read that version either.
        events._kept.clear()
        await sync_to_async(hands.hand_confirm)(seat=other, number=1, version=1)
        again = await open_stream(url, last_id=stream.last_id)
        assert (await next_event(again))[1]["resumed"]
        _, data = await next_event(again)
        assert "changes" not in data and "tables" in data["parts"]

    run(scenario)


def test_a_stream_resumed_with_nothing_missed_stays_silent(settings):
    settings.REDIS_URL = ""
    tournament, _ = cup_in_play()
    url = public_stream(tournament, "tables")

    async def scenario():
        stream = await open_stream(url)
        _, hello = await next_event(stream)
        assert "resumed" not in hello
        assert stream.last_id.startswith(f"board={hello['versions']['board']}@")
        again = await open_stream(url, last_id=stream.last_id)
        assert (await next_event(again))[1]["resumed"]
        with pytest.raises(TimeoutError):
            await next_event(again, wait=0.5)

    run(scenario)


@pytest.mark.parametrize("last_id", ["seat=5", "board=x", "board=5,board=6", "board=" + "9" * 40])
def test_an_id_not_of_this_stream_resumes_nothing(settings, last_id):
    """An id naming other counters, or no number, is no place to resume from: the
    page is told nothing it missed, and asks."""
    settings.REDIS_URL = ""
    tournament, _ = cup_in_play()

    async def scenario():
        stream = await open_stream(public_stream(tournament, "tables"), last_id=last_id)
        kind, hello = await next_event(stream)
        assert kind == "hello" and "resumed" not in hello

    run(scenario)


def test_a_stream_carrying_other_parts_does_not_resume_from_the_old_ones_id(settings):
    """The page's language changed while its stream was away: the parts it would
    carry are others, whose changed lines would not fit the text the page holds."""
    settings.REDIS_URL = ""
    tournament, _ = cup_in_play()
    url = public_stream(tournament, "tables")

    async def scenario():
        stream = await open_stream(url)
        assert "resumed" not in (await next_event(stream))[1]
        again = await open_stream(url, language="de", last_id=stream.last_id)
        assert "resumed" not in (await next_event(again))[1]
        assert again.last_id != stream.last_id

    run(scenario)


def test_a_seat_stream_resumed_is_told_of_the_hands_it_missed(delivery):
    party = start_party()
    b = party.seats.order_by("position")[1]

    async def scenario():
        await sync_to_async(selectors.seat_poll)(b.token)  # the page drawn: its counter
        stream = await open_stream(events_url(b))
        assert (await next_event(stream))[0] == "hello"
        assert stream.last_id.startswith("seat=")
        await stream.close()
        await sync_to_async(play)(party, 1)
        again = await open_stream(events_url(b), last_id=stream.last_id)
        assert (await next_event(again))[1]["resumed"]
        kind, data = await next_event(again)
        assert (kind, data["counter"]) == ("moved", "seat")
        assert data["version"] == await sync_to_async(lambda: changes.seat_counter(b.token)[0])()

    run(scenario)


@pytest.fixture
def database_blocked(monkeypatch):
    """``block()`` makes every query of every thread fail (as a pool run dry does)
    and notes the thread that asked; ``unblock()`` lets them through again."""
    cursor = BaseDatabaseWrapper.cursor
    asked = []
    blocked = threading.Event()

    def refusing(self):
        if blocked.is_set():
            asked.append(threading.current_thread().name)
            raise OperationalError("the database is blocked by the test")
        return cursor(self)

    monkeypatch.setattr(BaseDatabaseWrapper, "cursor", refusing)

    class Switch:
        block, unblock, queries = blocked.set, blocked.clear, asked

    return Switch


def test_a_public_stream_opens_and_catches_up_without_the_database(settings, database_blocked):
    """A crowd opening the public page at once took a database connection each and
    ran the pool dry (503s): what the opening needs of the tournament is what the
    builder kept, and a page that missed a board gets the current part all the same."""
    settings.REDIS_URL = ""
    tournament, party = cup_in_play()
    url = public_stream(tournament, "tables")

    async def scenario():
        stream = await open_stream(url)  # (the first opening after the build, too)
        _, hello = await next_event(stream)
        await stream.close()
        await sync_to_async(enter)(party, 1)  # a board the page has not seen
        database_blocked.block()
        try:
            fresh = await open_stream(url)
            assert (await next_event(fresh))[0] == "hello"
            again = await open_stream(url, last_id=stream.last_id)
            assert (await next_event(again))[1]["resumed"]
            kind, data = await next_event(again)
        finally:
            database_blocked.unblock()
        assert database_blocked.queries == []
        assert kind == "moved" and data["version"] > int(hello["versions"]["board"])
        return {"tables": (data["shown"], data["parts"]["tables"])}

    held = run(scenario)
    assert int(held["tables"][0].split("-")[0]) == cache.get(
        stored_board.board_stored_key(tournament.pk)
    )
    assert_as_asked(Client(), tournament, held)


def test_a_seat_stream_opens_again_and_catches_up_without_the_database(delivery, database_blocked):
    """A phone opens its seat's stream again after each change it is told of (its
    page reloads), and under a crowd on the public pages `live` had no database
    connection left for them (503s). Once its seat was found, the stream opens
    from the cache alone, fresh or resumed. (A link replaced meanwhile is looked
    for again, and is a 404: the replaced link's test.)"""
    party = start_party()
    b = party.seats.order_by("position")[1]

    async def scenario():
        await sync_to_async(selectors.seat_poll)(b.token)  # the page drawn: its counter
        first = await open_stream(events_url(b))  # the seat found in the database
        assert (await next_event(first))[0] == "hello"
        await first.close()
        await sync_to_async(play)(party, 1)
        database_blocked.block()
        try:
            fresh = await open_stream(events_url(b))
            _, hello = await next_event(fresh)
            again = await open_stream(events_url(b), last_id=first.last_id)
            assert (await next_event(again))[1]["resumed"]
            kind, data = await next_event(again)
        finally:
            database_blocked.unblock()
        assert database_blocked.queries == []
        now = await sync_to_async(lambda: changes.seat_counter(b.token)[0])()
        assert hello["versions"] == {"seat": str(now)}
        assert (kind, data) == ("moved", {"counter": "seat", "version": now})

    run(scenario)


def test_a_public_stream_is_opened_without_django_when_the_tournament_is_kept(
    settings, monkeypatch
):
    """Django under ASGI runs each request's middleware in a thread of its own: a
    crowd opening at once kept a `live` worker's loop from gunicorn's heartbeat. A
    public page's stream is opened by `live` itself, from the cache, in the page's
    language; a tournament the cache does not hold goes through Django."""
    settings.REDIS_URL = ""
    tournament, party = cup_in_play()
    url = public_stream(tournament, "tables")

    asked = []
    answer = ASGIHandler.get_response_async

    async def noted(self, request):
        asked.append(request.path)
        return await answer(self, request)

    async def scenario():
        # The first opening after the build comes through Django: it keeps what
        # the builder would have kept, had the cache been cleared since.
        assert (await next_event(await open_stream(url)))[0] == "hello"
        monkeypatch.setattr(ASGIHandler, "get_response_async", noted)
        stream = await open_stream(url, language="de")
        assert (await next_event(stream))[0] == "hello"
        await sync_to_async(enter)(party, 1)
        _, data = await next_event(stream)
        assert ">Tisch<" in data["parts"]["tables"]  # in German
        assert asked == []
        await sync_to_async(tournament.save)()  # forgotten: read again, by Django
        assert (await next_event(await open_stream(url)))[0] == "hello"
        assert asked == [url.partition("?")[0]]

    run(scenario)


def test_a_public_stream_of_nothing_published_is_not_found(settings):
    """The kept tournament is forgotten when its row changes: a tournament no longer
    published has no stream, even just after a board was kept with it."""
    settings.REDIS_URL = ""
    tournament, _ = cup_in_play()
    url = public_stream(tournament, "tables")

    async def scenario():
        assert (await Answer(url).start()).status == 200
        tournament.public_pairings = tournament.public_standings = False
        tournament.public_results = False
        await sync_to_async(tournament.save)()
        assert (await Answer(url).start()).status == 404

    run(scenario)


def test_the_public_stream_carries_only_what_is_published_in_the_pages_language(settings):
    settings.REDIS_URL = ""
    tournament, party = cup_in_play()
    tournament.refresh_from_db()
    tournament.public_standings = False
    tournament.save(update_fields=["public_standings"])

    async def scenario():
        url = public_stream(tournament, "standings,tables,screen,nonsense")
        stream = await open_stream(url, language="de")
        assert (await next_event(stream))[0] == "hello"
        await sync_to_async(play)(party, 1)
        _, data = await next_event(stream)
        assert set(data["parts"]) == {"tables", "screen"}
        assert ">Tisch<" in data["parts"]["screen"]  # the tables' slide, in German
        assert data["shown"].endswith("-1-0-1")  # the flags: pairings, standings, results

    run(scenario)


def test_the_parts_are_read_once_for_all_the_streams_of_a_process(settings, monkeypatch):
    settings.REDIS_URL = ""
    tournament, party = cup_in_play()
    reads = []

    class Counting:
        def __getattr__(self, name):
            return getattr(cache, name)

        def get_many(self, keys):
            reads.append(keys)
            return cache.get_many(keys)

    monkeypatch.setattr(events, "cache", Counting())

    async def scenario():
        opened = [await open_stream(public_stream(tournament, "tables")) for _ in range(5)]
        for stream in opened:
            assert (await next_event(stream))[0] == "hello"
        await sync_to_async(enter)(party, 1)  # one board
        told = [await next_event(stream) for stream in opened]
        assert {data["version"] for _, data in told} == {told[0][1]["version"]}
        assert all("tables" in data["parts"] for _, data in told)
        # (Each hello reads the counter: the parts are read once.)
        assert len([keys for keys in reads if "tables-part:" in keys[0]]) == 1

    run(scenario)


def test_with_the_cache_away_the_news_comes_bare_and_the_page_asks(settings, monkeypatch):
    settings.REDIS_URL = ""
    tournament, party = cup_in_play()

    class Away:
        def get_many(self, keys):
            raise ConnectionError("the cache is away")

    async def scenario():
        stream = await open_stream(public_stream(tournament, "tables"))
        assert (await next_event(stream))[0] == "hello"
        monkeypatch.setattr(events, "cache", Away())
        await sync_to_async(enter)(party, 1)
        kind, data = await next_event(stream)
        assert (kind, data["counter"]) == ("moved", "board")
        assert "parts" not in data

    run(scenario)


def test_the_night_stream_is_the_organizers_alone(client, settings):
    settings.REDIS_URL = ""
    night = ClubNightFactory()
    url = reverse("manage:night-events", args=[night.pk])
    assert client.get(url).status_code == 302  # to the login
    stranger = OrganizerFactory()
    client.force_login(stranger.player.user)
    assert client.get(url).status_code == 404

    own = OrganizerFactory(club=night.club)
    client.force_login(own.player.user)
    cookie = f"sessionid={client.cookies['sessionid'].value}"

    async def scenario():
        stream = await open_stream(url, cookie)
        assert (await next_event(stream))[0] == "hello"
        # A party started at the night is told before any hand is played...
        party = await sync_to_async(start_night_party)(night)
        kind, data = await next_event(stream)
        assert (kind, data["counter"]) == ("moved", "night")
        # ...and so is every hand at its tables.
        await sync_to_async(play)(party, 1)
        kind, data = await next_event(stream)
        assert (kind, data["counter"]) == ("moved", "night")

    run(scenario)


def test_a_server_that_cannot_hold_a_stream_tells_the_page_to_poll(client):
    seat = start_party().seats.first()
    response = client.get(events_url(seat))  # the sync test client: a WSGI request
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/event-stream")
    assert response.content == b"event: poll\ndata: {}\n\n"


def test_a_stream_stays_silent_while_redis_is_away_so_the_page_polls(settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/12"  # nothing listens there
    seat = start_party().seats.first()

    async def scenario():
        stream = await open_stream(events_url(seat))
        with pytest.raises(TimeoutError):
            await next_event(stream, wait=1.5)

    run(scenario)


def test_an_open_stream_holds_no_thread_and_no_database_connection(settings):
    """Django keeps a thread for a request its sync middleware touched until the
    answer ends: the streams are served after it, so a thousand open pages do not
    mean a thousand threads."""
    settings.REDIS_URL = ""
    seats = list(start_party().seats.all())

    def database_clients():
        """PostgreSQL's sessions on the test database (SQLite has none to count)."""
        if connection.vendor != "postgresql":
            return None
        with connection.cursor() as cursor:
            sql = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            cursor.execute(sql)
            return cursor.fetchone()[0]

    def held():
        """The threads besides the event loop's pool of its cache reads (asyncio_N),
        whose size is fixed whatever the number of streams."""
        return [t.name for t in threading.enumerate() if not t.name.startswith("asyncio_")]

    async def open_each():
        opened = [await open_stream(events_url(seat)) for seat in seats * 3]
        for stream in opened:
            assert (await next_event(stream))[0] == "hello"
        return opened

    async def scenario():
        # Streams opened first, so the threads that run the checks before a stream
        # (a seat's first opening goes through Django, the next ones not) and the
        # pools' threads exist before counting: what is counted is the threads the
        # open streams hold, not the ones the first requests start.
        first = await open_each()
        clients = await sync_to_async(database_clients)()
        threads = held()
        opened = await open_each()
        # At most as many as before: a thread or session left over from an earlier
        # test may end meanwhile, but six more open streams add none. The loop's
        # own pool (its cache reads) may still grow, to its fixed size at most.
        assert len(held()) <= len(threads), held()
        assert len(threading.enumerate()) - len(held()) <= min(32, os.cpu_count() + 4)
        if clients is not None:
            assert await sync_to_async(database_clients)() <= clients
        assert streams.hub.count() == len(first) + len(opened)

    run(scenario)
    assert streams.hub.count() == 0


def test_streams_ask_to_be_reopened_after_spread_out_waits(settings):
    """A worker's death cuts all its streams at once: their pages must not all
    come back in the same second (each reconnection runs the seat's checks)."""
    settings.REDIS_URL = ""
    seats = list(start_party().seats.all())

    async def scenario():
        waits = []
        for seat in seats * 5:
            stream = await open_stream(events_url(seat))
            await next_event(stream)  # the hello, after the retry line
            retry = next(line for line in stream.raw.splitlines() if line.startswith("retry:"))
            waits.append(int(retry.split(":")[1]))
        assert all(
            streams.RETRY_MS <= wait < streams.RETRY_MS + streams.RETRY_SPREAD_MS for wait in waits
        )
        assert len(set(waits)) > 1

    run(scenario)
