"""Pages anyone may see: the clubs and their members."""

from django.shortcuts import render
from django_tables2 import RequestConfig

from clubs import selectors
from clubs.public.tables import ClubTable, MemberTable


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
