# The course's commands. Start with `make lab` (learn) or `make test` (check everything).
# Every target sets up .venv first; it re-installs only when requirements.txt or
# pyproject.toml change. Nothing is installed or registered outside this folder.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# pytest-xdist workers; each notebook stays on one worker (--dist loadfile).
JOBS   ?= 2

# Figures must be drawn by the notebooks' inline backend.
unexport MPLBACKEND

.PHONY: help setup lab test lint outputs environment clean

help:
	@echo "make lab          set up, then open the course in JupyterLab"
	@echo "make test         set up, then lint and run every test (unit tests + nbval over all notebooks)"
	@echo "make outputs      re-run notebooks in a fresh kernel and store their outputs (NB=path to pick one)"
	@echo "make bench        measure builders, notebooks and the test command; print ratios"
	@echo "make environment  rewrite environment.yml from requirements.txt"
	@echo "make clean        remove .venv and build leftovers"

setup: $(STAMP)

$(STAMP): requirements.txt pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	@touch $(STAMP)

lab: $(STAMP)
	$(BIN)/jupyter lab --ServerApp.root_dir=notebooks --allow-root $(LAB_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .

test: lint
	$(BIN)/python -m pytest -n $(JOBS) --dist loadfile

outputs: $(STAMP)
	$(BIN)/python tools/run_notebooks.py $(NB)

environment: $(STAMP)
	$(BIN)/python tools/requirements_files.py

clean:
	rm -rf $(VENV) build *.egg-info

# ---- Performance (benchmarks/) ----
.PHONY: bench
bench: $(STAMP)
	$(BIN)/python benchmarks/run.py
