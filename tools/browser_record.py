"""The browser check's verdict on the course, written down with the files it was reached from.

The browser check (``tools/browser_check.py``) opens every deck and site page in Chromium: about
45 CPU-seconds, more than all the other tests together but the notebooks. Its verdict depends only
on the course's files and pinned packages (the pages ship their fonts, Chromium and Node.js are
pinned: nothing of the machine's counts), so it is reached once per version of the course, not
once per test run:

- ``make check-slides`` runs the checker's own test, then the check of every deck and page
  (``tests/course/test_browser.py``, marked ``browser``); when both pass, ``write`` records the
  verdict in ``RECORD`` with a hash of every file in ``INPUTS``. Commit that file with the change.
- ``make test`` (and CI) compares: ``differences`` names every file in ``INPUTS`` that was added,
  removed or changed since the record was written, and the test fails until the check is run
  again. It never opens a browser, and it never trusts a verdict reached from other files.

``INPUTS`` holds more than the check reads (every file of ``pe_utils`` and ``tools``, for
instance): a change the pages cannot show costs one ``make check-slides``, in which the pages
that did not change are not reopened (its cache, ``_build/browser-check-cache.json``).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from tools.paths import ROOT

RECORD = ROOT / "tests" / "course" / "browser_check_record.json"
# Everything the decks, the site and the check are made from: the notebooks and what they link,
# the code that builds and checks them, the pins of every package (the npm packages, Chromium
# among them, are pinned in tools/npm_packages/package-lock.json), and the tests that decide.
INPUTS = (
    "notebooks",
    "pe_utils",
    "tools",
    "README.md",
    "pyproject.toml",
    "requirements.txt",
    "requirements-site.txt",
    "tests/course/test_browser.py",
    "tests/tools/test_browser_checker.py",
    "tests/tools/test_tools.py",
)
# Made on the machine, never committed: bytecode, installed packages, JupyterLab's checkpoints,
# and every hidden file or folder (the unpacked browser, editors' files).
MADE_HERE = ("__pycache__", "node_modules", ".ipynb_checkpoints")


def _is_input(relative: Path) -> bool:
    return not any(part in MADE_HERE or part.startswith(".") for part in relative.parts)


def input_hashes(root: Path = ROOT, inputs: tuple[str, ...] = INPUTS) -> dict[str, str]:
    """The SHA-256 of every file in ``inputs`` (folders walked), by its path relative to ``root``.

    Line endings are read as ``\\n``, so that a checkout that writes ``\\r\\n`` agrees. A missing
    input is left out (``differences`` then reports it as removed).
    """
    hashes = {}
    for name in inputs:
        start = root / name
        files = [start] if start.is_file() else sorted(path for path in start.rglob("*") if path.is_file())
        for path in files:
            relative = path.relative_to(root)
            if _is_input(relative):
                data = path.read_bytes().replace(b"\r\n", b"\n")
                hashes[relative.as_posix()] = hashlib.sha256(data).hexdigest()
    return dict(sorted(hashes.items()))


def write(checked: dict, root: Path = ROOT, record: Path = RECORD) -> None:
    """Record that the check passed on the files of ``root`` as they are now.

    ``checked`` says what was checked (counts, window size, browser): shown to the reader of the
    record, never compared.
    """
    content = {"checked": checked, "inputs": input_hashes(root)}
    record.write_text(json.dumps(content, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def differences(root: Path = ROOT, record: Path = RECORD) -> list[str]:
    """What changed in ``INPUTS`` since the record was written, one line per file (``[]``: none)."""
    try:
        recorded = json.loads(record.read_text(encoding="utf-8"))["inputs"]
        if not isinstance(recorded, dict):
            raise TypeError("inputs is not a mapping")
    except (OSError, ValueError, KeyError, TypeError) as error:
        return [f"no readable record of the browser check in {record.name} ({error})"]
    now = input_hashes(root)
    both = sorted(now.keys() & recorded.keys())
    lines = [f"changed: {name}" for name in both if now[name] != recorded[name]]
    lines += [f"added: {name}" for name in sorted(now.keys() - recorded.keys())]
    lines += [f"removed: {name}" for name in sorted(recorded.keys() - now.keys())]
    return lines
