"""The learner's main line of each notebook, measured: words, pause-and-predict prompts,
checkpoint exercises and silent check cells.

A notebook's main line is everything before its ``## Going deeper`` heading (the whole notebook
when it has none). ``tests/tools/test_main_line.py`` holds the course to the budgets of CONTRIBUTING
("Main line first"); run this file to see the figures:

    python -m tools.main_line            # a table, one row per notebook
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat

from tools.paths import course_notebooks

GOING_DEEPER = "## Going deeper"
#: The marker of a pause-and-predict prompt: a learner's question whose answer is collapsed.
PREDICT = '<details class="predict">'
# Generated cells (navigation line, contents list) are not prose a learner reads.
_GENERATED = ("<!-- nav -->", "<!-- contents -->")
_ASSERT = re.compile(r"^\s*assert\b|\bassert_\w+\(|\.check_\w+\(", re.MULTILINE)
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


def is_teacher_note(cell) -> bool:
    """A teacher's note (slide type ``notes``), which the learner may skip."""
    return cell.metadata.get("slideshow", {}).get("slide_type") == "notes"


def heading_index(cells, prefix: str) -> int | None:
    """Index of the first markdown cell whose source starts with ``prefix``, or None."""
    for index, cell in enumerate(cells):
        if cell.cell_type == "markdown" and cell.source.startswith(prefix):
            return index
    return None


def main_line(notebook) -> list:
    """The cells before ``## Going deeper`` (all of them when the notebook has no such part)."""
    end = heading_index(notebook.cells, GOING_DEEPER)
    return list(notebook.cells if end is None else notebook.cells[:end])


def learner_words(cells) -> int:
    """Words of markdown a learner reads: teacher's notes and generated cells left out."""
    total = 0
    for cell in cells:
        if cell.cell_type != "markdown" or is_teacher_note(cell):
            continue
        if cell.source.lstrip().startswith(_GENERATED):
            continue
        total += len(_COMMENT.sub(" ", cell.source).split())
    return total


def predict_prompts(cells) -> int:
    """Pause-and-predict prompts: learner cells holding a collapsed ``predict`` answer."""
    return sum(
        cell.cell_type == "markdown" and not is_teacher_note(cell) and PREDICT in cell.source
        for cell in cells
    )


def checkpoint_exercises(cells) -> int:
    """Exercise cells (``….check(answer)``) before ``## Check yourself``."""
    end = heading_index(cells, "## Check yourself")
    before = cells if end is None else cells[:end]
    return sum(
        cell.cell_type == "code" and re.search(r"\.check\(", cell.source) is not None for cell in before
    )


def _printed(cell) -> str:
    return "".join(
        output.get("text", "") for output in cell.get("outputs", []) if output.get("output_type") == "stream"
    )


def _shows_something(cell) -> bool:
    return any(
        output.get("output_type") in {"display_data", "execute_result"} for output in cell.get("outputs", [])
    )


def silent_checks(cells) -> list[int]:
    """Indices of code cells that check a claim (``assert``…) but say nothing: nothing printed
    and no result shown. (On the main line a check prints one short "✓ …" line.)"""
    return [
        index
        for index, cell in enumerate(cells)
        if cell.cell_type == "code"
        and _ASSERT.search(cell.source)
        and not _printed(cell).strip()
        and not _shows_something(cell)
    ]


def report(paths=None) -> list[dict]:
    """One row per notebook: its main-line figures."""
    rows = []
    for path in paths or course_notebooks():
        notebook = nbformat.read(path, as_version=4)
        cells = main_line(notebook)
        rows.append(
            {
                "notebook": path.name[:2],
                "going_deeper": heading_index(notebook.cells, GOING_DEEPER) is not None,
                "words": learner_words(cells),
                "all_words": learner_words(notebook.cells),
                "predict": predict_prompts(cells),
                "checkpoints": checkpoint_exercises(cells),
                "silent": silent_checks(cells),
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    rows = report([Path(arg) for arg in (argv or [])] or None)
    print(
        f"{'nb':<3} {'main-line words':>15} {'all words':>10} {'predict':>8} {'checkpoints':>12}  "
        "silent check cells"
    )
    for row in rows:
        print(
            f"{row['notebook']:<3} {row['words']:>15} {row['all_words']:>10} {row['predict']:>8} "
            f"{row['checkpoints']:>12}  {row['silent'] or ''}"
            + ("" if row["going_deeper"] else "   (no Going deeper part)")
        )
    core = {row["notebook"]: row["words"] for row in rows}
    if all(f"{n:02d}" in core for n in range(6)):
        print(
            f"main line 00–03: {sum(core[f'{n:02d}'] for n in range(4))} words; "
            f"00–05: {sum(core[f'{n:02d}'] for n in range(6))} words"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
