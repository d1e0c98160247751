# GNU make. Needs only python3.11 (or python3) and make: everything else goes in .venv.
SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
STAMP := $(VENV)/.installed
BOOT_PYTHON := $(shell command -v python3.11 || command -v python3)
# Extra arguments for pytest, e.g. make pytest PYTEST_ARGS='-k healthz -x'
PYTEST_ARGS ?=

.PHONY: help install run hall stack load hall-night lint fmt contracts migrations-check typecheck pytest test bench lock clean

help:
	@echo "make run               install, migrate, load the demo night, serve on 127.0.0.1:8000"
	@echo "make hall              a real night from this laptop: the phones on the hall's Wi-Fi reach it (HALL_ARGS=--help)"
	@echo "make stack             production stack here: gunicorn + Celery worker on PostgreSQL and Redis (STACK_ARGS=--help)"
	@echo "make load              load figures with locust: PostgreSQL + Redis, then SQLite (BENCHMARKS.md, Load)"
	@echo "make test              lint + contracts + migrations-check + typecheck + pytest"
	@echo "make bench             engine benchmarks (figures for BENCHMARKS.md; never a pass/fail on time)"
	@echo "make install           create .venv and install requirements-dev.txt"
	@echo "make fmt               ruff format and ruff check --fix"
	@echo "make lock              re-pin requirements*.txt from requirements*.in"
	@echo "make clean             remove .venv and caches"

install: $(STAMP)

$(STAMP): requirements.txt requirements-dev.txt
	@test -n "$(BOOT_PYTHON)" || { echo "python3.11 (or python3) is needed" >&2; exit 1; }
	test -x $(PY) || $(BOOT_PYTHON) -m venv $(VENV)
	$(PY) -m pip install --upgrade pip
	$(PY) -m pip install -r requirements-dev.txt
	touch $(STAMP)

run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo
	$(PY) manage.py runserver 127.0.0.1:8000

# The hall's own server (tools/hall.py): production settings on SQLite in hall-data/, served by
# waitress on the laptop's address on the hall's network, e.g. make hall HALL_ARGS='--port 8045'
HALL_ARGS ?=
hall: install
	$(PY) -m tools.hall $(HALL_ARGS)

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
# projector polling through a time-compressed night, on make hall's server, then on the stack.
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

pytest: install
	$(BIN)/pytest $(PYTEST_ARGS)

test: lint contracts migrations-check typecheck pytest

bench: install
	$(BIN)/pytest tests/benchmarks --benchmark-enable --benchmark-only
	$(PY) scripts/bench_engine.py
	$(PY) scripts/bench_night.py

lock:
	scripts/lock-requirements.sh

clean:
	rm -rf $(VENV) .ruff_cache .mypy_cache .pytest_cache .hypothesis .benchmarks
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
