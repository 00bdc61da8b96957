"""Seat page parts made once and kept in the process: a part whose markup is the
same for many pages but for a few values (the seat's token, the hand's number,
the players' names...) is rendered once per language with marks in their place,
and each page fills the marks in. Every phone reads its page again after each
change, and the entry form, with its translated labels and addresses, was a
fifth of that page's time; the page's frame (base.html's head and header, the
notices, the scripts: `frame.framed`) was half of what was left. A part the
same on every phone of a party (the sheet, the race) is made by the first phone
to read it after a change and kept under everything it shows (`shared`).

The marks are filled in exactly as the template would have written the values
(`render_value_in_context`, escaped), so a page is byte for byte the one the
template makes; tests/scoring/seat/test_page_bytes.py holds it to that."""

import re
import secrets
import string

from django.template import Context
from django.template.base import render_value_in_context
from django.template.loader import render_to_string
from django.urls import get_script_prefix, reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

#: Off: every part made afresh for each page (the tests compare the two).
KEPT = True

#: How many made parts a process keeps: a few per ruleset and language, and
#: the sheets of the parties its phones read now.
LIMIT = 1024

_made: dict[tuple, str] = {}
_addresses: dict[tuple, str] = {}
_context = Context(autoescape=True)
#: Letters no page ever shows, drawn per process: a mark is filled in wherever it
#: stands, so a player's name that held one would be filled in too, and a name
#: cannot hold what nobody outside the process knows.
_SECRET = "".join(secrets.choice(string.ascii_lowercase) for _ in range(20))
_MARK = re.compile(rf"zz{_SECRET}([a-z]+\d*)zz")


def mark(name: str) -> str:
    """What stands for the value ``name`` in a made part (letters only: it also
    stands for a token in an address, which `reverse` would quote otherwise)."""
    return f"zz{_SECRET}{name}zz"


#: What the page fills in at the end (`finish`): the same for every part of it.
PAGE_MARKS = ("csrf", "key")


def part(template: str, key: tuple, marked, values: dict):
    """``template`` with ``values`` written in, made from ``marked`` (its context,
    in which each of ``values`` stands as its `mark`) once per ``key`` (what else
    the part depends on), language and address prefix. The page's own marks
    (`PAGE_MARKS`) stay for `finish`. None when parts are not kept."""
    if not KEPT:
        return None

    def made():
        page = {"csrf_token": mark("csrf"), "key": mark("key")}
        found = _once(template, key, lambda: render_to_string(template, {**marked(), **page}))
        filled = {name: _written(value) for name, value in values.items()}
        return mark_safe(_MARK.sub(lambda m: filled.get(m[1], m[0]), found))

    return _Later(made)


def shared(template: str, key: tuple, context: dict):
    """``template`` rendered with ``context``, made once per ``key`` (everything
    the part shows: a party's hands by their `selectors.version`, its players'
    names...), language and address prefix: the phones of a table read the
    same sheet after each change, and the second one finds it made. None when
    parts are not kept."""
    if not KEPT:
        return None

    def render():
        return mark_safe(render_to_string(template, context))

    return _Later(lambda: _once(template, key, render))


def _once(template: str, key: tuple, render) -> str:
    """What ``render`` makes, once per ``key``, language and address prefix."""
    whole_key = (template, key, get_language(), get_script_prefix())
    made = _made.get(whole_key)
    if made is None:
        if len(_made) >= LIMIT:
            _made.clear()
        made = _made[whole_key] = render()
    return made


class _Later:
    """A part made when the page writes it, not before: inside the page's own
    rendering, so that whoever reads the page's context (the test client's
    ``response.context``) finds the page's values, never a part's marks."""

    def __init__(self, make):
        self._make = make

    def __bool__(self) -> bool:
        return True

    def __str__(self) -> str:
        return self._make()

    __html__ = __str__


def addresses(token: str, names) -> dict[str, str]:
    """The seat's addresses ``names`` (of the namespace ``seat``), by name (with
    "_" for "-", as a template reads them): each
    reversed once per process for a mark and the token written in (a token has
    only characters an address keeps as they are)."""
    if not KEPT:
        return {name.replace("-", "_"): reverse(f"seat:{name}", args=[token]) for name in names}
    prefix = get_script_prefix()
    found = {}
    for name in names:
        marked = _addresses.get((name, prefix))
        if marked is None:
            marked = _addresses[name, prefix] = reverse(f"seat:{name}", args=[mark("token")])
        found[name.replace("-", "_")] = marked.replace(mark("token"), token)
    return found


def finish(html: str, *, csrf: str, key: str) -> str:
    """The page with its own marks filled in: the form's token and the key."""
    if not KEPT:
        return html
    return html.replace(mark("csrf"), csrf).replace(mark("key"), key)


def _written(value) -> str:
    return str(render_value_in_context(value, _context))
