import django_tables2 as tables
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Membership

WIDE_ONLY = {"th": {"class": "wide-only"}, "td": {"class": "wide-only"}}


class ManagedClubTable(tables.Table):
    """The clubs an organizer runs, each leading to its management page; the city and
    the year founded are left out on a phone."""

    name = tables.Column(
        linkify=("manage:club-detail", {"slug": tables.A("slug")}), verbose_name=_("Club")
    )
    city = tables.Column(attrs=WIDE_ONLY)
    founded = tables.Column(attrs=WIDE_ONLY)
    member_count = tables.Column(verbose_name=_("Members"), attrs={"td": {"class": "num"}})
    members = tables.TemplateColumn(
        '{% load i18n %}<a href="{% url "manage:member-list" record.slug %}">'
        '{% translate "Member list" %}</a>',
        verbose_name=_("Member list"),
        orderable=False,
    )

    class Meta:
        model = Club
        fields = ["name", "city", "founded", "member_count", "members"]
        orderable = False
        empty_text = _("No clubs yet.")
        attrs = {"class": "sheet"}


class MemberListTable(tables.Table):
    """The organizer's member list: each name leads to the member's edit page. Narrow
    enough for a phone: a deactivated member says so in the role, and the date is
    left out on small screens."""

    player = tables.Column(
        verbose_name=_("Name"),
        accessor="player__name",
        linkify=("manage:member-edit", {"slug": tables.A("club__slug"), "pk": tables.A("pk")}),
    )
    role = tables.Column(verbose_name=_("Role"))
    listed = tables.BooleanColumn(verbose_name=_("Listed"))
    since = tables.DateColumn(
        verbose_name=_("Member since"),
        short=False,
        attrs=WIDE_ONLY,
    )

    class Meta:
        model = Membership
        fields = ["player", "role", "listed", "since"]
        orderable = False
        empty_text = _("No members found.")
        attrs = {"class": "sheet members"}
        row_attrs = {"class": lambda record: "" if record.active else "inactive"}

    def render_role(self, record, value):
        if record.active:
            return value
        return f"{value} · {gettext('deactivated')}"
