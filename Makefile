# The two set-up commands of the README. Each installs what it needs first, then does its job.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PY_STAMP := $(VENV)/.installed
JS_STAMP := frontend/node_modules/.installed
BUILT := src/linebyline/web/static/linebyline/dist/app.js
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: start test build docs system-deps

# The Python and the browser code install and build side by side.
MAKEFLAGS += --jobs=2

$(PY_STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	# --no-compile: Python compiles what it imports when it first does, not all of every package
	$(BIN)/pip install --quiet --no-compile -e '.[dev]'
	touch $(PY_STAMP)

$(JS_STAMP): frontend/package.json frontend/package-lock.json
	cd frontend && npm ci --no-audit --no-fund --loglevel=error
	touch $(JS_STAMP)

$(BUILT): $(JS_STAMP) $(shell find frontend/src -type f) frontend/build.mjs frontend/compile-stdlib.mjs
	cd frontend && npm run --silent build

build: $(PY_STAMP) $(BUILT)

# Install, build the browser code, then serve the course at http://127.0.0.1:8000/
start: build
	$(BIN)/linebyline serve --host $(HOST) --port $(PORT)

# Serve the documentation (docs/, mkdocs.yml) at http://127.0.0.1:8001/, rebuilt on every edit;
# port 8001, so that it runs beside `make start`.
# Chromium, PostgreSQL and the rest the tests need from the system (apt-get when missing).
system-deps:
	scripts/system-deps.sh

docs: $(PY_STAMP)
	$(BIN)/mkdocs serve --dev-addr 127.0.0.1:8001

# Install (Chromium and PostgreSQL too, via apt-get), build, then run the linters, the strict
# documentation build (a broken link fails it; the site lands in .venv, not the repo), the type
# checker, the course lint and every test; the web tests run again on PostgreSQL (all but those
# marked same_on_every_database, which make no query: tests/web/conftest.py holds them to it).
# Tests run in parallel, one worker per core (pytest-xdist); TEST_WORKERS=0 runs them in one.
TEST_WORKERS ?= auto
PG_URL ?= postgres://linebyline:linebyline@127.0.0.1:5432/linebyline
test: build system-deps
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir $(VENV)/site
	cd frontend && npx tsc --noEmit
	cd frontend && npx depcruise src --config .dependency-cruiser.cjs
	$(BIN)/linebyline lint --strict --require-full-coverage
	$(BIN)/pytest -n $(TEST_WORKERS) --dist worksteal --durations=15
	LINEBYLINE_DATABASE_URL=$(PG_URL) $(BIN)/pytest -n $(TEST_WORKERS) --dist worksteal tests/web \
		-m "not same_on_every_database"
