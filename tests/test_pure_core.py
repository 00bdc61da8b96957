"""The rules and pairing core must not depend on Django or Celery (STYLE 2)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORE = [
    "scoring.engine.cards",
    "scoring.engine.rules",
    "scoring.engine.melds",
    "scoring.engine.hands",
    "scoring.engine.settlement",
    "scoring.engine.deal",
    "tournaments.engine.pairing",
    "tournaments.engine.standings",
    "tournaments.engine.explain",
]
CHECK = """
import importlib, sys
importlib.import_module({module!r})
loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'celery'))
print(','.join(loaded))
"""


@pytest.mark.parametrize("module", CORE)
def test_core_module_imports_neither_django_nor_celery(module):
    result = subprocess.run(
        [sys.executable, "-c", CHECK.format(module=module)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": ""},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""
