# Two commands: `make run` and `make test`. Everything installs into .venv.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed

.PHONY: install browser run test fuzz lint format bench load demo mutate mutate-smoke docs screenshots

$(INSTALLED): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet ".[dev]"
	touch $(INSTALLED)

install: $(INSTALLED)

demo: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo

# uvicorn (ASGI): one process serves the pages and their live streams; without
# Redis the streams are told of a change in that process's memory (live/streams.py).
# DEMO=off serves the site as it is, without the demo: on an empty database its
# first page leads to sign-up and a new club.
# PORT=8001 serves on another port; the links in its mails and the demo's printed
# links follow it, unless SITE_URL says otherwise.
DEMO ?= on
PORT ?= 8000
RUN_SITE_URL = $(or $(SITE_URL),http://127.0.0.1:$(PORT))
run: install
	$(PY) manage.py migrate --noinput
	$(if $(filter off,$(DEMO)),,SITE_URL=$(RUN_SITE_URL) $(PY) manage.py load_demo)
	SITE_URL=$(RUN_SITE_URL) $(PY) -m uvicorn config.asgi:application --host 127.0.0.1 --port $(PORT)

# The browser tests drive Debian's Chromium (never a downloaded browser). Without
# root or apt, they are skipped with a note, unless KNOCK_REQUIRE_BROWSER is set.
browser:
	@test -x /usr/bin/chromium || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
	  && (apt-get install -y -q chromium || (apt-get update -q && apt-get install -y -q chromium)) >/dev/null; } \
	  || echo "No /usr/bin/chromium: the browser tests will be skipped."

# The suite on TEST_WORKERS processes (pytest-xdist), in a random order whose seed the first lines print
# (PYTEST_ARGS=--randomly-seed=N replays one; -p no:randomly keeps the file order),
# ending with the ten slowest tests. A worker that runs out of tests takes some of
# another's (worksteal): with the plain share-out, the browser tests left at one
# worker's end ran on alone for minutes while the other two waited.
TEST_WORKERS ?= 3
test: install browser
	$(PY) -m pytest -n $(TEST_WORKERS) --dist worksteal --durations=10 $(PYTEST_ARGS)

# The API fuzzed for FUZZ_SECONDS from a new seed (the suite runs a bounded,
# seeded pass of the same test); a failing example is kept in .hypothesis/ and
# tried first from then on, in the suite too.
FUZZ_SECONDS ?= 600
fuzz: install
	FUZZ_SECONDS=$(FUZZ_SECONDS) $(PY) -m pytest -p no:randomly -rP $(PYTEST_ARGS) \
	  tests/scoring/api/test_schemathesis.py

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# The guides (docs/, Markdown read by Sphinx's MyST parser, the furo theme) as HTML in
# docs/_build/html; any warning fails it, a link to a missing page or section too.
DOCS_INSTALLED := $(VENV)/.docs-installed
$(DOCS_INSTALLED): pyproject.toml $(INSTALLED)
	$(PY) -m pip install --quiet ".[docs]"
	touch $(DOCS_INSTALLED)

docs: $(DOCS_INSTALLED)
	$(PY) -m sphinx -W --keep-going -n -q -b html docs docs/_build/html

# The pictures the guides show (docs/images/), taken by the browser test that checks
# their pages (tests/browser/test_pictures.py): the demo's pages on a phone and a
# desktop, by Debian's Chromium. In the suite the same test writes them elsewhere.
screenshots: install browser
	KNOCK_SCREENSHOTS=$(CURDIR)/docs/images KNOCK_REQUIRE_BROWSER=1 $(PY) -m pytest -q \
	  -p no:randomly -n 0 tests/browser/test_pictures.py

# The extras of the tools, installed once per change of pyproject.toml (each install
# builds the project again: about 20 s, three times a CI run before).
BENCH_INSTALLED := $(VENV)/.bench-installed
$(BENCH_INSTALLED): pyproject.toml $(INSTALLED)
	$(PY) -m pip install --quiet ".[bench]"
	touch $(BENCH_INSTALLED)

MUTATE_INSTALLED := $(VENV)/.mutate-installed
$(MUTATE_INSTALLED): pyproject.toml $(INSTALLED)
	$(PY) -m pip install --quiet ".[mutate]"
	touch $(MUTATE_INSTALLED)

bench: $(BENCH_INSTALLED)
	$(PY) -m benchmarks

# The championship load test (benchmarks/load.py), served as docker/compose.yaml
# does: gunicorn for the pages, gunicorn with uvicorn workers for the live streams
# (every phone and spectator holds one), a Celery worker and beat, PostgreSQL
# (127.0.0.1:5432, LOAD_DATABASE) and a Redis of its own, driven by locust; about
# twelve minutes. Prints the figures, how soon the streams are told, the faults and
# the data check. LOAD_TABLES=4 LOAD_STEPS=4 LOAD_SECONDS=6 ... for a small run (.ci/run);
# LOAD_GROUPS=2: two web and two live groups on ports of their own, behind Caddy.
load: $(BENCH_INSTALLED)
	$(PY) -m benchmarks.load

# Mutation testing (tests/mutants.py): the engine against its own tests, then the
# services that guard results against theirs, on a database migrated once. Slow:
# niced and on two workers. Prints the kill rate per module and every survivor;
# tests/mutants.md lists the equivalent ones. After adding tests for survivors,
# `.venv/bin/python -m tests.mutants retest PART` runs only those again.
mutate: $(MUTATE_INSTALLED)
	rm -rf mutants && mkdir mutants
	nice -n 19 $(PY) -m tests.mutants run engine
	nice -n 19 $(PY) -m tests.mutants run services
	nice -n 19 $(PY) -m tests.mutants report

# Whether the mutation tooling still works, in half a minute (for CI): a fifth of the
# mutants of one small engine module (tests/mutants.py's SMOKE, SMOKE_SHARE) against
# its own tests, afresh; prints their kill rate and fails when mutmut or the copy of
# the checkout fails, or below 95%.
mutate-smoke: $(MUTATE_INSTALLED)
	nice -n 19 $(PY) -m tests.mutants smoke
