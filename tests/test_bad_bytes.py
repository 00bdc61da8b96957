"""Bytes no player types are a 4xx with a message, never a 500 (CI runs these on
SQLite and on PostgreSQL, which refuses a NUL in any statement): tokens are checked
against their exact shape before anything is looked up, control characters in text
are refused by the forms and the API alike, an oversized body is a JSON 413, and an
id past the database's range is a form error."""

import importlib

import pytest
from django import forms
from django.urls import reverse

from scoring.models import AuditRecord, Hand
from scoring.services.hands import hand_enter
from scoring.services.knocks import Result
from tests.factories import ClubNightFactory, start_night_party, start_party
from web.validators import PrintableForm

pytestmark = pytest.mark.django_db

CONTROL = ["\x00", "a\x00b", "\x1b[2J", "\x7f", "\x85", "\ufeff\x08"]


@pytest.mark.parametrize(
    "url",
    [
        "/api/tables/%00",
        "/api/tables/%00/hands/1/confirm",
        "/table/%00/",
        "/table/%00/state/",
        "/table/a%00b/",
        # The right length, one character outside the alphabet.
        "/table/" + "A" * 42 + "%2B/",
        "/api/tables/" + "A" * 42 + "=",
    ],
)
def test_a_token_out_of_shape_is_a_404_without_a_query(client, url, django_assert_num_queries):
    with django_assert_num_queries(0):
        if "confirm" in url:
            response = client.post(url, {"version": 1}, content_type="application/json")
        else:
            response = client.get(url)
    assert response.status_code == 404


def api_post(client, url, body):
    return client.post(url, body, content_type="application/json")


@pytest.mark.parametrize("text", CONTROL)
def test_a_control_character_in_a_decisions_reason_is_a_422(client, organizer, text):
    party = start_night_party(ClubNightFactory(club=organizer.club))
    a, _ = party.seats.order_by("position")
    hand = hand_enter(seat=a, number=1, entry=Result("knock", 0, 3, 21)).hand

    response = api_post(
        client,
        f"/api/parties/{party.pk}/hands/{hand.pk}/decide",
        {"action": "void", "reason": f"misdeal {text} again"},
    )

    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "reason"
    assert "control character" in response.json()["detail"]
    assert Hand.objects.get(pk=hand.pk).status == Hand.Status.PENDING


@pytest.mark.parametrize("text", CONTROL)
def test_a_control_character_in_the_correction_forms_reason_is_a_form_error(
    client, organizer, text
):
    party = start_night_party(ClubNightFactory(club=organizer.club))
    a, _ = party.seats.order_by("position")
    hand = hand_enter(seat=a, number=1, entry=Result("knock", 0, 3, 21)).hand
    records = AuditRecord.objects.count()

    response = client.post(
        reverse("manage:hand-decide", args=[hand.pk]),
        {"decision": "void", "reason": f"misdeal {text} again"},
    )

    assert response.status_code == 400
    assert "control character" in response.text
    assert AuditRecord.objects.count() == records


@pytest.mark.parametrize("field", ["knocker_cards", "up_card", "key"])
def test_a_nul_in_a_seats_entry_is_refused_with_a_message(client, field):
    party = start_party()
    a, _ = party.seats.order_by("position")
    body = {"number": 1, "knocker": 0, "knocker_cards": ["AS"] * 10, "defender_cards": ["KS"]}
    body[field] = ["A\x00S"] * 10 if field == "knocker_cards" else "A\x00S"

    response = api_post(client, f"/api/tables/{a.token}/hands", body)
    page = client.post(
        reverse("seat:table-enter-cards", args=[a.token]),
        {**body, "knocker_cards": " ".join(body["knocker_cards"]), "defender_cards": "KS"},
        follow=True,
    )

    assert response.status_code == 422
    assert response.json()["detail"]
    assert page.status_code in (200, 400)
    assert not party.hands.exists()


@pytest.mark.parametrize("text", CONTROL)
def test_a_control_character_in_a_nights_name_is_a_form_error(client, organizer, text):
    response = client.post(
        reverse("manage:club-detail", args=[organizer.club.slug]),
        {"name": f"Friday{text}night", "date": "2026-01-09", "ruleset": "classic"},
    )
    assert response.status_code == 200
    assert "control character" in response.text
    assert not organizer.club.nights.exists()


FORM_MODULES = [
    "clubs.manage.forms",
    "scoring.forms",
    "scoring.manage.forms",
    "seasons.forms",
    "tournaments.manage.forms",
]


def test_every_web_form_refuses_control_characters_as_the_api_does():
    # One rule (web.validators) for every form of every audience.
    loose = [
        f"{module}.{name}"
        for module in FORM_MODULES
        for name, form in vars(importlib.import_module(module)).items()
        if isinstance(form, type)
        and issubclass(form, forms.BaseForm)
        and form.__module__ == module
        and not issubclass(form, PrintableForm)
    ]
    assert loose == []


@pytest.mark.parametrize("text", CONTROL)
def test_a_control_character_in_a_tournaments_name_is_a_form_error(client, organizer, text):
    response = client.post(
        reverse("manage:tournament-create", args=[organizer.club.slug]),
        {
            "name": f"Cup{text}Cup",
            "date": "2026-01-09",
            "format": "swiss",
            "ruleset": "classic",
            "target": 100,
            "bye_value": 0,
            "forfeit_value": 100,
        },
    )
    assert response.status_code in (200, 400)
    assert "control character" in response.text
    assert not organizer.club.tournaments.exists()


@pytest.mark.parametrize("text", CONTROL)
def test_a_control_character_in_a_members_name_is_a_form_error(client, organizer, text):
    members = organizer.club.memberships.count()
    response = client.post(
        reverse("manage:member-add", args=[organizer.club.slug]),
        {"name": f"Ada{text}Lovelace", "role": "member"},
    )
    assert response.status_code in (200, 400)
    assert "control character" in response.text
    assert organizer.club.memberships.count() == members


def test_an_oversized_body_is_a_json_413(client, settings):
    party = start_party()
    a, _ = party.seats.order_by("position")
    body = b'{"number": 1, "key": "' + b"x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1) + b'"}'

    response = client.post(f"/api/tables/{a.token}/hands", body, content_type="application/json")

    assert response.status_code == 413
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["code"] == "too_large"
    assert not party.hands.exists()


@pytest.mark.parametrize("pk", ["99999999999999999999999", "9223372036854775808", "-1", "1e3"])
def test_a_player_id_past_the_databases_range_is_a_form_error(client, organizer, pk):
    night = ClubNightFactory(club=organizer.club)

    response = client.post(
        reverse("manage:night-detail", args=[night.pk]), {"format": "two", "players": [pk]}
    )

    assert response.status_code == 200
    assert response.context["form"].errors["players"]
    assert not night.parties.exists()


@pytest.mark.parametrize("text", CONTROL)
def test_a_control_character_in_the_organizers_api_is_a_422(client, organizer, text):
    slug = organizer.club.slug
    night = api_post(
        client, f"/api/manage/clubs/{slug}/nights", {"name": text, "date": "2026-01-09"}
    )
    tournament = api_post(
        client, f"/api/manage/clubs/{slug}/tournaments", {"name": f"Cup{text}Cup"}
    )

    assert (night.status_code, tournament.status_code) == (422, 422)
    assert "control character" in night.json()["detail"]
    assert "control character" in tournament.json()["detail"]
    assert not organizer.club.nights.exists()
    assert not organizer.club.tournaments.exists()


@pytest.mark.parametrize("text", CONTROL)
def test_a_control_character_in_an_archive_is_refused(client, organizer, text):
    night = ClubNightFactory(club=organizer.club, name="Friday")
    start_night_party(night)
    archive = client.get(f"/api/manage/nights/{night.pk}/archive").json()
    archive["players"][0]["name"] += text

    response = api_post(client, f"/api/manage/clubs/{organizer.club.slug}/archive", archive)

    assert (response.status_code, response.json()["code"]) == (422, "invalid_archive")
    assert "control character" in response.json()["detail"]
    assert organizer.club.nights.count() == 1


@pytest.mark.parametrize("text", CONTROL)
def test_a_control_character_in_an_api_keys_name_makes_no_key(client, organizer, text):
    response = client.post(reverse("manage:token-list"), {"name": f"club{text}site"})

    assert response.status_code == 200
    assert response.context["key"] is None
    assert "control character" in response.text
    assert not organizer.player.user.api_tokens.exists()


def test_a_club_filter_out_of_shape_is_a_422(client):
    assert client.get("/api/tournaments", {"club": "a\x00b"}).status_code == 422
