# Every target creates .venv and installs what it needs, from nothing, on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium

.PHONY: demo check test lint bench clean compiled test-compiled

# Python compiles each module once and keeps its bytecode (__pycache__/, ignored by git), even where
# the environment says not to (PYTHONDONTWRITEBYTECODE): the test suite starts hundreds of Python
# processes (tribes, pytest, pip), and each would compile every module of tribes again.
unexport PYTHONDONTWRITEBYTECODE

# The example game (examples/dice) is a distribution of its own, installed with tribes (one pip
# run: one resolution): a plugin (entry point tribes.games) that the tests run the conformance kit on.
$(STAMP): pyproject.toml setup.py examples/dice/pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	@echo "installing tribes and its tools into $(VENV) (the log: $(VENV)/install.log)"
	@$(BIN)/python -m pip install --upgrade pip > $(VENV)/install.log 2>&1 \
		&& $(BIN)/python -m pip install -e '.[test,dev,cluster]' -e examples/dice \
			>> $(VENV)/install.log 2>&1 \
		|| { cat $(VENV)/install.log; exit 1; }
	@$(LINKS)
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/tribes demo

# The browser tests drive Debian's chromium (Playwright cannot download its own browser here).
$(CHROMIUM):
	@if command -v apt-get >/dev/null; then \
		echo "installing Debian's chromium for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	else \
		echo "no apt-get: install chromium yourself, or the browser tests skip (outside CI)"; \
	fi

# mypy names a module by its folders, and tribes' folders are not named as its packages (tribes.core
# is core/; the editable install maps them with an import hook mypy cannot follow, and mypy has no
# option to map a package to a folder): this tree of links named as the packages, made with the
# install and checked at every make check (a new top-level package gets its link), lets it resolve
# every "from tribes.… import". pyproject.toml's [tool.mypy] reads it: .venv/bin/mypy alone checks
# the whole tree, strictly.
TYPING := $(VENV)/typing/tribes
LINKS = mkdir -p $(TYPING) && for d in $(patsubst %/__init__.py,%,$(wildcard */__init__.py)); do \
	ln -sfn ../../../$$d $(TYPING)/$$d; done

# Lint and types over the whole tree: what a contributor runs before a commit (the one command).
check: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	@$(LINKS)
	$(BIN)/mypy

test: check $(CHROMIUM)
	$(BIN)/python -m pytest -n auto --dist loadgroup

# The optional compiled build (setup.py: TRIBES_COMPILE=1 compiles its COMPILED modules with mypyc,
# which needs a C compiler): a wheel built with .venv's mypy, installed with the test tools and the
# example game into an environment of its own, .venv/compiled (its tribes: .venv/compiled/bin/tribes).
# Built again at every run, so that it is never older than the source. Pure Python stays the
# reference: make test-compiled runs tests/test_compiled.py there (seeded games played by the
# compiled modules and by their sources, the corpora compared byte for byte) and the tests of the
# games, the conformance kit, the playthroughs and the properties, on the compiled modules.
COMPILED := $(VENV)/compiled

compiled: $(STAMP)
	@echo "building the compiled build into $(COMPILED) (the log: $(COMPILED).log)"
	@rm -rf build/wheels build/lib.* && TRIBES_COMPILE=1 $(BIN)/python -m pip wheel --no-deps \
			--no-build-isolation --wheel-dir build/wheels . > $(COMPILED).log 2>&1 \
		&& { test -d $(COMPILED) || $(PYTHON) -m venv $(COMPILED); } \
		&& $(COMPILED)/bin/python -m pip uninstall --yes tribes >> $(COMPILED).log 2>&1 \
		&& $(COMPILED)/bin/python -m pip install "$$(echo build/wheels/tribes-*.whl)[test]" \
			examples/dice >> $(COMPILED).log 2>&1 \
		|| { cat $(COMPILED).log; exit 1; }

test-compiled: compiled
	$(COMPILED)/bin/python -m pytest -n auto --dist loadgroup tests/test_compiled.py tests/games \
		tests/conformance tests/test_playthroughs.py tests/core/test_property_prng.py \
		tests/logs/test_property_annotations.py tests/logs/test_property_corruption.py \
		tests/logs/test_property_random_games.py

lint: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: $(STAMP)
	$(BIN)/python bench/clans.py
	$(BIN)/python bench/iwari.py
	$(BIN)/python bench/hunters.py

clean:
	rm -rf $(VENV) build *.egg-info out
