"""A new club, made by whoever is logged in; he becomes its owner."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clubs import founding
from clubs.founding import ClubRefused
from clubs.manage.forms import ClubForm
from clubs.submissions import AlreadySent, key_of, submit_once, to_first


@login_required
def club_create(request):
    form = ClubForm(
        request.POST if request.method == "POST" else None,
        time_zones=founding.time_zones(),
        initial={"language": get_language(), "time_zone": "Europe/Berlin"},
    )
    if form.is_valid():
        data = form.cleaned_data
        slug = data["slug"] or founding.slug_suggestion(data["name"])
        try:
            club = submit_once(
                user=request.user,
                key=key_of(request),
                make=lambda: founding.club_create(
                    name=data["name"],
                    slug=slug,
                    language=data["language"],
                    time_zone=data["time_zone"],
                    by=request.user,
                ),
                location=lambda made: reverse("manage:invitation-list", args=[made.slug]),
            )
        except AlreadySent as sent:
            return to_first(request, sent)
        except ClubRefused as refusal:
            form.add_error(refusal.field, str(refusal))
            if refusal.free:
                # The form comes back with the free address in place: sent again, it is taken.
                form.data = form.data.copy()
                form.data["slug"] = refusal.free
        else:
            messages.success(
                request,
                _("%(club)s is open; you own it. Invite your co-organizers next.")
                % {"club": club.name},
            )
            return redirect("manage:invitation-list", slug=club.slug)
    status = 400 if form.is_bound else 200
    return render(request, "clubs/manage/club_form.html", {"form": form}, status=status)
