"""The browser check's verdict on the course, written down with the files it was reached from.

The browser check (``tools/browser_check.py``) opens every deck and site page in Chromium: about
45 CPU-seconds, as much as all the unit, tool and course tests together. Its verdict depends only
on the course's files and pinned packages (the pages ship their fonts, Chromium and Node.js are
pinned: nothing of the machine's counts), so it is reached once per version of the course, not
once per test run:

- ``make check-slides`` runs the checker's and the explorers' browser tests, then the check of
  every deck and page (``tests/course/test_browser.py``; all marked ``browser``). The check hashes
  ``INPUTS`` before it starts and again when it is done (a file saved meanwhile fails it); when the
  whole session has passed, these three tests among it, ``tests/conftest.py`` calls ``write`` with
  the hashes taken first. Commit ``RECORD`` with the change.
- ``make test`` (and CI) compares: ``differences`` names every file of ``INPUTS`` added, removed or
  changed since, and refuses a record whose digest does not match its hashes (edited by hand, or
  merged from two branches that each re-recorded: two verdicts never make a third). It never
  opens a browser.

``INPUTS`` holds more than the pages are made of (all of ``pe_utils``, whose mathematics changes
no page until outputs are stored again, for instance): such a change costs one ``make
check-slides``, in which the decks and pages that did not change are not reopened.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

from tools.paths import ROOT

RECORD = ROOT / "tests" / "course" / "browser_check_record.json"
# Everything the decks, the site and the check are made from, or decided by: the notebooks and
# what they link, the code that builds and checks them, the pins of every package (the npm
# packages, Chromium among them, are pinned in tools/npm_packages/package-lock.json), the Makefile
# that runs the check, and the tests that decide and record it.
INPUTS = (
    "notebooks",
    "pe_utils",
    "tools",
    "README.md",
    "Makefile",
    "pyproject.toml",
    "requirements.txt",
    "requirements-site.txt",
    "tests/__init__.py",
    "tests/conftest.py",
    "tests/course/__init__.py",
    "tests/course/test_browser.py",
    "tests/notebook_helpers/__init__.py",
    "tests/notebook_helpers/test_explorers.py",
    "tests/tools/__init__.py",
    "tests/tools/test_browser_checker.py",
    "tests/tools/test_tools.py",
)
# Made on the machine, never committed: bytecode, installed packages, JupyterLab's checkpoints,
# and, outside notebooks/, every hidden file or folder (the unpacked browser, editors' files).
MADE_HERE = ("__pycache__", "node_modules", ".ipynb_checkpoints")


def _is_input(relative: Path) -> bool:
    if relative.parts[0] == "notebooks":  # the site copies every file there but checkpoints
        return ".ipynb_checkpoints" not in relative.parts  # (tools/site/build.py, ``stage``)
    return not any(part in MADE_HERE or part.startswith(".") for part in relative.parts)


def _content(path: Path) -> bytes:
    """A file's bytes, a text file's with ``\\r\\n`` read as ``\\n`` (a Windows checkout agrees)."""
    data = path.read_bytes()
    return data if b"\0" in data else data.replace(b"\r\n", b"\n")


def input_hashes(root: Path = ROOT, inputs: tuple[str, ...] = INPUTS) -> dict[str, str]:
    """The SHA-256 of every file in ``inputs`` (folders walked), by its path relative to ``root``.

    A missing input is left out (``differences`` then reports it as removed).
    """
    hashes = {}
    for name in inputs:
        start = root / name
        files = [start] if start.is_file() else sorted(path for path in start.rglob("*") if path.is_file())
        for path in files:
            relative = path.relative_to(root)
            if _is_input(relative):
                hashes[relative.as_posix()] = hashlib.sha256(_content(path)).hexdigest()
    return dict(sorted(hashes.items()))


def digest(hashes: dict[str, str]) -> str:
    """One hash of all the hashes: what a record's ``digest`` must be."""
    return hashlib.sha256(json.dumps(hashes, sort_keys=True).encode()).hexdigest()


def untracked(names: list[str], root: Path = ROOT) -> list[str]:
    """Those of ``names`` git does not track (``[]`` outside a git checkout): a fresh clone lacks them."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--", *INPUTS], cwd=root, capture_output=True, text=True, check=True
        ).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        return []
    return sorted(set(names) - set(listed))


def write(checked: dict, hashes: dict[str, str], record: Path = RECORD) -> None:
    """Record that the check passed on the files whose ``hashes`` it took before it began.

    ``checked`` says what was checked (counts, window, browser, how many results came from the
    cache): shown to the reader of the record, never compared. Only ``tests/conftest.py`` calls
    this, after a ``make check-slides`` session in which everything passed.
    """
    content = {"checked": checked, "digest": digest(hashes), "inputs": hashes}
    record.write_text(json.dumps(content, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def differences(root: Path = ROOT, record: Path = RECORD) -> list[str]:
    """What keeps the record from holding for the files as they are, a line each (``[]``: it holds)."""
    try:
        content = json.loads(record.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return [f"there is no record: {record.name} is missing"]
    except (OSError, ValueError) as error:
        return [f"the record cannot be read ({error})"]
    recorded = content.get("inputs") if isinstance(content, dict) else None
    if not isinstance(recorded, dict) or not all(isinstance(value, str) for value in recorded.values()):
        return ["the record cannot be read (no mapping of files to hashes under 'inputs')"]
    if content.get("digest") != digest(recorded):
        return ["the record's digest does not match its hashes: it was edited, or merged from two records"]
    now = input_hashes(root)
    both = sorted(now.keys() & recorded.keys())
    lines = [f"changed: {name}" for name in both if now[name] != recorded[name]]
    lines += [f"added: {name}" for name in sorted(now.keys() - recorded.keys())]
    lines += [f"removed: {name}" for name in sorted(recorded.keys() - now.keys())]
    return lines
