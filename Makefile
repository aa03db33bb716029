# The two entry points: `make demo` runs a review on the built-in example,
# `make test` runs the checks CI runs. Both build .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint fuzz bench realmem report docs clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,mcp]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/mdmem demo

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest -q

fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=fuzz $(BIN)/python -m pytest -q tests -k property

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

# Every reading command on every state of the real memories in ../shared/realmem (or
# REALMEM="BUNDLE-OR-FOLDER ..."); exits 1 on a refusal or a crash.
realmem: $(STAMP)
	$(BIN)/python benchmarks/realmem.py --fail $(REALMEM)

# The demo memory's HTML report and a screenshot of it (needs Chromium), in build/.
report: $(STAMP)
	rm -rf build/demo
	mkdir -p build
	$(BIN)/mdmem demo --keep build/demo >/dev/null
	$(BIN)/mdmem report --root build/demo/memory --html build/report.html
	$(BIN)/python scripts/browser.py build/report.html build/report.png

# DECAY.md's and REVIEW.md's policy tables, from the code's defaults (tests/test_docs.py).
docs: $(STAMP)
	$(BIN)/python scripts/docs.py

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache
