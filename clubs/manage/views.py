"""The organizer's pages of the clubs: which clubs they run, the member list (with
guests), and, for the owner, who organizes the club."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from clubs import selectors, services
from clubs.manage.forms import (
    ClubSettingsForm,
    GuestForm,
    InviteForm,
    MemberForm,
    MemberSearchForm,
)
from clubs.manage.tables import ManagedClubTable, MemberListTable
from clubs.models import Membership
from clubs.permissions import organizer_required, require_organizing
from clubs.services import MemberRefused
from clubs.submissions import AlreadySent, key_of, submit_once, to_first
from web.client import client_address


@login_required
def club_list(request):
    clubs = ManagedClubTable(selectors.clubs_organized_by(user=request.user), request=request)
    return render(request, "clubs/manage/club_list.html", {"table": clubs})


@login_required
@organizer_required(selectors.club_by_slug)
def club_settings(request, club):
    """The club's language (its mails are written in it) and currency."""
    sent = request.method == "POST"
    form = ClubSettingsForm(
        request.POST if sent else None,
        initial={"language": club.language, "currency": club.currency},
    )
    if form.is_valid():
        services.club_settings_change(
            club=club, by=request.user, address=client_address(request), **form.cleaned_data
        )
        messages.success(request, _("The club's settings are saved."))
        return redirect("manage:club-settings", slug=club.slug)
    status = 400 if sent else 200
    context = {"club": club, "form": form}
    return render(request, "clubs/manage/club_settings.html", context, status=status)


@login_required
@organizer_required(selectors.club_by_slug)
def member_list(request, club):
    """Everyone who plays at the club, found by name; the deactivated on request."""
    search = MemberSearchForm(request.GET)
    search.is_valid()
    table = MemberListTable(
        selectors.member_list(
            club=club,
            search=search.cleaned_data.get("q", ""),
            inactive=search.cleaned_data.get("inactive", False),
        )
    )
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    context = {"club": club, "table": table, "search": search}
    return render(request, "clubs/manage/member_list.html", context)


@login_required
@organizer_required(selectors.club_by_slug)
def member_add(request, club):
    form = MemberForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        try:
            membership = submit_once(
                user=request.user,
                key=key_of(request),
                make=lambda: services.member_create(
                    club=club, by=request.user, **form.cleaned_data
                ),
                location=lambda made: reverse("manage:member-edit", args=[club.slug, made.pk]),
            )
        except AlreadySent as sent:
            return to_first(request, sent)
        except MemberRefused as refusal:
            form.add_error("name", str(refusal))
        else:
            messages.success(request, _("%(name)s added.") % {"name": membership.player.name})
            return redirect("manage:member-list", slug=club.slug)
    return render(request, "clubs/manage/member_form.html", {"club": club, "form": form})


@login_required
@organizer_required(selectors.club_by_slug)
def guest_add(request, club):
    """A walk-in guest, by name only. Opened from the start of a party (``next``), it
    goes back there with the guest ticked."""
    back = request.POST.get("next") or request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = ""
    form = GuestForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        try:
            guest = services.member_create(
                club=club,
                name=form.cleaned_data["name"],
                role=Membership.Role.GUEST,
                by=request.user,
            )
        except MemberRefused as refusal:
            form.add_error("name", str(refusal))
        else:
            messages.success(request, _("Guest %(name)s added.") % {"name": guest.player.name})
            if back:
                return redirect(f"{back.split('?')[0]}?guest={guest.player_id}")
            return redirect("manage:member-list", slug=club.slug)
    context = {"club": club, "form": form, "next": back}
    return render(request, "clubs/manage/guest_form.html", context)


@login_required
@organizer_required(selectors.membership_for_manage)
def member_edit(request, membership):
    form = MemberForm.for_membership(membership, request.POST if request.method == "POST" else None)
    if form.is_valid():
        data = {"role": membership.role, **form.cleaned_data}
        try:
            membership = services.member_update(membership=membership, by=request.user, **data)
        except MemberRefused as refusal:
            form.add_error(None, str(refusal))
        else:
            messages.success(request, _("%(name)s saved.") % {"name": membership.player.name})
            return redirect("manage:member-list", slug=membership.club.slug)
    context = {"club": membership.club, "membership": membership, "form": form}
    return render(request, "clubs/manage/member_form.html", context)


@login_required
@require_POST
@organizer_required(selectors.membership_for_manage)
def member_deactivate(request, membership):
    try:
        services.member_deactivate(membership=membership, by=request.user)
    except MemberRefused as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(
            request,
            _("%(name)s is deactivated: their parties stay, new parties do not offer them.")
            % {"name": membership.player.name},
        )
    return redirect("manage:member-list", slug=membership.club.slug)


@login_required
@require_POST
@organizer_required(selectors.membership_for_manage)
def member_reactivate(request, membership):
    services.member_reactivate(membership=membership, by=request.user)
    messages.success(request, _("%(name)s is active again.") % {"name": membership.player.name})
    return redirect("manage:member-list", slug=membership.club.slug)


@login_required
@organizer_required(selectors.club_by_slug)
def organizer_list(request, club):
    """Who runs the club; its owner also invites and revokes organizers here."""
    owner = selectors.is_owner(user=request.user, club=club)
    form = InviteForm(members=selectors.organizer_candidates(club=club)) if owner else None
    context = {
        "club": club,
        "organizers": selectors.club_organizers(club=club),
        "owner": owner,
        "form": form,
    }
    return render(request, "clubs/manage/organizer_list.html", context)


@login_required
@require_POST
@organizer_required(selectors.club_by_slug, owner=True)
def organizer_invite(request, club):
    form = InviteForm(request.POST, members=selectors.organizer_candidates(club=club))
    if form.is_valid():
        membership = form.cleaned_data["member"]
        try:
            membership, needs_password = services.organizer_invite(
                membership=membership, username=form.cleaned_data["username"], by=request.user
            )
        except MemberRefused as refusal:
            form.add_error(None, str(refusal))
        else:
            _tell_invitation(request, membership, needs_password)
            return redirect("manage:organizer-list", slug=club.slug)
    context = {
        "club": club,
        "organizers": selectors.club_organizers(club=club),
        "owner": True,
        "form": form,
    }
    return render(request, "clubs/manage/organizer_list.html", context, status=400)


@login_required
@require_POST
@organizer_required(selectors.organizer_for_manage, owner=True)
def organizer_link(request, membership):
    """The set-password link again, for an organizer who has not used it yet."""
    needs_password = not membership.player.user.has_usable_password()
    _tell_invitation(request, membership, needs_password)
    return redirect("manage:organizer-list", slug=membership.club.slug)


@login_required
@require_POST
@organizer_required(selectors.membership_for_manage, owner=True)
def organizer_revoke(request, membership):
    try:
        services.organizer_revoke(membership=membership, by=request.user)
    except MemberRefused as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(
            request,
            _("%(name)s no longer organizes the club.") % {"name": membership.player.name},
        )
    return redirect("manage:organizer-list", slug=membership.club.slug)


def _tell_invitation(request, membership, needs_password: bool) -> None:
    name = membership.player.name
    if not needs_password:
        messages.success(
            request,
            _("%(name)s organizes the club now and logs in as before.") % {"name": name},
        )
        return
    link = request.build_absolute_uri(
        reverse(
            "public:organizer-welcome",
            kwargs=services.invitation_link_parts(membership.player.user),
        )
    )
    messages.success(
        request,
        _(
            "%(name)s organizes the club now. Give them this link to choose a password; "
            "it works once, for a few days: %(link)s"
        )
        % {"name": name, "link": link},
    )


@login_required
def token_list(request):
    """The organizer's personal API keys: make one (shown once), or revoke one. A key
    acts for its owner, so it is for those who organize a club."""
    require_organizing(request.user)
    key = None
    if request.method == "POST":
        try:
            _token, key = submit_once(
                user=request.user,
                key=key_of(request),
                make=lambda: services.api_token_create(
                    user=request.user,
                    name=request.POST.get("name", ""),
                    address=client_address(request),
                ),
                location=lambda made: reverse("manage:token-list"),
            )
        except AlreadySent as sent:
            return to_first(request, sent)
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
    # Only the key's owner finds it; he may revoke it even once he organizes no club.
    token = selectors.api_token_of(user=request.user, token_id=token_id)
    services.api_token_revoke(token=token, address=client_address(request))
    messages.success(request, _("The key “%(name)s” no longer works.") % {"name": token.name})
    return redirect("manage:token-list")
