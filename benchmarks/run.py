"""Measure the course's table builders, notebooks and commands as a user meets them; print ratios.

``python benchmarks/run.py``             everything (about ten minutes; this is ``make bench``)
``python benchmarks/run.py --quick``     fewer sizes and repeats, no fresh clones (~2 min)
``python benchmarks/run.py --r-only``    only R, the reference time (below; ~15 s)
``python benchmarks/run.py --protocol``  only the guide's protocol for ``make test`` cold (~5 min)
``python benchmarks/run.py --help``      flags to skip parts

Every number comes from this one run. Time is quoted in R, measured first in the
same run: a notebook of one cell (``from pe_utils import setup_notebook;
setup_notebook()``) executed through nbclient as ``tools/run_notebooks.py`` executes a
notebook (a fresh kernel, stopped at once), median of 5. Every time below is printed
in seconds and as a multiple of R, which transfers between machines. Builder times
are the minimum of several repeats (the least disturbed by other processes) and are
also shown as ratios against ``pe_utils.sinusoidal_pe_fast``.

The commands are timed as a user meets them, in fresh clones of this repository's
last commit (``git clone``; the pip and npm caches are whatever this machine has):
``make setup``, then the README's test command (``make test``) twice: the first run
cold, the second as a maintainer's next run (the median of the two is "after set-up";
set-up plus the first is "fresh clone to green"); and ``make lab``
from a fresh clone until it prints its URL, with no npm package installed.
Each notebook's nbval time (its cells, after kernel start) is measured in this
checkout. Every figure is printed next to its budget (``BUDGETS``, issue 20) and
the load average at the time: on a shared machine the times are noisy.

``--protocol`` times exactly the guide's protocol: a fresh clone of HEAD, ``make
setup``, then ``make test`` cold (no ``_build/``, as CI runs it), with R measured
just before and just after it; it prints both and the median of all ten draws, so
that a change of load during the run shows.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import platform
import re
import selectors
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pe_utils as pu  # noqa: E402
from pe_utils.encoding import frequencies  # noqa: E402
from tools.paths import course_notebooks  # noqa: E402  (the repository is on sys.path, above)

BASE = 10000.0
FULL_SIZES = [(512, 64), (2048, 128), (4096, 256), (16384, 512), (65536, 512), (65536, 1024)]
QUICK_SIZES = [(512, 64), (4096, 256), (65536, 512)]
#: The accuracy target covers n ≤ 2^17 and d ≤ 1024.
FULL_ACCURACY_SIZES = [(512, 64), (4096, 256), (65536, 512), (131072, 1024)]
QUICK_ACCURACY_SIZES = [(512, 64), (131072, 64), (4096, 1024)]
#: The nested Python loop is timed only up to this many entries, then extrapolated.
LOOP_MAX_ENTRIES = 2**15
TARGET_SIZE = (65536, 512)
TARGETS = {
    "speed": "pe_utils ≥ 2× faster than the trigonometric limit at (n, d) = (65536, 512)",
    "accuracy": "pe_utils max |error| ≤ 2 × the direct formula's, n ≤ 2^17, d ≤ 1024",
    "memory": "pe_utils peak memory ≤ 2 × the returned table",
}
#: Budgets of issue 20, in seconds, for a course of BUDGET_NOTEBOOKS notebooks on the 2-core machine.
BUDGETS = {
    "test": 60.0,  # `make test` after set-up, median of 2
    "clone": 150.0,  # `make test` from a fresh clone to green
    "lab": 45.0,  # `make lab` from a fresh clone until its URL is printed, no browser downloaded
}
BUDGET_NOTEBOOKS = 14
#: The browser check of every deck and site page (tools/browser_check.py), 14 decks included.
BROWSER_SECONDS = 10.0
#: Each notebook's cells under nbval, after kernel start; more for a notebook that trains a model.
NOTEBOOK_SECONDS = 4.0
TRAINING_NOTEBOOK_SECONDS = 5.0
TRAINS = re.compile(r"\btrain_\w*\(")  # a code cell that calls a training function (pe_utils.training)
LAB_URL = re.compile(r"https?://(127\.0\.0\.1|localhost)[:\d]*/lab\?token=\w+")
#: R, the unit of time (CONTRIBUTING, "Performance"): this one cell run through nbclient, median of R_RUNS.
R_CELL = "from pe_utils import setup_notebook; setup_notebook()"
R_RUNS = 5
#: The guide's limit: `make test` cold, as CI runs it, in R.
COLD_TEST_R = 45.0


# ---------------------------------------------------------------- R, the unit of time


def load() -> str:
    """The 1-minute load average, printed with every time: other processes slow this machine."""
    return f"load {os.getloadavg()[0]:.1f}"


def write_reference_notebook(folder: Path) -> Path:
    """Write R's notebook, one code cell holding :data:`R_CELL`, into ``folder``; return its path."""
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook

    path = Path(folder) / "reference.ipynb"
    nbformat.write(new_notebook(cells=[new_code_cell(R_CELL)]), path)
    return path


def execute_notebook(path: Path) -> None:
    """Run a notebook exactly as ``make outputs`` does (tools/run_notebooks.py's client and kernel)."""
    from tools import run_notebooks

    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # as under make: the kernel keeps its bytecode
    run_notebooks.execute(path)


def reference_draws(
    runs: int = R_RUNS,
    execute: Callable[[Path], object] = execute_notebook,
    clock: Callable[[], float] = time.perf_counter,
) -> list[float]:
    """Seconds of each of ``runs`` executions of R's notebook, written once to a temporary folder."""
    if isinstance(runs, bool) or not isinstance(runs, int) or runs < 1:
        raise ValueError(f"runs must be a positive integer, got {runs!r}")
    draws = []
    with tempfile.TemporaryDirectory(prefix="bench-r-") as scratch:
        path = write_reference_notebook(Path(scratch))
        for _ in range(runs):
            start = clock()
            execute(path)
            draws.append(clock() - start)
    return draws


def measure_r(label: str = "R") -> list[float]:
    """Measure R's draws and print them, their median and the load; return the draws."""
    draws = reference_draws()
    print(
        f"{label} = {statistics.median(draws):.2f} s, median of {len(draws)} "
        f"({', '.join(f'{draw:.2f}' for draw in draws)} s; {load()})",
        flush=True,
    )
    return draws


def in_r(seconds: float, r: float) -> str:
    """A time in seconds and as a multiple of R: ``'105.0 s = 42.9 R'``."""
    return f"{seconds:.1f} s = {seconds / r:.1f} R"


# ---------------------------------------------------------------- builders


def pe_loop(n_positions: int, d_model: int, base: float = BASE) -> np.ndarray:
    """The version a learner writes first: two nested loops and the math module."""
    table = np.zeros((n_positions, d_model))
    for p in range(n_positions):
        for i in range(d_model // 2):
            angle = p / base ** (2 * i / d_model)
            table[p, 2 * i] = math.sin(angle)
            table[p, 2 * i + 1] = math.cos(angle)
    return table


def builders(n: int, d: int) -> dict[str, Callable[[], object]]:
    """Name → zero-argument callable building the (n, d) table (the limit builds no table)."""
    angles = np.multiply.outer(np.arange(n, dtype=np.float64), frequencies(d, BASE))
    return {
        "pe_utils": lambda: pu.sinusoidal_pe_fast(n, d, base=BASE),
        "direct": lambda: pu.sinusoidal_pe(n, d, base=BASE),
        "trig limit": lambda: (np.sin(angles), np.cos(angles)),
        "loop": lambda: pe_loop(n, d),
    }


def loop_time_per_entry(d: int, n_small: int = 64) -> float:
    """Seconds per table entry of :func:`pe_loop`, measured on a small table."""
    start = time.perf_counter()
    pe_loop(n_small, d)
    return (time.perf_counter() - start) / (n_small * d)


def best_time(build: Callable[[], object], repeats: int, min_seconds: float = 0.05) -> float:
    """Minimum over ``repeats`` of the mean time of a call (calls batched to ≥ min_seconds)."""
    start = time.perf_counter()
    build()  # warm-up; also sizes the batch
    first = time.perf_counter() - start
    number = max(1, int(min_seconds / max(first, 1e-6)))
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(number):
            build()
        times.append((time.perf_counter() - start) / number)
    return min(times)


def peak_ratio(build: Callable[[], object], table_bytes: int) -> float:
    """Peak memory traced while ``build`` runs, including its result, over the table size."""
    tracemalloc.start()
    result = build()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    del result
    return peak / table_bytes


def bench_builders(sizes: list[tuple[int, int]], repeats: int, r: float) -> dict[str, object]:
    print("\n## Builders: time of each builder / time of sinusoidal_pe_fast (higher = pe_utils faster)")
    print("trig limit = np.sin and np.cos of the precomputed n × d/2 float64 angle grid, nothing else;")
    print("direct = sinusoidal_pe (the plain vectorised formula); loop = nested Python loops,")
    print(f"timed up to {LOOP_MAX_ENTRIES} entries and extrapolated linearly beyond (marked ~).")
    print("pe_utils = its time, in ms and as a multiple of R.")
    header = (
        f"{'n':>6} {'d':>5} {'table':>8} {'pe_utils':>9} {'in R':>8} {'limit':>7} {'direct':>7} {'loop':>9}"
        f"   peak memory / table: {'pe_utils':>8} {'direct':>7} {'loop':>5}"
    )
    print(header)
    loop_per_entry = None
    results: dict[str, object] = {}
    for n, d in sizes:
        table_bytes = n * d * 8
        fns = builders(n, d)
        t_pe = best_time(fns["pe_utils"], repeats)
        t_limit = best_time(fns["trig limit"], repeats)
        t_direct = best_time(fns["direct"], repeats)
        if n * d <= LOOP_MAX_ENTRIES:
            t_loop = best_time(fns["loop"], max(1, repeats // 2), min_seconds=0.0)
            loop_per_entry = t_loop / (n * d)
            loop_text = f"{t_loop / t_pe:9.0f}"
            mem_loop = f"{peak_ratio(fns['loop'], table_bytes):5.2f}"
        else:
            if loop_per_entry is None:
                loop_per_entry = loop_time_per_entry(d)
            loop_text = f"~{loop_per_entry * n * d / t_pe:8.0f}"
            mem_loop = f"{'-':>5}"
        mem_pe = peak_ratio(fns["pe_utils"], table_bytes)
        mem_direct = peak_ratio(fns["direct"], table_bytes)
        print(
            f"{n:>6} {d:>5} {table_bytes / 2**20:6.1f}MB {t_pe * 1e3:7.2f}ms {t_pe / r:8.1e} "
            f"{t_limit / t_pe:7.2f} {t_direct / t_pe:7.2f} {loop_text}"
            f"   {'':21}{mem_pe:8.2f} {mem_direct:7.2f} {mem_loop}"
        )
        results[f"speed {n}x{d}"] = t_limit / t_pe
        results.setdefault("memory", []).append(mem_pe)
    return results


# ---------------------------------------------------------------- accuracy


def reference_chunk(positions: np.ndarray, omega: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """sin and cos of the exact products ``p·ω`` (float64 p and ω), to ~3e-16.

    ``p·ω = hi + lo`` exactly (Dekker's two-product), then
    ``sin(hi + lo) ≈ sin(hi) + lo·cos(hi)`` and ``cos(hi + lo) ≈ cos(hi) − lo·sin(hi)``;
    the neglected ``lo²/2`` is below 1e-22 here. Portable: needs no long double.
    """
    p = positions[:, None]
    hi = p * omega
    split = 134217729.0  # 2^27 + 1
    p_big = split * p
    p_hi = p_big - (p_big - p)
    p_lo = p - p_hi
    w_big = split * omega
    w_hi = w_big - (w_big - omega)
    w_lo = omega - w_hi
    lo = ((p_hi * w_hi - hi) + p_hi * w_lo + p_lo * w_hi) + p_lo * w_lo
    sin_hi, cos_hi = np.sin(hi), np.cos(hi)
    return sin_hi + lo * cos_hi, cos_hi - lo * sin_hi


def longdouble_check(n: int, omega: np.ndarray, rows: int = 512) -> float | None:
    """Largest gap between :func:`reference_chunk` and a long-double evaluation (last rows)."""
    if np.finfo(np.longdouble).nmant < 60:
        return None  # long double is plain double on this CPU: no independent check
    positions = np.arange(max(0, n - rows), n, dtype=np.float64)
    angles = np.multiply.outer(positions.astype(np.longdouble), omega.astype(np.longdouble))
    sin_ref, cos_ref = reference_chunk(positions, omega)
    return float(max(np.max(np.abs(np.sin(angles) - sin_ref)), np.max(np.abs(np.cos(angles) - cos_ref))))


def max_error(table: np.ndarray, omega: np.ndarray, chunk_rows: int = 4096) -> float:
    """Max |table − exact| over the table, interleaved layout, computed by row chunks."""
    worst = 0.0
    for start in range(0, table.shape[0], chunk_rows):
        rows = table[start : start + chunk_rows]
        positions = np.arange(start, start + rows.shape[0], dtype=np.float64)
        sin_ref, cos_ref = reference_chunk(positions, omega)
        worst = max(worst, float(np.max(np.abs(rows[:, 0::2] - sin_ref), initial=0.0)))
        worst = max(worst, float(np.max(np.abs(rows[:, 1::2] - cos_ref), initial=0.0)))
    return worst


def bench_accuracy(sizes: list[tuple[int, int]]) -> dict[str, object]:
    print("\n## Accuracy: max |builder − exact| over the whole table (float64 output)")
    print("exact = sin/cos of the exact product p·ω_i (ω_i as float64) in double-double arithmetic;")
    print("'check' = its largest gap to an np.longdouble evaluation on the last rows (x86: 80-bit).")
    print(f"{'n':>6} {'d':>5} {'pe_utils':>10} {'direct':>10} {'loop':>10} {'ratio':>6} {'check':>9}")
    ratios = []
    for n, d in sizes:
        omega = frequencies(d, BASE)
        errors = {}
        errors["pe_utils"] = max_error(pu.sinusoidal_pe_fast(n, d, base=BASE), omega)
        errors["direct"] = max_error(pu.sinusoidal_pe(n, d, base=BASE), omega)
        loop = f"{max_error(pe_loop(n, d), omega):10.2e}" if n * d <= LOOP_MAX_ENTRIES else f"{'-':>10}"
        ratio = errors["pe_utils"] / errors["direct"]
        ratios.append(ratio)
        check = longdouble_check(n, omega)
        check_text = f"{check:9.1e}" if check is not None else f"{'n/a':>9}"
        print(
            f"{n:>6} {d:>5} {errors['pe_utils']:10.2e} {errors['direct']:10.2e} {loop} "
            f"{ratio:6.2f} {check_text}"
        )
    return {"accuracy": ratios}


# ---------------------------------------------------------------- notebooks and commands


def trains(path: Path) -> bool:
    """Whether a notebook trains a model (its budget is TRAINING_NOTEBOOK_SECONDS)."""
    import nbformat

    notebook = nbformat.read(path, as_version=4)
    return any(cell.cell_type == "code" and TRAINS.search(cell.source) for cell in notebook.cells)


def bench_notebooks(r: float) -> dict[str, object]:
    """Each notebook under nbval as the test command runs it, one at a time: kernel start and cells."""
    paths = course_notebooks()
    print(f"\n## Notebooks under nbval: {len(paths)}, one after the other, in this checkout")
    if not paths:
        return {}
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-p",
        "no:xdist",
        "-q",
        "--durations=0",
        "--durations-min=0",
        *(str(path.relative_to(ROOT)) for path in paths),
    ]
    env = {key: value for key, value in os.environ.items() if key != "MPLBACKEND"}  # as `make test`
    print(f"$ {' '.join(['python', *command[1:4]])} ... notebooks/*.ipynb  ({load()})")
    completed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env)
    kernel: dict[str, float] = {}
    cells: dict[str, list[tuple[float, str]]] = {}
    for line in completed.stdout.splitlines():
        match = re.match(r"\s*([\d.]+)s (setup|call|teardown)\s+notebooks/(\S+\.ipynb)::(.*)$", line)
        if not match:
            continue
        seconds, phase, name, cell = float(match[1]), match[2], match[3], match[4].strip()
        if phase == "setup":
            kernel[name] = kernel.get(name, 0.0) + seconds  # the kernel starts in the first cell's setup
        elif phase == "call":
            cells.setdefault(name, []).append((seconds, cell))
    failed = completed.returncode != 0
    last = completed.stdout.strip().splitlines()[-1] if completed.stdout.strip() else ""
    print(f"exit code {completed.returncode}: {last}")
    print(
        "cells = every cell's run, after kernel start; budget: "
        f"{NOTEBOOK_SECONDS:.0f} s, {TRAINING_NOTEBOOK_SECONDS:.0f} s for a notebook that trains"
    )
    print("every time in seconds, then as a multiple of R")

    def both(seconds: float) -> str:
        return f"{seconds:5.2f}s {seconds / r:4.2f}R"

    print(f"{'notebook':<42} {'kernel':>12} {'cells':>12} {'budget':>7} {'first':>12} {'slowest cell':>18}")
    over = []
    for path in paths:
        name = path.name
        timed = cells.get(name, [])
        total = sum(seconds for seconds, _ in timed)
        budget = TRAINING_NOTEBOOK_SECONDS if trains(path) else NOTEBOOK_SECONDS
        first = timed[0][0] if timed else 0.0
        slowest = max(timed[1:], default=(0.0, "-"))
        mark = "" if total <= budget else "  OVER"
        if total > budget:
            over.append(name)
        print(
            f"{name[:42]:<42} {both(kernel.get(name, 0.0))} {both(total)} {budget:6.1f}s {both(first)} "
            f"{both(slowest[0])} ({slowest[1]}){mark}"
        )
    all_cells = sum(seconds for timed in cells.values() for seconds, _ in timed)
    print(f"{'total':<42} {both(sum(kernel.values()))} {both(all_cells)}")
    return {"notebooks over": over, "notebooks failed": failed, "notebook count": len(paths)}


def bench_browser(r: float) -> dict[str, object]:
    """The browser check of every deck and site page (what `make check-slides` runs), in this checkout."""
    print("\n## The browser check: every deck and site page in headless Chromium, in this checkout")
    try:
        from tools import browser_check
    except ImportError as error:
        print(f"skipped: {error}")
        return {}
    if not (browser_check.NPM_FOLDER / "node_modules").is_dir():
        print("skipped: the npm packages are not installed here (`make check-slides` installs them)")
        return {}
    results: dict[str, object] = {"browser ok": True}
    with tempfile.TemporaryDirectory(prefix="bench-browser-") as scratch:
        cache = Path(scratch) / "cache.json"  # empty: every page opened; then every page kept
        for label, key in (("cold", "browser"), ("warm", "browser warm")):
            start = time.perf_counter()
            report = browser_check.check(cache=cache)
            seconds = time.perf_counter() - start
            print(f"{label}: {in_r(seconds, r)} wall ({load()}); {report.summary().splitlines()[0]}")
            lines = [line.strip() for line in report.summary().splitlines()[-3:] if "total:" not in line]
            print("      " + "; ".join(lines))
            results[key] = seconds
            results["browser ok"] = results["browser ok"] and report.ok
    return results


def head_commit(short: bool = False) -> str:
    """This checkout's HEAD commit (a worktree's own HEAD, not the main checkout's)."""
    command = ["git", "rev-parse", *(["--short"] if short else []), "HEAD"]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()


def fresh_clone(into: Path) -> Path:
    """A fresh clone of this checkout's HEAD commit in ``into`` (uncommitted changes are not in it)."""
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(ROOT), str(into)], check=True)
    subprocess.run(["git", "checkout", "-q", "--detach", head_commit()], cwd=into, check=True)
    return into


def user_env(home: Path) -> dict[str, str]:
    """The environment of a user's shell, with Jupyter's config and runtime files kept in ``home``."""
    env = {key: value for key, value in os.environ.items() if key not in ("MPLBACKEND", "VIRTUAL_ENV")}
    env["JUPYTER_CONFIG_DIR"] = str(home / "jupyter-config")
    env["JUPYTER_RUNTIME_DIR"] = str(home / "jupyter-runtime")
    return env


def timed_make(target: list[str], clone: Path, env: dict[str, str]) -> tuple[float, int, str]:
    """Run ``make TARGET`` in ``clone``; return its wall time, exit code and pytest's summary line
    (after a failure, also the lines naming what failed)."""
    start = time.perf_counter()
    completed = subprocess.run(["make", *target], cwd=clone, capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - start
    lines = completed.stdout.splitlines()
    summary = [line for line in lines if re.search(r"\b(passed|failed|error)", line)]
    text = summary[-1].strip("= ") if summary else completed.stderr[-300:]
    failures = [line for line in lines if line.startswith(("FAILED ", "ERROR "))]
    return seconds, completed.returncode, "\n".join([text, *failures])


@contextlib.contextmanager
def set_up_clone(prefix: str) -> Iterator[tuple[Path, dict[str, str], float]]:
    """A fresh clone of HEAD after `make setup` (timed and printed): (clone, env, set-up seconds)."""
    with tempfile.TemporaryDirectory(prefix=prefix) as scratch:
        clone = fresh_clone(Path(scratch) / "course")
        env = user_env(Path(scratch))
        print(f"clone of {head_commit(short=True)} in {clone}")
        setup, code, _ = timed_make(["setup"], clone, env)
        print(f"make setup:               {setup:6.1f} s  exit {code}  ({load()})", flush=True)
        yield clone, env, setup


def bench_test_command(r: float) -> dict[str, object]:
    """`make setup` in a fresh clone, then `make test` twice: the first cold, the second warm.

    The first run has nothing cached, as on CI and after any fresh clone; the second finds what
    the first left (the tests' bytecode), as a maintainer's next run does. Neither opens the
    course in a browser: `make test` compares the browser check's record (tools/browser_record.py),
    and bench_browser times the check itself. "After set-up" is the median of the two, and "fresh
    clone to green" is set-up plus the first.
    """
    print("\n## `make test` as a user runs it: `make setup` in a fresh clone, then `make test` twice")
    results: dict[str, object] = {}
    with set_up_clone("bench-test-") as (clone, env, setup):
        runs, codes = [], []
        for label in ("cold (nothing cached)", "again (its bytecode kept)"):
            seconds, code, summary = timed_make(["test"], clone, env)
            runs.append(seconds)
            codes.append(code)
            print(f"make test, {label}: {in_r(seconds, r)}  exit {code}  ({load()})  {summary}", flush=True)
    results["test"], results["test runs"], results["test ok"] = statistics.median(runs), runs, codes == [0, 0]
    results["clone"], results["clone ok"] = setup + runs[0], results["test ok"]
    results["cold"], results["cold ok"] = runs[0], codes[0] == 0
    return results


def bench_protocol() -> dict[str, object]:
    """The guide's protocol: `make setup` in a fresh clone of HEAD, then `make test` cold, in R.

    R is measured just before and just after `make test`; its time is quoted against the median
    of all the draws, and against each half, so that a change of load during the run shows.
    """
    print("\n## The guide's protocol: a fresh clone of HEAD, `make setup`, then `make test` cold, in R")
    with set_up_clone("bench-protocol-") as (clone, env, setup):
        before = measure_r("R before make test")
        seconds, code, summary = timed_make(["test"], clone, env)
        print(
            f"make test, cold (no _build/): {seconds:.1f} s  exit {code}  ({load()})  {summary}", flush=True
        )
        after = measure_r("R after make test ")
    r = statistics.median(before + after)
    print(f"R = {r:.2f} s, median of all {len(before + after)} draws")
    print(f"make setup:       {in_r(setup, r)}")
    r_before, r_after = statistics.median(before), statistics.median(after)
    print(
        f"make test, cold:  {in_r(seconds, r)}  (in R before it: {seconds / r_before:.1f} R; "
        f"in R after it: {seconds / r_after:.1f} R)"
    )
    return {"cold": seconds, "cold ok": code == 0, "r": r}


def bench_lab(r: float) -> dict[str, object]:
    """`make lab` from a fresh clone until its URL is printed; then stopped. No npm package installed?"""
    print("\n## `make lab` from a fresh clone, until it prints its URL")
    results: dict[str, object] = {}
    with tempfile.TemporaryDirectory(prefix="bench-lab-") as scratch:
        clone = fresh_clone(Path(scratch) / "course")
        process = subprocess.Popen(
            ["make", "lab", "LAB_ARGS=--no-browser"],
            cwd=clone,
            env=user_env(Path(scratch)),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        start, seconds, deadline = time.perf_counter(), None, time.monotonic() + 600
        selector = selectors.DefaultSelector()
        selector.register(process.stdout, selectors.EVENT_READ)
        try:
            while seconds is None and time.monotonic() < deadline and process.poll() is None:
                if selector.select(timeout=1.0):
                    line = process.stdout.readline()
                    if LAB_URL.search(line):
                        seconds = time.perf_counter() - start
        finally:
            for sig in (signal.SIGTERM, signal.SIGKILL):  # the whole group: make, jupyter, kernels
                try:
                    os.killpg(process.pid, sig)
                    process.wait(timeout=10)
                    break
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    continue
            selector.close()
        node_modules = clone / "tools" / "npm_packages" / "node_modules"
        npm_installed = node_modules.exists()
        if seconds is None:
            print(f"no URL printed (exit {process.returncode}, {load()})")
        else:
            installed = f"yes, {sum(1 for _ in node_modules.iterdir())} entries" if npm_installed else "none"
            print(f"URL printed after {in_r(seconds, r)}  ({load()}); npm packages installed: {installed}")
        results["lab"] = seconds
        results["lab npm"] = npm_installed
        shutil.rmtree(clone, ignore_errors=True)
    return results


# ---------------------------------------------------------------- report


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{model}, {os.cpu_count()} logical CPUs; Python {platform.python_version()}, "
        f"NumPy {np.__version__}, {platform.system()} {platform.machine()}"
    )


def report_targets(results: dict[str, object], r: float) -> None:
    print(f"\n## Targets and budgets (R = {r:.2f} s)")

    def mark(ok: bool) -> str:
        return "MET    " if ok else "NOT MET"

    key = f"speed {TARGET_SIZE[0]}x{TARGET_SIZE[1]}"
    if key in results:
        print(f"{mark(results[key] >= 2.0)} {TARGETS['speed']}: {results[key]:.2f}×")
    if "accuracy" in results:
        worst = max(results["accuracy"])
        print(f"{mark(worst <= 2.0)} {TARGETS['accuracy']}: worst ratio {worst:.2f}")
    if "memory" in results:
        worst = max(results["memory"])
        print(f"{mark(worst <= 2.0)} {TARGETS['memory']}: worst {worst:.2f}×")
    count = results.get("notebook count") or len(course_notebooks())
    if "notebooks over" in results:
        over, failed = results["notebooks over"], results["notebooks failed"]
        detail = (f"over: {', '.join(over)}" if over else "all within") + (", nbval FAILED" if failed else "")
        print(
            f"{mark(not over and not failed)} each notebook's cells under nbval ≤ {NOTEBOOK_SECONDS:.0f} s "
            f"({TRAINING_NOTEBOOK_SECONDS:.0f} s if it trains): {detail}"
        )
    # The test command's budget grows with the course: scaled by notebooks (issue 20).
    scale = count / BUDGET_NOTEBOOKS
    test_budget = BUDGETS["test"] * scale
    clone_budget = BUDGETS["clone"] - BUDGETS["test"] + test_budget
    if "cold" in results:
        ok = results["cold"] <= COLD_TEST_R * r and results["cold ok"]
        print(
            f"{mark(ok)} `make test` cold, as CI runs it: {in_r(results['cold'], r)}; "
            f"limit {COLD_TEST_R:.0f} R (the guide)"
        )
    if "test" in results:
        ok = results["test"] <= test_budget and results["test ok"]
        cold, warm = results["test runs"]
        print(
            f"{mark(ok)} `make test` after set-up, median of 2: {in_r(results['test'], r)} "
            f"(cold {cold:.1f} s, warm {in_r(warm, r)}); budget {BUDGETS['test']:.0f} s for "
            f"{BUDGET_NOTEBOOKS} notebooks, {test_budget:.0f} s scaled to {count}"
        )
    if "clone" in results:
        ok = results["clone"] <= clone_budget and results["clone ok"]
        print(
            f"{mark(ok)} fresh clone to green: {in_r(results['clone'], r)}; "
            f"budget {BUDGETS['clone']:.0f} s for {BUDGET_NOTEBOOKS} notebooks, "
            f"{clone_budget:.0f} s scaled to {count}"
        )
    if "browser" in results:
        print(
            f"{mark(results['browser'] <= BROWSER_SECONDS and results['browser ok'])} the browser check, "
            f"{count} decks and the site: {in_r(results['browser'], r)} cold, "
            f"{in_r(results['browser warm'], r)} with every page unchanged; target {BROWSER_SECONDS:.0f} s"
        )
    if "lab" in results:
        seconds = results["lab"]
        ok = seconds is not None and seconds <= BUDGETS["lab"] and not results["lab npm"]
        shown = "no URL" if seconds is None else in_r(seconds, r)
        print(
            f"{mark(ok)} `make lab` from a fresh clone to its URL: {shown}, "
            f"{'npm packages installed' if results['lab npm'] else 'no npm package, no browser'}; "
            f"budget {BUDGETS['lab']:.0f} s"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="fewer sizes and repeats; implies --skip-tests and --skip-lab"
    )
    parser.add_argument("--repeats", type=int, default=None, help="timing repeats (default 7, quick 3)")
    for part, what in (
        ("builders", "the table builders"),
        ("accuracy", "the builders' accuracy"),
        ("notebooks", "each notebook under nbval"),
        ("browser", "the browser check of every deck and site page"),
        ("tests", "`make setup` in a fresh clone, then `make test` twice (cold, then warm)"),
        ("lab", "`make lab` in a fresh clone"),
    ):
        parser.add_argument(f"--skip-{part}", action="store_true", help=f"do not measure {what}")
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--r-only", action="store_true", help="measure and print R only")
    only.add_argument(
        "--protocol",
        action="store_true",
        help="only the guide's protocol: a fresh clone of HEAD, `make setup`, then `make test` "
        "cold, in seconds and in R (R measured just before and just after it)",
    )
    args = parser.parse_args(argv)
    repeats = args.repeats or (3 if args.quick else 7)
    flags = [flag for flag in ("quick", "r_only", "protocol") if getattr(args, flag)]
    print(f"# make bench{''.join(' --' + flag.replace('_', '-') for flag in flags)}: {machine()}")
    print("load average (1, 5, 15 min) at the start: " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
    if args.r_only:
        measure_r()
        return 0
    if args.protocol:
        results = bench_protocol()
        report_targets(results, results["r"])
        return 0 if results["cold ok"] else 1
    r = statistics.median(measure_r())
    print(
        f"Shared machines make timings noisy: a builder's time is the minimum of {repeats} repeats "
        "(compare ratios, not times); each command's time is printed with the load average."
    )
    results: dict[str, object] = {}
    if not args.skip_builders:
        results |= bench_builders(QUICK_SIZES if args.quick else FULL_SIZES, repeats, r)
    if not args.skip_accuracy:
        results |= bench_accuracy(QUICK_ACCURACY_SIZES if args.quick else FULL_ACCURACY_SIZES)
    if not args.skip_notebooks:
        results |= bench_notebooks(r)
    if not args.skip_browser:
        results |= bench_browser(r)
    if not (args.skip_lab or args.quick):
        results |= bench_lab(r)
    if not (args.skip_tests or args.quick):
        results |= bench_test_command(r)
    report_targets(results, r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
