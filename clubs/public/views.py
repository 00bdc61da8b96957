"""Pages anyone may see: the clubs and their members who agreed to be listed, and
the page where a new organizer chooses their password."""

from django.contrib.auth import views as auth_views
from django.shortcuts import render
from django.urls import reverse_lazy
from django_tables2 import RequestConfig

from clubs import selectors, services
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


#: Django's set-password view with the organizer invitation's own tokens: the link
#: works once, expires, and stops when the invitation is revoked. The new organizer
#: is logged in and lands on their clubs.
organizer_welcome = auth_views.PasswordResetConfirmView.as_view(
    token_generator=services.invitation_tokens,
    template_name="clubs/public/organizer_welcome.html",
    success_url=reverse_lazy("manage:club-list"),
    post_reset_login=True,
    post_reset_login_backend="django.contrib.auth.backends.ModelBackend",
)
