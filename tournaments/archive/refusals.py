"""Why an archive is refused, in the reader's language: each problem names the
field (its path in the archive: ``parties.3.seats.0.side``) and the rule it
breaks. Pydantic's own wording (English, with its internals) is never shown; nor
is the database's."""

from __future__ import annotations

import json
import re

from django.utils.text import get_text_list
from django.utils.translation import gettext, ngettext

from tournaments.archive.references import Problem

#: How many problems the one-line message quotes; the rest are in ``errors``.
QUOTED = 3


class ArchiveError(ValueError):
    """An archive that cannot be imported: ``str()`` says why in one sentence,
    ``errors`` lists each field and its rule."""

    def __init__(self, message: str, errors: list[Problem] = ()):
        super().__init__(message)
        self.errors = list(errors)

    def as_body(self) -> dict:
        """What the API's error body adds: ``errors``, one per field."""
        return {"errors": [{"field": e.field, "message": e.message} for e in self.errors]}


def refused(problems: list[Problem]) -> ArchiveError:
    """The refusal of an archive with these problems."""
    quoted = "; ".join(f"{p.field}: {p.message}" for p in problems[:QUOTED])
    more = len(problems) - QUOTED
    if more > 0:
        quoted += " " + ngettext(
            "(and %(count)s more problem)", "(and %(count)s more problems)", more
        ) % {"count": more}
    message = gettext("The archive cannot be imported: %(problems)s.") % {"problems": quoted}
    return ArchiveError(message, problems)


def _rule(error: dict) -> str:
    kind, context = error["type"], error.get("ctx") or {}
    if kind in ("control_character",):
        return error["msg"]
    if kind == "missing":
        return gettext("is missing")
    if kind == "extra_forbidden":
        return gettext("is not a field an archive may hold")
    if kind in ("literal_error", "enum"):
        choices = [f"“{c}”" for c in re.findall(r"'([^']*)'", str(context.get("expected", "")))]
        return gettext("must be one of %(choices)s") % {"choices": get_text_list(choices)}
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        return gettext("must be “tournament” or “night”")
    if kind.startswith("int_") or kind == "int_from_float":
        return gettext("must be a whole number")
    if kind == "finite_number":
        return gettext("must be a finite number (not Infinity or NaN)")
    if kind.startswith("bool_"):
        return gettext("must be true or false")
    if kind.startswith("string_type") or kind == "string_unicode":
        return gettext("must be text")
    if kind == "string_too_short":
        return gettext("must not be empty")
    if kind == "string_too_long":
        return gettext("may be at most %(limit)s characters long") % {
            "limit": context.get("max_length")
        }
    if kind == "string_pattern_mismatch":
        return gettext("is not of the form an archive writes it in")
    if kind in ("greater_than_equal", "greater_than"):
        return gettext("must be at least %(limit)s") % {
            "limit": context.get("ge", context.get("gt"))
        }
    if kind in ("less_than_equal", "less_than"):
        return gettext("must be at most %(limit)s") % {
            "limit": context.get("le", context.get("lt"))
        }
    if kind == "too_long":
        return gettext("holds too many items (at most %(limit)s)") % {
            "limit": context.get("max_length", "")
        }
    if kind == "too_short":
        return gettext("holds too few items (at least %(limit)s)") % {
            "limit": context.get("min_length", "")
        }
    if kind == "too_large":
        return gettext("is too large a number")
    if kind == "too_deep":
        return gettext("is nested too deeply")
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return gettext("must be an object")
    if kind in ("list_type", "tuple_type", "iterable_type"):
        return gettext("must be a list")
    if kind == "out_of_time":
        return gettext("must be a time between 1900 and 2199")
    if kind.startswith("timezone") or kind.startswith("datetime"):
        return gettext("must be a time with its zone, as 2025-03-14T19:30:00+01:00")
    if kind.startswith("date"):
        return gettext("must be a date, as 2025-03-14")
    if kind.startswith("ip_"):
        return gettext("must be an IP address")
    return gettext("is not valid here")


def _path(location: tuple) -> str:
    # The union of the two kinds puts the kind first: the reader never wrote it.
    parts = list(location)
    if parts and parts[0] in ("tournament", "night") and len(parts) > 1:
        parts = parts[1:]
    # A union names the member it tried (``HandSnapshot``): the reader wrote none.
    parts = [part for part in parts if not (isinstance(part, str) and part[:1].isupper())]
    return ".".join(str(part) for part in parts) or gettext("the archive")


def schema_problems(errors: list[dict]) -> list[Problem]:
    """Pydantic's errors as problems, each field once (a union tries its members and
    finds the same field wrong twice)."""
    problems, seen = [], set()
    for error in errors:
        field = _path(error["loc"])
        if field not in seen:
            seen.add(field)
            problems.append(Problem(field, _rule(error)))
    return problems


def _refuse_constant(name: str):
    raise ArchiveError(
        gettext("The archive holds %(name)s, which is no number an archive may hold.")
        % {"name": name}
    )


def archive_loads(text: bytes | str):
    """An archive's JSON text as data. ``Infinity``, ``-Infinity`` and ``NaN`` are
    not JSON (Python's reader takes them anyway): refused by name. Text that is not
    JSON at all is a `ValueError` (a `RecursionError` if it nests past the reader)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8-sig")
    return json.loads(text, parse_constant=_refuse_constant)
