"""Every state-changing action of an organizer, sent several times at the same
moment through a live server: nothing answers 5xx, and each invariant the club
relies on holds (one name per club, one running party per pair, one rematch per
party, one forfeit per table, one merge per guest, one round, one final, ...).

The actions are found, not listed: every view of the ``manage`` namespace that
takes a POST (the URLconf, walked; a view that only takes GET is left out), and
every POST, PUT, PATCH and DELETE operation of the API's document
(/api/openapi.json). The public forms and webhooks a stranger sends (the "send my
link again" form, the mail provider's webhook) have recipes too, fired by nobody
logged in. Each needs a recipe below (the state it needs, and what to
send): a new endpoint without one fails `test_every_state_changing_endpoint_has_a_recipe`,
so a new endpoint is fired at without a test of its own.

The concurrent tests run on PostgreSQL only: SQLite has no row locks
(``select_for_update`` does nothing there) and answers a second writer at once
with "database is locked" instead of queueing it, so identical requests at the
same moment would test SQLite's single writer, not Knock's locks and constraints.
The check that every endpoint has a recipe runs on both."""

import json
import threading
import time
import traceback
import uuid
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from urllib.parse import urlencode
from urllib.request import HTTPErrorProcessor, Request, build_opener

import pytest
from django.db import connection
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from tests.race_recipes import API, MANAGE, PUBLIC, WEBHOOK_SECRET, Recipe, Shot
from tests.race_world import World
from tests.scoring.conftest import live_database, live_site  # noqa: F401 - fixtures

#: Identical requests sent at once to each endpoint.
TIMES = 6
TIMEOUT = 90
WRITES = ("post", "put", "patch", "delete")


# Discovery ---------------------------------------------------------------------------


def allowed_methods(view) -> set[str] | None:
    """The methods a view's `require_http_methods` lets through, or None when it
    takes any (it reads ``request.method`` itself)."""
    while view is not None:
        code = getattr(view, "__code__", None)
        if code is not None and "request_method_list" in code.co_freevars:
            cell = view.__closure__[code.co_freevars.index("request_method_list")]
            return set(cell.cell_contents)
        view = getattr(view, "__wrapped__", None)
    return None


def _patterns(patterns, namespace=None):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _patterns(pattern.url_patterns, pattern.namespace or namespace)
        elif isinstance(pattern, URLPattern):
            yield namespace, pattern


def manage_endpoints() -> set[str]:
    """The organizer's pages that take a POST, by URL name."""
    return {
        pattern.name
        for namespace, pattern in _patterns(get_resolver().url_patterns)
        if namespace == "manage" and (allowed_methods(pattern.callback) or {"POST"}) & {"POST"}
    }


def api_endpoints() -> set[str]:
    """The API's writing operations as "METHOD /path", from its OpenAPI document."""
    document = Client().get("/api/openapi.json").json()
    return {
        f"{method.upper()} {path}"
        for path, operations in document["paths"].items()
        for method in operations
        if method in WRITES
    }


# Firing ------------------------------------------------------------------------------


def _request(site, world, shot: Shot, api: bool, session: str | None) -> Request:
    url = site.url + shot.path
    if shot.json is not None:
        headers = {"Content-Type": "application/json", **(shot.headers or {})}
        return Request(url, json.dumps(shot.json).encode(), headers, method="POST")
    if api:
        body = json.dumps(shot.data or {}).encode()
        headers = {"Authorization": f"Bearer {world.key}", "Content-Type": "application/json"}
        return Request(url, data=body, headers=headers, method="POST")
    # A session of the owner's (none for a public form), and a CSRF secret of our
    # own as cookie and field.
    csrf = "r" * 32
    cookies = f"csrftoken={csrf}" if session is None else f"sessionid={session}; csrftoken={csrf}"
    headers = {"Cookie": cookies}
    fields = {**(shot.data or {}), "csrfmiddlewaretoken": csrf}
    if shot.file is None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        return Request(url, urlencode(fields, doseq=True).encode(), headers, method="POST")
    boundary = uuid.uuid4().hex
    field, name, content = shot.file
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
        for k, v in fields.items()
    ]
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"; filename="{name}"\r\n'
        f"Content-Type: application/json\r\n\r\n".encode()
        + content
        + f"\r\n--{boundary}--\r\n".encode()
    )
    headers["Content-Type"] = f"multipart/form-data; boundary={boundary}"
    return Request(url, b"".join(parts), headers, method="POST")


class KeepEveryResponse(HTTPErrorProcessor):
    """Returns redirects and errors as they come, for the test to look at."""

    def http_response(self, request, response):
        return response


def fire(site, request: Request, times: int = TIMES) -> list[int]:
    """Sends the same request ``times`` times at the same instant; the statuses."""
    gate = threading.Barrier(times, timeout=TIMEOUT)
    opener = build_opener(KeepEveryResponse)

    def send(_):
        gate.wait()
        with opener.open(request, timeout=TIMEOUT) as response:
            response.read()
            return response.status

    with ThreadPoolExecutor(times) as pool:
        return list(pool.map(send, range(times)))


def _login(user, before=None) -> str:
    """The organizer's session, after ``before(client)``: what a page needs from an
    earlier step of his (an upload kept in his session)."""
    client = Client()
    client.force_login(user)
    if before is not None:
        before(client)
    return client.cookies["sessionid"].value


postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="SQLite runs one writer and fails the others at once: see the module's docstring",
)


def _fire_all(site, recipes: dict[str, Recipe], api: bool, public: bool = False) -> list[str]:
    """Each recipe's request, ``TIMES`` at once, each endpoint in a club of its own
    (``public``: sent by nobody logged in); what went wrong, endpoint by endpoint
    (all of them, not only the first)."""
    problems, started = [], time.monotonic()
    for endpoint, recipe in sorted(recipes.items()):
        errors_before = len(site.errors)
        try:
            world = World()
            session = (
                None
                if public
                else _login(world.user, recipe.before and partial(recipe.before, world))
            )
            request = _request(site, world, recipe.shot(world), api, session)
            statuses = fire(site, request)
            errors = site.errors[errors_before:]
            if [s for s in statuses if s >= 500] or errors:
                problems.append(f"{endpoint}: {statuses}\n{''.join(errors)}")
                continue
            done = recipe.done if recipe.done != "default" else ((200, 201) if api else (302,))
            if done is not None and not set(statuses) & set(done):
                problems.append(f"{endpoint}: none of {statuses} is one of {done}")
            if recipe.holds is not None:
                recipe.holds(world)
        except Exception:  # every endpoint is tried, every failure told
            problems.append(f"{endpoint}: {traceback.format_exc()}")
    # The runtime, for the report (-rP shows it).
    print(f"{len(recipes)} endpoints, {TIMES} at once each: {time.monotonic() - started:.1f} s")
    return problems


@postgresql
def test_every_organizer_page_sent_several_times_at_once_does_it_once(
    live_site,  # noqa: F811
):
    problems = _fire_all(live_site, MANAGE, api=False)
    assert problems == [], "\n\n".join(problems)


@postgresql
def test_every_api_operation_sent_several_times_at_once_does_it_once(
    live_site,  # noqa: F811
):
    problems = _fire_all(live_site, API, api=True)
    assert problems == [], "\n\n".join(problems)


@postgresql
def test_every_public_form_and_webhook_sent_several_times_at_once_does_it_once(
    live_site,  # noqa: F811
    settings,
):
    settings.ANYMAIL = {**settings.ANYMAIL, "WEBHOOK_SECRET": WEBHOOK_SECRET}
    problems = _fire_all(live_site, PUBLIC, api=False, public=True)
    assert problems == [], "\n\n".join(problems)


def test_every_state_changing_endpoint_has_a_recipe():
    """A new organizer page that takes a POST, or a new writing operation of the
    API, needs its recipe (tests/race_recipes.py; a recipe of an endpoint that is
    gone goes too)."""
    assert manage_endpoints() == set(MANAGE)
    assert api_endpoints() == set(API)
    # The public forms and webhooks a stranger sends, each one named here.
    public = {p.name for ns, p in _patterns(get_resolver().url_patterns) if ns == "public"}
    assert set(PUBLIC) <= public
