# Two commands do all the set-up: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck clean bench

# sunfish, the opponent of benchmarks/chess_match.py, goes in without its dependencies: it
# pins chess==1.9.4, which the chess extra cannot share (see pyproject.toml).
# tests/plugin is plies' test plug-in (a game, an algorithm and a command by entry point),
# installed beside plies so that the tests see plug-ins as users install them.
$(STAMP): pyproject.toml tests/plugin/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	$(BIN)/pip install --quiet -e tests/plugin
	$(BIN)/pip install --quiet --no-deps 'sunfish==2026.1'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/plies demo

test: $(STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/mypy src
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check src tests

typecheck: $(STAMP)
	$(BIN)/mypy src

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache

# The side-by-side benchmark (benchmarks/README.md); not part of `make test`.
# Pass options with BENCH_ARGS, e.g. `make bench BENCH_ARGS=--quick`; the web app's load
# benchmark (benchmarks/web_load.py, in the project's venv) takes WEB_BENCH_ARGS and the
# GGP player's (benchmarks/ggp_load.py) GGP_BENCH_ARGS.
BENCH_VENV := benchmarks/.venv

$(BENCH_VENV)/.installed: benchmarks/setup_env.sh pyproject.toml
	PYTHON=$(PYTHON) bash benchmarks/setup_env.sh

bench: $(BENCH_VENV)/.installed $(STAMP)
	$(BENCH_VENV)/bin/python benchmarks/run.py $(BENCH_ARGS)
	$(BIN)/python benchmarks/web_load.py $(WEB_BENCH_ARGS)
	$(BIN)/python benchmarks/ggp_load.py $(GGP_BENCH_ARGS)
