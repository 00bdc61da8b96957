"""The OpenAPI document itself: every operation lists what it can answer, the
answers to retry say when, and errors are typed. (Generated requests against it,
over a live server, are tests/scoring/api/test_schemathesis.py.)"""

import importlib
from collections import defaultdict
from unittest import mock

import pydantic
import pytest
from django.db import OperationalError

from tests.factories import OrganizerFactory

pytestmark = pytest.mark.django_db

PACKAGES = ("clubs.", "scoring.", "tournaments.", "seasons.", "config.", "web.")


def _models(cls=pydantic.BaseModel):
    for sub in cls.__subclasses__():
        yield sub
        yield from _models(sub)


def test_no_two_schemas_of_the_api_share_a_name():
    # ninja names each schema in the document by its class name alone, and keeps
    # one class per name: a second class of that name would be documented with
    # the first one's shape.
    importlib.import_module("config.api")
    modules = defaultdict(set)
    for model in _models():
        if model.__module__.startswith(PACKAGES):
            modules[model.__name__].add(f"{model.__module__}.{model.__qualname__}")
    twice = {name: sorted(where) for name, where in modules.items() if len(where) > 1}
    assert twice == {}
    assert {"ErrorOut", "SeatTableOut", "TournamentTableOut"} <= modules.keys()


@pytest.fixture
def document(client):
    return client.get("/api/openapi.json").json()


def operations(document):
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            yield f"{method.upper()} {path}", operation


def statuses(document, label):
    return dict(operations(document))[label]["responses"].keys()


def test_each_operation_lists_only_what_it_can_answer(document):
    for label, operation in operations(document):
        answered = set(map(int, operation["responses"]))
        assert answered <= {200, 201, 400, 401, 403, 404, 409, 413, 422, 429, 503}, label
        if label == "GET /api/":
            continue
        # Any request that reaches the database may lose it.
        assert 503 in answered, label
        if label.startswith("GET"):
            assert not answered & {400, 403, 409, 413}, label
        path = label.split(" ")[1]
        if path.startswith(("/api/tables/", "/api/me/")):  # secret links, guarded alike
            assert 429 in answered and 401 not in answered, label
        elif path.startswith(("/api/manage/", "/api/parties/")):
            assert 401 in answered, label
        else:
            assert not answered & {401, 403, 429}, label
    assert statuses(document, "GET /api/clubs") == {"200", "503"}
    assert statuses(document, "POST /api/tables/{token}/hands") == {
        *("200", "201", "400", "404", "409", "413", "422", "429", "503")
    }
    assert statuses(document, "POST /api/parties/{party_id}/rematch") == {
        *("200", "201", "401", "403", "404", "409", "422", "503")
    }


def test_the_answers_to_retry_carry_retry_after(document):
    for label, operation in operations(document):
        for status in ("429", "503"):
            answer = operation["responses"].get(status)
            if answer is not None:
                assert answer["headers"]["Retry-After"]["required"], label
                assert "Retry-After" in answer["description"], label


def test_errors_are_typed_with_the_fields_of_an_invalid_request(document):
    schemas = document["components"]["schemas"]
    error = schemas["ErrorOut"]
    assert set(error["required"]) == {"detail", "code"}
    assert error["properties"]["errors"]["items"] == {"$ref": "#/components/schemas/FieldErrorOut"}
    assert set(schemas["FieldErrorOut"]["required"]) == {"field", "message"}
    changed = schemas["ChangedOut"]
    assert {"detail", "code", "errors", "hand"} <= changed["properties"].keys()
    for label, operation in operations(document):
        for status, answer in operation["responses"].items():
            body = answer["content"]["application/json"]["schema"]
            if int(status) >= 400:
                # ChangedOut, or GameChangedOut for a hand of another game, or
                # either where one address takes every game's hands.
                shapes = body.get("anyOf", [body])
                assert all(one["$ref"].endswith(("/ErrorOut", "ChangedOut")) for one in shapes), (
                    label,
                    status,
                )
            else:
                # Every success names its shape (or each of its shapes: a party of
                # Gin Rummy or of another game): no bare object.
                shape = body.get("items", body)
                shapes = shape.get("anyOf", [shape])
                assert all("$ref" in one for one in shapes), (label, status)


def test_seat_and_organizer_are_told_apart_and_the_server_is_named(document):
    tags = {label: operation["tags"] for label, operation in operations(document)}
    assert tags["GET /api/tables/{token}"] == ["seat"]
    assert tags["POST /api/tables/{token}/hands"] == ["seat"]
    assert tags["GET /api/parties/{party_id}"] == ["organizer"]
    assert tags["POST /api/manage/nights/{night_id}/parties"] == ["organizer"]
    assert tags["GET /api/clubs/{slug}"] == ["public"]
    assert document["servers"] == [{"url": "/", "description": "This Knock"}]


@pytest.mark.parametrize(
    ("label", "lost"),
    [
        ("GET /api/tables/{token}", "scoring.selectors.seat_by_token"),
        ("GET /api/parties/{party_id}", "scoring.selectors.party_by_id"),
        ("GET /api/tournaments/{slug}", "tournaments.published.public_tournament"),
    ],
)
def test_a_lost_database_is_answered_as_documented(client, document, label, lost):
    method, path = label.split(" ")
    url = path.format(token="any-seat", party_id=1, slug="cup")
    membership = OrganizerFactory()
    client.force_login(membership.player.user)
    with mock.patch(lost, side_effect=OperationalError("the server closed the connection")):
        response = client.generic(method, url)
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    documented = dict(operations(document))[label]["responses"]["503"]
    assert documented["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorOut")
    error = document["components"]["schemas"]["ErrorOut"]
    assert set(error["required"]) <= response.json().keys() <= error["properties"].keys()
    assert response.json()["code"] == "database_unavailable"
