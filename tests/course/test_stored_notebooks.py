"""Stored notebooks were run top to bottom by `make outputs`, and hold nothing nbval would trip on.

nbval silently skips a cell that never ran, so these checks make sure every
code cell really is compared.
"""

import ast
import re

import nbformat
import pytest

from tools.paths import course_notebooks

NOTEBOOKS = course_notebooks()
MAX_TOTAL_BYTES = 3_500_000  # all notebooks with outputs
MAX_NOTEBOOK_BYTES = 300_000  # each one (NOTEBOOK_STYLE: "stores under 300 kB")
UNSTABLE = re.compile(r"\d\.\d{10,}|e-1[3-9]\b|0x[0-9a-f]{6,}|<Figure size|np\.float64\(")


def code_cells(path):
    notebook = nbformat.read(path, as_version=4)
    return [cell for cell in notebook.cells if cell.cell_type == "code" and cell.source.strip()]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_execution_counts_run_one_two_three(path):
    counts = [cell.execution_count for cell in code_cells(path)]
    assert counts == list(range(1, len(counts) + 1)), (
        f"{path.name}: execution counts {counts} are not 1, 2, 3, …; run `make outputs NB={path.name}`"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_no_errors_warnings_or_unstable_text(path):
    for index, cell in enumerate(code_cells(path)):
        for output in cell.get("outputs", []):
            assert output.output_type != "error", f"{path.name} cell {index}: stored error"
            assert output.get("name") != "stderr", f"{path.name} cell {index}: stored stderr"
            text = output.get("text", "") + output.get("data", {}).get("text/plain", "")
            assert not UNSTABLE.search(text), f"{path.name} cell {index}: unstable text {text[:80]!r}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_no_installs_or_network(path):
    for cell in code_cells(path):
        assert not re.search(r"^\s*[!%]\s*(pip|conda)\b|%pip|urllib|requests\.", cell.source, re.M), (
            f"{path.name}: a notebook must not install packages or reach the network"
        )


def test_ignored_output_cells_say_why():
    for path in NOTEBOOKS:
        for cell in code_cells(path):
            if "nbval-ignore-output" in cell.metadata.get("tags", []):
                assert "#" in cell.source, f"{path.name}: an nbval-ignore-output cell needs a comment why"


def test_notebooks_stay_small():
    total = sum(path.stat().st_size for path in NOTEBOOKS)
    assert total < MAX_TOTAL_BYTES, f"notebooks total {total / 1e6:.1f} MB"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_each_notebook_stores_under_300_kb(path):
    size = path.stat().st_size
    assert size < MAX_NOTEBOOK_BYTES, f"{path.name} stores {size / 1e3:.0f} kB; shrink its figures or tables"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_each_print_is_stored_whole(path):
    # `make outputs` joins consecutive prints to one stream; split ones show as broken lines on
    # the slides and the site, and mean the outputs were stored some other way.
    for index, cell in enumerate(code_cells(path)):
        names = [o.get("name") if o.output_type == "stream" else None for o in cell.outputs]
        for first, second in zip(names, names[1:], strict=False):
            assert first is None or first != second, (
                f"{path.name}, code cell {index}: one stream stored as several outputs; run `make outputs`"
            )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_no_function_is_rebound_by_another_cell(path):
    # A learner re-runs cells out of order: a function one cell defines and another cell rebinds
    # (notebook 10 once reused `loss_moved` for a number) breaks the first cell's callers.
    defined, bound = {}, {}
    for index, cell in enumerate(code_cells(path)):
        tree = ast.parse(cell.source)
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef):
                defined.setdefault(node.name, []).append(index)
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                bound.setdefault(node.id, []).append(index)
    for name, cells in defined.items():
        others = sorted(set(bound.get(name, [])) | set(cells[1:]))
        assert not others, f"{path.name}: {name}, defined in code cell {cells[0]}, is bound again in {others}"
