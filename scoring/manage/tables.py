import django_tables2 as tables
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from clubs.models import ClubNight
from scoring.labels import ruleset_label


class NightTable(tables.Table):
    name = tables.Column(
        linkify=("manage:night-detail", {"pk": tables.A("pk")}), verbose_name=_("Club night")
    )
    date = tables.DateColumn(verbose_name=_("Date"))
    ruleset = tables.Column(verbose_name=_("Rules"))
    confirmation_required = tables.BooleanColumn(verbose_name=_("Confirmation"))
    party_count = tables.Column(verbose_name=_("Parties"), attrs={"td": {"class": "num"}})

    def render_ruleset(self, value):
        return ruleset_label(value)

    class Meta:
        model = ClubNight
        fields = ["name", "date", "ruleset", "confirmation_required", "party_count"]
        orderable = False
        empty_text = _("No club nights yet.")
        attrs = {"class": "sheet", "id": "nights"}


class NightPartyTable(tables.Table):
    """A club night's parties (rows from `scoring.manage.selectors.night_parties`)."""

    party = tables.Column(
        verbose_name=_("Party"),
        linkify=lambda record: reverse("manage:party-detail", args=[record["party"].pk]),
    )
    format = tables.Column(verbose_name=_("Format"), accessor="party__get_format_display")
    players = tables.TemplateColumn(
        verbose_name=_("Players and their table pages"),
        template_name="scoring/manage/_party_players.html",
        accessor="seats",
    )
    status = tables.Column(verbose_name=_("Status"), accessor="party__get_status_display")
    score = tables.TemplateColumn(
        verbose_name=_("Score"), template_name="scoring/manage/_party_score.html", accessor="points"
    )

    class Meta:
        orderable = False
        empty_text = _("No parties yet: start one below.")
        attrs = {"class": "sheet", "id": "parties"}
        row_attrs = {"data-party": lambda record: record["party"].pk}
