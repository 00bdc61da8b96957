"""Middleware that guards the seat links: nothing that carries a token is kept
in a cache, and an address that keeps guessing tokens gets 429 for its unknown
tokens (its right ones still open their seats)."""

import hashlib
import logging
import re

from django.conf import settings
from django.core.cache import cache
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext

from web.client import client_address

log = logging.getLogger(__name__)

# The pages and answers that show a seat token: the seat pages, the organizer's
# pages (links and QR codes of every seat), and the API (seat and party answers);
# the self check-in at the door (`/door/<token>/`) and a player's personal link
# (`/me/<token>/`) are guarded like a seat link.
TOKEN_CARRIERS = ("/table/", "/manage/", "/api/", "/door/", "/me/")
SEAT_TOKEN = re.compile(r"^/(?:table|api/tables|door|me|api/me)/([^/]+)")
PERSONAL_LINK = re.compile(r"^/(?:api/)?me/")


def no_store_for_tokens(get_response):
    """A seat token is a key to the seat: no browser, proxy or shared computer may
    keep a copy of a page or answer that shows one."""

    def middleware(request):
        response = get_response(request)
        if request.path.startswith(TOKEN_CARRIERS):
            add_never_cache_headers(response)
        if request.path.startswith("/table/"):
            # A seat link posted somewhere public must not make its page a search result.
            response["X-Robots-Tag"] = "noindex, nofollow"
        return response

    return middleware


# The seat poll, every phone's hot path, reads the count together with its own
# number, in one trip to the cache (scoring/seat/views.table_state).
SEAT_POLL = re.compile(r"^/table/[^/]+/state/$")


def seat_token_guard(get_response):
    """Stops the guessing of seat links per guesser, never the tables sharing his
    address. It counts, per address, the different seat tokens that found no seat
    (404); past SEAT_TOKEN_MISS_LIMIT within the window, an *unknown* token from
    that address gets 429 (with Retry-After) instead of 404. A right token always
    passes: the guard only ever refuses tokens that open nothing, so at a venue
    whose phones share one address (Wi-Fi behind NAT) one prankster or a few
    mistyped links stop no table. Different tokens only: a phone still polling a
    replaced link counts once.

    Why this is enough: a seat token is 32 random bytes (256 bits,
    `scoring.services.seats.new_token`). Letting a right token through means a
    guesser past the limit still learns "no" for each guess (429 instead of 404),
    but at any rate a server could ever answer — a million guesses a second for a
    year, against a million live seats — the chance of finding one is below
    2**-190. The limit is not what makes guessing hopeless; it tells
    a guesser (or a broken script) to stop, and spares him nothing worth having.
    Refusing right tokens, as before, only ever locked out the honest phones.

    The count lives in the shared cache; when the cache is down the guard steps
    aside. The seat poll checks the count itself (scoring/seat/views.table_state)."""

    def middleware(request):
        match = SEAT_TOKEN.match(request.path)
        if match is None:
            return get_response(request)
        response = get_response(request)
        if response.status_code != 404:
            return response
        misses = _count_miss(miss_key(request), match.group(1))
        if not SEAT_POLL.match(request.path) and over_limit(misses):
            return too_many(request)
        return response

    return middleware


def over_limit(misses: int | None) -> bool:
    return (misses or 0) >= settings.SEAT_TOKEN_MISS_LIMIT


def miss_key(request) -> str:
    """The cache key counting the address's unknown seat tokens."""
    return f"seat-miss:{client_address(request)}"


def _count_miss(counter: str, token: str) -> int:
    """Counts a token that found no seat, once per token, and answers the address's
    count before it (so the first LIMIT misses answer 404, the next 429)."""
    window = settings.SEAT_TOKEN_MISS_WINDOW
    digest = hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()[:24]
    try:
        if cache.add(f"{counter}:{digest}", 1, window):
            cache.add(counter, 0, window)
            return cache.incr(counter) - 1
        return cache.get(counter) or 0
    except Exception:  # a lost count is better than a refused table
        log.warning("seat token guard: cache unavailable", exc_info=True)
        return 0


def too_many(request):
    detail = gettext(
        "Too many wrong table links from your network. Wait a few minutes, then open "
        "the link on your table card again."
    )
    if PERSONAL_LINK.match(request.path):
        detail = gettext(
            "Too many wrong personal links from your network. Wait a few minutes, then "
            "open your link again."
        )
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": detail, "code": "too_many_wrong_links"}, status=429)
    else:
        response = render(request, "429.html", {"detail": detail}, status=429)
    response["Retry-After"] = str(settings.SEAT_TOKEN_MISS_WINDOW)
    return response
