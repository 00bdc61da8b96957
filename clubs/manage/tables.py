import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from clubs.models import Club


class ManagedClubTable(tables.Table):
    """The clubs an organizer runs, each leading to its management page."""

    name = tables.Column(
        linkify=("manage:club-detail", {"slug": tables.A("slug")}), verbose_name=_("Club")
    )
    member_count = tables.Column(verbose_name=_("Members"), attrs={"td": {"class": "num"}})

    class Meta:
        model = Club
        fields = ["name", "city", "founded", "member_count"]
        orderable = False
        empty_text = _("No clubs yet.")
        attrs = {"class": "sheet"}
