"""The CSV files Knock serves, written one way: they open in Excel and LibreOffice
with umlauts intact, numbers as numbers, and no name taken for a formula.

A spreadsheet reads a CSV file the way its own language writes numbers: a German
Excel splits columns at semicolons, since its decimal mark is the comma, and takes
"20.20" for a date or text. So the file follows the reader's language (`csv_writer`,
`cells`): in German semicolons, decimal commas, "ja"/"nein" and 01.03.1909; in
English commas, points, "yes"/"no" and 1909-03-01."""

import csv
import datetime
from decimal import Decimal

from django.http import HttpResponse
from django.utils.formats import get_format, number_format
from django.utils.translation import gettext


def csv_response(filename: str) -> HttpResponse:
    """An empty CSV download named ``filename``; write rows with ``csv.writer``."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    # The byte-order mark tells Excel the file is UTF-8: umlauts open intact.
    response.write("\ufeff")
    return response


def text_cell(text: str) -> str:
    """A name as a cell: one a spreadsheet would take for a formula ("=…", "+…",
    "-…", "@…") is written as text, so opening the file runs nothing."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def csv_writer(response):
    """A ``csv.writer`` on ``response`` separating columns as the reader's spreadsheet
    does: by semicolons where the decimal mark is a comma."""
    comma_decimals = get_format("DECIMAL_SEPARATOR") == ","
    return csv.writer(response, delimiter=";" if comma_decimals else ",")


def cells(values) -> list:
    """A row's values as the reader's spreadsheet reads them: a fraction with the
    language's decimal mark and no thousands separator, a flag as yes or no in words,
    a date in the form the language's forms read first; None as an empty cell."""
    return [cell(value) for value in values]


def cell(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, (Decimal, float)):
        return number_format(value, use_l10n=True, force_grouping=False)
    if isinstance(value, datetime.datetime):
        return value.strftime(f"{get_format('DATE_INPUT_FORMATS')[0]} %H:%M")
    if isinstance(value, datetime.date):
        return value.strftime(get_format("DATE_INPUT_FORMATS")[0])
    return value
