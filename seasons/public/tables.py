import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from clubs.models import Membership


class MemberTable(tables.Table):
    """The members on a club's public page: only those who agreed to be listed."""

    player = tables.Column(verbose_name=_("Player"), accessor="player__name")
    role = tables.Column(verbose_name=_("Role"))
    since = tables.DateColumn(verbose_name=_("Member since"), short=False)

    class Meta:
        model = Membership
        fields = ["player", "role", "since"]
        orderable = False
        empty_text = _("No members yet.")
        attrs = {"class": "sheet"}
