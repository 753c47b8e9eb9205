"""tools/sweep_seeds.py: the cells it runs, the seeds it gives them, and that one failing seed fails it.

The sweep itself (10 000 seeds of notebook 12, minutes) is not part of `make test`; these tests
check that the tool does what notebook 12 says it did, and that the notebook cites it as it is.
"""

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from tools import sweep_seeds
from tools.paths import ROOT

NB12 = ROOT / "notebooks" / "12_sinusoids_beyond_text.ipynb"
SETUP = "import pe_utils\n\nrng = pe_utils.setup_notebook()"


def tagged(source):
    return new_code_cell(source, metadata={"tags": [sweep_seeds.TAG]})


def test_notebook_12_cites_the_command_and_the_seeds_the_tool_runs():
    notebook = nbformat.read(NB12, as_version=4)
    swept = [i for i, cell in enumerate(notebook.cells) if sweep_seeds.TAG in cell.metadata.get("tags", [])]
    run, origin = sweep_seeds.sweep_notebook(NB12, sweep_seeds.DEFAULT_SEEDS)
    # The setup cell, then "the three cells above" the citing cell, in order.
    assert origin[1:] == swept == list(range(swept[0], swept[0] + 3))
    assert "setup_notebook(" in run.cells[0].source
    sources = "\n".join(cell.source for cell in run.cells[1:])
    assert sources.count(f"seeds = range({sweep_seeds.DEFAULT_SEEDS})") == 1
    assert "seeds = range(5)" in "".join(notebook.cells[i].source for i in swept)  # the notebook's 5
    last = f"{sweep_seeds.DEFAULT_SEEDS - 1:,}".replace(",", " ")  # 9 999
    citing = notebook.cells[swept[-1] + 1].source
    assert "python -m tools.sweep_seeds notebooks/12_sinusoids_beyond_text.ipynb" in citing
    assert f"seeds 0 to {last}" in citing and "three cells above" in citing
    summary = next(cell.source for cell in notebook.cells if cell.source.startswith("## Summary"))
    assert f"seeds 0 to {last} in `tools/sweep_seeds.py`" in summary


def test_the_seeds_line_must_be_there_exactly_once(tmp_path):
    path = tmp_path / "nb.ipynb"
    twice = [tagged("seeds = range(2)"), tagged("seeds = range(3)")]
    for cells, found in [([tagged("x = 1")], 0), (twice, 2)]:
        nbformat.write(new_notebook(cells=[new_code_cell(SETUP), *cells]), path)
        with pytest.raises(SystemExit, match=f"exactly one line 'seeds = range\\(K\\)', found {found}"):
            sweep_seeds.sweep_notebook(path, 10)
    nbformat.write(new_notebook(cells=[new_code_cell(SETUP), new_code_cell("seeds = range(2)")]), path)
    with pytest.raises(SystemExit, match="no code cell tagged 'seed-sweep'"):
        sweep_seeds.sweep_notebook(path, 10)


def test_a_bound_that_fails_for_a_later_seed_fails_the_sweep(tmp_path, capsys):
    # The notebook's own 2 seeds pass; the third seed breaks the bound, and the sweep must say where.
    path = tmp_path / "03_demo.ipynb"
    nbformat.write(
        new_notebook(
            cells=[
                new_markdown_cell("# Demo"),
                new_code_cell(SETUP),
                new_code_cell("untagged = 1 / 0  # not run by the sweep"),
                tagged("seeds = range(2)\ndraws = [seed for seed in seeds]"),
                tagged("for seed in draws:\n    assert seed < 2, f'seed {seed}'\nprint('held')"),
            ]
        ),
        path,
    )
    assert sweep_seeds.main([str(path), "--seeds", "2"]) == 0
    out = capsys.readouterr().out
    assert "cells [3], [4] with seeds 0 … 1" in out and "every assert held" in out and "held\n" in out
    assert sweep_seeds.main([str(path), "--seeds", "3"]) == 1
    out = capsys.readouterr().out
    assert "cell [4] failed with seeds 0 … 2" in out and "seed 2" in out
