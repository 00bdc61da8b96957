"""A club's member list as a file: read from CSV, .xlsx or .ods, written as CSV or
.xlsx, with the same columns both ways, so an exported list imports unchanged.

An uploaded file is not trusted: it is read within limits (its size, its rows, what
a spreadsheet unpacks to), and a file that is not what it says is refused with
`RosterUnreadable`, whose message says what to do. What is read is plain text per
cell (`read_roster`); whether a row is taken, and as what, is `judge`'s decision,
made against the club's members as they are."""

from __future__ import annotations

import csv
import datetime
import hashlib
import io
import json
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass, field

from defusedxml import ElementTree
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from openpyxl import Workbook, load_workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

from clubs.models import ORGANIZING, Membership
from clubs.names import same_name
from config.validators import unprintable

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

YES = {"yes", "y", "true", "1", "x", "ja", "j", "wahr"}
NO = {"no", "n", "false", "0", "nein", "falsch"}
# What `config.spreadsheet.text_cell` puts before a name a spreadsheet would take
# for a formula; taken off again so that an exported list imports unchanged.
_ESCAPED = ("'=", "'+", "'-", "'@")


class RosterUnreadable(ValueError):
    """A file that cannot be read as a member list; the message says why."""


def _headers_of(column: str) -> set[str]:
    names = {str(COLUMNS[column]), *_MORE_HEADERS[column]}
    with translation.override("de"):
        names.add(str(COLUMNS[column]))
    return {_plain(name) for name in names}


def _plain(text: str) -> str:
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
        title = _plain(_text(cell))
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


# ---------------------------------------------------------------------------- judging


@dataclass(frozen=True)
class Verdict:
    """One row of the file as it will be taken: ``kind`` is NEW, SAME (an existing
    member, ``notes`` saying what changes) or REFUSED (``notes`` saying why)."""

    NEW = "new"
    SAME = "same"
    REFUSED = "refused"

    line: int
    name: str
    kind: str
    notes: tuple[str, ...] = ()
    values: dict = field(default_factory=dict)
    membership: Membership | None = None

    @property
    def changes(self) -> bool:
        return self.kind == self.SAME and bool(self.notes)


def judge(rows: Iterable[dict], *, members: Iterable[Membership], today) -> list[Verdict]:
    """Each row, judged against the club's ``members`` (with their players): matched
    by e-mail, or by name when the row or the member has no e-mail. A name the club
    has under another e-mail, a second row for the same person, a role an import
    does not give, and any cell that is not what its column holds are refused."""
    members = list(members)
    by_email = {m.player.email.casefold(): m for m in members if m.player.email}
    by_name = {same_name(m.player.name): m for m in members}
    seen: dict[str, int] = {}
    verdicts = []
    for row in rows:
        verdict = _judge_row(row, by_email, by_name, seen, today)
        if verdict.kind != Verdict.REFUSED:
            for key in _keys(verdict.values):
                seen[key] = verdict.line
        verdicts.append(verdict)
    return verdicts


def _keys(values: dict) -> list[str]:
    keys = ["name:" + same_name(values["name"])]
    if values["email"]:
        keys.append("email:" + values["email"].casefold())
    return keys


def _judge_row(row, by_email, by_name, seen, today) -> Verdict:
    line, cells = row["line"], row["cells"]
    values, reasons = _values(cells)
    name = values.get("name") or cells.get("name", "")
    if reasons:
        return Verdict(line, name, Verdict.REFUSED, tuple(reasons))
    earlier = next((seen[key] for key in _keys(values) if key in seen), None)
    if earlier is not None:
        return Verdict(
            line,
            name,
            Verdict.REFUSED,
            (gettext("The same player as row %(line)d.") % {"line": earlier},),
        )
    email = values["email"]
    member = by_email.get(email.casefold()) if email else None
    namesake = by_name.get(same_name(name))
    if member is None and namesake is not None:
        if email and namesake.player.email and namesake.player.email.casefold() != email.casefold():
            return Verdict(line, name, Verdict.REFUSED, (_taken(namesake),))
        member = namesake
    if member is not None and namesake is not None and namesake.pk != member.pk:
        return Verdict(line, name, Verdict.REFUSED, (_taken(namesake),))
    if member is None:
        return _new(line, values, today)
    return _same(line, values, member)


def _taken(member: Membership) -> str:
    return gettext(
        "The club has a player named %(name)s with another e-mail; add an initial so "
        "the two can be told apart."
    ) % {"name": member.player.name}


def _new(line: int, values: dict, today) -> Verdict:
    role = values["role"] or Membership.Role.MEMBER
    if role in ORGANIZING:
        return Verdict(line, values["name"], Verdict.REFUSED, (_no_organizers(),))
    taken = {
        "name": values["name"],
        "email": values["email"],
        "role": role,
        "since": values["since"] or today,
        "active": True if values["active"] is None else values["active"],
        "listed": bool(values["listed"]),
    }
    return Verdict(line, values["name"], Verdict.NEW, (), taken)


def _no_organizers() -> str:
    return gettext("An import does not make organizers: the owner does, on the organizers page.")


def _same(line: int, values: dict, member: Membership) -> Verdict:
    player = member.player
    before = {
        "name": player.name,
        "email": player.email,
        "role": member.role,
        "since": member.since,
        "active": member.active,
        "listed": member.listed,
    }
    after = {
        key: before[key] if values[key] is None or values[key] == "" else values[key]
        for key in before
    }
    after["name"] = values["name"]
    if after["email"].casefold() == before["email"].casefold():
        # An address is the same whatever its case: no change to show or write.
        after["email"] = before["email"]
    if after["role"] != before["role"]:
        if member.organizes:
            return Verdict(
                line,
                values["name"],
                Verdict.REFUSED,
                (
                    gettext("%(name)s organizes the club: only the owner changes that.")
                    % {"name": player.name},
                ),
            )
        if after["role"] in ORGANIZING:
            return Verdict(line, values["name"], Verdict.REFUSED, (_no_organizers(),))
    if member.organizes and not after["active"]:
        return Verdict(
            line,
            values["name"],
            Verdict.REFUSED,
            (
                gettext("%(name)s organizes the club: the owner revokes that first.")
                % {"name": player.name},
            ),
        )
    notes = tuple(
        f"{COLUMNS[key]}: {_shown(before[key])} → {_shown(after[key])}"
        for key in before
        if after[key] != before[key]
    )
    return Verdict(line, values["name"], Verdict.SAME, notes, after, member)


def _shown(value) -> str:
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if value in Membership.Role.values:
        return str(Membership.Role(value).label)
    return str(value) if value else "–"


def _values(cells: dict) -> tuple[dict, list[str]]:
    """The row's cells as the values they stand for (None: not given), and the
    reasons it is refused."""
    reasons = []
    name = " ".join(_unescaped(cells.get("name", "")).split())
    if not name:
        reasons.append(gettext("No name."))
    elif len(name) > 120:
        reasons.append(gettext("The name is longer than 120 characters."))
    values = {"name": name, "email": _unescaped(cells.get("email", "").strip())}
    for text in (name, values["email"]):
        if unprintable(text):
            reasons.append(gettext("An invisible control character in the row."))
            break
    if values["email"]:
        try:
            validate_email(values["email"])
        except ValidationError:
            reasons.append(
                gettext("“%(email)s” is no e-mail address.") % {"email": values["email"]}
            )
    values["role"] = _role(cells.get("role", ""), reasons)
    values["since"] = _date(cells.get("since", ""), reasons)
    values["active"] = _yes_no(cells.get("active", ""), COLUMNS["active"], reasons)
    values["listed"] = _yes_no(cells.get("listed", ""), COLUMNS["listed"], reasons)
    return values, reasons


def _unescaped(text: str) -> str:
    return text[1:] if text.startswith(_ESCAPED) else text


def _roles() -> dict[str, str]:
    names = {}
    for role in Membership.Role:
        names[_plain(role.value)] = role.value
        names[_plain(role.label)] = role.value
        with translation.override("de"):
            names[_plain(role.label)] = role.value
    names["owner"] = Membership.Role.OWNER
    return names


def _role(text: str, reasons: list) -> str | None:
    if not text.strip():
        return None
    role = _roles().get(_plain(text))
    if role is None:
        reasons.append(gettext("“%(role)s” is no role: member or guest.") % {"role": text.strip()})
    return role


def _date(text: str, reasons: list) -> datetime.date | None:
    text = text.strip()
    if not text:
        return None
    for pattern in ("%Y-%m-%d", "%d.%m.%Y", "%d.%m.%y"):
        try:
            return datetime.datetime.strptime(text, pattern).date()
        except ValueError:
            continue
    reasons.append(
        gettext("“%(date)s” is no date: write it as 2024-03-31 or 31.03.2024.") % {"date": text}
    )
    return None


def _yes_no(text: str, column, reasons: list) -> bool | None:
    plain = _plain(text)
    if not plain:
        return None
    if plain in YES or plain == _plain(gettext("yes")):
        return True
    if plain in NO or plain == _plain(gettext("no")):
        return False
    reasons.append(
        gettext("“%(value)s” in “%(column)s” is neither yes nor no.")
        % {"value": text.strip(), "column": column}
    )
    return None


def fingerprint(verdicts: Iterable[Verdict]) -> str:
    """What a preview showed, in a few characters: the confirmation carries it, and
    the import goes ahead only while the same rows would be taken the same way."""
    shown = [
        [v.line, v.kind, v.membership.pk if v.membership else None, sorted(v.values.items())]
        for v in verdicts
    ]
    return hashlib.sha256(json.dumps(shown, default=str).encode()).hexdigest()[:32]


# ---------------------------------------------------------------------------- writing


def roster_lines(members: Iterable[Membership]) -> Iterable[list]:
    """The export's header and rows; a date stays a date, for the spreadsheet."""
    yield [str(title) for title in _english_headers()]
    for member in members:
        yield [
            member.player.name,
            member.player.email,
            member.role,
            member.since,
            "yes" if member.active else "no",
            "yes" if member.listed else "no",
        ]


def _english_headers():
    # The export's headers stay English whatever the page's language: they name the
    # columns for the import and for other programs.
    with translation.override("en"):
        return [str(title) for title in COLUMNS.values()]


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
                cell.number_format = "yyyy-mm-dd"
    stream = io.BytesIO()
    book.save(stream)
    return stream.getvalue()


def _sheet_text(text: str) -> str:
    return ILLEGAL_CHARACTERS_RE.sub("", text)
