"""Phones entering at the same moment, through a real server: many requests at
once, each on its own thread and database connection (CI runs this on SQLite and
on PostgreSQL). No hand is lost or stored twice, nothing is half-written, nothing
answers with a 500, and every player is told what happened to the entry."""

import html
import re
import threading
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from http.cookiejar import CookieJar
from urllib.parse import urlencode, urljoin
from urllib.request import HTTPCookieProcessor, HTTPErrorProcessor, Request, build_opener

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.models import Hand, Party
from scoring.services.hands import hand_confirm, hand_decide, hand_enter
from scoring.services.knocks import Result
from tests.factories import UserFactory, start_party

WORKERS = 24
# Far above any wait the server may make: SQLite waits up to 30 s for its write lock.
TIMEOUT = 90


class KeepEveryResponse(HTTPErrorProcessor):
    """Returns redirects and errors as they come, for the test to look at."""

    def http_response(self, request, response):
        return response


def fetch(jar: CookieJar, url: str, data: bytes | None = None) -> tuple[int, str | None, str]:
    opener = build_opener(HTTPCookieProcessor(jar), KeepEveryResponse)
    with opener.open(Request(url, data=data), timeout=TIMEOUT) as response:
        return response.status, response.headers.get("Location"), response.read().decode()


@dataclass(frozen=True)
class Page:
    """A seat's page as a phone loaded it: the cookies it set and its entry form."""

    url: str
    path: str
    cookies: tuple
    form: dict


def open_page(site, seat) -> Page:
    jar = CookieJar()
    path = seat.get_absolute_url()
    status, _, body = fetch(jar, site.url + path)
    assert status == 200
    form = re.search(r'<form [^>]*action="[^"]*/enter/".*?</form>', body, re.S).group()
    hidden = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))
    return Page(site.url + path, path, tuple(jar), hidden)


def messages_in(body: str) -> list[str]:
    block = re.search(r'<ul class="messages">(.*?)</ul>', body, re.S)
    if block is None:
        return []
    return [html.unescape(m).strip() for m in re.findall(r"<li[^>]*>(.*?)</li>", block[1], re.S)]


@dataclass(frozen=True)
class Reply:
    post: int
    location: str | None
    page: int | None
    messages: list


@dataclass(frozen=True)
class Tap:
    """One press of "Enter hand" on a loaded page; ``change`` is what the player
    filled in, or a form field a stale page would carry."""

    page: Page
    change: dict

    def send(self, gate: threading.Barrier) -> Reply:
        # Each tap reads its answer with its own copy of the phone's cookies: two
        # taps sharing one jar would race for the one message cookie, as two
        # browser tabs do, and a message could be shown on the other tap's page.
        jar = CookieJar()
        for cookie in self.page.cookies:
            jar.set_cookie(cookie)
        data = urlencode({**self.page.form, **self.change}).encode()
        gate.wait()
        post, location, _ = fetch(jar, self.page.url + "enter/", data)
        if location is None:
            return Reply(post, None, None, [])
        page, _, body = fetch(jar, urljoin(self.page.url, location))
        return Reply(post, location, page, messages_in(body))


def burst(groups: list[list[Tap]]) -> list[list[Reply]]:
    """Sends each group's taps at the same instant, many groups at a time.

    A group waits at its barrier until all its taps are running. The pool takes
    taps in order, so only the last group started can be short of threads, and
    WORKERS >= the largest group keeps it from waiting for ever."""
    assert max(len(taps) for taps in groups) <= WORKERS
    with ThreadPoolExecutor(WORKERS) as pool:
        futures = []
        for taps in groups:
            gate = threading.Barrier(len(taps), timeout=TIMEOUT)
            futures.append([pool.submit(tap.send, gate) for tap in taps])
        return [[future.result() for future in group] for group in futures]


SAYS = {
    "entered": r"Hand (\d+) entered",
    "confirmed": r"Hand (\d+) confirmed",
    "repeated": r"Hand (\d+) was already stored",
    "disputed": r"Hand (\d+) is disputed",
    "stale": r"Hand (\d+) is already recorded",
    "early": r"Hand (\d+) is not due yet",
}


def gist(message: str) -> str:
    """What a message told the player, as "entered 1", "stale 1", …"""
    for name, pattern in SAYS.items():
        if said := re.match(pattern, message):
            return f"{name} {said[1]}"
    return message


def knock(knocker_deadwood: int, defender_deadwood: int) -> dict:
    return {
        "ending": "knock",
        "knocker": 0,
        "knocker_deadwood": knocker_deadwood,
        "defender_deadwood": defender_deadwood,
    }


def role(record) -> str:
    """Who wrote an audit record, as seen from its hand."""
    if record.seat_id is None:
        return "-"
    if record.hand is None:
        return "seat"
    if record.seat_id == record.hand.entered_by_id:
        return "entrant"
    if record.seat_id == record.hand.confirmed_by_id:
        return "confirmer"
    return "opponent"


@dataclass
class Plan:
    """One party's part of the burst and what the database must hold after it."""

    party: Party
    taps: list
    hands: list
    said: Counter
    keys: list
    audit: list


START = (0, "start", "-")
AGREED = [(1, "enter", "entrant"), (1, "confirm", "confirmer")]


def agreeing(site, i: int) -> Plan:
    """Both phones enter the same result, each tapping twice."""
    party = start_party(seed=i)
    a, b = party.seats.order_by("position")
    result = (1 + i % 10, 20 + i % 20)
    pa, pb = open_page(site, a), open_page(site, b)
    return Plan(
        party,
        taps=[Tap(pa, knock(*result))] * 2 + [Tap(pb, knock(*result))] * 2,
        hands=[(1, Hand.Status.CONFIRMED, [result])],
        said=Counter(["entered 1", "confirmed 1", "repeated 1", "repeated 1"]),
        keys=sorted([pa.form["key"], pb.form["key"]]),
        audit=[START, *AGREED],
    )


def disputing(site, i: int) -> Plan:
    """The phones disagree on the opponent's deadwood; one taps twice, the other
    also sends an entry for a hand that is not due."""
    party = start_party(seed=i)
    a, b = party.seats.order_by("position")
    mine, theirs = (1 + i % 10, 20 + i % 20), (1 + i % 10, 21 + i % 20)
    pa, pb = open_page(site, a), open_page(site, b)
    early = {**knock(*theirs), "number": 3, "key": uuid.uuid4().hex}
    return Plan(
        party,
        taps=[
            Tap(pa, knock(*mine)),
            Tap(pa, knock(*mine)),
            Tap(pb, knock(*theirs)),
            Tap(pb, early),
        ],
        hands=[(1, Hand.Status.DISPUTED, sorted([mine, theirs]))],
        said=Counter(["entered 1", "disputed 1", "repeated 1", "early 3"]),
        keys=sorted([pa.form["key"], pb.form["key"]]),
        audit=[START, (1, "enter", "entrant"), (1, "dispute", "opponent")],
    )


def following(site, i: int) -> Plan:
    """Hand 1 is confirmed; both phones enter hand 2, one of them twice, while a page
    left open since hand 1 sends hand 1 again."""
    party = start_party(seed=i)
    a, b = party.seats.order_by("position")
    first, second = (1 + i % 10, 20 + i % 20), (10 - i % 10, 30 + i % 20)
    old = open_page(site, a)
    hand_enter(seat=a, number=1, entry=Result("knock", 0, *first))
    hand_confirm(seat=b, number=1, version=1)
    pa, pb = open_page(site, a), open_page(site, b)
    return Plan(
        party,
        taps=[Tap(pa, knock(*second)), Tap(old, knock(*first))] + [Tap(pb, knock(*second))] * 2,
        hands=[(1, Hand.Status.CONFIRMED, [first]), (2, Hand.Status.CONFIRMED, [second])],
        said=Counter(["entered 2", "confirmed 2", "repeated 2", "stale 1"]),
        keys=sorted([pa.form["key"], pb.form["key"]]),
        audit=[START, *AGREED, (2, "enter", "entrant"), (2, "confirm", "confirmer")],
    )


def stored(plan: Plan, replies: list[Reply]) -> dict:
    """What the database holds for a plan's party, and what its players were told,
    in the terms of the plan."""
    party = Party.objects.get(pk=plan.party.pk)
    hands = []
    for hand in party.hands.order_by("number", "table"):
        versions = [(hand.knocker_deadwood, hand.defender_deadwood)]
        if hand.counter:
            versions.append((hand.counter["knocker_deadwood"], hand.counter["defender_deadwood"]))
        hands.append((hand.number, hand.status, sorted(versions)))
    audit = list(party.audit.select_related("hand"))
    return {
        "status": party.status,
        "hands": hands,
        "audit": sorted((r.hand.number if r.hand else 0, r.action, role(r)) for r in audit),
        "keys": sorted(r.key for r in audit if r.key),
        "said": Counter(gist(m) for reply in replies for m in reply.messages),
    }


def expected(plan: Plan) -> dict:
    return {
        "status": Party.Status.RUNNING,
        "hands": plan.hands,
        "audit": sorted(plan.audit),
        "keys": plan.keys,
        "said": plan.said,
    }


def unanswered(taps: list[Tap], replies: list[Reply]) -> list:
    """Replies that are not "302 back to the seat page, which shows one message"."""
    return [
        (tap.page.path, reply)
        for tap, reply in zip(taps, replies, strict=True)
        if (reply.post, reply.location, reply.page, len(reply.messages))
        != (302, tap.page.path, 200, 1)
    ]


def assert_really_concurrent(site) -> None:
    """The server ran requests side by side, each on a connection of its own to the
    database the test reads (not one connection shared by all threads)."""
    meter = site.meter
    assert meter.peak > 1
    assert len({id(c) for c in meter.connections}) == len(meter.connections)
    names = {c.settings_dict["NAME"] for c in meter.connections}
    assert names == {connection.settings_dict["NAME"]}


PLANS = (agreeing, disputing, following)


def test_two_phones_entering_at_once_never_lose_or_duplicate_a_hand(live_site):
    plans = [PLANS[i % len(PLANS)](live_site, i) for i in range(50)]

    replies = burst([plan.taps for plan in plans])

    assert sum(len(group) for group in replies) == 200
    failed = [
        bad
        for plan, group in zip(plans, replies, strict=True)
        for bad in unanswered(plan.taps, group)
    ]
    assert failed == []
    assert live_site.errors == []
    assert {
        plan.party.pk: stored(plan, group) for plan, group in zip(plans, replies, strict=True)
    } == {plan.party.pk: expected(plan) for plan in plans}
    assert Hand.objects.count() == sum(len(plan.hands) for plan in plans)
    assert_really_concurrent(live_site)


def test_a_double_tap_arriving_at_once_stores_one_hand(live_site):
    party = start_party()
    a, _ = party.seats.order_by("position")
    page = open_page(live_site, a)
    taps = [Tap(page, knock(3, 21))] * 8

    (replies,) = burst([taps])

    assert unanswered(taps, replies) == []
    assert live_site.errors == []
    said = Counter(gist(m) for reply in replies for m in reply.messages)
    assert said == {"entered 1": 1, "repeated 1": 7}
    hand = party.hands.get()
    assert (hand.number, hand.status, hand.entered_by_id) == (1, Hand.Status.PENDING, a.pk)
    assert list(party.audit.order_by("pk").values_list("action", "key")) == [
        ("start", None),
        ("enter", page.form["key"]),
    ]
    assert_really_concurrent(live_site)


def party_lock_taken(statements: list[str]) -> bool:
    """Whether the statements lock the party before they read its hands, so every
    other write to the party waits: on PostgreSQL the party row (SELECT … FOR
    UPDATE), on SQLite the database's write lock, which BEGIN IMMEDIATE takes at
    once (SQLite has no row locks; Django leaves FOR UPDATE out there)."""
    reads_hands = next(i for i, sql in enumerate(statements) if 'FROM "scoring_hand"' in sql)
    before = statements[:reads_hands]
    if connection.vendor == "sqlite":
        return before[:1] == ["BEGIN IMMEDIATE"]
    return any('FROM "scoring_party"' in sql and sql.endswith("FOR UPDATE") for sql in before)


def knock_result(mine, theirs):
    return Result("knock", knocker=0, knocker_deadwood=mine, defender_deadwood=theirs)


def entering(party, b):
    return lambda: hand_enter(seat=b, number=1, entry=knock_result(3, 21))


def confirming(party, b):
    return lambda: hand_confirm(seat=b, number=1, version=1)


def deciding(party, b):
    hand = party.hands.get()
    director = UserFactory(is_superuser=True)
    result = knock_result(3, 12)
    return lambda: hand_decide(hand=hand, user=director, entry=result, reason="recount")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("write", [entering, confirming, deciding], ids=lambda w: w.__name__)
def test_every_write_to_a_party_locks_it_before_reading_its_hands(write):
    # Without the lock two phones read the same hands and both write: the burst
    # tests above notice that on PostgreSQL only by chance, this check every time.
    party = start_party()
    a, b = party.seats.order_by("position")
    hand_enter(seat=a, number=1, entry=knock_result(3, 21))
    run = write(party, b)

    with CaptureQueriesContext(connection) as queries:
        run()

    assert party_lock_taken([query["sql"] for query in queries.captured_queries])
