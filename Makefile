# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: run test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

## Install onered and judge the example game shipped in examples/.
run: $(BIN)/python
	$(BIN)/python -m pip install --quiet .
	$(BIN)/onered referee --summary examples/century-break.jsonl

## Install the test tools and run the quality gates and the whole test suite.
test: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/python -m pytest

bench: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	$(BIN)/python benchmarks/bench_referee.py

clean:
	rm -rf $(VENV) build src/*.egg-info
