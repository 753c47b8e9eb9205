"""The browser check itself (tools/browser_check.py), on a tiny course made here.

The tiny course breaks each rule the check enforces, once: the check must find every fault,
keep the results of decks and pages that passed (and only those), reopen what changed, and
leave no browser process behind. tests/course/test_browser.py runs the check over the course.
The test that opens the browser is marked ``browser``: `make check-slides` runs it, first.
"""

from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from pe_utils.notebook_helpers import explorers
from tools import browser_check
from tools.paths import ROOT

# An explorer whose slider is bound to a parameter nothing uses: moving it changes nothing.
DEAD_SLIDER = {
    "description": "One point; the slider below is bound to a parameter that nothing uses.",
    "params": [{"name": "unused", "value": 1, "bind": {"input": "range", "min": 0, "max": 3, "step": 1}}],
    "data": {"values": [{"x": 1}]},
    "mark": "point",
    "encoding": {"x": {"field": "x", "type": "quantitative"}},
}
# A 1x1 PNG: a figure as pe_utils.show_figure stores it (text/html <img> with alt text).
PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="


def note(minutes=5):
    return new_markdown_cell(
        f'<details class="teacher-note">\n<summary>Teacher\'s note · about {minutes} min</summary>\n\n'
        "**Say.** One sentence.\n\n**Ask the class.** A question?\n\n**Answer.** Its answer.\n\n</details>",
        metadata={"slideshow": {"slide_type": "notes"}, "tags": ["teacher-note"]},
    )


def md(source, slide_type="-"):
    return new_markdown_cell(source, metadata={"slideshow": {"slide_type": slide_type}})


def code(source, outputs, slide_type="-", count=1):
    return new_code_cell(
        source, execution_count=count, outputs=outputs, metadata={"slideshow": {"slide_type": slide_type}}
    )


def tiny_course(folder):
    """01_good follows every rule; 02_bad breaks one rule per slide; 03_numbers hides its slide numbers.

    The slide number is checked two ways (tools/npm_packages/check_browser.mjs): with the inner
    markup of formulas, code and explorers set aside, unless a :has() style could make the number
    depend on it. 02_bad's number fault needs the markup; 03_numbers' does not.
    """
    folder.mkdir()
    figure = new_output(
        "display_data",
        {
            "text/html": f'<img src="data:image/png;base64,{PIXEL}" alt="One grey pixel, enlarged.">',
            "text/plain": "[figure] One grey pixel, enlarged.",
        },
    )
    good = [
        md(
            "# 01 — Good\n\n*A course* · notebook 01 of 02\n\n**The question:** does it fit?\n\nIt does.",
            "slide",
        ),
        note(),
        md(
            "## 1. Short\n\nA formula, $\\omega_i = 10000^{-2i/d}$, and\n\n"
            "$$T_k\\,\\mathrm{PE}(p) = \\mathrm{PE}(p+k).$$",
            "slide",
        ),
        note(),
        code(
            "print('a line that is long enough to wrap at a word boundary ' * 3)",
            [new_output("stream", name="stdout", text="a line that is long enough to wrap " * 6 + "\n")],
        ),
        md("### A figure", "subslide"),
        code("show_figure('One grey pixel, enlarged.')", [figure], count=2),
        md("### An explorer", "subslide"),
        code(
            "explorers.table_explorer(8, 4)",
            [new_output("display_data", explorers.table_explorer(8, 4)._repr_mimebundle_()[0])],
            count=3,
        ),
    ]
    long_formula = " + ".join(f"x_{{{i}}}" for i in range(90))
    header = " | ".join(f"column {i}" for i in range(16))
    row = " | ".join(str(i) for i in range(16))
    wide_table = f"| {header} |\n|" + "---|" * 16 + f"\n| {row} |"
    dead_slider, _ = explorers.Explorer(DEAD_SLIDER)._repr_mimebundle_()
    bad = [
        md("# 02 — Bad\n\nNo teacher note follows this title.", "slide"),
        md(
            "## 1. Too long\n\n" + "\n\n".join(f"Line {i} of a slide that is too long." for i in range(30)),
            "slide",
        ),
        note(),
        md("## 2. Too wide\n\n$$" + long_formula + "$$\n\n" + wide_table, "slide"),
        note(),
        md(
            "## 3. Raw math\n\nA formula MathJax refuses, $\\frac{1}{2}}$, and a raw subscript T_k in prose.",
            "slide",
        ),
        note(),
        md(
            '## 4. Network and console\n\n<img src="https://example.invalid/x.png" alt="remote">\n\n'
            f'<img src="data:image/png;base64,{PIXEL}">\n\n'
            '<script>console.error("boom from the page")</script>\n\n'
            # On the site: the page's sidebar loses its link to 01_good (the deck has no sidebar).
            "<script>document.querySelector('nav.bd-docs-nav a[href=\"01_good.html\"]')?.remove()</script>",
            "slide",
        ),
        note(),
        md("## 5. A slider that moves nothing", "slide"),
        note(),
        code("explorer", [new_output("display_data", dead_slider)], count=2),
        # A style that hides the slide number on the slides that hold a formula's fraction: the
        # number depends on what is inside the formula MathJax drew.
        md(
            "## 6. No slide number\n\n<style>.reveal:has(section.present mjx-mfrac) .slide-number "
            "{ display: none !important; }</style>\n\nOne half, $\\frac{1}{2}$, hides the number.",
            "slide",
        ),
        note(),
        # Inside the slide, so not clipped, but drawn under the slide number (bottom left).
        md(
            '## 7. Under the slide number\n\n<p style="position: fixed; left: 0; bottom: 0; margin: 0">'
            "Hidden by the number</p>",
            "slide",
        ),
        note(),
        # A paragraph in the system's serif, and a character the course's fonts have no glyph for.
        md(
            '## 8. System fonts\n\n<p style="font-family: serif">Set in the serif of the machine</p>\n\n'
            "A character without a glyph: \u6f22.",
            "slide",
        ),
        note(),
    ]
    numbers = [
        md(
            "# 03 — Numbers\n\n<style>.reveal .slide-number { display: none !important; }</style>\n\n"
            "A formula, $x_{2i} = \\sin(p\\,\\omega_i)$, and code:",
            "slide",
        ),
        note(),
        code("print(1)", [new_output("stream", name="stdout", text="1\n")]),
    ]
    nbformat.write(new_notebook(cells=good), folder / "01_good.ipynb")
    nbformat.write(new_notebook(cells=bad), folder / "02_bad.ipynb")
    nbformat.write(new_notebook(cells=numbers), folder / "03_numbers.ipynb")
    return folder


def processes_in_group(group):
    """Live (not zombie) process ids whose process group is ``group``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if fields[0] != "Z" and int(fields[2]) == group:
                found.append(int(entry.name))
    return found


@pytest.mark.browser  # `make check-slides` runs it before the check of the course
def test_the_check_finds_each_fault_and_leaves_no_browser(tmp_path):
    course = tiny_course(tmp_path / "notebooks")
    cache = tmp_path / "cache.json"
    # The tiny course's own home page (the site's index.html), not the course's README.
    readme = tmp_path / "README.md"
    readme.write_text("# A tiny course\n\nStart with [01](notebooks/01_good.ipynb).\n", encoding="utf-8")
    # The search from disk finds "refuses" on 02_bad only: asked to find it on 01_good, it must complain.
    report = browser_check.check(
        None,
        out=tmp_path / "build",
        folder=course,
        cache=cache,
        search=("refuses", "01_good.html"),
        readme=readme,
    )
    assert report.process_group > 0
    assert not processes_in_group(report.process_group), "a browser process outlived the check"
    assert report.slides == {"01_good": 4, "02_bad": 9, "03_numbers": 1}, report.summary()
    good = [p for p in report.problems if p.startswith(("01_good", "site/01_good"))]
    assert not good, "\n".join(good)
    bad = "\n".join(report.problems)

    def found(*parts):
        return any(all(part in line for part in parts) for line in report.problems)

    assert found("02_bad slide 0/0", "notes:", "(#) has no notes cell"), bad
    assert found("02_bad slide 1/0", '"1. Too long"', "clipped:", "at the bottom"), bad
    assert found("02_bad slide 2/0", '"2. Too wide"', "clipped:", "right"), bad
    assert found("02_bad slide 3/0", "math:", "MathJax error"), bad
    assert found("02_bad slide 3/0", "math:", "T_k"), bad
    assert found("02_bad deck", "network:", "https://example.invalid/x.png"), bad
    assert found("02_bad deck", "console:", "boom from the page"), bad
    assert found("02_bad slide 4/0", "image:", "without alt text"), bad
    assert found("02_bad slide 6/0", "number:", 'shows "", expected "7/9"'), bad
    assert found(
        "02_bad slide 7/0",
        '"7. Under the slide number"',
        "clipped:",
        "Hidden by the number",
        "under the slide number",
    ), bad
    assert found("02_bad slide 8/0", '"8. System fonts"', "font:", 'set in "serif"', "Set in the serif"), bad
    assert found("02_bad slide 8/0", "font:", "drawn with the system font", "Set in the serif"), bad
    assert found("02_bad slide 8/0", "font:", "Course Sans 400 normal has no glyph for \u6f22 (U+6F22)"), bad
    fonts = [p for p in report.problems if p.startswith("02_bad") and "font:" in p]
    assert all("slide 8/0" in p for p in fonts), bad  # the other slides use the course's fonts only
    assert found("03_numbers slide 0/0", "number:", 'shows "", expected "1/1"'), bad
    numbers = [p for p in report.problems if "number:" in p]
    assert len(numbers) == 2, bad  # no other slide's number is missing or wrong
    assert report.number_markup == {"01_good": "set aside", "02_bad": "in place", "03_numbers": "set aside"}
    assert report.clipped == {"01_good": 0, "02_bad": 3, "03_numbers": 0}, report.summary()
    for kind in (
        "network:",
        "console:",
        "without alt text",
        "math:",
        'font: 1 text(s) set in "serif"',
        "U+6F22",
    ):
        assert found("site/02_bad.html", kind), (kind, bad)
    assert found("site/02_bad.html", "explorer:", "did not change the chart"), bad
    assert report.explorers == {"01_good.html": 1, "02_bad.html": 1}, report.summary()
    assert not [p for p in report.problems if p.startswith("site/index.html")], bad
    assert report.searches == {"refuses": ["02_bad.html"]}, report.searches
    assert found("site/search.html?q=refuses", "search:", "does not find 01_good.html", "02_bad.html"), bad
    sidebar = [p for p in report.problems if "sidebar:" in p]
    assert sidebar == ["site/02_bad.html: sidebar: the sidebar does not link 01_good.html"], bad
    assert report.cached == []  # a cache of its own, empty at first

    # Checked again: a deck that passed is not opened (here: no browser at all) and gives what it
    # gave. (That a page with a problem is not kept, so is opened every time: the test below.)
    again = browser_check.check(
        [course / "01_good.ipynb"], out=tmp_path / "again", folder=course, site=False, cache=cache
    )
    assert again.cached == ["01_good.slides.html"] and again.process_group == 0, again.summary()
    assert (again.slides, again.clipped, again.problems) == ({"01_good": 4}, {"01_good": 0}, [])
    assert again.number_markup == {"01_good": "set aside"}


def test_the_cache_keeps_passing_results_of_unchanged_pages_only(tmp_path):
    page, other = tmp_path / "a.html", tmp_path / "b.html"
    page.write_text("<p>a</p>")
    other.write_text("<p>b</p>")
    passed = {"slides": [{"h": 0, "v": 0, "label": "A", "clipped": False}], "problems": [], "notes": 1}
    failed = {"slides": [], "problems": [{"kind": "load", "detail": "timeout"}], "notes": 0}
    cache = browser_check.ResultCache(tmp_path / "cache.json", "environment")
    cache.put(page, "deck", passed, "Chrome/1")
    cache.put(other, "deck", failed, "Chrome/1")
    assert cache.get(page, "deck") == {**passed, "browser": "Chrome/1", "times": {}}
    assert cache.get(other, "deck") is None  # a page with a problem is opened every time
    assert len(cache.entries) == 1  # and is not even stored
    assert cache.get(page, "page") is None  # a deck's result is not a site page's
    cache.save()
    stored = tmp_path / "cache.json"
    assert browser_check.ResultCache(stored, "environment").get(page, "deck")["slides"] == passed["slides"]
    assert browser_check.ResultCache(stored, "other checker").get(page, "deck") is None
    page.write_text("<p>a, edited</p>")
    assert browser_check.ResultCache(stored, "environment").get(page, "deck") is None
    stored.write_text("{not json")
    assert browser_check.ResultCache(stored, "environment").entries == {}


def test_the_cache_keeps_the_newest_entries(tmp_path, monkeypatch):
    monkeypatch.setattr(browser_check, "CACHE_ENTRIES", 3)
    cache = browser_check.ResultCache(tmp_path / "cache.json", "environment")
    pages = []
    for index in range(5):
        pages.append(tmp_path / f"{index}.html")
        pages[-1].write_text(str(index))
        cache.put(pages[-1], "page", {"problems": []}, "Chrome/1")
    cache.put(pages[0], "page", {"problems": []}, "Chrome/1")  # used again: the newest
    cache.save()
    reloaded = browser_check.ResultCache(tmp_path / "cache.json", "environment")
    assert [reloaded.get(page, "page") is not None for page in pages] == [True, False, False, True, True]


def test_the_fingerprint_follows_what_a_result_depends_on_not_the_machine(tmp_path, monkeypatch):
    tools, npm = ROOT / "tools", ROOT / "tools" / "npm_packages"
    read = {
        tools / "browser_check.py",
        tools / "deck_html.py",
        tools / "build_slides.py",
        tools / "explorers_web.py",
        tools / "course_fonts.py",
        tools / "chromium.py",
        npm / "check_browser.mjs",
        npm / "explorers_check.mjs",
        npm / "chromium.mjs",
        npm / "package-lock.json",
        npm / "node_modules" / ".package-lock.json",
        ROOT / "requirements.txt",
    }
    assert read <= set(browser_check.CHECKER_FILES), read - set(browser_check.CHECKER_FILES)
    checker = tmp_path / "check_browser.mjs"
    checker.write_text("// version 1")
    monkeypatch.setattr(browser_check, "CHECKER_FILES", [checker, tmp_path / "not installed yet"])
    monkeypatch.setattr(browser_check.chromium, "BROWSER_FOLDER", tmp_path / ".chromium")
    folder = tmp_path / "notebooks"
    (folder / ".ipynb_checkpoints").mkdir(parents=True)
    (folder / "01_a.ipynb").write_text("{}")
    (folder / "figure.png").write_bytes(b"png 1")
    first = browser_check.fingerprint((1280, 720), folder)
    assert browser_check.fingerprint((1280, 720), folder) == first
    (folder / "01_a.ipynb").write_text('{"edited": 1}')  # a notebook counts through its page's bytes
    (folder / ".ipynb_checkpoints" / "01_a-checkpoint.ipynb").write_text("{}")
    (tmp_path / ".chromium" / "fonts").mkdir(parents=True)  # the browser unpacked by the first run
    (tmp_path / ".chromium" / "fonts" / "font.ttf").write_bytes(b"font")
    # The machine's fonts decide nothing (a page that passes draws no text with them): a user's
    # fonts, fontconfig's settings and the locale are not read.
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home" / ".fonts").mkdir(parents=True)
    (tmp_path / "home" / ".fonts" / "Another.ttf").write_bytes(b"font")
    for name in ("LANG", "LC_ALL", "FONTCONFIG_FILE"):
        monkeypatch.setenv(name, "ja_JP.UTF-8" if name.startswith("L") else str(tmp_path / "fonts.conf"))
    assert browser_check.fingerprint((1280, 720), folder) == first
    changed = []
    changed.append(browser_check.fingerprint((1024, 768), folder))
    (folder / "figure.png").write_bytes(b"png 2")  # a file the pages copy
    changed.append(browser_check.fingerprint((1280, 720), folder))
    (folder / ".hidden.css").write_text("p {}")  # copied like any other
    changed.append(browser_check.fingerprint((1280, 720), folder))
    checker.write_text("// version 2")
    changed.append(browser_check.fingerprint((1280, 720), folder))
    (tmp_path / "not installed yet").write_text("installed")
    changed.append(browser_check.fingerprint((1280, 720), folder))
    assert len({first, *changed}) == 1 + len(changed), "each change must change the fingerprint"


def test_the_check_keys_its_cache_by_the_fingerprint_and_never_uses_it_for_screenshots(
    tmp_path, monkeypatch, capsys
):
    # check()'s own wiring, with a stand-in for the browser that passes every deck it is sent.
    course = tiny_course(tmp_path / "notebooks")
    sent = []

    class PassingBrowser:
        def __init__(self, job, timeout):
            self.process = None

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            pass

        def send(self, path, kind):
            sent.append(path.name)

        def finish(self):
            found = {
                "slides": [{"h": 0, "v": 0, "label": "Good", "clipped": False}],
                "problems": [],
                "notes": 1,
                "markup": "set aside",
            }
            return {
                "browser": "Stand-in/1",
                "decks": {str(path): found for path in (tmp_path).rglob("01_good.slides.html")},
                "pages": {},
            }

    monkeypatch.setattr(browser_check, "BrowserRun", PassingBrowser)
    asked = []
    real = browser_check.fingerprint
    monkeypatch.setattr(
        browser_check, "fingerprint", lambda size, folder: asked.append((size, folder)) or real(size, folder)
    )
    cache, good = tmp_path / "cache.json", [course / "01_good.ipynb"]
    first = browser_check.check(good, (1024, 768), tmp_path / "a", course, site=False, cache=cache)
    assert asked == [((1024, 768), course)] and sent == ["01_good.slides.html"] and first.cached == []
    again = browser_check.check(good, (1024, 768), tmp_path / "b", course, site=False, cache=cache)
    assert sent == ["01_good.slides.html"] and again.cached == ["01_good.slides.html"]
    assert again.slides == first.slides == {"01_good": 1} and again.browser == "Stand-in/1"
    shots = browser_check.check(
        good, (1024, 768), tmp_path / "c", course, tmp_path / "shots", site=False, cache=cache
    )
    assert shots.cached == [] and len(sent) == 2 and len(asked) == 2  # reopened; no cache read
    monkeypatch.setattr(browser_check, "fingerprint", lambda size, folder: "another checker")
    changed = browser_check.check(good, (1024, 768), tmp_path / "d", course, site=False, cache=cache)
    assert changed.cached == [] and len(sent) == 3  # a new fingerprint: opened again

    def full_disk(self):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(browser_check.ResultCache, "save", full_disk)
    unsaved = browser_check.check(good, (1024, 768), tmp_path / "e", course, site=False, cache=cache)
    assert unsaved.ok and unsaved.cached == ["01_good.slides.html"]  # the check stands; only keeping fails
    assert "the results were not kept" in capsys.readouterr().err
