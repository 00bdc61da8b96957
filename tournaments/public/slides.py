"""The rows of the wall screen's slides and of a round's pairings, written at once
rather than through the template language: the builder renders them with every
board stored, every second or two, and a championship's thousand standings rows
and five hundred tables took 70-100 ms a time each that way (the rest of each part
is its template's: `_screen.html`, `_round_tables.html`). A row a line: an open
page is sent only the lines that changed (`live.events`)."""

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext


def _long(name: str, over: int) -> str:
    # A long name gets a smaller type, so that a column keeps its width.
    return " long" if len(name) > over else ""


def standings_rows(tournament, standings) -> SafeString:
    at_tables = tournament.plays_at_tables
    return format_html_join(
        "\n",
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
            "\n",
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
    return mark_safe("\n".join(_gin_row(t) for t in current.tables))


def _gin_row(t) -> str:
    state = "finished" if t.finished else ""
    cells = _two_sides(
        t, lambda side: format_html('<td class="name{}">{}</td>', _long(side.name, 30), side.name)
    )
    return format_html(
        '<tr data-table="{}" class="{}"><td class="num">{}</td>{}</tr>',
        t.number,
        state,
        t.number,
        cells,
    )


def _two_sides(t, name_cell) -> str:
    """A table of two's cells: each side's name (``name_cell``) and points, a bye
    in the second's place."""
    first = format_html('{}<td class="num">{}</td>', name_cell(t.first), _points(t, t.first))
    if t.bye:
        return first + format_html("<td>{}</td><td></td>", gettext("bye"))
    return first + format_html(
        '{}<td class="num">{}</td>', name_cell(t.second), _points(t, t.second)
    )


def _points(t, side) -> str:
    # The running hand points while played, the result (+/-) once over.
    if side.points is None:
        return ""
    return f"{side.points:+d}" if t.finished else str(side.points)


def _blank(value) -> str:
    return "" if value is None else value


def pairing_rows(round) -> SafeString:
    """The rows of a round's pairings at tables of two (`_round_tables.html`), on the
    public page as the builder renders it with every board, the round's page and
    its print."""
    return mark_safe("\n".join(_pairing_row(t) for t in round.tables))


def _pairing_row(t) -> str:
    state = "disputed" if t.disputed else "finished" if t.finished else ""
    cells = _two_sides(t, lambda side: format_html("<td>{}</td>", _named(side)))
    return format_html(
        '<tr data-table="{}" class="{}"><td class="num">{}</td>{}<td><small>{}</small></td></tr>',
        t.number,
        state,
        t.number,
        cells,
        _progress(t),
    )


def _named(side) -> str:
    # With the place it was paired from, in brackets, where the round was paired
    # from standings.
    if not side.paired_place:
        return side.name
    return format_html('{} <small class="meta">({}.)</small>', side.name, side.paired_place)


def _progress(t) -> str:
    if t.bye:
        return gettext("bye")
    if t.absent is not None:
        return gettext("forfeit")
    if t.finished:
        return gettext("finished")
    if t.disputed:
        return gettext("disputed")
    hands = ngettext("%(counter)s hand", "%(counter)s hands", t.hands) % {"counter": t.hands}
    return hands + (" · " + gettext("waiting for confirmation") if t.pending else "")
