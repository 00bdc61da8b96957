"""The championship's crowd, for locust (run by benchmarks/load.py).

- ``Phone``: one per seat of the first ``LOAD_TABLES`` tables of the manifest. As the
  page's script (static/js/push.js, table.js) it holds the seat's event stream on the
  live server (``LOAD_LIVE``) and, when told, asks the seat's number with the page's
  number as ETag and loads the page again when it moved (a loaded page opens a new
  stream, as the browser's does). While the stream is silent (dropped, Redis away,
  not there 10 s after the page was loaded) it polls every 3 s instead. One phone of
  a table enters a hand every ``LOAD_HAND_SECONDS`` or so; the other confirms what
  its page shows. Now and then a phone taps twice (the same form again) or sends a
  page that is out of date.
- ``Spectator``: the public tournament page or the screen, with the tournament's
  stream; told, it asks its live parts as push.js does: at most once per the board's
  settle time (at once after a quiet spell, once more when the board can have
  moved); polling them while the stream is silent.
- ``Director``: logged in, on the round page, which polls its tables.
- ``Hammer``: one address as fast as it is answered (``LOAD_PATH``), for comparing
  the seat poll with /health/.

Every phone writes down what the site told it (entered, confirmed) in the ledger
(``LOAD_LEDGER``), which `benchmarks.championship check` holds against the database,
and how long after each confirmation's answer both phones' streams and the
spectators' streams were told of it. Requests carry the headers the TLS proxy adds
in production.

The streams are held here, each by a greenlet of the user that follows it, rather
than by a separate client: the user then acts on what its stream says, as the page
does, and the confirmation and the streams that hear of it share one clock."""

from __future__ import annotations

import bisect
import contextlib
import itertools
import json
import os
import random
import re
import socket
import time
from html import unescape
from http.cookiejar import DefaultCookiePolicy
from urllib.parse import urlsplit

import gevent
from gevent.event import Event
from locust import FastHttpUser, between, constant, events, task

from benchmarks.load_figures import SETTLE_SECONDS
from live.events import patched


def _manifest() -> dict:
    if "LOAD_MANIFEST" not in os.environ:
        return {}
    with open(os.environ["LOAD_MANIFEST"]) as file:
        return json.load(file)


MANIFEST = _manifest()
TABLES = MANIFEST.get("tables", [])[: int(os.environ.get("LOAD_TABLES", 0))]
HAND_SECONDS = float(os.environ.get("LOAD_HAND_SECONDS", 120))
POLL = 3.0
#: A page just loaded does not poll while its first stream opens, this long at
#: most (push.js's QUIET): the hello says what moved meanwhile.
QUIET = 10.0
LIVE = os.environ.get("LOAD_LIVE", "")  # the live server (streams); none: poll only
#: A confirmation not heard of within this long counts as not told (its page
#: caught up by the poll instead); those in the run's last seconds are not counted.
TOLD_WITHIN = 30.0
LAST = 5.0

ledger = {"entered": [], "confirmed": [], "refused_as_expected": 0, "unexpected": []}
#: Each confirmation: (party, the confirming phone's index, sent, answered, the
#: stored board's counter then), on the wall clock.
confirms: list[tuple[int, int, float, float, int | None]] = []
#: Each party's two phones' "moved" events (arrival times), and the spectators'
#: "moved" events of the stored board (arrival time, counter number).
heard_by_party: dict[int, list[list[float]]] = {}
#: Each party's two phones' "hello" events (arrival times): a page whose stream
#: opened after a confirmation's answer asks on its hello what it missed, so it is
#: told then (a simulated phone that confirms the moment its reloaded page shows
#: the hand does so before the other page's new stream is open, which a player's
#: thumb is not quick enough to do).
hellos_by_party: dict[int, list[list[float]]] = {}
#: Of those, the hellos whose counter was not the one the phone's page was drawn
#: at (so the page asked): a stream opened between a confirmation's commit and its
#: answer says hello with the new number, and the page is told then. (Its ask may
#: also come just before the commit; the event that follows tells it then, a few
#: milliseconds later than counted.)
woken_by_party: dict[int, list[list[float]]] = {}
board_heard: list[list[tuple[float, int]]] = []
streams = {"opened": 0, "dropped": 0, "refused": 0, "refused_by": {}}
#: The live parts the spectators' events carried (shown without an ask): whole, or
#: as the lines changed since the text the page held; and the bytes the streams of
#: the spectators received.
spectators = {"carried": 0, "changed": 0, "bytes": 0}
#: Seconds from each stream's loss (dropped, refused) to its next hello; and the
#: streams lost and not back when the run ended (their loss times).
back_on_stream: list[float] = []
lost: dict[int, float] = {}
#: How late the load generator's own loop woke from a 0.1-s sleep, in ms: every
#: request it times includes this much of its own waiting.
own_delay: list[float] = []
_seats = itertools.chain.from_iterable(
    ((table, index) for index in range(len(table["seats"]))) for table in TABLES
)
_addresses = itertools.count(1)


class _SecureCookiesOverPlainHttp(DefaultCookiePolicy):
    """The site marks its cookies Secure (it is served over HTTPS); this test talks
    plain HTTP to gunicorn, behind where the proxy ends TLS, so it sends them anyway."""

    def return_ok_secure(self, cookie, request):
        return True


class _Client(FastHttpUser):
    abstract = True

    def on_start(self):
        self.client.cookiejar.set_policy(_SecureCookiesOverPlainHttp())
        n = next(_addresses)
        self.proxy_headers = {
            "X-Forwarded-Proto": "https",
            "X-Forwarded-For": f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}",
        }

    def get(self, path, name, headers=None, **kwargs):
        return self.client.get(path, name=name, headers={**self.proxy_headers, **(headers or {})})

    def post(self, path, data, name):
        headers = {**self.proxy_headers, "Origin": f"https://{self.host.split('://')[1]}"}
        return self.client.post(path, data=data, name=name, headers=headers, allow_redirects=False)


def _field(html: str, form_id: str, name: str) -> str | None:
    form = re.search(rf'<form[^>]*id="{form_id}".*?</form>', html, re.S)
    if form is None:
        return None
    found = re.search(rf'name="{name}" value="([^"]*)"', form.group(0))
    return found.group(1) if found else None


def _message(html: str) -> tuple[str, str] | None:
    found = re.search(r'<ul class="messages">\s*<li class="([^"]*)">(.*?)</li>', html, re.S)
    return (found.group(1), found.group(2)) if found else None


class Stream:
    """An EventSource as the page's script keeps it (push.js), on a greenlet: it
    opens the stream, hands each event to ``told(kind, data, when)``, and after the
    stream ends (the server closed it, a worker died, the connection dropped)
    opens it again after the server's retry; refused (a 502/503 while ``live``
    restarts), after a wait that doubles and is spread at random, 1–2 s up to
    30–60 s, and starts over after a hello. ``renew`` ends it at once and opens a
    new one (a page reload)."""

    def __init__(self, path: str, headers: dict, told):
        live = urlsplit(LIVE)
        self.address = (live.hostname, live.port)
        lines = [f"GET {path} HTTP/1.1", f"Host: {live.netloc}", "Accept: text/event-stream"]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        self.request = ("\r\n".join(lines) + "\r\n\r\n").encode()
        self.told = told
        self.heard = 0.0
        self.grace = 20.0
        self.retry = 3.0
        self.refusals = 0
        self.received = 0  # bytes, as the stream's chunks say
        self.sock = None
        self.renewing = False
        self.quiet = time.time() + QUIET  # until then the page waits for its hello
        self.greenlet = gevent.spawn(self._run)

    def live(self) -> bool:
        return self.heard != 0 and time.time() - self.heard < self.grace

    def awaited(self) -> bool:
        """Live, or the page's first stream still on its way: no poll needed."""
        return self.live() or time.time() < self.quiet

    def renew(self) -> None:
        self.quiet = time.time() + QUIET
        if self.sock is None:  # waiting to open it again: the new page opens it now
            self.greenlet.kill(block=False)
            self.greenlet = gevent.spawn(self._run)
        else:
            self.renewing = True
            with contextlib.suppress(OSError):
                self.sock.shutdown(socket.SHUT_RDWR)

    def stop(self) -> None:
        lost.pop(id(self), None)
        self.greenlet.kill(block=False)

    def _run(self) -> None:
        """Until the user stops (``stop``)."""
        while True:
            refused = False
            with contextlib.suppress(OSError, ValueError):
                refused = self._once()
            self.sock = None
            self.heard = 0.0
            if self.renewing:
                self.renewing = False
                continue
            self.quiet = 0.0  # failed or ended: the page polls until the next hello
            lost.setdefault(id(self), time.time())
            if refused:
                wait = min(2**self.refusals, 30)
                self.refusals += 1
                gevent.sleep(wait * (1 + random.random()))
            else:
                streams["dropped"] += 1
                gevent.sleep(self.retry)

    def _once(self) -> bool:
        """One stream, until it ends; True when the server refused it."""
        with socket.create_connection(self.address) as sock:
            self.sock = sock
            sock.sendall(self.request)
            file = sock.makefile("rb")
            status = file.readline().split()
            if len(status) < 2 or status[1] != b"200":
                streams["refused"] += 1
                code = status[1].decode() if len(status) > 1 else "no status"
                streams["refused_by"][code] = streams["refused_by"].get(code, 0) + 1
                return True
            while file.readline() not in (b"\r\n", b""):
                pass  # the headers: chunked, as every stream uvicorn answers
            streams["opened"] += 1
            buffer = b""
            while True:
                size = int(file.readline().strip() or b"0", 16)
                if size == 0:
                    return False
                self.received += size
                buffer += file.read(size)
                file.readline()
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    self._event(block.decode())

    def _event(self, block: str) -> None:
        now = time.time()
        kind, data = "message", ""
        for line in block.split("\n"):
            name, _, value = line.partition(": ")
            if name == "event":
                kind = value
            elif name == "data":
                data = value
            elif line.startswith("retry:"):
                self.retry = int(line[6:]) / 1000
        if not data:
            return  # a comment (": waiting") or the retry alone
        data = json.loads(data)
        if kind == "hello":
            self.grace = float(data["ping"]) + 5
            self.refusals = 0
            since = lost.pop(id(self), None)
            if since is not None:
                back_on_stream.append(now - since)
        self.heard = now
        self.told(kind, data, now)


def _streamed(user, path):
    return Stream(path, user.proxy_headers, user.told) if LIVE else None


class Phone(_Client):
    wait_time = constant(0)  # the page waits itself: for its stream, or to poll

    def on_start(self):
        super().on_start()
        table, self.index = next(_seats)
        self.party = table["party"]
        seat = table["seats"][self.index]
        self.token, self.position = seat["token"], seat["position"]
        self.other = table["seats"][1 - self.index]["position"]
        self.enters = self.index == 0  # one phone enters, the other confirms
        self.next_hand = time.monotonic() + random.uniform(0, HAND_SECONDS)
        self.last_entry = None  # (form data) of the last hand this phone entered
        self.wake = Event()
        self.heard = heard_by_party.setdefault(self.party, [[], []])[self.index]
        self.hellos = hellos_by_party.setdefault(self.party, [[], []])[self.index]
        self.woken = woken_by_party.setdefault(self.party, [[], []])[self.index]
        self.version = None  # the page's number, once it is loaded
        self.stream = _streamed(self, f"/table/{self.token}/events/")
        self.load()

    def on_stop(self):
        if self.stream is not None:
            self.stream.stop()

    def told(self, kind, data, when):
        if kind == "moved":
            self.heard.append(when)
        elif kind == "hello":
            self.hellos.append(when)
        # On hello the page asks what it missed, unless the hello finds it drawn
        # at the seat's number now (static/js/push.js).
        woken = kind == "hello" and data["versions"].get("seat") != self.version
        if woken:
            self.woken.append(when)
        if kind == "moved" or woken:
            self.wake.set()

    def load(self):
        response = self.get(f"/table/{self.token}/", name="seat page")
        self.html = response.text or ""
        found = re.search(r'id="table"[^>]*data-version="([^"]+)"', self.html)
        self.version = found.group(1) if found else ""
        if self.stream is not None:
            self.stream.renew()  # the new page opens its own stream

    @task
    def follow(self):
        if self.stream is not None and self.stream.awaited():
            told = self.wake.wait(timeout=POLL)
        else:
            told = False
            gevent.sleep(POLL)
        self.wake.clear()
        if told or self.stream is None or not self.stream.awaited():
            self.poll()
        if self.enters:
            self.maybe_enter()
        else:
            self.maybe_confirm()

    def poll(self):
        response = self.get(
            f"/table/{self.token}/state/",
            name="seat poll",
            headers={"If-None-Match": f'"{self.version}"'},
        )
        if response.status_code == 200:
            self.load()

    def maybe_enter(self):
        if time.monotonic() < self.next_hand or 'id="pending-hand"' in self.html:
            return
        number = _field(self.html, "quick-entry", "number")
        if number is None:  # the party is over
            return
        if self.last_entry and random.random() < 0.05:
            # A page left open from before: the hand it shows is recorded already.
            stale = {**self.last_entry, "key": os.urandom(8).hex()}
            self.send_entry(stale, expect="error", name="entry (stale page)")
        knocker = random.choice((self.position, self.other))
        data = {
            "csrfmiddlewaretoken": _field(self.html, "quick-entry", "csrfmiddlewaretoken"),
            "number": number,
            "key": _field(self.html, "quick-entry", "key"),
            "ending": "knock",
            "knocker": knocker,
            "knocker_deadwood": random.randint(0, 10),
            "defender_deadwood": random.randint(0, 60),
        }
        if self.send_entry(data, expect="success", name="entry"):
            sent = ["knock", knocker, data["knocker_deadwood"], data["defender_deadwood"]]
            ledger["entered"].append([self.party, int(number), sent])
            self.last_entry = data
            self.next_hand = time.monotonic() + HAND_SECONDS * random.uniform(0.8, 1.2)
            if random.random() < 0.05:  # a double tap: the same form, the same key
                self.send_entry(data, expect="success", name="entry (double tap)")

    def maybe_confirm(self):
        if _field(self.html, "confirm-hand", "version") is None:
            return
        data = {
            name: _field(self.html, "confirm-hand", name)
            for name in ("csrfmiddlewaretoken", "number", "version", "key")
        }
        sent = time.time()
        if self.send(f"/table/{self.token}/confirm/", data, "success", "confirm", sent):
            ledger["confirmed"].append([self.party, int(data["number"])])
            if random.random() < 0.05:  # a double tap: the same form, the same key
                self.send(f"/table/{self.token}/confirm/", data, "success", "confirm (double tap)")
            elif random.random() < 0.05:  # the old page, tapped again later: a new key
                stale = {**data, "key": os.urandom(8).hex()}
                self.send(f"/table/{self.token}/confirm/", stale, "error", "confirm (stale page)")

    def send_entry(self, data, expect, name):
        return self.send(f"/table/{self.token}/enter/", data, expect, name)

    def send(self, path, data, expect, name, sent=None) -> bool:
        """Posts a form; a phone whose request failed (a dropped connection, a server
        error) taps again: the same form with the same key, until it gets an answer.
        ``sent``: a confirmation's time, noted with its answer's for the told figures."""
        for _ in range(5):
            response = self.post(path, data, name)
            if response.status_code == 302:
                if sent is not None:
                    answered = time.time()
                    number = _board_number() if LIVE and "REDIS_URL" in os.environ else None
                    confirms.append((self.party, self.index, sent, answered, number))
                break
            time.sleep(1)
        else:
            ledger["unexpected"].append(f"{name}: no answer after five taps")
            return False
        self.load()  # the redirect to the page, which shows the message
        found = _message(self.html)
        kind = found[0] if found else "none"
        if kind == expect:
            if expect == "error":
                ledger["refused_as_expected"] += 1
            return expect == "success"
        ledger["unexpected"].append(f"{name}: {kind}: {found[1] if found else ''}"[:200])
        return False


class Spectator(_Client):
    wait_time = constant(0)

    def on_start(self):
        super().on_start()
        slug = MANIFEST["slug"]
        self.page = f"/t/{slug}/screen/" if random.random() < 0.2 else f"/t/{slug}/"
        html = self.get(self.page, name="public page").text or ""
        found = re.findall(
            r'data-part="([^"]+)" data-events="([^"]+)" data-live="([^"]+)" data-version="([^"]*)"',
            html,
        )
        # Each live part's address and version, and its name in the stream's events;
        # the text of the parts the stream carried or an ask answered (live.js's).
        self.parts = {live: version for _, _, live, version in found}
        self.names = {live: part for part, _, live, _ in found}
        self.texts = {}
        self.asking = set(self.parts)  # the parts the next ask is for
        events = unescape(found[0][1]) if found else f"/t/{slug}/events/"
        self.wake = Event()
        self.settle = 0.0
        self.later = None
        self.asked = 0.0
        self.heard = []
        board_heard.append(self.heard)
        self.stream = _streamed(self, events)

    def on_stop(self):
        if self.stream is not None:
            spectators["bytes"] += self.stream.received
            self.stream.stop()

    def told(self, kind, data, when):
        if kind == "hello":
            self.settle = float(data.get("settle", 0))
            self.asking = set(self.parts)
            self.wake.set()
        elif kind == "moved":
            if data["counter"] == "board":
                self.heard.append((when, int(data["version"])))
            # As live.js: a part the event carried is shown (whole, or its changes
            # applied to the text held), the others asked for.
            whole, changes = data.get("parts", {}), data.get("changes", {})
            for url in self.parts:
                name, text = self.names[url], None
                if name in whole:
                    text = whole[name]
                    spectators["carried"] += 1
                elif name in changes and self.texts.get(url, ("",))[0] == changes[name]["from"]:
                    text = patched(self.texts[url][1], changes[name]["edits"])
                    spectators["changed"] += 1
                if text is None:
                    self.asking.add(url)
                else:
                    self.parts[url] = data["shown"]
                    self.texts[url] = (data["shown"], text)
            if not self.asking:
                return
            if not self.settle:
                self.wake.set()
                return
            # As push.js: the board shows a change at most `settle` s late, so it is
            # asked at most once in that time: at once after a quiet spell, and
            # once more when it can have moved.
            if self.later is not None:
                return
            since = time.monotonic() - self.asked
            if since >= self.settle:
                self.asked = time.monotonic()
                self.wake.set()
                since = 0
            self.later = gevent.spawn_later(self.settle - since + random.random(), self._later)

    def _later(self):
        self.later = None
        self.asked = time.monotonic()
        self.wake.set()

    @task
    def follow(self):
        if self.stream is not None and self.stream.awaited():
            if not self.wake.wait(timeout=POLL):
                return
            gevent.sleep(random.random() * 0.25)  # a room of pages spreads its asking
        else:
            gevent.sleep(POLL)
        self.wake.clear()
        self.refresh()

    def refresh(self):
        # Polling (no stream), every part is asked for.
        asking = self.asking if self.stream is not None and self.stream.live() else self.parts
        self.asking = set()
        for url in list(asking):
            sep = "&" if "?" in url else "?"
            response = self.get(f"{url}{sep}v={self.parts[url]}", name="public live part")
            if response.status_code == 200:
                self.parts[url] = response.headers.get("X-Board-Version", "")
                self.texts[url] = (self.parts[url], response.text)


class Director(_Client):
    wait_time = constant(4)

    def on_start(self):
        super().on_start()
        # Started while a fault has the site away (a killed worker's 503), he logs
        # in again until the round's page is there, as an organizer would.
        for _ in range(30):
            self.tables = self._round_tables()
            if self.tables:
                return
            gevent.sleep(1)
        raise RuntimeError("the director never reached the round's page")

    def _round_tables(self) -> str | None:
        html = self.get("/login/", name="login page").text or ""
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
        if token is None:
            return None
        data = {
            "csrfmiddlewaretoken": token.group(1),
            "username": MANIFEST["username"],
            "password": MANIFEST["password"],
        }
        self.post("/login/", data, "login")
        html = self.get(MANIFEST["round"], name="round page").text or ""
        found = re.search(r'data-poll-url="([^"]+)"', html)
        return found and found.group(1)

    @task
    def watch(self):
        self.get(self.tables, name="round tables")


class Hammer(_Client):
    wait_time = between(0, 0)

    @task
    def ask(self):
        headers = {"If-None-Match": os.environ.get("LOAD_ETAG", "")}
        self.get(os.environ["LOAD_PATH"], name="hammer", headers=headers)


_redis = None
_board_counter = None


def _board_number() -> int | None:
    """The stored board's counter now (in the cache's Redis), read as soon as a
    confirmation is answered: the board that shows it is stored after that, so the
    first spectator event above this number tells of it. (A build that read its
    rows just before the confirmation's commit and stored after the answer counts
    too: the figure errs by at most one build on the early side.)"""
    global _redis, _board_counter
    import redis

    try:
        if _redis is None:
            _redis = redis.Redis.from_url(os.environ["REDIS_URL"], socket_timeout=2)
        if not _board_counter:
            found = list(_redis.scan_iter(match="*:v:board-stored:*", count=1000))
            _board_counter = min(found) if found else b""
        value = _redis.get(_board_counter) if _board_counter else None
        return int(value) if value is not None else None
    except Exception:  # Redis away (a fault): this confirmation is not counted
        return None


def _next(times: list[float], after: float) -> float:
    i = bisect.bisect_right(times, after)
    return times[i] if i < len(times) else float("inf")


def _timeline(sent, answered, heard, hellos) -> str:
    """Where a phone not told stood: its stream's events and hellos from 5 s before
    the confirmation was sent to 35 s after, in seconds from the sending."""

    def near(times):
        return [round(t - sent, 2) for t in times if -5 < t - sent < TOLD_WITHIN + 5]

    return f"answered {answered - sent:+.2f} s; events {near(heard)}; hellos {near(hellos)}"


def told_figures(end: float) -> dict:
    """Milliseconds from each confirmation's answer to the other phone's stream,
    and to each spectator's stream, hearing of it (0 when the event came before the
    answer); and how many were not heard within TOLD_WITHIN. The phone that
    confirmed is told by its answer, the page it reloads: its stream is the one
    that page replaces, so whether that stream still heard is chance."""
    phones, board, phones_missed, board_missed, missed = [], [], 0, 0, []
    for party, confirmer, sent, answered, _ in confirms:
        if answered > end - LAST:
            continue
        hellos = hellos_by_party.get(party, [[], []])
        for index, heard in enumerate(heard_by_party.get(party, [])):
            if index == confirmer:
                continue
            # The first event after the confirmation was sent, the first hello
            # after it was answered (committed: the page shows it, or asks), or the
            # first hello after it was sent that made the page ask.
            woken = woken_by_party.get(party, [[], []])[index]
            first = min(
                _next(heard, sent),
                _next(hellos[index], answered),
                _next(woken, sent),
            )
            if first - sent < TOLD_WITHIN:
                phones.append(max(0.0, first - answered) * 1000)
            else:
                phones_missed += 1
                missed.append(_timeline(sent, answered, heard, hellos[index]))
    for _, _, sent, answered, number in confirms:
        if answered > end - LAST or number is None:
            continue
        for heard in board_heard:
            i = bisect.bisect_right(heard, (sent, 0))
            while i < len(heard) and heard[i][1] <= number:
                i += 1
            if i < len(heard) and heard[i][0] - sent < TOLD_WITHIN:
                board.append(max(0.0, heard[i][0] - answered) * 1000)
            else:
                board_missed += 1
    return {
        "phones": phones,
        "phones_missed": phones_missed,
        "missed": missed[:5],
        "board": board,
        "board_missed": board_missed,
        "streams": streams,
        "spectators": spectators,
        "back": back_on_stream,
        "not_back": [end - since for since in lost.values()],
        "own_delay": own_delay,
        "arrival": arrival,
        "settle": SETTLE_SECONDS,
    }


#: The figures of the arrival and the settling, per kind of request, kept before
#: the reset (`SETTLE_SECONDS`); the confirmations made meanwhile are left out of
#: the told figures too.
arrival: dict[str, dict] = {}


#: The run's environment, for the listeners that are not given it.
_environment = []


@events.init.add_listener
def _keep_environment(environment, **kwargs):
    _environment.append(environment)


@events.spawning_complete.add_listener
def _settle(**kwargs):
    environment = _environment[0]

    def reset():
        for (name, _), entry in environment.runner.stats.entries.items():
            arrival[name] = {
                "count": entry.num_requests,
                "p50": entry.get_response_time_percentile(0.5),
                "p95": entry.get_response_time_percentile(0.95),
            }
        environment.runner.stats.reset_all()
        confirms.clear()

    if SETTLE_SECONDS:
        gevent.spawn_later(SETTLE_SECONDS, reset)


@events.test_start.add_listener
def _watch_own_delay(environment, **kwargs):
    def watch():
        while True:
            started = time.perf_counter()
            gevent.sleep(0.1)
            own_delay.append((time.perf_counter() - started - 0.1) * 1000)

    gevent.spawn(watch)


@events.quitting.add_listener
def _write_ledger(environment, **kwargs):
    if "LOAD_LEDGER" in os.environ:
        with open(os.environ["LOAD_LEDGER"], "w") as file:
            json.dump({**ledger, "told": told_figures(time.time())}, file)


def user_counts() -> None:
    """Fixed counts of each kind of user, from the environment."""
    Phone.fixed_count = 2 * len(TABLES)
    Spectator.fixed_count = int(os.environ.get("LOAD_SPECTATORS", 0))
    Director.fixed_count = 1 if TABLES else 0


user_counts()
