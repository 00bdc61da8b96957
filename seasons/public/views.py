"""Pages anyone may see: a club's page with its current season, ratings and latest
events, its published seasons, the pages of the players who agreed to be listed,
and a player's own page by his personal link. Whoever did not agree to be listed is
shown by his initials."""

from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from clubs import selectors as clubs
from seasons import calendar, erasure, player_pages, selectors
from seasons.data import data_file, player_data
from seasons.public.tables import MemberTable
from tournaments import published
from web.client import client_address
from web.spreadsheet import cells, csv_response, csv_writer, text_cell

# The latest events a club's page lists, of each kind.
LATEST_EVENTS = 50


def club_detail(request, slug):
    """The club's page: its current published season's table, the rating list (of
    the game asked for, ``?game=``; by default the game the club plays most), the
    latest tournaments and club nights, and the members who agreed to be listed."""
    club = clubs.club_by_slug(slug)
    season = selectors.current_season(club=club, public=True)
    game = selectors.rating_game(request.GET.get("game"))
    table = MemberTable(clubs.club_members(club=club))
    # A page number out of range shows the nearest page rather than an error.
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    context = {
        "club": club,
        "public": True,
        "table": table,
        "current": selectors.season_page(season, public=True) if season else None,
        **_ratings(selectors.rating_board(club=club, public=True, game=game)),
        "seasons": selectors.season_list(club=club, public=True),
        "tournaments": published.recent_tournaments(club_ids=[club.pk], limit=LATEST_EVENTS),
        "nights": clubs.recent_nights(club_ids=[club.pk], limit=LATEST_EVENTS),
        "can_manage": clubs.is_organizer(user=request.user, club=club),
    }
    return render(request, "seasons/public/club_detail.html", context)


def rating_list(request, slug):
    """The club's ratings used to have a page of their own; the club's page shows
    them now, and an old link lands there."""
    clubs.club_by_slug(slug)
    return redirect(reverse("public:club-detail", args=[slug]) + "#ratings", permanent=True)


def season_detail(request, slug, pk):
    season = selectors.season_by_id(pk, public=True, slug=slug)
    context = {"club": season.club, "public": True, **selectors.season_page(season, public=True)}
    return render(request, "seasons/public/season_detail.html", context)


def season_csv(request, slug, pk):
    season = selectors.season_by_id(pk, public=True, slug=slug)
    rows = selectors.season_page(season, public=True)["rows"]
    response = csv_response(f"{slug}-season-{pk}.csv")
    writer = csv_writer(response)
    writer.writerow(
        [
            gettext("Place"),
            gettext("Player"),
            gettext("Points"),
            gettext("Events"),
            gettext("Events dropped"),
            gettext("Events still needed"),
        ]
    )
    for row in rows:
        line = row["line"]
        writer.writerow(
            cells(
                [
                    line.place,
                    text_cell(row["name"]),
                    line.total,
                    line.events,
                    row["dropped"],
                    line.needed,
                ]
            )
        )
    return response


def player_detail(request, slug, pk):
    club = selectors.club_by_slug(slug)
    player = player_pages.club_player(club, pk, public=True)
    context = {"public": True, **player_pages.player_page(club=club, player=player, public=True)}
    return render(request, "seasons/public/player_detail.html", context)


@never_cache
def player_own(request, token):
    """The player's own page: his name in full, his opponents as the public sees
    them; the link opens nobody else's page."""
    link = selectors.player_by_link(token)
    context = {
        "public": True,
        "own": True,
        **player_pages.player_page(club=link.club, player=link.player, public=True, own=True),
        "token": token,
    }
    return render(request, "seasons/public/player_detail.html", context)


def club_calendar(request, slug):
    """The club's nights and published tournaments as a calendar to subscribe to."""
    club = clubs.club_by_slug(slug)
    return _ics(calendar.club_calendar(club=club), f"{slug}.ics")


@never_cache
def player_calendar(request, token):
    """The player's own events, by his personal link; a replaced link is a 404."""
    link = selectors.player_by_link(token)
    return _ics(calendar.player_calendar(club=link.club, player=link.player), "knock.ics")


def _ics(body: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@require_POST
def player_own_data(request, token):
    """The player downloads what his club keeps about him (DSGVO Art. 15) through
    his personal link; recorded like an organizer's download."""
    link = selectors.player_by_link(token)
    erasure.player_data_sent(
        club=link.club, player=link.player, address=client_address(request), own=True
    )
    return data_file(player_data(club=link.club, player=link.player, own=True))


def _ratings(board: dict) -> dict:
    return {
        "ratings": board["ratings"],
        "rating_game": board["game"],
        "rated_games": board["games"],
    }
