"""Re-run notebooks top to bottom in a fresh kernel and store their outputs.

``python tools/run_notebooks.py``                      every notebook in notebooks/
``python tools/run_notebooks.py notebooks/03_*.ipynb`` only these

This is ``make outputs``. Each notebook runs in its own folder with a fresh
kernel, so execution counts go 1, 2, 3, … with no gaps; per-cell timing
metadata is not recorded, so a re-run rewrites only what really changed. A
cell that raises stops the run and nothing is written for that notebook.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
CELL_TIMEOUT_SECONDS = 300


def course_notebooks() -> list[Path]:
    """Every notebook of the course, in course order (by its number prefix)."""
    return sorted(path for path in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


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
    )
    client.execute()
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
