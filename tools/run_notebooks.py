"""Re-run notebooks top to bottom in a fresh kernel and store their outputs.

``python -m tools.run_notebooks``                      every notebook in notebooks/
``python -m tools.run_notebooks notebooks/03_*.ipynb`` only these

This is ``make outputs``. Each notebook runs in its own folder with a fresh
kernel, so execution counts go 1, 2, 3, … with no gaps; per-cell timing
metadata is not recorded, and consecutive prints to one stream are stored as one output
however the kernel flushed them, so a re-run rewrites only what really changed. A
cell that raises stops the run and nothing is written for that notebook.

Cell metadata (``slideshow.slide_type``, ``tags``) is kept as it is. Before running, each
notebook's slide layout is checked and every gap is printed as a WARNING (the outputs are
still stored; ``tests/tools/test_tools.py`` fails on the same gaps): a cell without
``metadata["slideshow"]["slide_type"]``, or a title (``# ``) or section (``## ``) heading cell
not followed by its teacher note (a "notes" cell holding ``<details class="teacher-note">``).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from tools.paths import course_notebooks

CELL_TIMEOUT_SECONDS = 300
SLIDE_TYPES = ("slide", "subslide", "fragment", "-", "skip", "notes")
_HEADING = re.compile(r"^(#{1,2}) (.+)$", re.MULTILINE)
_FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)


def slide_type(cell) -> str | None:
    """The cell's ``metadata["slideshow"]["slide_type"]``, or None."""
    return cell.get("metadata", {}).get("slideshow", {}).get("slide_type")


def is_teacher_note(cell) -> bool:
    """A markdown cell of slide type "notes" holding ``<details class="teacher-note">``."""
    return (
        cell.cell_type == "markdown"
        and slide_type(cell) == "notes"
        and '<details class="teacher-note">' in cell.source
    )


def slide_layout_problems(notebook) -> list[str]:
    """What the course's slide layout misses in ``notebook`` (CONTRIBUTING, "Slides").

    Every cell has a valid slide type; every markdown cell with a ``# `` title or a ``## ``
    section heading is followed at once by its teacher note. Navigation cells (``<!-- nav -->``)
    and the generated contents list (``<!-- contents -->``) are not headings.
    """
    problems = []
    cells = notebook.cells
    for index, cell in enumerate(cells):
        if slide_type(cell) not in SLIDE_TYPES:
            problems.append(
                f"cell {index} has no valid metadata['slideshow']['slide_type'] "
                f"(one of {', '.join(SLIDE_TYPES)})"
            )
        if cell.cell_type != "markdown" or cell.source.lstrip().startswith("<!--"):
            continue
        headings = _HEADING.findall(_FENCE.sub("", cell.source))
        if headings:
            level, title = headings[0]
            following = cells[index + 1] if index + 1 < len(cells) else None
            if following is None or not is_teacher_note(following):
                what = "title" if level == "#" else "section"
                problems.append(
                    f"cell {index}, {what} {level} {title!r}, is not followed by a teacher-note cell"
                )
    return problems


def merge_streams(notebook: nbformat.NotebookNode) -> None:
    """Join consecutive outputs of one stream (stdout, stderr) into one, in place.

    The kernel flushes a cell's prints whenever it likes: under load one line can arrive in
    two outputs, and the slides and the site show them on two lines. Merged, a re-run stores
    the same text however it was flushed (nbval compares the merged text anyway).
    """
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        merged: list = []
        for output in cell.outputs:
            previous = merged[-1] if merged else None
            if (
                output.output_type == "stream"
                and previous is not None
                and previous.output_type == "stream"
                and previous.name == output.name
            ):
                previous.text += output.text
            else:
                merged.append(output)
        cell.outputs = merged


def execute(path: Path) -> nbformat.NotebookNode:
    """Run ``path`` in a fresh kernel in its own folder and return the executed notebook."""
    notebook = nbformat.read(path, as_version=4)
    # The inline backend must draw figures: an inherited MPLBACKEND=Agg would drop them.
    os.environ.pop("MPLBACKEND", None)
    client = NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT_SECONDS,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        record_timing=False,
        # Every output has arrived once the last cell reports idle, so the kernel is stopped at
        # once: ipykernel 7.4 sometimes stalls a polite shutdown for 2.5 s (its control thread
        # waits on an output thread that has already stopped, until jupyter_client sends SIGTERM).
        shutdown_kernel="immediate",
    )
    client.execute()
    merge_streams(notebook)
    notebook.metadata.pop("widgets", None)
    notebook.metadata["kernelspec"] = {
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
        "name": "python3",
    }
    return notebook


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, help="notebooks to run (default: all)")
    args = parser.parse_args(argv)
    paths = [path.resolve() for path in args.paths] or course_notebooks()
    failed = []
    for path in paths:
        for problem in slide_layout_problems(nbformat.read(path, as_version=4)):
            print(f"WARNING {path.name}: {problem}", file=sys.stderr)
        print(f"running {path.name} ...", flush=True)
        try:
            notebook = execute(path)
        except CellExecutionError as error:
            print(f"  FAILED, not written:\n{error}", file=sys.stderr)
            failed.append(path)
            continue
        nbformat.validate(notebook)
        nbformat.write(notebook, path)
        print(f"  stored outputs of {path.name}")
    if failed:
        print(f"{len(failed)} notebook(s) failed: {[p.name for p in failed]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
