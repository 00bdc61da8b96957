import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from tournaments.final.bracket import reached_label


class ClubTable(tables.Table):
    name = tables.Column(linkify=True, verbose_name=_("Club"))
    member_count = tables.Column(verbose_name=_("Members"), attrs={"td": {"class": "num"}})

    class Meta:
        model = Club
        fields = ["name", "city", "founded", "member_count"]
        orderable = False
        empty_text = _("No clubs yet.")
        attrs = {"class": "sheet"}


NUM = {"td": {"class": "num"}, "th": {"class": "num"}}
# Left out on a phone, as on the organizer's standings: the place, the parties won
# and the points tell the story (the CSV, the print and a wider screen have them).
OPTIONAL = {"td": {"class": "num optional"}, "th": {"class": "num optional"}}


class StandingsTable(tables.Table):
    """The public standings (`tournaments.board.Line` rows), sortable by any column."""

    place = tables.Column(verbose_name=_("Place"), attrs=NUM)
    name = tables.Column(verbose_name=_("Player"), attrs={"td": {"class": "who"}})
    # After the final (the board is in its order then): how far each of its players came.
    reached = tables.Column(verbose_name=_("Final"), orderable=False, default="")
    played = tables.Column(verbose_name=_("Parties"), attrs=OPTIONAL)
    won = tables.Column(verbose_name=_("Won"), attrs=NUM)
    points = tables.Column(verbose_name=_("Plus/minus"), attrs=NUM)
    byes = tables.Column(verbose_name=_("Byes"), attrs=OPTIONAL)

    class Meta:
        orderable = True
        empty_text = _("No entrants yet.")
        attrs = {"class": "sheet standings"}
        template_name = "tournaments/public/_standings_sheet.html"

    def __init__(self, data, *args, slug=None, **kwargs):
        # With the results published, each name links to the player's page.
        self.slug = slug
        final = any(line.reached for line in data)
        super().__init__(data, *args, exclude=() if final else ("reached",), **kwargs)

    def rows_html(self):
        """The rows of the page shown, each cell as the columns' ``render_…`` say.
        Written here, not cell by cell through the table's own machinery: a
        championship's board renders its standings with every board stored, every
        second or two, and that machinery took a thousandth of a second a cell (80
        ms a page of a hundred rows); the headers, the sorting and the pages stay
        the table's."""
        columns = [(column.name, column.attrs["td"].as_html()) for column in self.columns]
        rows = []
        for index, row in enumerate(self.paginated_rows):
            record = row.record
            cells = format_html_join(
                "", "<td {}>{}</td>", ((attrs, self._cell(name, record)) for name, attrs in columns)
            )
            parity = "odd" if index % 2 else "even"
            rows.append(
                format_html(
                    '<tr data-entrant="{}" class="{}">{}</tr>', record.entrant, parity, cells
                )
            )
        return mark_safe("\n".join(rows))

    def _cell(self, name, record):
        if name in ("place", "name"):
            return getattr(self, f"render_{name}")(record)
        value = getattr(record, name)
        if value in ("", None):  # the column's default
            return ""
        render = getattr(self, f"render_{name}", None)
        return value if render is None else render(value)

    def render_reached(self, value):
        return reached_label(value)

    def render_place(self, record):
        return f"{record.place}." + (" =" if record.shared else "")

    def render_name(self, record):
        label = (
            _("%(name)s (withdrawn)") % {"name": record.name} if record.withdrawn else record.name
        )
        if not self.slug:
            return label
        url = reverse("public:player-detail", args=[self.slug, record.entrant])
        return format_html('<a href="{}">{}</a>', url, label)

    def render_points(self, value):
        return f"{value:+d}"


class TableStandingsTable(StandingsTable):
    """The public standings of a tournament at tables of another game: tournament
    points by place, then the game score and the parties won that break their
    ties (`tournaments.engine.table_points`). On a phone the points and the game
    score tell the story; the parties won are on a wider screen."""

    won = tables.Column(verbose_name=_("Parties won"), attrs=OPTIONAL)
    points = tables.Column(verbose_name=_("Tournament points"), attrs=NUM)
    score = tables.Column(verbose_name=_("Game score"), attrs=NUM)

    class Meta(StandingsTable.Meta):
        sequence = ("place", "name", "reached", "played", "points", "score", "won", "byes")

    def render_points(self, value):
        return str(value)

    def render_score(self, value):
        return f"{value:+d}"


def standings_table_for(tournament) -> type[StandingsTable]:
    """The standings' columns: Gin Rummy's plus/minus, or points by place at tables."""
    return TableStandingsTable if tournament.plays_at_tables else StandingsTable
