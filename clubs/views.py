from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django_tables2 import RequestConfig

from clubs import selectors, services
from clubs.forms import NightForm, PartyStartForm
from clubs.models import Club, ClubNight
from clubs.tables import ClubTable, ManagedClubTable, MemberTable, NightPartyTable, NightTable
from scoring import errors, manage_selectors
from scoring.services import party_start


def home(request):
    table = ClubTable(selectors.club_list(), request=request)
    return render(request, "clubs/club_list.html", {"table": table})


def club_detail(request, slug):
    club = get_object_or_404(Club, slug=slug)
    table = MemberTable(selectors.club_members(club=club))
    # A page number out of range shows the nearest page rather than an error.
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    return render(
        request,
        "clubs/club_detail.html",
        {
            "club": club,
            "table": table,
            "can_manage": selectors.is_organizer(user=request.user, club=club),
        },
    )


@login_required
def manage(request):
    clubs = ManagedClubTable(selectors.clubs_organized_by(user=request.user), request=request)
    return render(request, "clubs/manage.html", {"table": clubs})


def require_organizer(user, club: Club) -> None:
    """Only the club's organizers (and superusers) see or change its nights and parties."""
    if not selectors.is_organizer(user=user, club=club):
        raise PermissionDenied


@login_required
def club_manage(request, slug):
    """A club's nights, newest first, and the form that opens a new one."""
    club = get_object_or_404(Club, slug=slug)
    require_organizer(request.user, club)
    form = NightForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        try:
            night = services.night_create(club=club, **form.cleaned_data)
        except ValueError as error:
            form.add_error(None, errors.explain(error))
        else:
            messages.success(request, _("Club night “%(name)s” opened.") % {"name": night.name})
            return redirect("clubs:night-detail", pk=night.pk)
    table = NightTable(selectors.club_nights(club=club))
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    return render(request, "clubs/club_manage.html", {"club": club, "table": table, "form": form})


@login_required
def night_detail(request, pk):
    """A club night's parties with their scores, and the form that starts a party."""
    night = get_object_or_404(ClubNight.objects.select_related("club"), pk=pk)
    require_organizer(request.user, night.club)
    form = PartyStartForm(
        request.POST if request.method == "POST" else None,
        players=selectors.club_players(club=night.club),
    )
    if form.is_valid():
        try:
            party = party_start(
                club=night.club,
                night=night,
                format=form.cleaned_data["format"],
                players=list(form.cleaned_data["players"]),
                label=form.cleaned_data["label"],
                user=request.user,
            )
        except ValueError as error:
            form.add_error(None, errors.explain(error))
        else:
            messages.success(request, _("Party started: the seats are drawn."))
            return redirect("manage:party-detail", pk=party.pk)
    rows, page = manage_selectors.night_parties(night=night, page=request.GET.get("page"))
    table = NightPartyTable(rows)
    context = {"night": night, "table": table, "page": page, "form": form}
    return render(request, "clubs/night_detail.html", context)
