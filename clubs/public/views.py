"""Pages anyone may see: the clubs and their members, and the health check."""

from django.core.cache import cache
from django.db import connection
from django.http import JsonResponse
from django.shortcuts import render
from django_tables2 import RequestConfig

from clubs import selectors
from clubs.public.tables import ClubTable, MemberTable
from clubs.tasks import HEARTBEAT_KEY


def home(request):
    table = ClubTable(selectors.club_list(), request=request)
    return render(request, "clubs/public/club_list.html", {"table": table})


def club_detail(request, slug):
    club = selectors.club_by_slug(slug)
    table = MemberTable(selectors.club_members(club=club))
    # A page number out of range shows the nearest page rather than an error.
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    return render(
        request,
        "clubs/public/club_detail.html",
        {
            "club": club,
            "table": table,
            "can_manage": selectors.is_organizer(user=request.user, club=club),
        },
    )


def health(request):
    """For load balancers and compose: the database must answer; the cache and
    the worker's last heartbeat are reported but a cache outage is not fatal."""
    status = {"database": "ok", "cache": "ok", "worker": None}
    code = 200
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as error:  # any driver error means "not ready"
        status["database"] = f"error: {error.__class__.__name__}"
        code = 503
    try:
        status["worker"] = cache.get(HEARTBEAT_KEY)
    except Exception as error:
        status["cache"] = f"error: {error.__class__.__name__}"
    return JsonResponse(status, status=code)
