"""An invitation's link, opened by the person invited: logged in, he accepts it;
otherwise he signs up or logs in first and comes back here."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from clubs import invitations
from clubs.invitations import InvitationRefused


@never_cache
def invitation_detail(request, key):
    invitation = invitations.invitation_of(key)
    if invitation is None:
        return render(request, "clubs/public/invitation_invalid.html", status=404)
    error = ""
    if request.method == "POST" and request.user.is_authenticated:
        try:
            membership = invitations.invitation_accept(key=key, user=request.user)
        except InvitationRefused as refusal:
            error = str(refusal)
        else:
            messages.success(
                request, _("You organize %(club)s now.") % {"club": membership.club.name}
            )
            return redirect("manage:club-detail", slug=membership.club.slug)
    context = {"invitation": invitation, "here": request.path, "error": error}
    return render(
        request, "clubs/public/invitation_detail.html", context, status=400 if error else 200
    )
