"""benchmarks/run.py's unit of time, R, with stand-ins: no kernel is started and no time asserted."""

import importlib.util
import os
from pathlib import Path

import nbformat
import pytest

from tools.paths import ROOT

_spec = importlib.util.spec_from_file_location("bench_run", ROOT / "benchmarks" / "run.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)

#: R as the guide defines it (CONTRIBUTING, "Performance").
GUIDE_CELL = "from pe_utils import setup_notebook; setup_notebook()"


class Ticks:
    """A clock that advances by the next of ``durations`` at every execution of the stand-in."""

    def __init__(self, durations):
        self.durations = list(durations)
        self.now = 100.0
        self.paths = []

    def clock(self):
        return self.now

    def execute(self, path):
        self.paths.append(Path(path))
        notebook = nbformat.read(path, as_version=4)
        nbformat.validate(notebook)
        self.cells = [(cell.cell_type, cell.source) for cell in notebook.cells]
        self.now += self.durations.pop(0)


def test_r_is_five_runs_of_the_guides_one_cell_notebook_in_a_temporary_folder():
    ticks = Ticks([3.0, 1.0, 2.0, 5.0, 4.0])
    draws = bench.reference_draws(execute=ticks.execute, clock=ticks.clock)
    assert draws == [3.0, 1.0, 2.0, 5.0, 4.0]  # one draw per execution, in order
    assert ticks.cells == [("code", GUIDE_CELL)]
    assert len(set(ticks.paths)) == 1 and ROOT not in ticks.paths[0].parents
    assert not ticks.paths[0].exists()  # the temporary folder is removed afterwards


def test_r_runs_as_many_times_as_asked():
    ticks = Ticks([0.5, 0.25])
    assert bench.reference_draws(runs=2, execute=ticks.execute, clock=ticks.clock) == [0.5, 0.25]
    assert ticks.durations == []


@pytest.mark.parametrize("runs", [0, -3, 2.5, True, "5", None])
def test_r_rejects_a_bad_number_of_runs(runs):
    with pytest.raises(ValueError, match="runs"):
        bench.reference_draws(runs=runs, execute=pytest.fail)


def test_r_executes_as_make_outputs_does(monkeypatch, tmp_path):
    """R's notebook goes to tools/run_notebooks.py's execute: the same kernel and client settings."""
    from tools import run_notebooks

    seen = []
    monkeypatch.setattr(run_notebooks, "execute", seen.append)
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")  # set on many containers; the Makefile clears it
    path = bench.write_reference_notebook(tmp_path)
    bench.execute_notebook(path)
    assert seen == [path]
    assert "PYTHONDONTWRITEBYTECODE" not in os.environ


def test_measure_r_prints_the_median_of_the_draws(monkeypatch, capsys):
    monkeypatch.setattr(bench, "reference_draws", lambda: [2.0, 9.0, 1.0, 2.5, 3.0])
    assert bench.measure_r() == [2.0, 9.0, 1.0, 2.5, 3.0]
    printed = capsys.readouterr().out
    assert printed.startswith("R = 2.50 s, median of 5 (2.00, 9.00, 1.00, 2.50, 3.00 s; load ")


def test_times_are_quoted_in_seconds_and_in_r():
    assert bench.in_r(105.0, 2.45) == "105.0 s = 42.9 R"  # 105 / 2.45 = 42.86
    assert bench.in_r(2.45, 2.45) == "2.5 s = 1.0 R"
