import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from clubs.models import ClubNight
from scoring.labels import ruleset_label


class NightTable(tables.Table):
    name = tables.Column(
        linkify=("manage:night-detail", {"pk": tables.A("pk")}), verbose_name=_("Club night")
    )
    date = tables.DateColumn(verbose_name=_("Date"), short=False)
    ruleset = tables.Column(verbose_name=_("Rules"))
    # Left out on a phone: the night's page says it.
    confirmation_required = tables.BooleanColumn(
        verbose_name=_("Confirmation"),
        attrs={"th": {"class": "wide-only"}, "td": {"class": "wide-only"}},
    )
    party_count = tables.Column(verbose_name=_("Parties"), attrs={"td": {"class": "num"}})

    def render_ruleset(self, value):
        return ruleset_label(value)

    class Meta:
        model = ClubNight
        fields = ["name", "date", "ruleset", "confirmation_required", "party_count"]
        orderable = False
        empty_text = _("No club nights yet.")
        attrs = {"class": "sheet", "id": "nights"}
