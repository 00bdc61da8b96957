"""What an attacker or a careless crowd meets: throttled logins and seat-token
guesses, a strict Content-Security-Policy, no cached copy of a seat link, a health
answer that tells nothing, and addresses taken from the proxy only behind it."""

import re
from pathlib import Path

import pytest
from axes.models import AccessAttempt
from django.db import connection
from django.db.models import F
from django.test import Client, override_settings

from tests.factories import OrganizerFactory, UserFactory, start_party

pytestmark = pytest.mark.django_db

TEMPLATES = Path(__file__).resolve().parent.parent.parent / "templates"
PASSWORD = "a-long-club-password-1909"
LIMIT = 20  # SEAT_TOKEN_MISS_LIMIT's default


def organizer_user():
    user = UserFactory(username="director")
    user.set_password(PASSWORD)
    user.save()
    return user


def log_in(client, password, path="/login/"):
    return client.post(path, {"username": "director", "password": password})


def logged_in(client):
    return "_auth_user_id" in client.session


# --- Logins ------------------------------------------------------------------


def test_thirty_wrong_passwords_then_the_right_one_is_refused_during_the_cool_off():
    organizer_user()
    attacker = Client(REMOTE_ADDR="203.0.113.7")
    for _ in range(30):
        log_in(attacker, "guess")

    response = log_in(attacker, PASSWORD)

    assert response.status_code == 429
    assert not logged_in(attacker)
    assert "Too many wrong passwords" in response.text


def test_the_admin_login_is_throttled_too():
    user = organizer_user()
    user.is_staff = True
    user.save()
    attacker = Client(REMOTE_ADDR="203.0.113.7")
    for _ in range(5):
        log_in(attacker, "guess", path="/admin/login/")

    response = log_in(attacker, PASSWORD, path="/admin/login/")

    assert response.status_code == 429
    assert not logged_in(attacker)


def test_a_stranger_guessing_cannot_lock_the_organizer_out():
    organizer_user()
    attacker = Client(REMOTE_ADDR="203.0.113.7")
    for _ in range(30):
        log_in(attacker, "guess")

    organizer = Client(REMOTE_ADDR="198.51.100.20")
    response = log_in(organizer, PASSWORD)

    assert response.status_code == 302
    assert logged_in(organizer)


def test_after_the_cool_off_the_right_password_logs_in_again(settings):
    organizer_user()
    client = Client(REMOTE_ADDR="198.51.100.20")
    for _ in range(5):
        log_in(client, "typo")
    assert log_in(client, PASSWORD).status_code == 429
    # The cool-off passes: the failures are dated back by that long, rather than
    # waited for (a busy machine would let a short cool-off end before the 429).
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - settings.AXES_COOLOFF_TIME)

    response = log_in(client, PASSWORD)

    assert response.status_code == 302
    assert logged_in(client)


def test_the_lockout_page_speaks_german():
    organizer_user()
    client = Client(REMOTE_ADDR="203.0.113.7", headers={"Accept-Language": "de"})
    for _ in range(5):
        log_in(client, "guess")

    response = log_in(client, PASSWORD)

    assert response.status_code == 429
    assert "Minuten" in response.text


# --- Seat-token guesses ------------------------------------------------------


def guess(client, n, path="/table/{}/"):
    return client.get(path.format(f"guess-{n:04d}-{'x' * 30}"))


def test_an_address_guessing_seat_tokens_is_stopped_and_others_are_not():
    seat = start_party().seats.first()
    guesser = Client(REMOTE_ADDR="203.0.113.7")
    assert all(guess(guesser, n).status_code == 404 for n in range(LIMIT))

    assert guess(guesser, LIMIT).status_code == 429
    api = guess(guesser, LIMIT + 1, path="/api/tables/{}")
    assert api.status_code == 429
    assert api.json()["code"] == "too_many_wrong_links"
    assert api.json()["detail"]
    player = Client(REMOTE_ADDR="198.51.100.20")
    assert player.get(seat.get_absolute_url()).status_code == 200


def test_past_the_limit_a_right_token_still_opens_its_seat():
    # The guard only ever refuses unknown tokens: a right one is a seat, not a guess,
    # whoever else shares the address (a venue's Wi-Fi behind one NAT address).
    seat = start_party().seats.first()
    guesser = Client(REMOTE_ADDR="203.0.113.7")
    for n in range(LIMIT + 5):
        guess(guesser, n)

    assert guesser.get(seat.get_absolute_url()).status_code == 200
    assert guesser.get(f"/api/tables/{seat.token}").status_code == 200
    assert guess(guesser, LIMIT + 6).status_code == 429


def test_forty_phones_behind_one_address_keep_playing_while_a_prankster_guesses():
    """The venue: 40 honest phones and one guesser share one NAT address. Every
    honest page, poll and API read answers 200 all evening; the guesser's unknown
    tokens answer 429 once past the limit."""
    seats = [seat for _ in range(20) for seat in start_party().seats.all()]
    assert len(seats) == 40
    venue = "192.0.2.44"
    phones = [Client(REMOTE_ADDR=venue) for _ in seats]
    prankster = Client(REMOTE_ADDR=venue)
    answers = {"honest": [], "guesses": []}

    for n in range(LIMIT * 3):
        answers["guesses"].append(guess(prankster, n).status_code)
        phone, seat = phones[n % 40], seats[n % 40]
        answers["honest"].append(phone.get(seat.get_absolute_url()).status_code)
        answers["honest"].append(phone.get(f"/table/{seat.token}/state/").status_code)
        answers["honest"].append(phone.get(f"/api/tables/{seat.token}").status_code)
    for phone, seat in zip(phones, seats, strict=True):
        answers["honest"].append(phone.get(seat.get_absolute_url()).status_code)

    assert set(answers["honest"]) == {200}
    assert answers["guesses"] == [404] * LIMIT + [429] * (LIMIT * 2)


def test_the_seat_poll_is_guarded_like_the_page():
    # The poll reads the guard's count itself (one trip to the cache): guesses there
    # count, and past the limit unknown tokens get 429 there too; a right one passes.
    seat = start_party().seats.first()
    Client().get(seat.get_absolute_url())  # the cache knows the seat
    other = start_party().seats.first()  # ... and not this one
    poll = "/table/{}/state/"
    guesser = Client(REMOTE_ADDR="203.0.113.7")
    assert all(guess(guesser, n, path=poll).status_code == 404 for n in range(LIMIT))

    assert guess(guesser, LIMIT, path=poll).status_code == 429
    assert guess(guesser, LIMIT + 1, path="/table/" + "x" * 43 + "/state/").status_code == 429
    assert guesser.get(poll.format(seat.token)).status_code == 200
    assert guesser.get(poll.format(other.token)).status_code == 200
    assert Client(REMOTE_ADDR="198.51.100.20").get(poll.format(seat.token)).status_code == 200


def test_api_guesses_count_like_page_guesses():
    guesser = Client(REMOTE_ADDR="203.0.113.7")
    for n in range(LIMIT):
        assert guess(guesser, n, path="/api/tables/{}").status_code == 404

    assert guess(guesser, LIMIT).status_code == 429


def test_a_phone_polling_a_replaced_link_never_locks_its_table_out():
    seat = start_party().seats.first()
    phone = Client(REMOTE_ADDR="198.51.100.20")
    for _ in range(LIMIT * 3):
        assert (
            phone.get("/table/replaced-link-of-yesterday-xxxxxxxxxxxxx/state/").status_code == 404
        )

    assert phone.get(seat.get_absolute_url()).status_code == 200


REDIS_DOWN = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
    }
}


@override_settings(CACHES=REDIS_DOWN)
def test_with_the_cache_down_the_guard_steps_aside():
    seat = start_party().seats.first()
    client = Client(REMOTE_ADDR="203.0.113.7")
    assert all(guess(client, n).status_code == 404 for n in range(LIMIT + 2))
    assert client.get(seat.get_absolute_url()).status_code == 200


# --- Headers -----------------------------------------------------------------


def directives(response) -> dict:
    policy = response.headers["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}


@pytest.mark.parametrize("path", ["/", "/login/", "/api/docs"])
def test_pages_carry_a_strict_content_security_policy(client, path):
    policy = directives(client.get(path))
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["default-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]


def test_pages_carry_a_permissions_policy(client):
    policy = client.get("/").headers["Permissions-Policy"]
    assert "camera=()" in policy
    assert "geolocation=()" in policy
    assert "microphone=()" in policy


INLINE = [
    # An inline script (a JSON data block is no script: it never runs, the policy
    # lets it be, and the API's docs page reads its settings from one).
    re.compile(r"<script(?![^>]*\b(?:src=|type=\"application/json\"))[^>]*>", re.I),
    re.compile(r"<style\b", re.I),  # style element
    re.compile(r"\sstyle=", re.I),  # style attribute
    re.compile(r"\son[a-z]+=", re.I),  # event handler attribute
    re.compile(r"javascript:", re.I),
]


def test_no_template_has_inline_script_or_style_the_policy_would_block():
    offenders = [
        f"{path.relative_to(TEMPLATES)}: {match.group()}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for pattern in INLINE
        for match in pattern.finditer(path.read_text())
    ]
    assert offenders == []


def no_store(response) -> bool:
    return "no-store" in response.headers.get("Cache-Control", "")


def test_every_page_and_answer_with_a_seat_token_is_not_stored(client):
    party = start_party()
    seat = party.seats.first()
    organizer = Client()
    organizer.force_login(OrganizerFactory(club=party.club).player.user)

    carriers = {
        "seat page": client.get(seat.get_absolute_url()),
        "seat state": client.get(f"/table/{seat.token}/state/"),
        "api table": client.get(f"/api/tables/{seat.token}"),
        "party page": organizer.get(f"/manage/parties/{party.pk}/"),
        "table cards": organizer.get(f"/manage/parties/{party.pk}/cards/"),
        "api party": organizer.get(f"/api/parties/{party.pk}"),
        "api audit": organizer.get(f"/api/parties/{party.pk}/audit"),
    }

    assert {name: r.status_code for name, r in carriers.items()} == dict.fromkeys(carriers, 200)
    assert [name for name, r in carriers.items() if not no_store(r)] == []
    # A page without a token may be kept.
    assert not no_store(client.get("/"))


# --- Health ------------------------------------------------------------------


def test_health_tells_the_public_only_ok(client):
    response = client.get("/health/")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_health_says_failing_when_the_database_does_not_answer(client, monkeypatch):
    def down():
        raise connection.Database.OperationalError("could not connect to db.internal:5432")

    monkeypatch.setattr(connection, "cursor", down)

    response = client.get("/health/")

    assert response.status_code == 503
    assert response.json() == {"status": "failing"}


# --- The client's address ----------------------------------------------------


def entered_from(client, **headers) -> str | None:
    party = start_party()
    seat = party.seats.get(position=0)
    entry = {
        "number": 1,
        "ending": "knock",
        "knocker": 0,
        "knocker_deadwood": 3,
        "defender_deadwood": 20,
    }
    response = client.post(
        f"/api/tables/{seat.token}/hands", entry, content_type="application/json", headers=headers
    )
    assert response.status_code == 201, response.json()
    organizer = Client()
    organizer.force_login(OrganizerFactory(club=party.club).player.user)
    records = organizer.get(f"/api/parties/{party.pk}/audit").json()
    return next(r["address"] for r in records if r["action"] == "enter")


def test_without_the_proxy_a_forwarded_address_is_not_believed():
    proxy = Client(REMOTE_ADDR="10.0.0.2")
    assert entered_from(proxy, **{"X-Forwarded-For": "192.0.2.99"}) == "10.0.0.2"


@override_settings(BEHIND_PROXY=True)
def test_behind_the_proxy_the_address_is_the_one_the_proxy_added():
    proxy = Client(REMOTE_ADDR="10.0.0.2")
    forwarded = {"X-Forwarded-For": "192.0.2.99, 198.51.100.20"}
    assert entered_from(proxy, **forwarded) == "198.51.100.20"


@override_settings(BEHIND_PROXY=True)
def test_behind_the_proxy_logins_are_counted_per_client_not_per_proxy():
    organizer_user()
    attacker = Client(REMOTE_ADDR="10.0.0.2", headers={"X-Forwarded-For": "203.0.113.7"})
    for _ in range(30):
        log_in(attacker, "guess")

    organizer = Client(REMOTE_ADDR="10.0.0.2", headers={"X-Forwarded-For": "198.51.100.20"})
    response = log_in(organizer, PASSWORD)

    assert response.status_code == 302
