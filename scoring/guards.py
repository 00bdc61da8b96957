"""What the apps above scoring forbid of a correction. A party can belong to
something that has already moved on from its result (a knockout match whose winner
has gone to the next round): changing the hands would leave that result standing on
a sheet that no longer says so. Those apps register a check here at start-up;
scoring cannot import them."""

from __future__ import annotations

from collections.abc import Callable

from scoring import errors

_checks: list[Callable[[object], str | None]] = []


def before_correction(check: Callable[[object], str | None]) -> None:
    """``check(party)`` returns why the party's hands may no longer be corrected,
    or ``None``."""
    if check not in _checks:
        _checks.append(check)


def check_correction(party) -> None:
    """Refuse a correction of ``party`` that a registered check forbids."""
    for check in _checks:
        reason = check(party)
        if reason:
            raise errors.ResultFinal(reason)
