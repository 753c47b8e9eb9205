"""Shared test setup: a headless plotting backend, hypothesis settings, the order of the files, and the
writing of the browser check's record."""

import os
import sys
from pathlib import Path

# One BLAS thread per process. `make test` runs a worker more than the cores, each with its notebook
# kernels; OpenBLAS's default (a thread per core, spinning while it waits) made the workers fight
# over the cores, and an SVD test took 20 s instead of 0.3 s. Set before NumPy is imported here,
# so that the xdist workers and the notebook kernels inherit it; a value you set yourself wins.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import matplotlib  # noqa: E402
import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

from tools.paths import ROOT  # noqa: E402

matplotlib.use("Agg")  # this process only; notebook kernels draw inline

# Deterministic example generation keeps CI reproducible; "thorough" explores more.
settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", max_examples=1000, deadline=None)
settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt = sys.modules.get("matplotlib.pyplot")  # not imported: no figure to close (and no import)
    if plt is not None:
        plt.close("all")


# ---- Which file starts first ------------------------------------------------------------------
# `make test` runs pytest-xdist with --dist loadfile: each file goes whole to one of the workers,
# and a worker is handed the next file when two of its tests are left. Files start in the order
# below: first the files that mostly wait (on kernels, a JupyterLab server, Node.js or a browser
# starting), whose gaps the other workers fill; then the notebooks (last first: they grow
# heavier), then the other files, largest first, which fill the gaps at the end, so that the
# workers finish close together. (By default xdist sends the files with the most tests first;
# pytest_configure turns that off.) `make check-slides` (no xdist) runs the checker's and the
# explorers' browser tests before the check of the course (tests/course/test_browser.py): they
# come first here too.
# Files whose tests start kernels, a JupyterLab server, Node.js or a browser: slow for a reason
# their size does not show, and mostly waiting.
PROCESS_FILES = (
    "test_browser_checker.py",
    "test_explorers.py",
    "test_jupyterlab.py",
    "test_sweep_seeds.py",
    "test_run_notebooks.py",
    "test_markdown.py",
)


def file_rank(path: Path) -> tuple[int, float]:
    """Sort key of a test file: the files that start processes, the notebooks (last first), then
    the other test files, largest first."""
    if path.name in PROCESS_FILES:
        return (1, float(PROCESS_FILES.index(path.name)))
    if path.suffix == ".ipynb":
        return (2, -float(path.name[:2]) if path.name[:2].isdigit() else 0.0)
    return (3, -float(path.stat().st_size))


def pytest_configure(config):
    if hasattr(config.option, "loadscopereorder"):  # pytest-xdist is loaded
        config.option.loadscopereorder = False  # keep the order of pytest_collection_modifyitems


def pytest_collection_modifyitems(session, config, items):
    items.sort(key=lambda item: file_rank(item.path))  # stable: a file's tests keep their order


# ---- The browser check's record ---------------------------------------------------------------
# `make check-slides` runs the checker's own browser test, the explorers', then the check of the
# course, which hands its verdict in (the fixture below). The record is written when the session
# is over, and only if every test of the session passed, these three among them: run alone, or
# after a failure, the check of the course records nothing (tools/browser_record.py).
RECORDING_TESTS = (
    "tests/tools/test_browser_checker.py::test_the_check_finds_each_fault_and_leaves_no_browser",
    "tests/notebook_helpers/test_explorers.py::test_every_explorer_draws_and_redraws_in_a_real_browser",
    "tests/course/test_browser.py::test_every_deck_and_site_page_of_the_course_passes_the_browser_check",
)
_passed: set[str] = set()
_verdict: dict = {}


@pytest.fixture
def browser_verdict() -> dict:
    """Where the check of the course hands in ``hashes`` (taken before it began) and ``checked``."""
    return _verdict


def pytest_runtest_logreport(report):
    if report.when == "call" and report.passed:
        _passed.add(report.nodeid)


def record_decision(verdict: dict, passed: set[str], exitstatus: int) -> str | None:
    """Why no record is written (``None``: write it): a check handed in, everything passed."""
    if not verdict:
        return "no verdict was handed in"
    if exitstatus != 0:
        return "a test of the session failed or was interrupted"
    missing = [test.split("::")[-1] for test in RECORDING_TESTS if test not in passed]
    return f"not run or not passed in this session: {', '.join(missing)}" if missing else None


def pytest_sessionfinish(session, exitstatus):
    if not _verdict:
        return
    from tools import browser_record

    terminal = session.config.pluginmanager.get_plugin("terminalreporter")
    say = terminal.write_line if terminal else print
    why_not = record_decision(_verdict, _passed, int(exitstatus))
    if why_not:
        say(f"\nThe browser check's record was not written: {why_not}.")
        return
    browser_record.write(_verdict["checked"], _verdict["hashes"])
    say(f"\nWrote {browser_record.RECORD.relative_to(ROOT)} ({len(_verdict['hashes'])} files): commit it.")
    strays = browser_record.untracked(list(_verdict["hashes"]))
    if strays:
        say(f"It holds files git does not track (a fresh clone lacks them): {strays[:10]}")
