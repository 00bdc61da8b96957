"""The organizer's pages of the clubs: which clubs they run."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from clubs import selectors
from clubs.manage.tables import ManagedClubTable


@login_required
def club_list(request):
    clubs = ManagedClubTable(selectors.clubs_organized_by(user=request.user), request=request)
    return render(request, "clubs/manage/club_list.html", {"table": clubs})
