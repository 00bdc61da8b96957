"""The organizer's no-shows at a round's table: the forfeit entered, and taken
back while the round is played; each asked first, on a page of its own."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs.permissions import organizer_required
from tournaments import records, tables
from tournaments.manage.common import confirm, round_url, show_refusal
from web.client import client_address


@require_http_methods(["GET", "POST"])
@login_required
@organizer_required(tables.table_for_manage)
def table_forfeit(request, table):
    round = table.round
    seated = tables.table_entrants(table)
    chosen = request.POST.get("absent") if request.method == "POST" else request.GET.get("absent")
    absent = next((e for e in seated if str(e.pk) == chosen), None)
    if absent is None:
        messages.error(request, _("Choose the player who did not come."))
        return redirect(round_url(round))
    if request.method == "GET":
        tournament = round.tournament
        present = [e for e in seated if e.pk != absent.pk]
        lines = [
            _(
                "%(absent)s loses %(value)s points, %(present)s scores them, and the "
                "table's party is cancelled."
            )
            % {
                "absent": absent,
                "present": ", ".join(map(str, present)),
                "value": tournament.forfeit_value,
            },
            _("You can take it back while round %(number)s is played.") % {"number": round.number},
        ]
        return confirm(
            request,
            tournament,
            title=_("Table %(number)s: %(name)s did not come?")
            % {"number": table.number, "name": absent},
            lines=lines,
            button=_("Record the forfeit"),
            back=round_url(round) + f"#table-{table.number}",
            hidden={"absent": absent.pk},
        )
    try:
        tables.table_forfeit(
            table=table, absent=absent, user=request.user, address=client_address(request)
        )
    except records.TournamentError as error:
        show_refusal(request, error)
    else:
        messages.success(
            request,
            _("Table %(number)s: %(name)s did not come; the forfeit is recorded.")
            % {"number": table.number, "name": absent},
        )
    return redirect(round_url(round))


@require_http_methods(["GET", "POST"])
@login_required
@organizer_required(tables.table_for_manage)
def table_forfeit_undo(request, table):
    """Take back a forfeit while its round is played: the table plays again."""
    round = table.round
    back = round_url(round) + f"#table-{table.number}"
    if request.method == "GET":
        absent = tables.table_absent(table)
        refused = ""
        if absent is None:
            refused = _("Table %(number)s has no forfeit to take back.") % {"number": table.number}
        return confirm(
            request,
            round.tournament,
            title=_("Table %(number)s: take back the forfeit?") % {"number": table.number},
            lines=[
                _(
                    "%(name)s is recorded as a no-show. Taken back, the table plays its "
                    "party: the seats are drawn as before, with new seat links, so "
                    "print the table's cards again."
                )
                % {"name": absent or "–"}
            ],
            button=_("Take back the forfeit"),
            back=back,
            refused=refused,
        )
    try:
        tables.table_forfeit_undo(table=table, user=request.user, address=client_address(request))
    except records.TournamentError as error:
        show_refusal(request, error)
    else:
        messages.success(
            request,
            _("Table %(number)s plays again: the forfeit is taken back. Print its table cards.")
            % {"number": table.number},
        )
    return redirect(back)
