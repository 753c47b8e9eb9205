"""Re-run a notebook's seeded experiment over many more seeds and check that its asserts hold.

``python -m tools.sweep_seeds notebooks/12_sinusoids_beyond_text.ipynb``               10 000 seeds
``python -m tools.sweep_seeds notebooks/12_sinusoids_beyond_text.ipynb --seeds 200``  fewer

A notebook reports an experiment with random draws over a few seeds and asserts bounds that
must hold for every seed (CONTRIBUTING, NOTEBOOK_STYLE "Experiments and budgets"). Five seeds
cannot show that a bound is safe; this tool runs the same cells with seeds ``0 … N − 1``, so a
bound that holds only for lucky seeds fails here, not on a learner's machine.

What runs: a copy of the notebook holding only its setup cell (the code cell that calls
``setup_notebook``) and the code cells tagged ``seed-sweep``, in order, executed by nbclient in a
fresh kernel from the notebook's folder. Exactly one line of the tagged cells must read
``seeds = range(K)``; it becomes ``seeds = range(N)``. Nothing is written back. For each tagged
cell the tool prints the last ``--tail`` lines of its text output (for a table of per-seed
values with mean, min and max rows: those rows, now over N seeds). A failing assert stops the
run: the tool prints the cell, the line and the error, and exits with status 1.

Not part of ``make test`` (10 000 seeds of notebook 12: 11 minutes on the shared 2-core machine); run it after
changing an experiment or a bound, and cite the seed count it checked in the notebook.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

TAG = "seed-sweep"
DEFAULT_SEEDS = 10_000  # notebook 12 cites this count ("seeds 0 to 9 999"); tests/tools/test_sweep_seeds.py
SEEDS_LINE = re.compile(r"^seeds = range\((\d+)\)[ \t]*$", re.MULTILINE)
CELL_TIMEOUT_SECONDS = 3600


def sweep_notebook(path: Path, n_seeds: int) -> tuple[nbformat.NotebookNode, list[int]]:
    """The notebook to run: setup cell + the ``seed-sweep`` cells with ``seeds = range(n_seeds)``.

    Returns it and, for each of its cells, the index of that cell in the original notebook.
    """
    notebook = nbformat.read(path, as_version=4)
    code = [(index, cell) for index, cell in enumerate(notebook.cells) if cell.cell_type == "code"]
    setup = [(index, cell) for index, cell in code if "setup_notebook(" in cell.source][:1]
    swept = [(index, cell) for index, cell in code if TAG in cell.metadata.get("tags", [])]
    if not setup:
        raise SystemExit(f"{path}: no setup cell (a code cell calling setup_notebook)")
    if not swept:
        raise SystemExit(f"{path}: no code cell tagged {TAG!r}")
    found = [(index, match) for index, cell in swept for match in SEEDS_LINE.finditer(cell.source)]
    if len(found) != 1:
        raise SystemExit(
            f"{path}: the cells tagged {TAG!r} must hold exactly one line 'seeds = range(K)', "
            f"found {len(found)}"
        )
    seeds_cell = found[0][0]
    cells = []
    for index, cell in setup + swept:
        source = cell.source
        if index == seeds_cell:
            source = SEEDS_LINE.sub(f"seeds = range({n_seeds})", source)
        cells.append(nbformat.v4.new_code_cell(source))
    run = nbformat.v4.new_notebook(cells=cells, metadata=notebook.metadata)
    return run, [index for index, _ in setup + swept]


def text_output(cell: nbformat.NotebookNode) -> str:
    """The cell's printed text and plain-text results, in order."""
    parts = []
    for output in cell.get("outputs", []):
        if output.output_type == "stream":
            parts.append(output.text)
        elif "data" in output and "text/plain" in output.data:
            parts.append(output.data["text/plain"] + "\n")
    return "".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebook", type=Path)
    parser.add_argument(
        "--seeds", type=int, default=DEFAULT_SEEDS, help=f"run seeds 0 … N − 1 (default {DEFAULT_SEEDS})"
    )
    parser.add_argument("--tail", type=int, default=3, help="lines of each cell's output to show (default 3)")
    args = parser.parse_args(argv)
    if args.seeds < 1:
        parser.error("--seeds must be at least 1")
    path = args.notebook.resolve()
    run, origin = sweep_notebook(path, args.seeds)
    client = NotebookClient(
        run,
        timeout=CELL_TIMEOUT_SECONDS,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(path.parent)}},
        shutdown_kernel="immediate",  # as tools/run_notebooks.py, and for the same reason
    )
    start = time.perf_counter()
    try:
        client.execute()
    except CellExecutionError as error:
        failed = [
            index
            for index, cell in zip(origin, run.cells, strict=True)
            if any(output.output_type == "error" for output in cell.get("outputs", []))
        ]
        where = f"cell [{failed[0]}]" if failed else "a cell"
        print(f"{path.name}: {where} failed with seeds 0 … {args.seeds - 1}:\n{error}")
        return 1
    print(
        f"{path.name}: cells {', '.join(f'[{index}]' for index in origin[1:])} with seeds "
        f"0 … {args.seeds - 1} ({time.perf_counter() - start:.0f} s): every assert held"
    )
    for index, cell in zip(origin[1:], run.cells[1:], strict=True):
        lines = text_output(cell).rstrip("\n").splitlines()
        if lines and args.tail > 0:
            print(f"[{index}], last {min(args.tail, len(lines))} lines of its output:")
            print("\n".join(lines[-args.tail :]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
