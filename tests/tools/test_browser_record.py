"""The browser check's record (tools/browser_record.py): it names every change to what the check was
reached from, and nothing made on the machine."""

import json
import shutil
import subprocess

import pytest

from tools import browser_check, browser_record
from tools.paths import ROOT


def small_course(root):
    """A tree with one file in each kind of input, and files made on the machine beside them."""
    files = {
        "notebooks/01_a.ipynb": b"{}",
        "notebooks/figure.png": b"\x89PNG\r\n",
        "tools/deck_html.py": b"print('deck')\n",
        "pe_utils/encoding.py": b"x = 1\n",
        "README.md": b"# Course\n",
        "tests/course/test_browser.py": b"def test(): pass\n",
        # made on the machine: never part of the record
        "notebooks/.ipynb_checkpoints/01_a-checkpoint.ipynb": b"{}",
        "pe_utils/__pycache__/encoding.cpython-311.pyc": b"bytecode",
        "tools/npm_packages/node_modules/mathjax/tex.js": b"installed",
        "tools/npm_packages/.chromium/chrome": b"unpacked",
        "notebooks/.~01_a.ipynb": b"an editor's lock",
        # not an input at all
        "benchmarks/run.py": b"timing\n",
    }
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)


def test_the_record_hashes_the_inputs_and_nothing_made_on_the_machine(tmp_path):
    small_course(tmp_path)
    hashes = browser_record.input_hashes(tmp_path)
    assert list(hashes) == [
        "README.md",
        "notebooks/01_a.ipynb",
        "notebooks/figure.png",
        "pe_utils/encoding.py",
        "tests/course/test_browser.py",
        "tools/deck_html.py",
    ]
    assert all(len(value) == 64 for value in hashes.values())
    # A checkout that writes \r\n line endings agrees with one that writes \n.
    (tmp_path / "tools/deck_html.py").write_bytes(b"print('deck')\r\n")
    assert browser_record.input_hashes(tmp_path) == hashes


def test_every_change_to_an_input_is_named_and_nothing_else(tmp_path):
    small_course(tmp_path)
    record = tmp_path / "record.json"
    browser_record.write({"slides": 4}, root=tmp_path, record=record)
    assert json.loads(record.read_text())["checked"] == {"slides": 4}
    assert browser_record.differences(tmp_path, record) == []
    # Files made on the machine, and files outside the inputs, change nothing.
    (tmp_path / "pe_utils/__pycache__/encoding.cpython-311.pyc").write_bytes(b"recompiled")
    (tmp_path / "benchmarks/run.py").write_bytes(b"faster\n")
    (tmp_path / "notebooks/.ipynb_checkpoints/02_b-checkpoint.ipynb").write_bytes(b"{}")
    assert browser_record.differences(tmp_path, record) == []
    (tmp_path / "notebooks/01_a.ipynb").write_bytes(b'{"cells": []}')
    (tmp_path / "notebooks/02_b.ipynb").write_bytes(b"{}")
    (tmp_path / "pe_utils/encoding.py").unlink()
    assert browser_record.differences(tmp_path, record) == [
        "changed: notebooks/01_a.ipynb",
        "added: notebooks/02_b.ipynb",
        "removed: pe_utils/encoding.py",
    ]


def test_a_missing_or_broken_record_is_a_difference_not_a_crash(tmp_path):
    small_course(tmp_path)
    missing = browser_record.differences(tmp_path, tmp_path / "none.json")
    assert len(missing) == 1 and missing[0].startswith("no readable record of the browser check in none.json")
    for text in ("{not json", "[]", '{"inputs": []}', '{"checked": {}}'):
        (tmp_path / "record.json").write_text(text)
        found = browser_record.differences(tmp_path, tmp_path / "record.json")
        assert len(found) == 1 and found[0].startswith("no readable record"), (text, found)


def test_the_inputs_hold_every_file_the_check_and_the_builds_read():
    hashed = set(browser_record.input_hashes())
    # What the check's cache is keyed by (the checker, the builders, the pins), but what npm
    # installs from package-lock.json, which is an input itself.
    read = {path.relative_to(ROOT).as_posix() for path in browser_check.CHECKER_FILES}
    read.discard("tools/npm_packages/node_modules/.package-lock.json")
    assert "tools/npm_packages/package-lock.json" in read
    assert read <= hashed, read - hashed
    # Every notebook, the teacher's guide (a page of the site) and the README (its home page).
    course = {path.relative_to(ROOT).as_posix() for path in (ROOT / "notebooks").glob("*.ipynb")}
    assert course and course | {"notebooks/TEACHING.md", "README.md"} <= hashed
    assert browser_record.RECORD.relative_to(ROOT).as_posix() not in hashed  # not its own input


def test_no_tracked_input_is_taken_for_a_file_made_on_the_machine():
    # Every file git holds in INPUTS is hashed (none is hidden, say, and so left out).
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    command = ["git", "ls-files", "--", *browser_record.INPUTS]
    listed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True).stdout.split("\n")
    tracked = {name for name in listed if name and (ROOT / name).is_file()}
    hashed = set(browser_record.input_hashes())
    assert tracked and tracked <= hashed, tracked - hashed
