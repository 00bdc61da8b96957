import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from notices.models import Notice

WIDE_ONLY = {"th": {"class": "wide-only"}, "td": {"class": "wide-only"}}


class NoticeTable(tables.Table):
    """What was sent to whom and how it went; the error of a failed or bounced
    one, as the server gave it. Names only: no address is shown."""

    created_at = tables.DateTimeColumn(verbose_name=_("Written"), short=True)
    player = tables.Column(verbose_name=_("To"), accessor="player__name")
    subject = tables.Column(verbose_name=_("Subject"))
    channel = tables.Column(verbose_name=_("By"))
    status = tables.Column(verbose_name=_("Status"))
    error = tables.Column(verbose_name=_("Why not sent"), attrs=WIDE_ONLY)

    class Meta:
        model = Notice
        fields = ["created_at", "player", "subject", "channel", "status", "error"]
        orderable = False
        empty_text = _("Nothing sent yet.")
        attrs = {"class": "sheet"}
