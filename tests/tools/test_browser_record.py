"""The browser check's record (tools/browser_record.py, written by tests/conftest.py): it names every
change to what the check was reached from, refuses a record edited or merged, and is written only
after a session in which the check and the browser tests of the checker and the explorers passed."""

import json
import shutil
import subprocess
import sys

import pytest

from tests import conftest
from tools import browser_check, browser_record
from tools.paths import ROOT


def small_course(root):
    """A tree with one file in each kind of input, and files made on the machine beside them."""
    files = {
        "notebooks/01_a.ipynb": b"{}",
        "notebooks/figure.png": b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
        "notebooks/.hidden.css": b"p {}\n",  # the site copies it: an input
        "tools/deck_html.py": b"print('deck')\n",
        "pe_utils/encoding.py": b"x = 1\n",
        "README.md": b"# Course\n",
        "tests/course/test_browser.py": b"def test(): pass\n",
        # made on the machine: never part of the record
        "notebooks/.ipynb_checkpoints/01_a-checkpoint.ipynb": b"{}",
        "pe_utils/__pycache__/encoding.cpython-311.pyc": b"bytecode",
        "tools/npm_packages/node_modules/mathjax/tex.js": b"installed",
        "tools/npm_packages/.chromium/chrome": b"unpacked",
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
        "notebooks/.hidden.css",
        "notebooks/01_a.ipynb",
        "notebooks/figure.png",
        "pe_utils/encoding.py",
        "tests/course/test_browser.py",
        "tools/deck_html.py",
    ]
    assert all(len(value) == 64 for value in hashes.values())
    # A checkout that writes \r\n line endings agrees with one that writes \n, for text files.
    (tmp_path / "tools/deck_html.py").write_bytes(b"print('deck')\r\n")
    assert browser_record.input_hashes(tmp_path) == hashes
    # A binary file's bytes are its bytes: a PNG whose \r\n became \n is a changed file.
    (tmp_path / "notebooks/figure.png").write_bytes(b"\x89PNG\n\x1a\n\0\0\0\rIHDR")
    assert browser_record.input_hashes(tmp_path)["notebooks/figure.png"] != hashes["notebooks/figure.png"]


def test_every_change_to_an_input_is_named_and_nothing_else(tmp_path):
    small_course(tmp_path)
    record = tmp_path / "record.json"
    browser_record.write({"slides": 4}, browser_record.input_hashes(tmp_path), record)
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


def test_a_record_edited_or_merged_from_two_holds_for_nothing(tmp_path):
    # Branch A re-recorded after changing a tool, branch B after changing a notebook: git would
    # take each side's line, giving hashes no check ever saw together. The digest refuses them.
    small_course(tmp_path)
    record = tmp_path / "record.json"
    browser_record.write({}, browser_record.input_hashes(tmp_path), record)
    content = json.loads(record.read_text())
    (tmp_path / "tools/deck_html.py").write_bytes(b"print('deck, branch A')\n")
    (tmp_path / "notebooks/01_a.ipynb").write_bytes(b'{"branch": "B"}')
    merged = browser_record.input_hashes(tmp_path)
    record.write_text(json.dumps({**content, "inputs": merged}))  # the inputs merged, the digest of one side
    found = browser_record.differences(tmp_path, record)
    assert len(found) == 1 and "digest does not match" in found[0], found
    # What a full pass writes holds.
    browser_record.write({}, merged, record)
    assert browser_record.differences(tmp_path, record) == []


def test_a_missing_or_broken_record_is_a_difference_not_a_crash(tmp_path):
    small_course(tmp_path)
    assert browser_record.differences(tmp_path, tmp_path / "none.json") == [
        "there is no record: none.json is missing"
    ]
    for text in ("{not json", "[]", '{"inputs": []}', '{"checked": {}}', '{"inputs": {"README.md": 1}}'):
        (tmp_path / "record.json").write_text(text)
        found = browser_record.differences(tmp_path, tmp_path / "record.json")
        assert len(found) == 1 and found[0].startswith("the record cannot be read"), (text, found)
    # An empty record with its digest holds for no file: every input is named as added.
    browser_record.write({}, {}, tmp_path / "record.json")
    found = browser_record.differences(tmp_path, tmp_path / "record.json")
    assert found == [f"added: {name}" for name in browser_record.input_hashes(tmp_path)]


def test_the_inputs_hold_every_file_the_check_and_the_builds_read():
    hashed = set(browser_record.input_hashes())
    # What the check's cache is keyed by (the checker, the builders, the pins), but what npm
    # installs from package-lock.json, which is an input itself.
    read = {path.relative_to(ROOT).as_posix() for path in browser_check.CHECKER_FILES}
    read.discard("tools/npm_packages/node_modules/.package-lock.json")
    assert "tools/npm_packages/package-lock.json" in read
    assert read <= hashed, read - hashed
    # Every module of the repository that the check, the builders and the browser tests
    # import, as Python finds them.
    modules = [
        "tools.browser_check",
        "tools.site.build",
        "tools.site.conf",
        "tools.build_slides",
        "tests.course.test_browser",
        "tests.tools.test_browser_checker",
        "tests.notebook_helpers.test_explorers",
    ]
    listing = (
        "import sys, importlib\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "print('\\n'.join(str(getattr(m, '__file__', None)) for m in list(sys.modules.values())))"
    )
    printed = subprocess.run(
        [sys.executable, "-c", listing], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split("\n")
    ours = [name[len(str(ROOT)) + 1 :] for name in printed if name.startswith(str(ROOT) + "/")]
    imported = {
        name for name in ours if name.endswith(".py") and name.split("/")[0] in ("pe_utils", "tools", "tests")
    }
    assert "tools/deck_html.py" in imported and "tests/tools/test_tools.py" in imported
    assert imported <= hashed, imported - hashed
    # Every notebook, the teacher's guide (a page of the site), the README (its home page), the
    # Makefile that runs the check and the conftest that writes the record.
    course = {path.relative_to(ROOT).as_posix() for path in (ROOT / "notebooks").glob("*.ipynb")}
    assert (
        course and course | {"notebooks/TEACHING.md", "README.md", "Makefile", "tests/conftest.py"} <= hashed
    )
    assert browser_record.RECORD.relative_to(ROOT).as_posix() not in hashed  # not its own input


def test_no_tracked_input_is_taken_for_a_file_made_on_the_machine():
    # Every file git holds in INPUTS is hashed (none is hidden, say, and so left out).
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    command = ["git", "ls-files", "--", *browser_record.INPUTS]
    listed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True).stdout.split("\n")
    tracked = {name for name in listed if name and (ROOT / name).is_file()}
    hashed = set(browser_record.input_hashes())
    assert len(tracked) > 100 and tracked <= hashed, tracked - hashed
    assert browser_record.untracked(sorted(tracked)) == []
    assert browser_record.untracked(["notebooks/never_committed.md"]) == ["notebooks/never_committed.md"]


def test_the_record_is_written_only_after_a_session_where_the_browser_tests_passed():
    checker, explorers, course = conftest.RECORDING_TESTS
    verdict = {"hashes": {}, "checked": {}}
    everything = {checker, explorers, course}
    assert conftest.record_decision(verdict, everything, 0) is None
    assert "failed" in conftest.record_decision(verdict, everything, 1)
    assert "test_the_check_finds_each_fault" in conftest.record_decision(verdict, {explorers, course}, 0)
    assert "test_every_explorer_draws" in conftest.record_decision(verdict, {checker, course}, 0)
    assert "no verdict" in conftest.record_decision({}, everything, 0)
    # The names are those of real tests, and the check of the course comes last in a run of all.
    ranks = []
    for name in (checker, explorers, course):
        path, test = name.split("::")
        assert f"def {test}(" in (ROOT / path).read_text()
        ranks.append(conftest.file_rank(ROOT / path))
    assert ranks == sorted(ranks) and ranks[-1] > ranks[1]


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_make_check_slides_records_only_a_whole_check():
    def planned(*arguments):
        command = ["make", "-n", "check-slides", *arguments]
        return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True).stdout

    files = ["tests/tools/test_browser_checker.py", "tests/notebook_helpers/test_explorers.py"]
    files.append("tests/course/test_browser.py")  # the check of the course last
    for recording in ([], ["CHECK_ARGS=--no-cache"]):
        plan = planned(*recording).replace("\\\n", " ")
        assert " -x " in plan and " -m browser " in plan and "tools.browser_check" not in plan
        assert all(name in plan for name in files), plan
        assert sorted(files, key=plan.index) == files, plan
    assert "BROWSER_CHECK_NO_CACHE=--no-cache" in planned("CHECK_ARGS=--no-cache")
    for partial in (
        ["NB=notebooks/03_the_sinusoidal_formula.ipynb"],
        ["SIZE=1024x768"],
        ["CHECK_ARGS=--out d"],
    ):
        plan = planned(*partial)
        assert "-m tools.browser_check" in plan and "-m browser" not in plan and "nothing recorded" in plan
