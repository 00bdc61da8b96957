"""The JSON API at /api/: one NinjaAPI; each app in `APPS` adds its routers.

Every error is a 4xx with ``{"detail": <a sentence the player can act on>, "code":
<a stable machine code>}``; validation errors add ``errors``, one per field. The
apps say which of their exceptions get which status and code (``ERRORS``); each
operation documents only the statuses it can answer (`web.api_errors`).
"""

from copy import deepcopy
from functools import partial
from importlib import import_module

import pydantic
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404, JsonResponse
from django.urls import reverse
from django.utils.translation import gettext
from ninja import NinjaAPI, Schema, Swagger
from ninja.errors import AuthenticationError, HttpError, ValidationError

from scoring import errors
from web.api_errors import MEANINGS, RETRY_AFTER

#: The apps' API packages; each has ``ROUTERS`` (prefix, router) and ``ERRORS``
#: (exception class -> (status, code)), and may have ``ERROR_BODIES`` (exception
#: class -> a function of the exception giving what its body adds), and may word its
#: errors itself (``explain``; scoring's are worded for the players by
#: `scoring.errors.explain`).
APPS = ["clubs.api", "scoring.api", "tournaments.api", "seasons.api"]


class KnockAPI(NinjaAPI):
    def get_openapi_schema(self, *, path_prefix=None, path_params=None):
        """The document, made once a process for each address it is served under
        (the API's routes never change while it runs): the index and the document's
        own address answer every request with it, and making it took longer than
        the rest of such a request. Shared: read it, never change it."""
        if path_prefix is None:
            path_prefix = self.get_root_path(path_params or {})
        made = self.__dict__.setdefault("_documents", {})
        if path_prefix not in made:
            made[path_prefix] = self._document(path_prefix)
        return made[path_prefix]

    def _document(self, path_prefix: str):
        """What ninja makes, with what it cannot say itself: what each error status
        means, and the ``Retry-After`` header of those a client should retry."""
        schema = super().get_openapi_schema(path_prefix=path_prefix)
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        for operations in schema["paths"].values():
            for operation in operations.values():
                # A body given by its own pydantic schema (``openapi_extra``, as the
                # archive's upload does) brings its definitions: they are components,
                # where its references point. (A copy: the extra is the view's own.)
                if "requestBody" in operation:
                    operation["requestBody"] = deepcopy(operation["requestBody"])
                for content in operation.get("requestBody", {}).get("content", {}).values():
                    components.update(content.get("schema", {}).pop("$defs", {}))
                for status, response in operation["responses"].items():
                    status = int(status)
                    if status in MEANINGS:
                        response["description"] = MEANINGS[status]
                    if status in RETRY_AFTER:
                        response["headers"] = {
                            "Retry-After": {
                                "description": "Seconds to wait before sending it again.",
                                "required": True,
                                "schema": {"type": "integer", "minimum": 0},
                            }
                        }
        return schema


api = KnockAPI(
    title="Knock",
    version="1",
    urls_namespace="api",
    description=(
        "Card clubs, their nights, parties and tournaments. Public reads need nothing; "
        "a table's entries take its seat token in the path; the organizer's actions "
        "take a personal API key (`Authorization: Bearer …`, made on /manage/api-keys/) "
        "or the logged-in session. Errors are JSON: `{detail, code}` (and `errors`, "
        "one per field, when the request does not fit); each operation lists the "
        "statuses it can answer. A 503 `database_unavailable` stored nothing: send "
        "the same request again after its `Retry-After` seconds."
    ),
    # Relative: the document is served by the Knock it describes.
    servers=[{"url": "/", "description": "This Knock"}],
    # Without deep links: Swagger UI puts each one, a link, inside the button that
    # opens its operation (a control inside a control, which a screen reader cannot
    # reach). The page's other repairs are in templates/ninja/swagger.html.
    docs=Swagger(settings={"deepLinking": False}),
)


def _error(request, status: int, code: str, detail: str, **extra):
    return api.create_response(request, {"detail": detail, "code": code, **extra}, status=status)


def _known(request, exc, *, status: int, code: str, explain, body=None):
    if isinstance(exc, pydantic.ValidationError):
        # A pydantic error outside request parsing is a bug in a response, not a
        # bad request: let it be the 500 it is.
        raise exc
    extra = body(exc) if body else {}
    return _error(request, status, code, explain(exc), **extra)


for app in map(import_module, APPS):
    for prefix, router in app.ROUTERS:
        api.add_router(prefix, router)
    explain = getattr(app, "explain", errors.explain)
    bodies = getattr(app, "ERROR_BODIES", {})
    for exc_class, (status, code) in app.ERRORS.items():
        handler = partial(
            _known, status=status, code=code, explain=explain, body=bodies.get(exc_class)
        )
        api.add_exception_handler(exc_class, handler)


class EndpointOut(Schema):
    path: str
    method: str
    summary: str


class IndexOut(Schema):
    name: str
    openapi: str
    docs: str
    endpoints: list[EndpointOut]


@api.get("/", tags=["index"], auth=None, response=IndexOut)
def index(request):
    """What is here: every address of the API with its methods and what it does, and
    where the OpenAPI document and its documentation are."""
    schema = api.get_openapi_schema()
    endpoints = [
        {"path": path, "method": method.upper(), "summary": operation.get("summary", "")}
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
    ]
    return {
        "name": "Knock",
        "openapi": request.build_absolute_uri(reverse("api:openapi-json")),
        "docs": request.build_absolute_uri(reverse("api:openapi-view")),
        "endpoints": endpoints,
    }


@api.exception_handler(ValidationError)
def _invalid(request, exc):
    problems = [_field_error(error) for error in exc.errors]
    detail = "; ".join(
        f"{error['field']}: {error['message']}" if error["field"] else error["message"]
        for error in problems
    )
    return _error(request, 422, "invalid_entry", detail, errors=problems)


def _field_error(error: dict) -> dict:
    # ninja's location starts with where the value came from ("body", "path");
    # a body also names the view's parameter, which the client never sees.
    source, *path = error["loc"]
    if source == "body":
        path = path[1:]
    # A body of one of several shapes names the shape it was read as (a tag or a
    # schema's name, with a capital); the client never sees those either.
    path = [part for part in path if not (isinstance(part, str) and part[:1].isupper())]
    return {"field": ".".join(str(part) for part in path), "message": error["msg"]}


@api.exception_handler(RequestDataTooBig)
def _too_big(request, exc):
    # Django refuses to read a body over DATA_UPLOAD_MAX_MEMORY_SIZE; it is the
    # client's mistake, and the client is told so in JSON.
    detail = gettext("The request's body is too large.")
    return _error(request, 413, "too_large", detail)


@api.exception_handler(Http404)
def _not_found(request, exc):
    detail = gettext("Nothing here: the link is wrong, or it was replaced by a new one.")
    return _error(request, 404, "not_found", detail)


@api.exception_handler(PermissionDenied)
def _forbidden(request, exc):
    detail = str(exc) or gettext("You may not do this.")
    return _error(request, 403, "forbidden", detail)


@api.exception_handler(AuthenticationError)
def _not_authenticated(request, exc):
    detail = gettext("Log in first: this is for the club's organizers.")
    return _error(request, 401, "not_authenticated", detail)


@api.exception_handler(HttpError)
def _http_error(request, exc):
    # ninja raises these itself, with terse English: a body that is not JSON (400),
    # and a failed CSRF check on a logged-in request (403).
    if exc.status_code == 400:
        detail = gettext("The request's body is not valid JSON.")
        return _error(request, 400, "invalid_json", detail)
    if exc.status_code == 403:
        detail = gettext(
            "The request was refused: its CSRF token is missing or wrong. "
            "Reload the page and try again."
        )
        return _error(request, 403, "csrf_failed", detail)
    return _error(request, exc.status_code, "error", str(exc))


def json_errors(get_response):
    """Middleware: what Django answers itself under /api/ — no such path (404), a
    method the endpoint does not take (405) — is JSON too, like every API error."""

    def middleware(request):
        response = get_response(request)
        if (
            request.path.startswith("/api/")
            and response.status_code in (404, 405)
            and not response.get("Content-Type", "").startswith("application/json")
        ):
            if response.status_code == 404:
                detail = gettext("There is no such address in the API.")
                code = "not_found"
            else:
                detail = gettext("This address does not take a %(method)s request.") % {
                    "method": request.method
                }
                code = "method_not_allowed"
            json = JsonResponse({"detail": detail, "code": code}, status=response.status_code)
            if response.has_header("Allow"):
                json["Allow"] = response["Allow"]
            return json
        return response

    return middleware
