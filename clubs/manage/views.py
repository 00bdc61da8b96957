"""The organizer's pages of the clubs: which clubs they run."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from clubs import selectors, services
from clubs.manage.tables import ManagedClubTable


@login_required
def club_list(request):
    clubs = ManagedClubTable(selectors.clubs_organized_by(user=request.user), request=request)
    return render(request, "clubs/manage/club_list.html", {"table": clubs})


@login_required
def token_list(request):
    """The organizer's personal API keys: make one (shown once), or revoke one."""
    key = None
    if request.method == "POST":
        try:
            _, key = services.api_token_create(user=request.user, name=request.POST.get("name", ""))
        except ValueError as error:
            messages.error(request, str(error))
    return render(
        request,
        "clubs/manage/token_list.html",
        {"tokens": selectors.api_tokens(user=request.user), "key": key},
    )


@login_required
@require_POST
def token_revoke(request, token_id):
    token = selectors.api_token_of(user=request.user, token_id=token_id)
    services.api_token_revoke(token=token)
    messages.success(request, gettext("The key “%(name)s” no longer works.") % {"name": token.name})
    return redirect("manage:token-list")
