import os

import pytest

from scoring.engine import melds

_tables_built_for = None


@pytest.fixture(autouse=True)
def evaluator_tables_built_under_the_mutant():
    """Under mutation testing (``make mutate``, which names the mutant in
    MUTANT_UNDER_TEST and forks one process per mutant from a process that has run
    the tests) the evaluator's lookup tables are built again, by the mutated code:
    otherwise they are the tables the unmutated code built, and a mutant in the code
    that builds them would never run. While mutmut maps which tests run which code
    ("stats"), every test builds them, so each test is seen to use that code.
    Elsewhere the tables are built once, as in production."""
    global _tables_built_for
    mutant = os.environ.get("MUTANT_UNDER_TEST")
    if mutant and (mutant == "stats" or mutant != _tables_built_for):
        melds._RUN_DEADWOOD[:] = [None] * len(melds._RUN_DEADWOOD)
        melds._DISCARD_GAIN[:] = [None] * len(melds._DISCARD_GAIN)
        melds._suit_runs_cached.cache_clear()
        _tables_built_for = mutant
