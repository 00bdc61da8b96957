"""The rows of the wall screen's slides, written at once rather than through the
template language: the builder renders the screen with every board stored, every
second or two, and a championship's thousand standings rows and five hundred
tables took 70-100 ms a time that way (the rest of the slide is the template's,
`_screen.html`)."""

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext


def _long(name: str, over: int) -> str:
    # A long name gets a smaller type, so that a column keeps its width.
    return " long" if len(name) > over else ""


def standings_rows(tournament, standings) -> SafeString:
    at_tables = tournament.plays_at_tables
    return format_html_join(
        "",
        '<tr data-entrant="{}"><td class="num">{}.</td><td class="name{}">{}</td>'
        '<td class="num">{}</td><td class="num">{}</td></tr>',
        (
            (
                line.entrant,
                line.place,
                _long(line.name, 26),
                line.name,
                line.played,
                line.points if at_tables else f"{line.points:+d}",
            )
            for line in standings
        ),
    )


def table_rows(tournament, current) -> SafeString:
    if tournament.plays_at_tables:
        return format_html_join(
            "",
            '<tr data-table="{}" class="{}"><td class="num">{}</td><td class="name{}">{}</td>'
            '<td class="num">{}</td><td class="num">{}</td></tr>',
            (
                (
                    t.number,
                    "finished" if t.finished else "",
                    t.number,
                    _long(side.name, 30),
                    side.name,
                    gettext("bye") if t.bye else _blank(side.total),
                    _blank(side.earned),
                )
                for t in current.tables
                for side in t.sides
            ),
        )
    return mark_safe("".join(_gin_row(t) for t in current.tables))


def _gin_row(t) -> str:
    first = format_html(
        '<td class="num">{}</td><td class="name{}">{}</td><td class="num">{}</td>',
        t.number,
        _long(t.first.name, 30),
        t.first.name,
        _points(t, t.first),
    )
    if t.bye:
        second = format_html("<td>{}</td><td></td>", gettext("bye"))
    else:
        second = format_html(
            '<td class="name{}">{}</td><td class="num">{}</td>',
            _long(t.second.name, 30),
            t.second.name,
            _points(t, t.second),
        )
    finished = "finished" if t.finished else ""
    return format_html(
        '<tr data-table="{}" class="{}">{}{}</tr>', t.number, finished, first, second
    )


def _points(t, side) -> str:
    # The running hand points while played, the result (+/-) once over.
    if side.points is None:
        return ""
    return f"{side.points:+d}" if t.finished else str(side.points)


def _blank(value) -> str:
    return "" if value is None else value
