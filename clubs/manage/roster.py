"""The organizer's member list in bulk: import a file in two steps (upload, then a
preview of every row to confirm), and export the list as CSV or .xlsx.

Between the two steps the rows as read (plain text per cell, not the file) wait in
the organizer's session under the club's key: they reach no other login and no other
club, live in the database (so any process may answer the confirmation), and go when
the import is done. The file itself is not kept: read once, it is judged again at the
confirmation against the members as they are then."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs import roster, roster_rows, selectors, services
from clubs.manage.forms import RosterUploadForm
from clubs.permissions import organizer_required
from clubs.roster import RosterUnreadable
from clubs.services import MemberRefused
from web.client import client_address
from web.spreadsheet import cells, csv_response, csv_writer, text_cell

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _session_key(club) -> str:
    return f"roster:{club.pk}"


@login_required
@organizer_required(selectors.club_by_slug)
def member_import(request, club):
    """Step one: the file. Read within limits; what cannot be read says why."""
    sent = request.method == "POST"
    form = RosterUploadForm(request.POST if sent else None, request.FILES if sent else None)
    if form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            # A file too large is refused by its size, before it is read.
            roster.check_size(upload.size)
            read = roster.read_roster(filename=upload.name, data=upload.read())
        except RosterUnreadable as refusal:
            form.add_error("file", str(refusal))
        else:
            request.session[_session_key(club)] = {**read, "filename": upload.name[:200]}
            return redirect("manage:member-import-preview", slug=club.slug)
    status = 400 if sent else 200
    return render(
        request, "clubs/manage/member_import.html", {"club": club, "form": form}, status=status
    )


@login_required
@organizer_required(selectors.club_by_slug)
def member_import_preview(request, club):
    """Step two: every row as it will be taken; nothing is written until confirmed."""
    read = request.session.get(_session_key(club))
    if read is None:
        messages.info(request, _("Upload a member list first."))
        return redirect("manage:member-import", slug=club.slug)
    if request.method == "POST":
        try:
            verdicts = services.roster_import(
                club=club,
                rows=read["rows"],
                seen=request.POST.get("seen", ""),
                filename=read["filename"],
                by=request.user,
                address=client_address(request),
            )
        except MemberRefused as refusal:
            messages.error(request, str(refusal))
        else:
            del request.session[_session_key(club)]
            added = sum(v.kind == v.NEW for v in verdicts)
            changed = sum(v.changes for v in verdicts)
            messages.success(
                request,
                _("Member list imported: %(added)d added, %(changed)d changed.")
                % {"added": added, "changed": changed},
            )
            return redirect("manage:member-list", slug=club.slug)
    verdicts = selectors.roster_preview(club=club, rows=read["rows"])
    context = {
        "club": club,
        "filename": read["filename"],
        "ignored": read["ignored"],
        "verdicts": verdicts,
        "seen": roster_rows.fingerprint(verdicts),
        "added": sum(v.kind == v.NEW for v in verdicts),
        "changed": sum(v.changes for v in verdicts),
        "unchanged": sum(v.kind == v.SAME and not v.notes for v in verdicts),
        "refused": sum(v.kind == v.REFUSED for v in verdicts),
    }
    return render(request, "clubs/manage/member_import_preview.html", context)


@login_required
@require_POST
@organizer_required(selectors.club_by_slug)
def member_import_cancel(request, club):
    request.session.pop(_session_key(club), None)
    messages.info(request, _("Nothing was imported."))
    return redirect("manage:member-list", slug=club.slug)


@login_required
@organizer_required(selectors.club_by_slug)
def member_export_csv(request, club):
    """The whole member list, the deactivated too, in the columns the import reads."""
    response = csv_response(f"{club.slug}-members.csv")
    writer = csv_writer(response)
    for number, line in enumerate(roster.roster_lines(_exported(request, club, "csv"))):
        if number:
            line = [text_cell(line[0]), text_cell(line[1]), *line[2:]]
        writer.writerow(cells(line))
    return response


@login_required
@organizer_required(selectors.club_by_slug)
def member_export_xlsx(request, club):
    """The same list as an .xlsx workbook."""
    response = HttpResponse(roster.roster_xlsx(_exported(request, club, "xlsx")), content_type=XLSX)
    response["Content-Disposition"] = f'attachment; filename="{club.slug}-members.xlsx"'
    return response


def _exported(request, club, kind: str):
    services.roster_export_record(
        club=club, by=request.user, kind=kind, address=client_address(request)
    )
    return selectors.roster_members(club=club)
