"""A confirmation racing a correction and an organizer's void, through a real server
(CI runs this on SQLite and on PostgreSQL): whatever lands first, a confirmation is
stored only of the version the confirming phone sent, and what it stored is what
that phone showed."""

import json
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from http.cookiejar import CookieJar
from urllib.parse import urlencode
from urllib.request import HTTPCookieProcessor, HTTPErrorProcessor, Request, build_opener

from scoring.models import AuditRecord, Hand
from scoring.services import hands, knocks
from tests.factories import UserFactory, start_party

ROUNDS = 40
TIMEOUT = 90


class KeepEveryResponse(HTTPErrorProcessor):
    def http_response(self, request, response):
        return response


class Browser:
    """One client's cookies, shared by the threads that act for it."""

    def __init__(self, site):
        self.site = site
        self.jar = CookieJar()

    def request(self, path, *, data=None, body=None, headers=None):
        opener = build_opener(HTTPCookieProcessor(self.jar), KeepEveryResponse)
        headers = dict(headers or {})
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        request = Request(self.site.url + path, data=data, headers=headers)
        with opener.open(request, timeout=TIMEOUT) as response:
            text = response.read().decode()
            if response.headers.get("Content-Type", "").startswith("application/json"):
                return response.status, json.loads(text)
            return response.status, text

    def cookie(self, name):
        return next(c.value for c in self.jar if c.name == name)

    def log_in(self, username, password):
        _, page = self.request("/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]
        form = {"username": username, "password": password, "csrfmiddlewaretoken": token}
        status, _ = self.request("/login/", data=urlencode(form).encode())
        assert status == 302


@dataclass
class Round:
    """One party: seat 0's entry is pending; seat 1's phone shows ``seen``."""

    party: object
    hand: Hand
    seen: dict
    void: bool


def prepare(site, i: int) -> Round:
    party = start_party(seed=i)
    a, b = party.seats.order_by("position")
    result = knocks.Result("knock", knocker=0, knocker_deadwood=2, defender_deadwood=20 + i)
    hand = hands.hand_enter(seat=a, number=1, entry=result).hand
    # The confirming phone's view of the entry, read as the phone reads it.
    _, table = Browser(site).request(f"/api/tables/{b.token}")
    return Round(party, hand, table["open_hand"], void=i % 2 == 0)


def taps(site, organizer: Browser, plan: Round):
    a, b = plan.party.seats.order_by("position")
    phone = Browser(site)
    correction = {"number": 1, "ending": "gin", "knocker": 0, "defender_deadwood": 98}
    actions = {
        "confirm": lambda: phone.request(
            f"/api/tables/{b.token}/hands/1/confirm", body={"version": plan.seen["version"]}
        ),
        "correct": lambda: phone.request(f"/api/tables/{a.token}/hands", body=correction),
    }
    if plan.void:
        actions["void"] = lambda: organizer.request(
            f"/api/parties/{plan.party.pk}/hands/{plan.hand.pk}/decide",
            body={"action": "void", "reason": "misdeal"},
            headers={"X-CSRFToken": organizer.cookie("csrftoken")},
        )
    return actions


def run(groups: list[dict]) -> list[dict]:
    """Sends each group's actions at the same instant, many groups at a time."""
    workers = sum(len(group) for group in groups)
    with ThreadPoolExecutor(workers) as pool:
        futures = []
        for group in groups:
            gate = threading.Barrier(len(group), timeout=TIMEOUT)

            def send(action, gate=gate):
                gate.wait()
                return action()

            futures.append({name: pool.submit(send, action) for name, action in group.items()})
        return [{name: f.result() for name, f in group.items()} for group in futures]


def entry(snapshot: dict) -> tuple:
    return (snapshot["ending"], snapshot["knocker_deadwood"], snapshot["defender_deadwood"])


def shown(hand: dict) -> tuple:
    return (hand["ending"], hand["knocker_deadwood"], hand["defender_deadwood"])


def test_a_confirmation_racing_a_correction_and_a_void_confirms_only_what_was_shown(live_site):
    UserFactory(username="director", is_superuser=True)
    organizer = Browser(live_site)
    organizer.log_in("director", "correct horse battery")
    plans = [prepare(live_site, i) for i in range(ROUNDS)]

    answers = run([taps(live_site, organizer, plan) for plan in plans])

    assert live_site.errors == []
    outcomes = []
    for plan, answer in zip(plans, answers, strict=True):
        status, body = answer["confirm"]
        confirmations = list(plan.party.audit.filter(action=AuditRecord.Action.CONFIRM))
        hand = Hand.objects.get(pk=plan.hand.pk)
        if status == 200:
            # Stored: the version the phone sent, holding what the phone showed.
            (record,) = confirmations
            assert record.seat.position == 1
            assert record.before["version"] == plan.seen["version"]
            assert entry(record.before) == shown(plan.seen)
            assert entry(record.after) == shown(plan.seen)
            assert shown(body["hand"]) == shown(plan.seen)
            assert hand.status in (Hand.Status.CONFIRMED, Hand.Status.VOID)
        else:
            assert (status, body["code"]) in {(409, "entry_changed"), (409, "stale_entry")}
            assert confirmations == []
            assert hand.confirmed_by_id is None
        outcomes.append(body.get("code", "confirmed"))
        for name in ("correct", "void"):
            if name in answer:
                assert answer[name][0] < 500, (name, answer[name])
    assert len(outcomes) == ROUNDS
    assert live_site.meter.peak > 1
