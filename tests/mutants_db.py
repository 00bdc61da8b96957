"""The test database of the services' mutation run (`make mutate`): tests/conftest.py
uses this `django_db_setup` in place of pytest-django's when KNOCK_MUTATION_DB is set.

mutmut runs each mutant's tests in a process forked from its own, and each of those
runs is a new pytest session: with the default in-memory test database, every mutant
would migrate a database of its own. Here the first session (mutmut's run that maps
tests to functions, before any fork) migrates one database file, the template; every
later session starts from a copy of it. Each process gets its own copy, because mutmut
runs two mutants at once and a transactional test empties the tables it used.
"""

import os
import shutil
from pathlib import Path

import pytest

#: Set by tests/mutants.py: where the template goes, inside the run's own folder.
TEMPLATE = "KNOCK_MUTATION_DB"


@pytest.fixture(scope="session")
def django_db_setup(django_db_blocker):
    from django.conf import settings
    from django.db import connections

    template = Path(os.environ[TEMPLATE])
    database = connections["default"]
    with django_db_blocker.unblock():
        if not template.exists():
            database.settings_dict["TEST"]["NAME"] = str(template)
            database.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
            database.close()
    copy = template.with_name(f"{template.stem}-{os.getpid()}{template.suffix}")
    shutil.copyfile(template, copy)
    settings.DATABASES["default"]["NAME"] = database.settings_dict["NAME"] = str(copy)
    database.close()
    yield
    database.close()
    for leftover in copy.parent.glob(copy.name + "*"):
        leftover.unlink()
