"""Measure the course's table builders, notebooks and test command; print ratios.

``python benchmarks/run.py``          everything (several minutes; this is ``make bench``)
``python benchmarks/run.py --quick``  fewer sizes and repeats, no test command (~1 min)
``python benchmarks/run.py --help``   flags to skip parts

Every number comes from this one run. Times are the minimum of several
repeats (the least disturbed by other processes) and are shown as ratios
against ``pe_utils.sinusoidal_pe`` so that they transfer between machines.
The targets stated in ``TARGETS`` are checked and marked met / not met.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pe_utils as pu  # noqa: E402
from pe_utils.encoding import frequencies  # noqa: E402

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
    "notebooks": "each notebook runs in < 5 s (kernel start excluded)",
}
NOTEBOOK_SECONDS = 5.0


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
        "pe_utils": lambda: pu.sinusoidal_pe(n, d, base=BASE),
        "direct": lambda: pu.sinusoidal_pe(n, d, base=BASE, method="direct"),
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


def bench_builders(sizes: list[tuple[int, int]], repeats: int) -> dict[str, object]:
    print("\n## Builders: time of each builder / time of pe_utils.sinusoidal_pe (higher = pe_utils faster)")
    print("trig limit = np.sin and np.cos of the precomputed n × d/2 float64 angle grid, nothing else;")
    print("direct = method='direct' (the plain vectorised formula); loop = nested Python loops,")
    print(f"timed up to {LOOP_MAX_ENTRIES} entries and extrapolated linearly beyond (marked ~).")
    header = (
        f"{'n':>6} {'d':>5} {'table':>8} {'pe_utils':>9} {'limit':>7} {'direct':>7} {'loop':>9}"
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
            f"{n:>6} {d:>5} {table_bytes / 2**20:6.1f}MB {t_pe * 1e3:7.2f}ms "
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
        errors["pe_utils"] = max_error(pu.sinusoidal_pe(n, d, base=BASE), omega)
        errors["direct"] = max_error(pu.sinusoidal_pe(n, d, base=BASE, method="direct"), omega)
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


# ---------------------------------------------------------------- notebooks and tests


def bench_notebooks() -> dict[str, object]:
    import nbformat
    from nbclient import NotebookClient

    paths = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    print(f"\n## Notebooks: {len(paths)} found; fresh kernel each, nothing written")
    if not paths:
        return {}
    os.environ.pop("MPLBACKEND", None)  # as tools/run_notebooks.py: figures drawn inline
    print("first cell = the setup cell (imports); slowest = the slowest other cell, by index.")
    print(f"{'notebook':<40} {'kernel':>7} {'cells':>7} {'first':>6} {'slowest':>13}  status")
    run_times, failed = [], 0
    for path in paths:
        notebook = nbformat.read(path, as_version=4)
        client = NotebookClient(
            notebook, timeout=300, kernel_name="python3",
            resources={"metadata": {"path": str(path.parent)}},
        )
        status, cell_times = "ok", []
        start = time.perf_counter()
        with client.setup_kernel(stderr=subprocess.DEVNULL):
            started = time.perf_counter()
            try:
                for index, cell in enumerate(notebook.cells):
                    before = time.perf_counter()
                    client.execute_cell(cell, index)
                    if cell.cell_type == "code":
                        cell_times.append((time.perf_counter() - before, index))
            except Exception as error:  # a failing notebook is reported, not fatal
                status = f"FAILED in cell #{index} ({type(error).__name__})"
                failed += 1
            finished = time.perf_counter()
        run_times.append(finished - started)
        first = cell_times[0][0] if cell_times else 0.0
        slowest = max(cell_times[1:], default=(0.0, 0))
        print(
            f"{path.name[:40]:<40} {started - start:6.2f}s {finished - started:6.2f}s {first:5.2f}s "
            f"{slowest[0]:5.2f}s (#{slowest[1]:>3})  {status}"
        )
    print(f"{'total (kernel start excluded)':<40} {'':>7} {sum(run_times):6.2f}s")
    return {"notebooks": run_times, "notebooks failed": failed}


def bench_tests() -> dict[str, object]:
    command = [sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadfile", "-q"]
    print("\n## Test command: `make test` without linting and installation")
    print("$ " + " ".join([".venv/bin/python", *command[1:]]))
    start = time.perf_counter()
    completed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    summary = completed.stdout.strip().splitlines()[-1] if completed.stdout.strip() else "(no output)"
    print(f"{seconds:.1f}s wall, exit code {completed.returncode}: {summary}")
    failures = [line for line in completed.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))]
    for line in failures[:10]:
        print("  " + line[:150])
    if len(failures) > 10:
        print(f"  … and {len(failures) - 10} more")
    return {"tests": seconds}


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


def report_targets(results: dict[str, object]) -> None:
    print("\n## Targets")

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
    if results.get("notebooks"):
        worst, failed = max(results["notebooks"]), results["notebooks failed"]
        failures = f", but {failed} failed" if failed else ""
        ok = worst < NOTEBOOK_SECONDS and not failed
        print(f"{mark(ok)} {TARGETS['notebooks']}: slowest {worst:.2f} s{failures}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer sizes and repeats; implies --skip-tests")
    parser.add_argument("--repeats", type=int, default=None, help="timing repeats (default 7, quick 3)")
    for part in ("builders", "accuracy", "notebooks", "tests"):
        parser.add_argument(f"--skip-{part}", action="store_true", help=f"do not measure the {part}")
    args = parser.parse_args(argv)
    repeats = args.repeats or (3 if args.quick else 7)
    print(f"# make bench{' --quick' if args.quick else ''}: {machine()}")
    print("Shared machines make timings noisy: each time is the minimum of "
          f"{repeats} repeats; compare ratios, not times.")
    results: dict[str, object] = {}
    if not args.skip_builders:
        results |= bench_builders(QUICK_SIZES if args.quick else FULL_SIZES, repeats)
    if not args.skip_accuracy:
        results |= bench_accuracy(QUICK_ACCURACY_SIZES if args.quick else FULL_ACCURACY_SIZES)
    if not args.skip_notebooks:
        results |= bench_notebooks()
    if not (args.skip_tests or args.quick):
        results |= bench_tests()
    report_targets(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
