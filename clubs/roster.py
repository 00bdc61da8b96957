"""A club's member list as a file: read from CSV, .xlsx or .ods, written as CSV or
.xlsx, with the same columns both ways, so an exported list imports unchanged.

An uploaded file is not trusted: it is read within limits (its size, its rows, what
a spreadsheet unpacks to), and a file that is not what it says is refused with
`RosterUnreadable`, whose message says what to do. What is read is plain text per
cell (`read_roster`); whether a row is taken, and as what, is decided in
`clubs.roster_rows`, against the club's members as they are."""

from __future__ import annotations

import csv
import datetime
import io
import zipfile
from collections.abc import Iterable

from defusedxml import ElementTree
from django.utils import translation
from django.utils.formats import get_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from openpyxl import Workbook, load_workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

from clubs.models import Membership

#: The columns, in the order of the export, each with its header.
COLUMNS = {
    "name": _("name"),
    "email": _("email"),
    "role": _("role"),
    "since": _("member since"),
    "active": _("active"),
    "listed": _("listed publicly"),
}
#: Other headers people give these columns, in English and German.
_MORE_HEADERS = {
    "name": ["player", "spieler", "vor- und nachname"],
    "email": ["e-mail", "mail", "e-mail-adresse", "email address"],
    "role": ["plays as", "spielt als"],
    "since": ["since", "seit", "joined", "eintritt", "beitritt"],
    "active": [],
    "listed": ["listed", "public", "öffentlich", "öffentlich gelistet"],
}

#: An upload larger than this is no member list: a club of thousands fits in 100 kB.
MAX_BYTES = 2 * 1024 * 1024
#: What a spreadsheet may unpack to: a small file can hold a zip bomb.
MAX_UNPACKED = 10 * 1024 * 1024
MAX_ROWS = 5000
#: Columns read of a spreadsheet's row: the six, and more that are not ours.
MAX_COLUMNS = 30
KINDS = {"csv", "xlsx", "ods"}
_ODS = b"application/vnd.oasis.opendocument.spreadsheet"


class RosterUnreadable(ValueError):
    """A file that cannot be read as a member list; the message says why."""


def _headers_of(column: str) -> set[str]:
    names = {str(COLUMNS[column]), *_MORE_HEADERS[column]}
    with translation.override("de"):
        names.add(str(COLUMNS[column]))
    return {plain(name) for name in names}


def plain(text: str) -> str:
    """A header or a word as compared: case, spacing and underscores do not count."""
    return " ".join(str(text).replace("_", " ").split()).casefold()


# ---------------------------------------------------------------------------- reading


def read_roster(*, filename: str, data: bytes) -> dict:
    """The rows of an uploaded member list: ``{"rows": [{"line": n, "cells": {column:
    text}}], "ignored": [header, ...]}``, every cell as text, blank rows left out.
    The kind is taken from the name and checked against the bytes."""
    check_size(len(data))
    kind = filename.rsplit(".", 1)[-1].casefold() if "." in filename else ""
    if kind not in KINDS:
        raise RosterUnreadable(gettext("Upload a .csv, .xlsx or .ods file."))
    table = _csv_table(data) if kind == "csv" else _spreadsheet_table(kind, data)
    return _rows(table)


def check_size(size: int) -> None:
    if size > MAX_BYTES:
        raise RosterUnreadable(
            gettext("The file is larger than %(size)d MB: no member list is that long.")
            % {"size": MAX_BYTES // (1024 * 1024)}
        )


def _csv_table(data: bytes) -> list[tuple[int, list]]:
    if b"\x00" in data or data.startswith(b"PK\x03\x04"):
        raise RosterUnreadable(
            gettext("This is not a CSV file: save the list as CSV (or upload the spreadsheet).")
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        # A German spreadsheet's plain "CSV" is Windows-1252; its umlauts come through.
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError as error:
            raise RosterUnreadable(
                gettext("The file is not text: save the list as CSV UTF-8.")
            ) from error
    first = text.split("\n", 1)[0]
    # German spreadsheets separate by semicolons, since the comma is their decimal point.
    delimiter = max((";", ",", "\t"), key=first.count)
    try:
        rows = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
        return _within_limit(enumerate(rows, start=1))
    except csv.Error as error:
        raise RosterUnreadable(
            gettext("The CSV file is broken: %(error)s") % {"error": error}
        ) from error


def _spreadsheet_table(kind: str, data: bytes) -> list[tuple[int, list]]:
    wrong = gettext("This is not a .%(kind)s spreadsheet: save it again as one.") % {"kind": kind}
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as packed:
            names = set(packed.namelist())
            if sum(member.file_size for member in packed.infolist()) > MAX_UNPACKED:
                raise RosterUnreadable(gettext("The spreadsheet unpacks to too much to be read."))
            if kind == "xlsx" and "[Content_Types].xml" not in names:
                raise RosterUnreadable(wrong)
            if kind == "ods" and ("mimetype" not in names or packed.read("mimetype") != _ODS):
                raise RosterUnreadable(wrong)
    except RosterUnreadable:
        raise
    except (zipfile.BadZipFile, EOFError, ValueError, OSError) as error:
        raise RosterUnreadable(wrong) from error
    try:
        return _xlsx_table(data) if kind == "xlsx" else _ods_table(data)
    except RosterUnreadable:
        raise
    except Exception as error:
        # Both readers raise whatever their zip, XML and cell parsers raise; whatever
        # it is, the file is not a spreadsheet that can be read.
        raise RosterUnreadable(wrong) from error


def _xlsx_table(data: bytes) -> list[tuple[int, list]]:
    """The first sheet's rows, streamed: a sheet of a million rows stops at the limit."""
    book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    try:
        rows = book.worksheets[0].iter_rows(max_col=MAX_COLUMNS, values_only=True)
        return _within_limit(enumerate((list(row) for row in rows), start=1))
    finally:
        book.close()


_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_CELLS = (_TABLE + "table-cell", _TABLE + "covered-table-cell")


def _ods_table(data: bytes) -> list[tuple[int, list]]:
    """The first sheet's rows, streamed from the document's content.xml (through
    defusedxml: no entities, no DTD). A spreadsheet program writes the empty rest of
    a sheet as one row or cell "repeated" thousands of times: empty rows are only
    counted, and a cell counts at most as often as there are columns to read."""
    with zipfile.ZipFile(io.BytesIO(data)) as packed, packed.open("content.xml") as content:
        return _within_limit(_ods_rows(content))


def _ods_rows(content):
    number, tables, row = 1, 0, []
    for event, element in ElementTree.iterparse(content, events=("start", "end")):
        if element.tag == _TABLE + "table":
            if event == "start":
                tables += 1
            elif tables == 1:
                return
        if event != "end" or tables != 1:
            continue
        if element.tag in _CELLS:
            repeat = int(element.get(_TABLE + "number-columns-repeated") or 1)
            value = _ods_cell(element)
            row.extend([value] * max(0, min(repeat, MAX_COLUMNS - len(row))))
        elif element.tag == _TABLE + "table-row":
            yield number, row
            number += int(element.get(_TABLE + "number-rows-repeated") or 1)
            row = []
            element.clear()


def _ods_cell(cell):
    kind = cell.get(_OFFICE + "value-type")
    if kind == "date" and cell.get(_OFFICE + "date-value"):
        return datetime.date.fromisoformat(cell.get(_OFFICE + "date-value")[:10])
    if kind == "boolean":
        return cell.get(_OFFICE + "boolean-value") == "true"
    if kind in ("float", "percentage", "currency") and cell.get(_OFFICE + "value"):
        return float(cell.get(_OFFICE + "value"))
    return "\n".join("".join(paragraph.itertext()) for paragraph in cell)


def _within_limit(rows: Iterable[tuple[int, list]]) -> list[tuple[int, list]]:
    """The rows with text, each with its number in the file, refused once there are
    more than a member list has."""
    kept = []
    for number, row in rows:
        if any(_text(cell) for cell in row):
            kept.append((number, row))
            if len(kept) > MAX_ROWS + 1:
                _too_many()
    return kept


def _too_many():
    raise RosterUnreadable(gettext("The file has more than %(rows)d rows.") % {"rows": MAX_ROWS})


def _rows(lines: list[tuple[int, list]]) -> dict:
    if not lines:
        raise RosterUnreadable(gettext("The file is empty."))
    header_line, header = lines[0]
    wanted = {column: _headers_of(column) for column in COLUMNS}
    places, ignored = {}, []
    for index, cell in enumerate(header):
        title = plain(_text(cell))
        column = next((c for c, names in wanted.items() if title in names), None)
        if column is not None and column not in places:
            places[column] = index
        elif title:
            ignored.append(_text(cell))
    if "name" not in places:
        raise RosterUnreadable(
            gettext(
                "The first row names no column “name”: the columns are %(columns)s "
                "(in English or German)."
            )
            % {"columns": ", ".join(str(title) for title in COLUMNS.values())}
        )
    if len(lines) - 1 > MAX_ROWS:
        _too_many()
    rows = [
        {
            "line": number,
            "cells": {c: _text(row[i]) if i < len(row) else "" for c, i in places.items()},
        }
        for number, row in lines[1:]
    ]
    return {"rows": rows, "ignored": ignored, "header_line": header_line}


def _text(cell) -> str:
    """A cell as text: a spreadsheet's date as ISO date, a boolean as yes/no, a
    whole number without its ".0"."""
    if cell is None:
        return ""
    if isinstance(cell, bool):
        return "yes" if cell else "no"
    if isinstance(cell, datetime.datetime):
        return cell.date().isoformat()
    if isinstance(cell, datetime.date):
        return cell.isoformat()
    if isinstance(cell, float) and cell.is_integer():
        return str(int(cell))
    return str(cell).strip()


# ---------------------------------------------------------------------------- writing


def roster_lines(members: Iterable[Membership]) -> Iterable[list]:
    """The export's header and rows in the reader's language (German headers, roles
    and "ja"/"nein" for a German organizer: the import reads both languages); a date
    stays a date, for the spreadsheet."""
    yield [str(title) for title in COLUMNS.values()]
    for member in members:
        yield [
            member.player.name,
            member.player.email,
            str(Membership.Role(member.role).label),
            member.since,
            gettext("yes") if member.active else gettext("no"),
            gettext("yes") if member.listed else gettext("no"),
        ]


def roster_xlsx(members: Iterable[Membership]) -> bytes:
    """The member list as an .xlsx workbook. Every text is stored as text, so a name
    beginning with "=" is shown, never run as a formula; a control character, which
    no workbook holds (and no form takes today), is left out rather than failing."""
    book = Workbook()
    sheet = book.active
    sheet.title = "members"
    for line in roster_lines(members):
        sheet.append([_sheet_text(v) if isinstance(v, str) else v for v in line])
        for cell in sheet[sheet.max_row]:
            if isinstance(cell.value, str):
                cell.data_type = "s"
            elif isinstance(cell.value, datetime.date):
                cell.number_format = _date_format()
    stream = io.BytesIO()
    book.save(stream)
    return stream.getvalue()


def _date_format() -> str:
    """The date as the reader's language writes it, in a workbook's terms
    ("dd.mm.yyyy" in German)."""
    pattern = get_format("DATE_INPUT_FORMATS")[0]
    return pattern.replace("%d", "dd").replace("%m", "mm").replace("%Y", "yyyy")


def _sheet_text(text: str) -> str:
    return ILLEGAL_CHARACTERS_RE.sub("", text)
