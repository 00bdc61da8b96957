"""How each row of an uploaded member list is taken: as a new member, as an existing
one (and what changes), or refused (and why). `judge` decides, against the club's
members as they are; the preview shows its verdicts and the import takes them."""

from __future__ import annotations

import datetime
import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils import translation
from django.utils.translation import gettext

from clubs.models import ORGANIZING, Membership
from clubs.names import same_name
from clubs.roster import COLUMNS, plain
from web.validators import invisible, unprintable

YES = {"yes", "y", "true", "1", "x", "ja", "j", "wahr"}
NO = {"no", "n", "false", "0", "nein", "falsch"}
# What `web.spreadsheet.text_cell` puts before a name a spreadsheet would take
# for a formula; taken off again so that an exported list imports unchanged.
_ESCAPED = ("'=", "'+", "'-", "'@")


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

    @property
    def guest(self) -> bool:
        """Taken as a guest (a new one, or a member who stays or becomes one)."""
        return self.values.get("role") == Membership.Role.GUEST

    @property
    def role_label(self) -> str:
        role = self.values.get("role")
        return str(Membership.Role(role).label) if role in Membership.Role.values else ""


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
    if not name or invisible(name):
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
        names[plain(role.value)] = role.value
        names[plain(role.label)] = role.value
        with translation.override("de"):
            names[plain(role.label)] = role.value
    names["owner"] = Membership.Role.OWNER
    return names


def _role(text: str, reasons: list) -> str | None:
    if not text.strip():
        return None
    role = _roles().get(plain(text))
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
    word = plain(text)
    if not word:
        return None
    if word in YES or word == plain(gettext("yes")):
        return True
    if word in NO or word == plain(gettext("no")):
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
