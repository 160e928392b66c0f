# The commands of the README: `make run`, `make test`, and `make check` for everyday work.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: run referee check test docs bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

## Install onered, show a game between two AI players, then start the web app.
run: $(BIN)/python
	$(BIN)/python -m pip install --quiet '.[web]'
	$(BIN)/onered play --p1 ai:pro --p2 ai:amateur --target 100 --seed 7
	$(BIN)/onered serve

## Judge the example game shipped in examples/ (the referee protocol).
referee: $(BIN)/python
	$(BIN)/python -m pip install --quiet .
	$(BIN)/onered referee --summary examples/century-break.jsonl

# The test tools, installed again only when pyproject.toml changes.
$(VENV)/.test-tools: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

## Everyday work: the quality gates and the fast tier of the tests (neither `slow` nor
## `browser`: no chromium, no Ray cluster, no long games); `make test` is the full run.
check: $(VENV)/.test-tools
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 2 -m "not slow and not browser"  # both cores; -q is in addopts

## Install the test tools and run the quality gates and the whole test suite (CI).
test: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || (apt-get update && apt-get install -y postgresql)  # the store's tests on a real PostgreSQL
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/python -m pytest -m "slow or not slow"  # every tier: slow and browser tests included
	$(MAKE) docs

## The API reference site from the docstrings (mkdocs + mkdocstrings), into build/site;
## --strict: a broken reference or link fails the build (make test runs it, so CI does).
docs: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[docs]'
	$(BIN)/mkdocs build --strict --quiet

bench: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	$(BIN)/python benchmarks/bench_referee.py
	$(BIN)/python benchmarks/bench_physics.py
	$(BIN)/python benchmarks/bench_players.py --games 20

clean:
	rm -rf $(VENV) build dist src/*.egg-info
