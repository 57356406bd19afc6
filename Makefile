# gridarena: `make run` sets up and runs the main job; `make test` sets up and runs every check.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RUN_DIR ?= runs

.PHONY: run test lint typecheck pytest clean chromium

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,ray,web,rl]'
	touch $(STAMP)

run: $(STAMP)
	mkdir -p $(RUN_DIR)
	$(BIN)/gridarena tournament isolation --players 'alphabeta(depth=3)',greedy,random --games 20 --seed 7 --db $(RUN_DIR)/arena.sqlite --new
	@echo "open the viewer on these results: $(BIN)/gridarena serve --db $(RUN_DIR)/arena.sqlite --open"

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

# The browser tests drive Debian's chromium (Playwright's own browser download cannot work offline).
CHROMIUM ?= /usr/bin/chromium

chromium:
	@test -x $(CHROMIUM) || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

# The suite runs on $(PYTEST_WORKERS) pytest-xdist workers, except the tests marked `timing` (they check
# wall-clock deadlines and need the machine to themselves): those run afterwards, alone. A plain
# `pytest` (or `pytest -m slow`, or `pytest path/to/test.py`) still runs serially, timing tests included.
PYTEST_WORKERS ?= 2

pytest: $(STAMP) chromium
	$(BIN)/pytest -n $(PYTEST_WORKERS) -m 'not slow and not timing'
	$(BIN)/pytest -m 'timing and not slow'

test: lint typecheck pytest

clean:
	rm -rf $(VENV) $(RUN_DIR) .pytest_cache .mypy_cache .ruff_cache
