# GNU make. Needs only python3.11 (or python3) and make: everything else goes in .venv.
SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
STAMP := $(VENV)/.installed
BOOT_PYTHON := $(shell command -v python3.11 || command -v python3)
# Extra arguments for pytest, e.g. make pytest PYTEST_ARGS='-k healthz -x' (markers: PYTEST_MARK)
PYTEST_ARGS ?=

.PHONY: help install run hall stack load hall-night lint fmt contracts migrations-check typecheck pytest test bench mutation lock clean messages compilemessages wheel bundle

help:
	@echo "make run               install, migrate, load the demo night, serve on 127.0.0.1:8000"
	@echo "make hall              a real night from this laptop (fortyfives hall): the phones on the hall's Wi-Fi reach it (HALL_ARGS=--help)"
	@echo "make wheel             the installable package: dist/fortyfives-<version>-py3-none-any.whl (docs/install.md)"
	@echo "make bundle            the hall app as one file for this system (PyInstaller), smoke-tested: dist/fortyfives-<version>-<system>-<machine>"
	@echo "make stack             production stack here: gunicorn + Celery worker on PostgreSQL and Redis (STACK_ARGS=--help)"
	@echo "make load              load figures with locust: PostgreSQL + Redis, then SQLite (BENCHMARKS.md, Load)"
	@echo "make test              lint + contracts + migrations-check + typecheck + pytest"
	@echo "make bench             engine benchmarks (figures for BENCHMARKS.md; never a pass/fail on time)"
	@echo "make mutation          mutation testing of the engine's rules of a drive (mutmut; slow: docs/quality.md)"
	@echo "make install           create .venv and install requirements-dev.txt"
	@echo "make fmt               ruff format and ruff check --fix"
	@echo "make messages          find the strings to translate (locale/), then list what is untranslated or fuzzy"
	@echo "make lock              re-pin requirements*.txt from requirements*.in"
	@echo "make clean             remove .venv and caches"

install: $(STAMP) compilemessages

# The compiled catalogs (.mo) from the translations (.po), by scripts/messages.py with Babel
# (installed in .venv): pure Python, so a fresh machine (or the hall's Windows laptop) needs no
# GNU gettext; never committed.
MO := $(patsubst %.po,%.mo,$(wildcard locale/*/LC_MESSAGES/*.po))
compilemessages: $(MO)

locale/%.mo: locale/%.po $(STAMP)
	$(PY) scripts/messages.py compile $<

# After a merge brings new strings: makemessages (pages and Python, then the scripts) into
# locale/, then the entries still to translate or fuzzy (scripts/messages.py todo lists them).
messages: install
	$(PY) scripts/messages.py update || true

$(STAMP): requirements.txt requirements-dev.txt pyproject.toml
	@test -n "$(BOOT_PYTHON)" || { echo "python3.11 (or python3) is needed" >&2; exit 1; }
	test -x $(PY) || $(BOOT_PYTHON) -m venv $(VENV)
	$(PY) -m pip install --upgrade pip
	$(PY) -m pip install -r requirements-dev.txt
	# the project itself, editable: the `fortyfives` command (pyproject.toml) runs this checkout
	$(PY) -m pip install --no-deps -e .
	touch $(STAMP)

run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo
	$(PY) manage.py runserver 127.0.0.1:8000

# The hall's own server, as a hall runs it: `fortyfives hall` (fortyfives/hall.py), the hall's
# settings on SQLite in the user's data folder, served by granian on the laptop's address on the
# hall's network, e.g. make hall HALL_ARGS='--port 8045 --data-dir /media/usb/hall'
# A checkout whose hall served from hall-data/ before (make hall's folder up to version 0.1.0)
# keeps serving that folder: the club stays where it is.
HALL_ARGS ?=
HALL_OLD_FOLDER = $(if $(wildcard hall-data/db.sqlite3),--data-dir hall-data)
hall: install
	$(BIN)/fortyfives hall $(HALL_OLD_FOLDER) $(HALL_ARGS)

# The wheel a hall installs (docs/install.md: pipx install …whl): the packages with the
# templates, static files and compiled catalogs inside (pyproject.toml, hatch_build.py), built
# in pip's isolated environment (it fetches hatchling). tests/install/test_wheel.py installs it
# on each Python and runs the smoke test.
VERSION = $(shell sed -n 's/^__version__ = "\(.*\)"$$/\1/p' fortyfives/__init__.py)
WHEEL = dist/fortyfives-$(VERSION)-py3-none-any.whl
wheel:
	@test -n "$(BOOT_PYTHON)" || { echo "python3.11 (or python3) is needed" >&2; exit 1; }
	rm -f dist/fortyfives-*.whl
	$(BOOT_PYTHON) -m pip wheel --no-deps --quiet . -w dist

# The hall app as one file for the system it is built on (docs/install.md), for a laptop
# without Python: PyInstaller (packaging/fortyfives.spec) in a venv of its own
# (build/bundle-venv, never .venv) where the wheel is installed, then the smoke test of the
# wheel (tests/install/smoke.py: a night created, served, backed up, stopped, restored) run on
# the file built. BUNDLE_PYTHON: the Python put inside (python3.11 by default).
BUNDLE_PYTHON ?= $(BOOT_PYTHON)
PYINSTALLER ?= pyinstaller==6.22.3
BUNDLE_VENV := build/bundle-venv
BUNDLE = dist/fortyfives-$(VERSION)-$(shell uname -s | tr A-Z a-z)-$(shell uname -m)
bundle: wheel compilemessages
	test -x $(BUNDLE_VENV)/bin/python || $(BUNDLE_PYTHON) -m venv $(BUNDLE_VENV)
	$(BUNDLE_VENV)/bin/python -m pip install --quiet $(WHEEL) '$(PYINSTALLER)'
	# the same version number with other contents: this checkout's, not the last build's
	$(BUNDLE_VENV)/bin/python -m pip install --quiet --force-reinstall --no-deps $(WHEEL)
	$(BUNDLE_VENV)/bin/pyinstaller --noconfirm --log-level WARN --distpath dist \
		--workpath build/pyinstaller packaging/fortyfives.spec
	ls -l $(BUNDLE)
	$(BUNDLE_VENV)/bin/python tests/install/smoke.py $(BUNDLE)

# The production stack on this machine's PostgreSQL and Redis (docs/deploy.md), e.g.
# make stack STACK_ARGS='--port 8001 --demo'
STACK_ARGS ?=
stack: install
	$(PY) -m tools.stack $(STACK_ARGS)

# The load figures of BENCHMARKS.md ("Load"), played by locust (tools/locustfile.py): each
# run starts its own stack on a fresh database and stops it. LOAD_ARGS='--help' lists the
# options; the figures are kept in load-postgres.json and load-sqlite.json.
LOAD_ARGS ?=
load: install
	$(PY) -m tools.load figures --stack postgres --json load-postgres.json $(LOAD_ARGS)
	$(PY) -m tools.load figures --stack sqlite --json load-sqlite.json $(LOAD_ARGS)

# The hall's real load (BENCHMARKS.md, "A whole night's load"): every phone, desk and the
# projector on its page through a time-compressed night (on its event stream where the server
# tells pages of changes, else polling; LOAD_ARGS=--no-push: polling), on make hall's server,
# then on the stack.
hall-night: install
	$(PY) -m tools.load hall-night --stack hall --json hall-night-hall.json $(LOAD_ARGS)
	$(PY) -m tools.load hall-night --stack postgres --json hall-night-postgres.json $(LOAD_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

fmt: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

contracts: install
	$(BIN)/lint-imports

migrations-check: install
	$(PY) manage.py makemigrations --check --dry-run

typecheck: install
	$(BIN)/mypy

# pytest in two passes: first the tests that share the machine well, spread over its cores by
# pytest-xdist (each worker on its own test database: pytest-django names it test_<db>_gw<n>,
# or test-db.sqlite3_gw<n>), then the ``serial`` ones one at a time (tests/conftest.py: the
# browser and integration tests). PYTEST_MARK selects by marker in both passes (CI:
# PYTEST_MARK='not postgres and not redis'); PYTEST_WORKERS=0 runs the first pass in one
# process. pytest's exit 5 (nothing selected in that pass) is no failure.
PYTEST_WORKERS ?= auto
PYTEST_MARK ?=
AND_MARK = $(if $(PYTEST_MARK), and ($(PYTEST_MARK)))
pytest: install
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadfile -m "not serial$(AND_MARK)" $(PYTEST_ARGS) \
		|| [ $$? -eq 5 ]
	$(BIN)/pytest -p no:xdist -m "serial$(AND_MARK)" $(PYTEST_ARGS) || [ $$? -eq 5 ]

test: lint contracts migrations-check typecheck pytest

bench: install
	$(BIN)/pytest tests/benchmarks --benchmark-enable --benchmark-only
	$(PY) scripts/bench_engine.py
	$(PY) scripts/bench_night.py

# Mutation testing (docs/quality.md): mutmut changes the modules [tool.mutmut] names one mutant
# at a time in a copy (mutants/) and runs their tests against each; then the survivors are
# listed (`.venv/bin/mutmut show NAME` shows one). MUTATION_ARGS: e.g. '--max-children 4', or a
# glob of mutants such as 'engine.standings*'. Long: run it on a quiet machine.
MUTATION_ARGS ?= --max-children 2
mutation: install
	rm -rf mutants
	$(BIN)/mutmut run $(MUTATION_ARGS)
	$(BIN)/mutmut results

lock:
	scripts/lock-requirements.sh

clean:
	rm -rf $(VENV) .ruff_cache .mypy_cache .pytest_cache .hypothesis .benchmarks mutants
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
