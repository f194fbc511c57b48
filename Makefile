# Every target creates .venv and installs what it needs, from nothing, on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium

.PHONY: demo test lint bench clean

$(STAMP): pyproject.toml setup.py
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	@echo "installing tribes and its tools into $(VENV) (the log: $(VENV)/install.log)"
	@$(BIN)/python -m pip install --upgrade pip > $(VENV)/install.log 2>&1 \
		&& $(BIN)/python -m pip install -e '.[test,dev,cluster]' >> $(VENV)/install.log 2>&1 \
		|| { cat $(VENV)/install.log; exit 1; }
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

test: $(STAMP) $(CHROMIUM)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy core events replay testing games cli
	$(BIN)/python -m pytest -n auto --dist loadgroup

lint: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: $(STAMP)
	$(BIN)/python bench/clans.py
	$(BIN)/python bench/iwari.py
	$(BIN)/python bench/hunters.py

clean:
	rm -rf $(VENV) build *.egg-info out
