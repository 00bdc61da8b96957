# Two commands: `make run` and `make test`. Everything installs into .venv.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed

.PHONY: install run test lint format bench demo

$(INSTALLED): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet ".[dev]"
	touch $(INSTALLED)

install: $(INSTALLED)

demo: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo

run: demo
	$(PY) manage.py runserver 127.0.0.1:8000

test: install
	$(PY) -m pytest $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: install
	$(PY) -m pip install --quiet ".[bench]"
	$(PY) -m benchmarks
