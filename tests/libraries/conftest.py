"""The real-library suite: collected only by `make test-libraries`, never by `make test`.

`make test` runs pytest over tests/ in the course's environment, which has no torch: there every file
of this folder is left out before it is imported (pytest_ignore_collect below). `make test-libraries`
runs `pytest -c tests/libraries/pytest.ini`, whose addopts pass --libraries, in .venv-libraries.
Every test here is marked `libraries`. At the end the suite prints what it verified: one row per
convention, with the library function, its version and the worst error (tests/libraries/_support.py).
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent

# Offline: the suite builds its tiny models from configs and downloads nothing.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")


def _enabled(config) -> bool:
    try:
        chosen = config.getoption("libraries")
    except ValueError:  # the option is not registered: the main suite's configuration
        chosen = False
    return bool(chosen) and importlib.util.find_spec("torch") is not None


def pytest_addoption(parser):
    parser.addoption(
        "--libraries",
        action="store_true",
        default=False,
        help="run tests/libraries (needs torch, transformers, diffusers, timm)",
    )


def pytest_ignore_collect(collection_path, config):
    if HERE in collection_path.parents and collection_path.suffix == ".py" and not _enabled(config):
        return True
    return None


def pytest_collection_modifyitems(config, items):
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.libraries)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not _enabled(config):
        return
    import _support

    for line in _support.table_lines():
        terminalreporter.write_line(line)
