"""Two phones at a table and the wall screen hear a confirmed hand over their live
streams, and a page whose stream is silent or broken polls by itself.

pytest-django's live server is a WSGI thread server, which cannot hold a stream
(it tells the page to poll). The pushed case is served by uvicorn, the ASGI server of
`make run` and production, started in this process by a fixture: the hand
committed in the test's thread reaches the streams in memory, as on the embedded
default (or through Redis, when the suite runs with it)."""

import itertools
import json
import re
import threading
import time

import pytest
import uvicorn
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.cache import cache
from playwright.sync_api import expect

from config.asgi import application
from live import streams
from scoring.services import hands
from scoring.services.knocks import Result
from tests.browser.conftest import PHONE, close, until
from tests.factories import ClubFactory, MembershipFactory, start_party
from tournaments import registration, rounds, stored_board, tables
from tournaments.public import parts

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: A page's stream, whatever it asks to carry (the public pages' ?parts=…).
STREAMS = re.compile(r"/events/(\?.*)?$")


@pytest.fixture
def asgi_server(settings, transactional_db):
    """uvicorn serving Knock on a free port, in a thread of the test process. With
    REDIS_URL (the suite's second pass) the hands reach it through Redis, else in
    memory."""
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    app = ASGIStaticFilesHandler(application)
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=0,
        log_level="warning",
        lifespan="off",
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(100):
        if server.started:
            break
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(5)


@pytest.fixture
def browse(chromium):
    """Phone-sized pages, each with its own cookies, on any server."""
    contexts = []

    def open_page(url, init_script=None):
        context = chromium.new_context(viewport=PHONE, locale="en-US", is_mobile=True)
        contexts.append(context)
        if init_script:
            context.add_init_script(init_script)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(url)
        return page

    yield open_page
    for context in contexts:
        # Chromium now and then never answers a seat page's context closing (its
        # service worker): `close` ends the wait instead of the suite's timeout.
        close(context)


def table_in_play():
    """A tournament of four in its first round, and table 1's seats."""
    club = ClubFactory()
    tournament = registration.tournament_create(club=club, name="Autumn Cup")
    players = [MembershipFactory(club=club, player__name=n, listed=True).player for n in "ABCD"]
    registration.entrant_register(tournament=tournament, players=players)
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    view = table_one(rounds.round_start(tournament=tournament))
    seats = list(view.table.party.seats.order_by("position"))
    entrant = next(e for e in view.entrants if e.player_id == seats[0].player_id)
    return tournament, seats, entrant


def table_one(round):
    """Table 1 of the round, once paired: on commit, in this process or (with
    Redis) by the Celery worker."""
    for _ in range(150):
        views = [v for v in tables.round_tables(round) if v.table.number == 1]
        if views:
            return views[0]
        time.sleep(0.1)
    raise AssertionError("round not paired")


def gin_against_90(seats):
    """Hand 1 entered at one phone and confirmed at the other: the party is over,
    +330 for the winner (110, box 20, game 100, shutout 100)."""
    winner, loser = seats
    result = Result("gin", knocker=winner.position, knocker_deadwood=0, defender_deadwood=90)
    hands.hand_enter(seat=winner, number=1, entry=result)
    hands.hand_confirm(seat=loser, number=1, version=1)


def asks(page, pattern):
    """The requests the page makes to URLs containing ``pattern``, from now on."""
    seen = []
    page.on("request", lambda request: seen.append(request.url) if pattern in request.url else 0)
    return seen


def test_two_phones_and_the_screen_hear_a_confirmed_hand_over_their_streams(asgi_server, browse):
    tournament, seats, entrant = table_in_play()
    phones = [browse(asgi_server + seat.get_absolute_url()) for seat in seats]
    screen = browse(f"{asgi_server}/t/{tournament.slug}/screen/")
    pages = [*phones, screen]
    polls = [asks(page, "/state/") for page in phones] + [asks(screen, "/live/")]
    for page in pages:
        expect(page.locator("html")).to_have_attribute("data-push", "live")

    # While the streams speak, nobody polls: longer than a poll's three seconds
    # passes without a single request. The phones' hellos found them drawn at
    # the seat's number, so they asked nothing at all; the screen asked once.
    screen.wait_for_timeout(1000)
    before = [list(asked) for asked in polls]
    screen.wait_for_timeout(4000)
    assert polls == before
    assert before[:2] == [[], []]
    assert len(before[2]) <= 1, before

    gin_against_90(seats)

    for phone in phones:
        expect(phone.locator("#table")).to_contain_text("330")
    expect(screen.locator(f"[data-entrant='{entrant.pk}']")).to_contain_text("+330")


NO_EVENTSOURCE = "delete window.EventSource;"


def test_a_browser_without_eventsource_polls(live_server, browse):
    tournament, seats, entrant = table_in_play()
    phone = browse(live_server.url + seats[1].get_absolute_url(), NO_EVENTSOURCE)
    screen = browse(f"{live_server.url}/t/{tournament.slug}/screen/", NO_EVENTSOURCE)
    for page in (phone, screen):
        expect(page.locator("html")).to_have_attribute("data-push", "poll")
    gin_against_90(seats)
    expect(phone.locator("#table")).to_contain_text("330")
    expect(screen.locator(f"[data-entrant='{entrant.pk}']")).to_contain_text("+330")


@pytest.mark.parametrize("proxy", ["buffers", "fails"])
def test_a_page_whose_stream_is_silent_or_broken_polls(asgi_server, browse, proxy):
    """A proxy that buffers the stream: the answer never arrives, and a page just
    drawn waits ten seconds for it before it polls (its hello would say what moved
    meanwhile). One that fails: the stream errors (and the browser keeps trying),
    and the page polls from its first tick."""
    tournament, seats, entrant = table_in_play()
    held = []

    def route(route):
        if proxy == "buffers":
            held.append(route)  # never answered
        else:
            route.fulfill(status=502, body="Bad Gateway")

    def timed(page, polled):
        """Seconds from now to each of the page's requests that ``polled``."""
        drawn, times = time.monotonic(), []
        page.on("request", lambda r: polled(r) and times.append(time.monotonic() - drawn))
        return times

    def phone_polled(request):
        # The poll sends the page's number as ETag (the check of the offline queue,
        # made when the page is shown, does not).
        return "/state/" in request.url and "if-none-match" in request.headers

    def screen_polled(request):
        return "/live/" in request.url

    pages, waited = [], []
    for url, polled in (
        (seats[1].get_absolute_url(), phone_polled),
        (f"/t/{tournament.slug}/screen/", screen_polled),
    ):
        page = browse("about:blank")
        page.route(STREAMS, route)
        waited.append(timed(page, polled))
        page.goto(asgi_server + url)
        pages.append(page)
    phone, screen = pages
    for page in pages:
        expect(page.locator("html")).to_have_attribute("data-push", "poll")
    gin_against_90(seats)
    # Both poll every three seconds: within the quiet ten, a failed stream's page
    # has polled, a buffered one's has not.
    until(phone, lambda: all(waited), seconds=25)
    for polls in waited:
        assert polls[0] >= 10 if proxy == "buffers" else polls[0] < 10, polls
    expect(phone.locator("#table")).to_contain_text("330")
    expect(screen.locator(f"[data-entrant='{entrant.pk}']")).to_contain_text("+330")


def sse(*events, retry_ms=50):
    """A whole event stream, ended: the browser reconnects by itself after
    ``retry_ms``."""
    lines = [f"retry: {retry_ms}\n\n"]
    lines += [f"event: {kind}\ndata: {json.dumps(data)}\n\n" for kind, data in events]
    return "".join(lines)


def test_a_stream_refused_while_live_restarts_is_opened_again_ever_later(asgi_server, browse):
    """While `live` restarts, the proxy answers the streams 502 or 503, and the
    browser gives such a stream up for good: the page opens a new one itself, each
    time after a longer wait, and after a hello it starts again from the shortest.
    The hellos here ask for a fifth of a second as the first wait (the server says
    one second), so the waits are 0.2–0.4, 0.4–0.8, 0.8–1.6 s, and 0.2–0.4 s after
    the next hello. The last stream is the server's own."""
    seat = start_party().seats.first()
    hello = ("hello", {"ping": streams.PING_SECONDS, "settle": 0, "reopen": 0.2})
    answers = [
        sse(hello),
        503,
        502,
        503,
        sse(hello, ("moved", {"counter": "seat", "version": 1})),
        502,
    ]
    opened = []

    def route(route):
        opened.append(time.monotonic())
        if len(opened) > len(answers):
            route.continue_()
        elif isinstance(answer := answers[len(opened) - 1], int):
            route.fulfill(status=answer, content_type="text/html", body="Bad Gateway")
        else:
            route.fulfill(status=200, content_type="text/event-stream", body=answer)

    page = browse("about:blank")
    page.route(STREAMS, route)
    page.goto(asgi_server + seat.get_absolute_url())
    until(page, lambda: len(opened) > len(answers))
    expect(page.locator("html")).to_have_attribute("data-push", "live")

    gaps = [later - earlier for earlier, later in itertools.pairwise(opened)]
    refused = gaps[1:4]  # after the 503, the 502 and the 503
    # Each wait at least its step, which doubles; at most twice it, with room
    # for a busy machine.
    for gap, step in zip(refused, (0.2, 0.4, 0.8), strict=True):
        assert step <= gap < 2 * step + 1.5, gaps
    assert refused[0] < refused[2], gaps
    # After the hello, the shortest wait again (without it, 1.6 s at least).
    assert 0.2 <= gaps[5] < 1.6, gaps
    assert len(opened) == len(answers) + 1  # the server's stream holds


def test_a_page_on_a_server_that_holds_no_streams_polls_and_asks_for_none_again(
    live_server, browse
):
    seat = start_party().seats.first()
    page = browse("about:blank")
    opened, polls = asks(page, "/events/"), asks(page, "/state/")
    page.goto(live_server.url + seat.get_absolute_url())
    # Two polls, six seconds: a refused stream would have been asked for again.
    until(page, lambda: len(polls) >= 2)
    expect(page.locator("html")).to_have_attribute("data-push", "poll")
    assert len(opened) == 1


def test_a_stream_that_falls_silent_is_given_up_and_opened_again(asgi_server, browse, monkeypatch):
    """A stream that said hello and then no longer speaks (a connection dead
    without a word) is given up once its pings are overdue: the page polls, and
    opens a new one."""
    monkeypatch.setattr(streams, "PING_SECONDS", 0.5)  # told in the hello: overdue after 5.5 s
    seat = start_party().seats.first()
    page = browse(asgi_server + seat.get_absolute_url())
    html = page.locator("html")
    expect(html).to_have_attribute("data-push", "live")
    opened = asks(page, "/events/")

    monkeypatch.setattr(streams, "PING_SECONDS", 60)  # the open stream falls silent
    expect(html).to_have_attribute("data-push", "poll", timeout=15_000)
    expect(html).to_have_attribute("data-push", "live")
    assert len(opened) == 1


HIDE = """(hidden) => {
  Object.defineProperty(document, "hidden", { value: hidden, configurable: true });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_a_tab_in_the_background_gives_its_stream_up_and_polls(asgi_server, browse):
    tournament, seats, entrant = table_in_play()
    screen = browse(f"{asgi_server}/t/{tournament.slug}/screen/")
    html = screen.locator("html")
    expect(html).to_have_attribute("data-push", "live")
    opened = asks(screen, "/events/")

    screen.evaluate(HIDE, True)
    expect(html).to_have_attribute("data-push", "poll")
    gin_against_90(seats)
    # By the poll, the stream given up.
    expect(screen.locator(f"[data-entrant='{entrant.pk}']")).to_contain_text("+330")
    assert opened == []

    screen.evaluate(HIDE, False)
    expect(html).to_have_attribute("data-push", "live")
    assert len(opened) == 1


def test_the_night_page_and_the_round_page_hear_a_hand_over_their_streams(asgi_server, browse):
    from django.urls import reverse

    from scoring.services.hands import hand_enter
    from tests.factories import ClubNightFactory, OrganizerFactory, start_night_party

    organizer = OrganizerFactory(player__user__username="desk")
    night = ClubNightFactory(club=organizer.club, name="Friday")
    party = start_night_party(night, label="Table 1")
    tournament = registration.tournament_create(club=organizer.club, name="Autumn Cup")
    players = [
        MembershipFactory(club=organizer.club, player__name=n, listed=True).player for n in "ABCD"
    ]
    registration.entrant_register(tournament=tournament, players=players)
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    table = table_one(rounds.round_start(tournament=tournament)).table

    desk = browse(f"{asgi_server}/login/?next=/manage/nights/{night.pk}/")
    desk.get_by_label("Username").fill("desk")
    desk.get_by_label("Password").fill("correct horse battery")
    desk.get_by_role("button", name="Log in").click()
    expect(desk.locator("html")).to_have_attribute("data-push", "live")
    monitor = desk.context.new_page()
    monitor.goto(asgi_server + reverse("manage:round-detail", args=[tournament.slug, 1]))
    expect(monitor.locator("html")).to_have_attribute("data-push", "live")
    polls = [asks(desk, "/tables/"), asks(monitor, "/tables/")]
    desk.wait_for_timeout(4000)
    assert polls == [[], []]  # no poll while the streams speak

    for disputed in (party, table.party):  # the two phones disagree
        a, b = disputed.seats.order_by("position")
        hand_enter(seat=a, number=1, entry=Result("knock", a.position, 3, 21))
        hand_enter(seat=b, number=1, entry=Result("knock", a.position, 3, 12))
    expect(desk.locator(f"#table-{party.pk}")).to_have_attribute("data-state", "disputed")
    expect(monitor.locator("#table-1")).to_have_attribute("data-state", "disputed")


def test_a_spectator_is_shown_each_stored_board_by_its_stream_without_asking(asgi_server, browse):
    """The public stream speaks only after a new board is stored
    (tournaments/stored_board.py), and carries the parts the page shows as the
    builder rendered them with that board: a spectator told of six hands shows the
    last one without asking anything, and its page's version is the last board's.
    A part the builder did not keep is asked for (the next test). The asks are
    counted by the browser's own resource timing."""
    tournament, seats, _ = table_in_play()
    screen = browse(f"{asgi_server}/t/{tournament.slug}/screen/")
    expect(screen.locator("html")).to_have_attribute("data-push", "live")
    screen.wait_for_timeout(500)  # the hello's ask is over
    since = screen.evaluate("performance.now()")
    row = screen.locator("[data-table='1']")
    counter = stored_board.board_stored_key(tournament.pk)

    def knocker_shows(points):  # in whichever column the knocker sits
        expect(row.locator("td", has_text=re.compile(f"^{points}$"))).to_have_count(1)

    winner, loser = seats
    for number in range(1, 7):
        result = Result("knock", knocker=winner.position, knocker_deadwood=1, defender_deadwood=3)
        hands.hand_enter(seat=winner, number=number, entry=result)
        hands.hand_confirm(seat=loser, number=number, version=1)
        screen.wait_for_timeout(350)

    # A knock of 1 against 3, six times: 12 at the table.
    knocker_shows(12)
    shown = stored_board.version_form(tournament).format(cache.get(counter))
    expect(screen.locator("#screen")).to_have_attribute("data-version", shown)
    screen.wait_for_timeout(4000)  # longer than a poll: nothing moves, nothing is asked
    asks = screen.evaluate(
        """since => performance.getEntriesByType("resource")
            .filter(entry => entry.name.includes("/live/") && entry.startTime > since)
            .length""",
        since,
    )
    assert asks == 0


def test_a_part_the_stream_did_not_carry_is_asked_for_once_per_board(
    asgi_server, browse, monkeypatch
):
    """The builder keeps no part (none was asked for lately, as after a quiet
    spell): each stored board's news comes bare, and the page asks for its part,
    at most once per board stored, and shows the last hand."""
    monkeypatch.setattr(parts, "_asked", lambda pk: {})
    tournament, seats, entrant = table_in_play()
    screen = browse(f"{asgi_server}/t/{tournament.slug}/screen/")
    expect(screen.locator("html")).to_have_attribute("data-push", "live")
    screen.wait_for_timeout(500)  # the hello's ask is over
    since = screen.evaluate("performance.now()")
    counter = stored_board.board_stored_key(tournament.pk)
    first = cache.get(counter)

    gin_against_90(seats)
    expect(screen.locator(f"[data-entrant='{entrant.pk}']")).to_contain_text("+330")
    stored = cache.get(counter) - first
    screen.wait_for_timeout(4000)  # longer than a poll: nothing moves, nothing is asked
    asks = screen.evaluate(
        """since => performance.getEntriesByType("resource")
            .filter(entry => entry.name.includes("/live/") && entry.startTime > since)
            .length""",
        since,
    )
    assert 1 <= asks <= stored, (asks, stored)


def test_a_spectator_whose_stream_ended_is_told_on_its_return_what_it_missed(
    asgi_server, browse, monkeypatch
):
    """A stream ends (its time, a `live` worker's death) and the browser opens it
    again with the id of the last event it heard (Last-Event-ID): the new stream
    carries what changed while the page had none, which the page applies to the
    text it holds. The page's asks are refused here: only the stream can show it."""
    monkeypatch.setattr(streams, "STREAM_SECONDS", 2)
    monkeypatch.setattr(streams, "RETRY_MS", 3000)  # the browser waits this long
    monkeypatch.setattr(streams, "RETRY_SPREAD_MS", 1)
    named = []
    last_told = streams.last_told
    monkeypatch.setattr(
        streams, "last_told", lambda ident, *rest: named.append(ident) or last_told(ident, *rest)
    )
    tournament, seats, _ = table_in_play()
    screen = browse("about:blank")
    screen.route("**/live/**", lambda route: route.abort())
    screen.goto(f"{asgi_server}/t/{tournament.slug}/screen/")
    html = screen.locator("html")
    expect(html).to_have_attribute("data-push", "live")
    row = screen.locator("[data-table='1']")
    winner, loser = seats

    def knock(number):
        result = Result("knock", knocker=winner.position, knocker_deadwood=1, defender_deadwood=3)
        hands.hand_enter(seat=winner, number=number, entry=result)
        hands.hand_confirm(seat=loser, number=number, version=1)

    knock(1)
    expect(row.locator("td", has_text=re.compile("^2$"))).to_have_count(1)
    expect(html).to_have_attribute("data-push", "poll")  # the stream ended
    knock(2)  # while the browser waits to reopen it
    expect(row.locator("td", has_text=re.compile("^4$"))).to_have_count(1)
    expect(html).to_have_attribute("data-push", "live")
    assert named[0] == "" and all(ident.startswith("board=") for ident in named[1:]), named
