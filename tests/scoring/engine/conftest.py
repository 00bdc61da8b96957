import os

import pytest

from scoring.engine import melds


@pytest.fixture(autouse=True)
def evaluator_tables_built_by_each_test():
    """Under mutation testing (``make mutate``, which names the mutant in
    MUTANT_UNDER_TEST) each test builds the evaluator's lookup tables itself:
    otherwise they are the ones an earlier test built, with the unmutated code, and
    a mutant in the code that builds them would never run. Elsewhere the tables are
    built once, as in production."""
    if os.environ.get("MUTANT_UNDER_TEST"):
        melds._RUN_DEADWOOD[:] = [None] * len(melds._RUN_DEADWOOD)
        melds._DISCARD_GAIN[:] = [None] * len(melds._DISCARD_GAIN)
        melds._suit_runs_cached.cache_clear()
