"""The table's pages, opened with a seat token: the sheet, entering and confirming
hands, and the card picker's preview."""

import uuid
from functools import wraps

from django.contrib import messages
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import Http404, HttpResponseNotAllowed, HttpResponseNotModified, JsonResponse
from django.shortcuts import redirect, render
from django.utils.cache import add_never_cache_headers
from django.utils.http import parse_etags
from django.views.decorators.http import require_GET, require_POST

from live import streams
from scoring import errors, selectors
from scoring.engine.rules import Rules
from scoring.entry_forms import entry_form_for
from scoring.forms import CardsEntryForm, ConfirmForm, QuickEntryForm, first_error
from scoring.seat import picker, whole_table
from scoring.seat.acts import act
from scoring.services import hands, knocks
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
    """A hand entered at the seat, in the entry form of the party's game (found by
    the game's key, `entry_form_for`; a game of party formats by its counts)."""
    seat = selectors.seat_by_token(token)
    if entry_form_for(seat.party) is not None:
        return whole_table.enter(request, seat)
    # A refused hand comes back with what was typed, to be mended, not typed again.
    form = QuickEntryForm(request.POST)
    refused = _refused(request, seat, quick_form=form)
    return act(request, seat, form, hands.hand_enter, refused=refused)


@entry_address
def table_enter_cards(request, token):
    """The hand from the cards: the server evaluates the cards again, whatever the
    preview said. A mistake shows the page again with the cards still filled in."""
    seat = _playing_format_game(token)
    form = CardsEntryForm(request.POST, rules=_rules(seat))
    refused = _refused(request, seat, cards_form=form)
    return act(request, seat, form, hands.hand_enter, refused=refused)


@require_POST
def table_preview(request, token):
    """What the engine makes of the cards, as JSON; stores nothing."""
    seat = _playing_format_game(token)
    form = CardsEntryForm(request.POST, rules=_rules(seat))
    if not form.is_valid():
        field = next(iter(form.errors))
        return JsonResponse({"message": first_error(form), "field": field}, status=400)
    try:
        scored = knocks.hand_preview(seat=seat, result=form.result())
    except ValueError as error:
        return JsonResponse({"message": errors.explain(error)}, status=400)
    return JsonResponse(picker.preview_data(form.result(), scored))


@entry_address
def table_confirm(request, token):
    """Another side's pending entry confirmed, in the version the page showed: the
    same for every game (`hands.hand_confirm`)."""
    seat = selectors.seat_by_token(token)
    return act(request, seat, ConfirmForm(request.POST), hands.hand_confirm)


@require_POST
def table_preview_game(request, token):
    """What the engine makes of the cards typed into another game's form so far,
    as JSON (Chinchón: each hand's least penalty); stores nothing."""
    seat = _playing_other_game(token)
    return JsonResponse(whole_table.preview(seat, request.POST))


def _playing_format_game(token):
    # The card picker is the entry of a game of party formats; another game's
    # hands are typed into its own form.
    seat = selectors.seat_by_token(token)
    if entry_form_for(seat.party) is not None:
        raise Http404
    return seat


def _playing_other_game(token):
    # A Gin Rummy party's hands have their own addresses above.
    seat = selectors.seat_by_token(token)
    if entry_form_for(seat.party) is None:
        raise Http404
    return seat


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


def _page(request, token, *, cards_form=None, quick_form=None, status=200):
    # The polled number first, then the party (see `selectors.seat_poll`).
    version = selectors.seat_poll(token)
    seat, seats = selectors.seat_and_table(token)
    if entry_form_for(seat.party) is not None:
        response = whole_table.page(request, seat, version)
        if seat.party.status == seat.party.Status.RUNNING:
            response[OFFLINE_COPY] = "keep"
        return response
    rules = _rules(seat)
    view = selectors.seat_view(seat, seats)
    sheet = view["sheet"]
    context = {
        "seat": seat,
        "party": seat.party,
        "rules": rules,
        "key": uuid.uuid4().hex,
        "picker": picker.picker_html(rules.oklahoma),
        "quick_form": quick_form or QuickEntryForm(),
        "cards_form": cards_form or CardsEntryForm(rules=rules),
        "race": [
            {"name": name, "points": points, "needed": needed}
            for name, points, needed in zip(
                sheet["headers"], sheet["points"], sheet["needed"], strict=True
            )
        ],
        **view,
        "version": version,
    }
    response = render(request, "scoring/seat/table_detail.html", context, status=status)
    if seat.party.status == seat.party.Status.RUNNING and not view["state"].finished:
        # The service worker keeps a seat's page only while its party runs and only
        # when told so (templates/scoring/seat/sw.js): a finished or cancelled
        # party's page leaves the phone, however many people share it.
        response[OFFLINE_COPY] = "keep"
    return response


# The header by which the server tells the seat's service worker it may keep a page.
OFFLINE_COPY = "Knock-Offline-Copy"


def _rules(seat) -> Rules:
    return Rules.from_dict(seat.party.rules)


def _refused(request, seat, **forms):
    """A refused hand of the party formats: the page again, with the reason and
    the form as it was sent (``quick_form`` or ``cards_form``)."""

    def answer(form, message):
        messages.error(request, message or first_error(form))
        return _page(request, seat.token, status=400, **forms)

    return answer
