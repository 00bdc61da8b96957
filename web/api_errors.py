"""What the API answers when it does not do what was asked: one body for every app
(`ErrorOut`), and for each operation the statuses it can really give (`refusals`).

Here rather than in an app: every app's API answers with this body, and the apps'
API packages may not import each other. The handlers that write it are in
config/api.py (and the middlewares of web/security.py and config/unavailable.py,
which answer before or after the view).
"""

from ninja import Field, Schema

#: What each status means to a client; the OpenAPI document gives it to every
#: operation that lists the status.
MEANINGS = {
    400: "The request's body is not valid JSON (`invalid_json`).",
    401: "An organizer's action without a valid API key or a logged-in session "
    "(`not_authenticated`).",
    403: "A logged-in session's request without its CSRF token (`csrf_failed`).",
    404: "Nothing here, or nothing this caller may see (`not_found`).",
    409: "The request is fine, but what it acts on refuses it now (the code says why).",
    413: "The request's body is too large (`too_large`).",
    422: "What the request says is impossible: the fields are in `errors` when the body "
    "or the path does not fit (`invalid_entry`), or a rule of the game says no.",
    429: "Too many unknown table or personal links from this address (`too_many_wrong_links`): "
    "wait `Retry-After` seconds.",
    503: "The database was lost on the way and nothing was stored "
    "(`database_unavailable`): send the same request again after `Retry-After` seconds.",
}

#: Statuses answered with a `Retry-After` header (seconds).
RETRY_AFTER = (429, 503)


class FieldErrorOut(Schema):
    """One field of the request that does not fit: its dotted name (empty for the
    body as a whole) and why."""

    field: str
    message: str


class ErrorOut(Schema):
    """Every error: a sentence for the person (in the request's language) and a
    stable code for the program."""

    detail: str
    code: str
    # Only a request whose body or path does not fit (422 `invalid_entry`) names
    # its fields.
    errors: list[FieldErrorOut] = Field(default_factory=list)


def refusals(*statuses: int) -> dict:
    """The error part of an operation's ``response``: the statuses it can answer
    besides its success, and 503, which any request that reaches the database can."""
    return {frozenset({*statuses, 503}): ErrorOut}


# What each kind of operation can answer besides its success. A path's values are
# checked (422) and looked up (404) everywhere they are taken; a body can be no
# JSON (400) or too large (413); an organizer's action needs a key or a session
# (401), the session's unsafe request its CSRF token (403); a table's address
# counts against the guessing of seat links (429); 409 where a party, a night or a
# tournament can refuse the moment.
PUBLIC_READ = refusals(404, 422)
SEAT_READ = refusals(404, 422, 429)
SEAT_WRITE = refusals(400, 404, 413, 422, 429)
ORGANIZER_READ = refusals(401, 404, 422)
ORGANIZER_ACTION = refusals(401, 403, 404, 409, 422)
ORGANIZER_WRITE = refusals(400, 401, 403, 404, 409, 413, 422)
