"""The organizer's view of the notices: what the club's players were sent."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django_tables2 import RequestConfig

from clubs.permissions import organizer_required
from clubs.selectors import club_by_slug
from notices import selectors
from notices.manage.forms import NoticeFilterForm
from notices.manage.tables import NoticeTable


@login_required
@organizer_required(club_by_slug)
def notice_list(request, club):
    """Every notice, the latest first; on request only those not delivered."""
    search = NoticeFilterForm(request.GET)
    search.is_valid()
    notices = selectors.club_notices(club, undelivered=search.cleaned_data.get("undelivered"))
    table = NoticeTable(notices)
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    counts = selectors.club_notice_counts(club)
    context = {"club": club, "table": table, "search": search, "counts": counts}
    return render(request, "notices/manage/notice_list.html", context)
