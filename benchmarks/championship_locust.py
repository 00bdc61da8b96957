"""The championship's crowd, for locust (run by benchmarks/load.py).

- ``Phone``: one per seat of the first ``LOAD_TABLES`` tables of the manifest. It polls
  its seat every 3 s with the page's number as ETag, as the page's script does, and
  loads the page again when the number moved. One phone of a table enters a hand
  every ``LOAD_HAND_SECONDS`` or so; the other confirms what its page shows. Now and
  then a phone taps twice (the same form again) or sends a page that is out of date.
- ``Spectator``: the public tournament page or the screen, polling its live parts.
- ``Director``: logged in, on the round page, which polls its tables.
- ``Hammer``: one address as fast as it is answered (``LOAD_PATH``), for comparing
  the seat poll with /health/.

Every phone writes down what the site told it (entered, confirmed) in the ledger
(``LOAD_LEDGER``), which `benchmarks.championship check` holds against the database.
Requests carry the headers the TLS proxy adds in production."""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import time
from http.cookiejar import DefaultCookiePolicy

from locust import FastHttpUser, between, constant, events, task


def _manifest() -> dict:
    if "LOAD_MANIFEST" not in os.environ:
        return {}
    with open(os.environ["LOAD_MANIFEST"]) as file:
        return json.load(file)


MANIFEST = _manifest()
TABLES = MANIFEST.get("tables", [])[: int(os.environ.get("LOAD_TABLES", 0))]
HAND_SECONDS = float(os.environ.get("LOAD_HAND_SECONDS", 120))
POLL = 3.0

ledger = {"entered": [], "confirmed": [], "refused_as_expected": 0, "unexpected": []}
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


class Phone(_Client):
    wait_time = constant(POLL)

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
        self.load()

    def load(self):
        response = self.get(f"/table/{self.token}/", name="seat page")
        self.html = response.text or ""
        found = re.search(r'id="table"[^>]*data-version="([^"]+)"', self.html)
        self.version = found.group(1) if found else ""

    @task
    def poll(self):
        response = self.get(
            f"/table/{self.token}/state/",
            name="seat poll",
            headers={"If-None-Match": f'"{self.version}"'},
        )
        if response.status_code == 200:
            self.load()
        if self.enters:
            self.maybe_enter()
        else:
            self.maybe_confirm()

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
        if self.send(f"/table/{self.token}/confirm/", data, "success", "confirm"):
            ledger["confirmed"].append([self.party, int(data["number"])])
            if random.random() < 0.05:  # a double tap: the same form, the same key
                self.send(f"/table/{self.token}/confirm/", data, "success", "confirm (double tap)")
            elif random.random() < 0.05:  # the old page, tapped again later: a new key
                stale = {**data, "key": os.urandom(8).hex()}
                self.send(f"/table/{self.token}/confirm/", stale, "error", "confirm (stale page)")

    def send_entry(self, data, expect, name):
        return self.send(f"/table/{self.token}/enter/", data, expect, name)

    def send(self, path, data, expect, name) -> bool:
        """Posts a form; a phone whose request failed (a dropped connection, a server
        error) taps again: the same form with the same key, until it gets an answer."""
        for _ in range(5):
            response = self.post(path, data, name)
            if response.status_code == 302:
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
    wait_time = constant(POLL)

    def on_start(self):
        super().on_start()
        slug = MANIFEST["slug"]
        self.page = f"/t/{slug}/screen/" if random.random() < 0.2 else f"/t/{slug}/"
        html = self.get(self.page, name="public page").text or ""
        self.parts = dict(re.findall(r'data-live="([^"]+)" data-version="([^"]*)"', html))

    @task
    def follow(self):
        for url, version in list(self.parts.items()):
            sep = "&" if "?" in url else "?"
            response = self.get(f"{url}{sep}v={version}", name="public live part")
            if response.status_code == 200:
                self.parts[url] = response.headers.get("X-Board-Version", "")


class Director(_Client):
    wait_time = constant(4)

    def on_start(self):
        super().on_start()
        html = self.get("/login/", name="login page").text or ""
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
        data = {
            "csrfmiddlewaretoken": token,
            "username": MANIFEST["username"],
            "password": MANIFEST["password"],
        }
        self.post("/login/", data, "login")
        html = self.get(MANIFEST["round"], name="round page").text or ""
        self.tables = re.search(r'data-poll-url="([^"]+)"', html).group(1)

    @task
    def watch(self):
        self.get(self.tables, name="round tables")


class Hammer(_Client):
    wait_time = between(0, 0)

    @task
    def ask(self):
        headers = {"If-None-Match": os.environ.get("LOAD_ETAG", "")}
        self.get(os.environ["LOAD_PATH"], name="hammer", headers=headers)


@events.quitting.add_listener
def _write_ledger(environment, **kwargs):
    if "LOAD_LEDGER" in os.environ:
        with open(os.environ["LOAD_LEDGER"], "w") as file:
            json.dump(ledger, file)


def user_counts() -> None:
    """Fixed counts of each kind of user, from the environment."""
    Phone.fixed_count = 2 * len(TABLES)
    Spectator.fixed_count = int(os.environ.get("LOAD_SPECTATORS", 0))
    Director.fixed_count = 1 if TABLES else 0


user_counts()
