"""Copy the course's notebooks into workspace/, your own copies to edit and run.

``python -m tools.workspace``  (``make workspace``), then ``make lab LAB_DIR=workspace``

A notebook already in workspace/ is never overwritten, so your answers are safe: the
command only adds what is missing (a new notebook, or one you deleted to start over) and
prints what it copied and what it kept. workspace/ is ignored by git, by the tests and by
ruff. Files the notebooks use next to them (images, data) are copied the same way.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from tools.paths import NOTEBOOKS, ROOT

WORKSPACE = ROOT / "workspace"
SKIP = {".ipynb_checkpoints", "__pycache__"}


def course_files(folder: Path) -> list[Path]:
    """The notebooks and the files next to them, relative to ``folder`` (checkpoints left out)."""
    return sorted(
        path.relative_to(folder)
        for path in folder.rglob("*")
        if path.is_file() and not SKIP.intersection(path.relative_to(folder).parts)
    )


def copy_course(source: Path = NOTEBOOKS, target: Path = WORKSPACE) -> tuple[list[Path], list[Path]]:
    """Copy every file of ``source`` missing from ``target``; return (copied, kept)."""
    copied, kept = [], []
    for relative in course_files(source):
        destination = target / relative
        if destination.exists():
            kept.append(relative)
            continue
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source / relative, destination)
        copied.append(relative)
    return copied, kept


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notebooks", type=Path, default=NOTEBOOKS, help="where the course's notebooks are")
    parser.add_argument("--workspace", type=Path, default=WORKSPACE, help="where to put your copies")
    args = parser.parse_args(argv)
    copied, kept = copy_course(args.notebooks, args.workspace)
    for relative in copied:
        print(f"copied {relative}")
    for relative in kept:
        print(f"kept   {relative} (your copy; delete it to get a fresh one)")
    print(f"{len(copied)} copied, {len(kept)} kept in {args.workspace}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
