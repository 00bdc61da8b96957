import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Membership


class ClubTable(tables.Table):
    name = tables.Column(linkify=True, verbose_name=_("Club"))
    member_count = tables.Column(verbose_name=_("Members"), attrs={"td": {"class": "num"}})

    class Meta:
        model = Club
        fields = ["name", "city", "founded", "member_count"]
        orderable = False
        empty_text = _("No clubs yet.")
        attrs = {"class": "sheet"}


class MemberTable(tables.Table):
    player = tables.Column(verbose_name=_("Player"), accessor="player__name")
    role = tables.Column(verbose_name=_("Role"))
    since = tables.DateColumn(verbose_name=_("Member since"))

    class Meta:
        model = Membership
        fields = ["player", "role", "since"]
        orderable = False
        empty_text = _("No members yet.")
        attrs = {"class": "sheet"}
