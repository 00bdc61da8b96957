"""Where the tournament formats are decided: only in `tournaments.engine.formats`
(as the party formats in `scoring.engine.formats`); the rest asks `format_of`."""

import re
from pathlib import Path

from tournaments.engine.formats import FORMATS, format_of
from tournaments.models import Tournament

TOURNAMENTS = Path(__file__).resolve().parents[2] / "tournaments"
ASKS_WHICH_FORMAT = re.compile(r"format ==|format !=|Format\.SWISS|Format\.ROUND_ROBIN")


def test_nothing_outside_the_engine_asks_which_format_a_tournament_is():
    asking = [
        f"{path.relative_to(TOURNAMENTS)}:{number}: {line.strip()}"
        for path in sorted(TOURNAMENTS.rglob("*.py"))
        if not {"engine", "migrations"} & set(path.relative_to(TOURNAMENTS).parts)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if ASKS_WHICH_FORMAT.search(line)
    ]
    assert asking == []


def test_every_stored_format_has_its_engine_format():
    assert set(Tournament.Format.values) == set(FORMATS)
    assert Tournament._meta.get_field("format").default == format_of("swiss").key
