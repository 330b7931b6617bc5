# The two set-up commands of the README. Each installs what it needs into .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: start test lint

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Install, then open the course in the terminal: the lesson list and how to begin.
start: $(STAMP)
	$(BIN)/linebyline lessons
	@echo "Next: .venv/bin/linebyline start 7.4   (then: .venv/bin/linebyline check 7.4 building_value.py)"

# Install, then run every test and the linters.
test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/linebyline lint
	$(BIN)/pytest
