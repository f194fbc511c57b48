# Every target creates .venv and installs what it needs, from nothing, on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	@echo "installing tribes and its tools into $(VENV) (the log: $(VENV)/install.log)"
	@$(BIN)/python -m pip install --upgrade pip > $(VENV)/install.log 2>&1 \
		&& $(BIN)/python -m pip install -e '.[test,dev,cluster]' >> $(VENV)/install.log 2>&1 \
		|| { cat $(VENV)/install.log; exit 1; }
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/tribes demo

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy core events replay testing
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: $(STAMP)
	$(BIN)/python bench/clans.py
	$(BIN)/python bench/iwari.py
	$(BIN)/python bench/hunters.py

clean:
	rm -rf $(VENV) build *.egg-info out
