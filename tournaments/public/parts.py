"""The live parts of a tournament's public page and wall screen: the standings, the
round's tables, the screen's slides. Each is rendered once per stored board and
language and kept in the cache (`board.cached`), so a spectator's ask costs a cache
read.

Rendered by the first spectator to ask after a new board, a championship's parts
took 40–200 ms each, on top of reading the board out of the cache, in a web process
the phones were queueing for. So a part rendered on a spectator's ask is noted
(`_note`), and the board's builder renders the noted parts with every new board
before its counter moves (`parts_for_board`, through `stored_board.with_board`):
the spectators woken by the news find them ready. A part nobody asked for lately
(another sort, the German page at an English club) is not rendered at all.

An open page need not even ask: its live stream carries the parts it shows, read
from the cache by the `live` process that holds the stream (`carry`, for
`tournament_events`), so a spectator costs the web processes nothing per board.
Each part is kept as the page shows it (the standings with their heading, the
screen with the final's and the club's slides), so what the stream carries, what
an ask is answered and what the page is rendered with are the same text.

Opening that stream reads nothing from the database either: what it needs of the
tournament (`Opened`) the builder keeps with each board, by the tournament's short
name (`opened`). A crowd of thousands opening their pages at once took a database
connection each for the tournament's row, ran the process's pool dry, and most
were answered 503."""

import contextlib
import math
import time
from typing import NamedTuple
from urllib.parse import urlencode

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, QueryDict
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django_tables2 import RequestConfig

from live import streams
from live.events import Carry
from tournaments import board, planned, screen, stored_board
from tournaments.models import Tournament
from tournaments.public import knockout, slides
from tournaments.public.tables import standings_table_for
from tournaments.published import public_tournament

STANDINGS_PER_PAGE = 100
#: A part asked for within this long is rendered with each new board; one not
#: asked for since drops out, and its next ask renders it (and notes it again).
#: A page that only listens notes its parts when it opens its stream, which lasts
#: ten minutes and a tenth at most (`live.streams.STREAM_SECONDS`): longer than that.
ASKED_SECONDS = 900
#: The parts a page's live stream may carry (the final's bracket page is asked).
CARRIED = ("standings", "tables", "screen")
#: At most this many parts of a tournament are rendered with each board: the
#: usual ones (the standings as they come, the tables, the screen, in a language
#: or two) and a few sorts.
ASKED_KEEP = 8
#: What a stream's opening needs of a tournament is kept this long after the board
#: it was kept with (as long as the board itself, `stored_board.STORED_SECONDS`);
#: read from the database when it is not kept, it is kept as long as the parts.
OPENED_SECONDS = 24 * 3600


# --------------------------------------------------------------------------- the parts


def standings_html(request, tournament, version, load) -> str:
    """The standings (their heading, the table in the sort and on the page asked
    for, the card draws) as the page shows them."""
    if not tournament.public_standings:
        return ""
    sort, page = _standings_order(request, tournament, load)
    return mark_safe(_cached(tournament, version, ("standings", sort, page), load))


def tables_html(tournament, version, load) -> str:
    if not tournament.public_pairings:
        return ""
    return mark_safe(_cached(tournament, version, ("tables", "", 1), load))


def screen_html(tournament, version, load) -> str:
    return mark_safe(_cached(tournament, version, ("screen", "", 1), load))


def events_url(tournament, shown: list[str], query) -> str:
    """The address of a page's live stream, naming the parts it shows (and the
    standings' sort and page, as the page was asked) for `carry`."""
    asked = {"parts": ",".join(shown)}
    asked.update((name, query[name]) for name in ("sort", "page") if name in query)
    return f"{reverse('public:tournament-events', args=[tournament.slug])}?{urlencode(asked)}"


def carry(request, tournament) -> Carry:
    """What a page's live stream is to carry with each new board: the parts the
    page names in ``?parts=`` that are published, the standings in the page's sort
    and page, each by its cache name (the stream adds the board's version, in
    `stored_board.version_form`). Each is noted as asked, so that the builder
    renders it while the page only listens. A part the cache does not hold when the
    news comes (not rendered yet, a page of the standings past the last) is asked
    for by the page."""
    wanted = request.GET.get("parts", "").split(",")
    specs = []
    for part in CARRIED:
        if part in wanted and _published(tournament, part):
            sort, page = (
                _standings_order(request, tournament, None) if part == "standings" else ("", 1)
            )
            specs.append((part, sort, page))
    # Past the first page of the standings the board says which pages there are:
    # only an ask, which reads it, notes them.
    _note(tournament.pk, *[spec for spec in specs if spec[2] == 1])
    names = {spec[0]: _name(tournament, spec) for spec in specs}
    return Carry(stored_board.version_form(tournament), names)


def parts_for_board(tournament, data: board.Board) -> dict:
    """The builder's share: the parts spectators asked for lately, rendered from
    the board just built, under their cache names (without the board's version,
    which the builder adds once the board's counter has its new number). It also
    keeps what a stream's opening needs of the tournament (`opened`)."""
    _keep_opened(tournament, OPENED_SECONDS)
    asked = _asked(tournament.pk)
    now = time.time()
    rendered = {}
    for (language, *spec), at in asked.items():
        if now - at > ASKED_SECONDS or not _published(tournament, spec[0]):
            continue
        with translation.override(language):
            rendered[_name(tournament, spec)] = _render(tournament, data, spec)
    return rendered


# --------------------------------------------------------------------------- a stream's opening


class Opened(NamedTuple):
    """What opening a public page's stream needs of its tournament: all that `carry`
    and `stored_board.version_form` read of one, kept in the cache."""

    pk: int
    slug: str
    public_pairings: bool
    public_standings: bool
    public_results: bool
    plays_at_tables: bool


def opened(slug: str) -> Opened:
    """The published tournament ``slug`` as a stream's opening needs it, from the
    cache (kept by the builder with each board); from the database only when the
    cache does not hold it (then kept for the next), and a 404 when nothing of it
    is published."""
    try:
        found = cache.get(_opened_key(slug))
    except Exception:  # the cache away: the stream could carry nothing anyway
        found = None
    if found is not None:
        found = Opened(*found)
        if found.public_pairings or found.public_standings or found.public_results:
            return found
    tournament = public_tournament(slug)
    return _keep_opened(tournament, settings.PUBLIC_CACHE_SECONDS)


def stream(request, tournament) -> HttpResponse:
    """The live stream of the tournament's page or screen (`tournament_events`)."""
    counters = {"board": stored_board.board_stored_key(tournament.pk)}
    return streams.stream(request, counters, carry={"board": carry(request, tournament)})


def _stream_directly(request, slug: str) -> HttpResponse | None:
    """The stream opened by `live` without Django's middleware, from the cache
    alone; None when the cache does not hold the tournament (the view opens it)."""
    try:
        found = cache.get(_opened_key(slug))
    except Exception:  # the cache away: the view answers
        return None
    if found is None or not any(Opened(*found)[2:5]):
        return None
    return stream(request, Opened(*found))


# The path of `tournament_events` (tournaments/public/urls.py; a slug as Django's
# converter reads one).
streams.open_directly(r"/t/(?P<slug>[-a-zA-Z0-9_]+)/events/", _stream_directly)


def _opened_key(slug: str) -> str:
    return f"stream-opened:{slug}"


def _keep_opened(tournament, seconds: int) -> Opened:
    found = Opened(
        tournament.pk,
        tournament.slug,
        tournament.public_pairings,
        tournament.public_standings,
        tournament.public_results,
        tournament.plays_at_tables,
    )
    with contextlib.suppress(Exception):  # the cache away: the next opening reads it
        cache.set(_opened_key(tournament.slug), tuple(found), seconds)
    return found


@receiver(post_save, sender=Tournament)
@receiver(post_delete, sender=Tournament)
def _forget_opened(sender, instance, **kwargs) -> None:
    """A tournament saved (its flags changed, in the admin too) or deleted: the next
    opening reads it again, after the commit (an opening in between would keep the
    row as it was before)."""

    def forget():
        with contextlib.suppress(Exception):
            cache.delete(_opened_key(instance.slug))

    transaction.on_commit(forget)


# --------------------------------------------------------------------------- rendering


def _cached(tournament, version, spec, load):
    def render():
        _note(tournament.pk, spec)
        return _render(tournament, load(), spec)

    return board.cached(_name(tournament, spec), version, render)


def _name(tournament, spec) -> str:
    # ("-part": each kept as the page shows it; an older release kept other values.)
    part, sort, page = spec
    if part == "standings":
        # Only a column's name and a page the table has make a key: any other value
        # shows (and shares) the table as it is without it.
        return f"standings-part:{tournament.pk}:{get_language()}:{sort}:{page}"
    return f"{part}-part:{tournament.pk}:{get_language()}"


def _published(tournament, part) -> bool:
    return {"standings": tournament.public_standings, "tables": tournament.public_pairings}.get(
        part, True
    )


def _render(tournament, data: board.Board, spec) -> str:
    part, sort, page = spec
    if part == "standings":
        context = {"standings": _standings(tournament, data, sort, page)}
        return render_to_string("tournaments/public/_standings.html", context)
    if part == "tables":
        context = {"current": data.current, "rounds": [r.number for r in data.rounds]}
        return render_to_string(
            "tournaments/public/_tables.html", {"tournament": tournament, **context}
        )
    # Every row goes out: the screen's script splits them into slides that fit the
    # screen it runs on, which the server cannot know.
    context = {"current": data.current if tournament.public_pairings else None}
    # A final under way has a slide of its own (knockout): never "nothing to show".
    stage = getattr(tournament, "final_stage", None)
    context["final"] = (
        tournament.public_pairings and stage is not None and stage.status != "planned"
    )
    if context["current"] is not None:
        context["table_rows"] = slides.table_rows(tournament, context["current"])
    if tournament.public_standings:
        context["standings"] = data.standings
        context["standings_rows"] = slides.standings_rows(tournament, data.standings)
        context["provisional"] = data.provisional
    own = render_to_string("tournaments/public/_screen.html", {"tournament": tournament, **context})
    # While the final is played (and once it is decided) its bracket is a slide too,
    # rendered from the final's own rows; then the slides of the apps above (the
    # club's season table), which keep their own cache.
    return (
        own
        + _plan_slide(tournament)
        + knockout.bracket_html(tournament, None, screen=True)
        + screen.more_slides(tournament)
    )


def _plan_slide(tournament) -> str:
    """An evening planned ahead shows its next round's tables as planned, so that
    players find their table before it is paired; "" for any other tournament,
    once every round is paired, or while the pairings are not public."""
    view = planned.plan_view(tournament, public=True) if tournament.public_pairings else None
    waiting = [r for r in view.rounds if not r["played"]] if view else []
    if not waiting:
        return ""
    return render_to_string("tournaments/public/_plan_slide.html", {"next": waiting[0]})


def _standings(tournament, data: board.Board, sort: str, page: int) -> dict:
    # The table's links keep the query as it was understood, nothing else; they are
    # relative ("?sort=…"), so the rendering needs no page's address, and the
    # builder renders it with no request at all.
    request = HttpRequest()
    request.GET = QueryDict(mutable=True)
    if sort:
        request.GET["sort"] = sort
    if page != 1:
        request.GET["page"] = str(page)
    slug = tournament.slug if tournament.public_results else None
    table = standings_table_for(tournament)(data.standings, slug=slug, request=request)
    RequestConfig(request, paginate={"per_page": STANDINGS_PER_PAGE}).configure(table)
    html = render_to_string(
        "tournaments/public/_standings_table.html", {"table": table}, request=request
    )
    return {
        "html": html,
        "after_round": data.after_round,
        "provisional": data.provisional,
        "draws": data.draws,
    }


def _standings_order(request, tournament, load) -> tuple[str, int]:
    """The standings' ``?sort=`` (a sortable column, or "-" and one) and ``?page=``
    (one the table has) as asked; anything else is no sort and the first page."""
    sort = request.GET.get("sort", "")
    columns = standings_table_for(tournament).base_columns.items()
    sortable = {name for name, column in columns if column.orderable is not False}
    if sort.removeprefix("-") not in sortable:
        sort = ""
    page = request.GET.get("page", "1")
    # (More digits than any page count has: Python refuses to read 4,300 of them.)
    if not (page.isascii() and page.isdigit()) or len(page) > 6 or int(page) <= 1:
        return sort, 1
    if load is None:  # a page taken as asked (see `carried`)
        return sort, int(page)
    # Past the first page, the board (from the cache) says how many there are.
    pages = max(1, math.ceil(len(load().standings) / STANDINGS_PER_PAGE))
    return sort, int(page) if 1 <= int(page) <= pages else 1


# --------------------------------------------------------------------------- what was asked


def _asked_key(pk: int) -> str:
    return f"parts-asked:{pk}"


def _asked(pk: int) -> dict:
    try:
        return cache.get(_asked_key(pk)) or {}
    except Exception:  # the cache away: nothing is noted, nothing rendered ahead
        return {}


def _note(pk: int, *specs) -> None:
    """Notes parts rendered on a spectator's ask or carried by a page's stream, in
    the language asked, the most recent `ASKED_KEEP` kept. A part noted lately is
    not written again. (Two pages noting at once may lose one note: that part is
    then rendered on its next ask, and noted then.)"""
    if not specs:
        return
    asked = _asked(pk)
    now = time.time()
    noted = [(get_language(), *spec) for spec in specs]
    if all(now - asked.get(spec, 0) < ASKED_SECONDS / 10 for spec in noted):
        return
    asked.update(dict.fromkeys(noted, now))
    kept = dict(sorted(asked.items(), key=lambda item: item[1])[-ASKED_KEEP:])
    with contextlib.suppress(Exception):  # the cache away: the next ask renders it
        cache.set(_asked_key(pk), kept, ASKED_SECONDS)
