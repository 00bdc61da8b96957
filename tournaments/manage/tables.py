import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

NUM = {"td": {"class": "num"}, "th": {"class": "num"}}
# Left out on a phone: the place, the points and the draw tell the story.
OPTIONAL = {"td": {"class": "num optional"}, "th": {"class": "num optional"}}


class StandingsTable(tables.Table):
    """The standings (rows: `tournaments.standings.StandingsLine`)."""

    place = tables.Column(verbose_name=_("Place"), attrs=NUM)
    player = tables.Column(
        verbose_name=_("Player"), accessor="entrant", attrs={"td": {"class": "who"}}
    )
    parties = tables.Column(verbose_name=_("Parties"), attrs=OPTIONAL)
    won = tables.Column(verbose_name=_("Won"), attrs=NUM)
    points = tables.Column(verbose_name=_("Plus/minus"), attrs=NUM)
    byes = tables.Column(verbose_name=_("Byes"), attrs=OPTIONAL)
    draw = tables.Column(verbose_name=_("Card"), default="")

    def render_place(self, value, record):
        # A shared place reads "2=" on the board, as at every card table.
        return f"{value}=" if record.shared else str(value)

    def render_player(self, value, record):
        if record.withdrawn:
            return _("%(name)s (withdrawn)") % {"name": value}
        if not record.entrant.checked_in:
            return _("%(name)s (not checked in)") % {"name": value}
        return str(value)

    def render_points(self, value):
        return f"{value:+d}"

    class Meta:
        orderable = False
        empty_text = _("No entrants yet.")
        attrs = {"class": "sheet", "id": "standings"}
        row_attrs = {"data-entrant": lambda record: record.entrant.pk}


class TableStandingsTable(StandingsTable):
    """The standings of a tournament at tables of another game: tournament points
    by place, then the game score and the parties won that break their ties
    (`tournaments.engine.table_points`); no plus/minus, no card draw."""

    won = tables.Column(verbose_name=_("Parties won"), attrs=NUM)
    points = tables.Column(verbose_name=_("Tournament points"), attrs=NUM)
    score = tables.Column(verbose_name=_("Game score"), attrs=NUM)

    class Meta(StandingsTable.Meta):
        sequence = ("place", "player", "parties", "points", "score", "won", "byes")
        exclude = ("draw",)

    def render_points(self, value):
        return str(value)

    def render_score(self, value):
        return f"{value:+d}"
