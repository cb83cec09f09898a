# Two commands do all the set-up: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.test-installed

.PHONY: run test lint typecheck docs smoke clean bench

# `make run` installs plies alone (its only dependency is Rich: the demo needs no extra);
# `make test` adds every extra and the test and docs tools (the PEP 735 groups of
# pyproject.toml), the test plug-in and sunfish.
# sunfish, the opponent of benchmarks/chess_match.py, goes in without its dependencies: it
# pins chess==1.9.4, which the chess extra cannot share (see pyproject.toml).
# tests/plugin is plies' test plug-in (a game, an algorithm and a command by entry point),
# installed beside plies so that the tests see plug-ins as users install them.
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $(STAMP)

$(TEST_STAMP): pyproject.toml tests/plugin/pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[all]' --group test --group docs
	$(BIN)/pip install --quiet -e tests/plugin
	$(BIN)/pip install --quiet --no-deps 'sunfish==2026.1'
	touch $(TEST_STAMP) $(STAMP)

run: $(STAMP)
	$(BIN)/plies demo

test: $(TEST_STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/mypy src
	$(BIN)/python -m pytest -q

lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests

typecheck: $(TEST_STAMP)
	$(BIN)/mypy src

# The documentation site, into build/docs/ (index.html at its root): warnings are errors,
# and nitpicky mode fails on a reference that resolves to nothing.
docs: $(TEST_STAMP)
	$(BIN)/sphinx-build -q -W --keep-going -n -b html docs build/docs

# The sdist and the wheel, built and installed bare (no extra) in a fresh environment,
# then the commands a new user types first (.ci/smoke).
smoke: $(TEST_STAMP)
	PYTHON=$(PYTHON) BUILD=$(BIN)/python bash .ci/smoke

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache

# The side-by-side benchmark (benchmarks/README.md); not part of `make test`.
# Pass options with BENCH_ARGS, e.g. `make bench BENCH_ARGS=--quick`; the web app's load
# benchmark (benchmarks/web_load.py, in the project's venv) takes WEB_BENCH_ARGS and the
# GGP player's (benchmarks/ggp_load.py) GGP_BENCH_ARGS.
BENCH_VENV := benchmarks/.venv

$(BENCH_VENV)/.installed: benchmarks/setup_env.sh pyproject.toml
	PYTHON=$(PYTHON) bash benchmarks/setup_env.sh

bench: $(BENCH_VENV)/.installed $(TEST_STAMP)
	$(BENCH_VENV)/bin/python benchmarks/run.py $(BENCH_ARGS)
	$(BIN)/python benchmarks/web_load.py $(WEB_BENCH_ARGS)
	$(BIN)/python benchmarks/ggp_load.py $(GGP_BENCH_ARGS)
