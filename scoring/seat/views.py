"""The table's pages, opened with a seat token: the sheet, entering and confirming
hands, and the card picker's preview."""

import uuid
from functools import partial, wraps

from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import (
    Http404,
    HttpResponse,
    HttpResponseNotAllowed,
    HttpResponseNotModified,
    JsonResponse,
)
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.cache import add_never_cache_headers
from django.utils.http import parse_etags
from django.views.decorators.http import require_GET, require_POST

from live import streams
from scoring import selectors
from scoring.engine.games import GAMES
from scoring.forms import ConfirmForm
from scoring.labels import party_title
from scoring.seat import format_tables, frame, kept, whole_table
from scoring.seat.acts import act
from scoring.services import hands
from scoring.services.keeping import FormatTables, WholeTable, keeping_for
from web import security


def entry_address(view):
    """An address a seat's form posts to: a GET (a reload, the back button, a link
    passed on) leads back to the seat's page instead of a bare 405."""

    @wraps(view)
    def wrapped(request, token):
        if request.method in ("GET", "HEAD"):
            return redirect(selectors.seat_by_token(token))
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        return view(request, token)

    return wrapped


@require_GET
def table(request, token):
    """A seat's view of its party: the sheet, the open hand, and what to do next.
    A link the organizer replaced says so, instead of a bare "not found"."""
    try:
        return _page(request, token)
    except Http404:
        if selectors.link_replaced(token):
            return render(request, "scoring/seat/link_replaced.html", status=410)
        raise


@require_GET
def table_state(request, token):
    """The number the page polls (`selectors.seat_poll`), as JSON and as the ETag:
    a phone that sends its number back in If-None-Match gets an empty 304 while
    nothing changed. No template, no session, no database on the way: one trip to
    the cache, which also brings the address's count of wrong tokens (the guard
    of `web.security`, which leaves this path to the view). Like the guard,
    only an unknown token is refused past the limit: a right one always answers."""
    version, misses = selectors.seat_poll_cached(token, also=security.miss_key(request))
    if version is None:
        try:
            version = selectors.seat_poll(token)
        except Http404:
            if security.over_limit(misses):
                return security.too_many(request)
            raise
    etag = f'"{version}"'
    if etag in parse_etags(request.headers.get("If-None-Match", "")):
        response = HttpResponseNotModified()
    else:
        response = JsonResponse({"version": version})
    response["ETag"] = etag
    return response


@require_GET
def table_events(request, token):
    """The seat's live stream: an event each time the number `table_state` answers
    moves, so the page asks it at once instead of on its next poll."""
    return streams.stream(request, selectors.seat_live_counters(token))


@entry_address
def table_enter(request, token):
    """A hand entered at the seat, in the entry form of the party's keeping."""
    seat, enter = _part(token, "enter")
    return enter(request, seat, again=_again(request, token))


@entry_address
def table_enter_cards(request, token):
    """A hand entered from the cards, where the party's keeping takes one."""
    seat, enter = _part(token, "enter_cards")
    return enter(request, seat, again=_again(request, token))


@require_POST
def table_preview(request, token):
    """What the engine makes of the card picker's cards, as JSON; stores nothing."""
    seat, preview = _part(token, "cards_preview")
    return preview(request.POST, seat)


@entry_address
def table_confirm(request, token):
    """Another side's pending entry confirmed, in the version the page showed: the
    same for every game (`hands.hand_confirm`)."""
    seat = selectors.seat_by_token(token)
    return act(request, seat, ConfirmForm(request.POST), hands.hand_confirm)


@require_POST
def table_preview_game(request, token):
    """What the engine makes of the cards typed into a whole table's form so far,
    as JSON (Chinchón: each hand's least penalty); stores nothing."""
    seat, preview = _part(token, "form_preview")
    return preview(request.POST, seat)


# The seat page's parts by how the party's hands are kept, asked as party formats
# are: a module per keeping gives the context its parts read, their templates
# (``PARTS``) and the addresses it answers. Nothing here asks which game it is.
READINGS = {FormatTables: format_tables, WholeTable: whole_table}


def _part(token, name):
    """The seat, and its keeping's ``name`` (`enter`, `cards_preview`, ...): an
    address the party's keeping has no use for is not found (a Chinchón party
    has no card picker of Gin Rummy's)."""
    seat = selectors.seat_by_token(token)
    part = getattr(READINGS[keeping_for(seat.party)], name, None)
    if part is None:
        raise Http404
    return seat, part


def _again(request, token):
    """A refused hand: the page again (400), with the form as it was sent."""
    return partial(_page, request, token, status=400)


@require_GET
def service_worker(request):
    """The worker that keeps a seat's page on the phone for a reload without network
    (templates/scoring/seat/sw.js). Served from /table/ because a worker only
    answers for the pages under its own path; never cached, so a new version
    reaches the phones at once."""
    response = render(request, "scoring/seat/sw.js", content_type="text/javascript")
    add_never_cache_headers(response)
    return response


@require_GET
def table_manifest(request, token):
    """The web app manifest: "add to home screen" opens this seat's page."""
    seat = selectors.seat_by_token(token)
    page = seat.get_absolute_url()
    return JsonResponse(
        {
            "name": f"Knock · {seat.player.name}",
            "short_name": "Knock",
            "start_url": page,
            "scope": page,
            "display": "standalone",
            "background_color": "#ffffff",
            "theme_color": "#1d5c3a",
            "icons": [
                {
                    "src": staticfiles_storage.url("knock.svg"),
                    "sizes": "any",
                    "type": "image/svg+xml",
                }
            ],
        },
        content_type="application/manifest+json",
        json_dumps_params={"ensure_ascii": False},
    )


def _page(request, token, *, status=200, **forms):
    # The polled number first, then the party (see `selectors.seat_poll`).
    version = selectors.seat_poll(token)
    seat, seats = selectors.seat_and_table(token)
    reading = READINGS[keeping_for(seat.party)]
    context = {
        **reading.context(seat, seats, **forms),
        "game": GAMES[seat.party.game],
        "title": party_title(seat.party),
        "parts": reading.PARTS,
        "key": uuid.uuid4().hex,
        "version": version,
        # The one token of every form on the page, also those of kept parts.
        "csrf_token": get_token(request),
        "address": kept.addresses(seat.token, ADDRESSES),
    }
    html = frame.framed(request, context, ADDRESSES)
    if html is None:
        html = render_to_string("scoring/seat/table_detail.html", context, request)
    html = kept.finish(html, csrf=context["csrf_token"], key=context["key"])
    response = HttpResponse(html, status=status)
    if seat.party.status == seat.party.Status.RUNNING and not context["over"]:
        # The service worker keeps a seat's page only while its party runs and only
        # when told so (templates/scoring/seat/sw.js): a finished or cancelled
        # party's page leaves the phone, however many people share it.
        response[OFFLINE_COPY] = "keep"
    return response


# The seat's addresses the page links to, by their names in ``seat``.
ADDRESSES = ("table", "table-state", "table-events", "table-manifest", "table-confirm", "notices")

# The header by which the server tells the seat's service worker it may keep a page.
OFFLINE_COPY = "Knock-Offline-Copy"
