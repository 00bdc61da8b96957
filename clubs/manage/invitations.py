"""The owner's invitations to organize his club: made (a link to pass on, or a
mail), listed, taken back."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs import invitations, selectors
from clubs.invitations import InvitationRefused
from clubs.manage.forms import InvitationForm
from clubs.permissions import organizer_required
from clubs.submissions import AlreadySent, key_of, submit_once, to_first


@login_required
@organizer_required(selectors.club_by_slug, owner=True)
def invitation_list(request, club):
    """The club's invitations, and a new one: a link shown once, or a mail sent."""
    form = InvitationForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        email = form.cleaned_data["email"]
        # A double click sends one mail, not two (the form's one-time key).
        here = reverse("manage:invitation-list", args=[club.slug])
        try:
            _invitation, key = submit_once(
                user=request.user,
                key=key_of(request),
                make=lambda: invitations.invitation_create(club=club, by=request.user, email=email),
                location=lambda made: here,
            )
        except AlreadySent as sent:
            return to_first(request, sent)
        if email:
            messages.success(request, _("The invitation is on its way."))
        else:
            link = request.build_absolute_uri(reverse("public:invitation", args=[key]))
            messages.success(
                request,
                _(
                    "Pass this link on to your co-organizer; it works once, for %(days)s "
                    "days, and is shown only now: %(link)s"
                )
                % {"days": settings.INVITATION_DAYS, "link": link},
            )
        return redirect("manage:invitation-list", slug=club.slug)
    context = {
        "club": club,
        "form": form,
        "invitations": invitations.club_invitations(club=club),
        "now": timezone.now(),
    }
    status = 400 if form.is_bound else 200
    return render(request, "clubs/manage/invitation_list.html", context, status=status)


@login_required
@require_POST
@organizer_required(invitations.invitation_for_manage, owner=True)
def invitation_revoke(request, invitation):
    try:
        invitations.invitation_revoke(invitation=invitation, by=request.user)
    except InvitationRefused as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(request, _("The invitation is taken back: its link no longer works."))
    return redirect("manage:invitation-list", slug=invitation.club.slug)
