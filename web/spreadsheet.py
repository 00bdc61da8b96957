"""The CSV files Knock serves, written one way: they open in Excel and LibreOffice
with umlauts intact, numbers as numbers, and no name taken for a formula."""

from django.http import HttpResponse


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
