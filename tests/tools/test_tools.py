"""The learner's tools: the static site, the slide decks, the workspace copies, slideshow metadata."""

import re
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from tools import build_slides, deck_html, run_notebooks, workspace
from tools.paths import course_notebooks

NOTEBOOKS = course_notebooks()
SLIDE_TYPES = {"slide", "subslide", "fragment", "-", "skip", "notes"}


class Links(HTMLParser):
    """Collects every href and src of a page."""

    def __init__(self):
        super().__init__()
        self.targets = []

    def handle_starttag(self, tag, attrs):
        self.targets += [value for name, value in attrs if name in ("href", "src") and value]


def local_targets(page):
    parser = Links()
    parser.feed(page.read_text(encoding="utf-8"))
    return [t for t in parser.targets if not re.match(r"^[a-z][a-z0-9+.-]*:|^#|^//", t, re.I)]


def assert_links_resolve(folder):
    for page in folder.rglob("*.html"):
        for target in local_targets(page):
            path = unquote(urlsplit(target).path)
            assert not path.endswith(".ipynb"), f"{page.name} still links a notebook: {target}"
            assert (page.parent / path).exists(), f"{page.name}: {target} does not exist"


class Resources(HTMLParser):
    """Collects what a page loads (script src, link href, img src, …) and its inline scripts."""

    LOADED = {
        "script": "src",
        "link": "href",
        "img": "src",
        "iframe": "src",
        "source": "src",
        "audio": "src",
        "video": "src",
        "embed": "src",
        "object": "data",
    }

    def __init__(self):
        super().__init__()
        self.loaded, self.inline_scripts, self.styles = [], [], []
        self._in = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get(self.LOADED.get(tag, "")):
            self.loaded.append(attrs[self.LOADED[tag]])
        if tag in ("script", "style") and not attrs.get("src"):
            self._in = tag
            (self.inline_scripts if tag == "script" else self.styles).append("")

    def handle_endtag(self, tag):
        if tag == self._in:
            self._in = None

    def handle_data(self, data):
        if self._in:
            target = self.inline_scripts if self._in == "script" else self.styles
            target[-1] += data


REMOTE = re.compile(r"^(?:[a-z][a-z0-9+.-]*:)?//", re.I)  # http://, https://, //host
REMOTE_IN_CSS = re.compile(r"""(?:url\(|@import)\s*["']?(?:https?:)?//""", re.I)


def assert_offline(folder):
    """Every page of ``folder`` loads MathJax (and reveal.js, for a deck) from local files only.

    Reading a page must need no network: nothing a page loads is remote, no inline script or
    style fetches from the web, and the local MathJax (with its fonts) and reveal.js exist.
    """
    pages = sorted(folder.glob("*.html"))
    assert pages
    for page in pages:
        parser = Resources()
        parser.feed(page.read_text(encoding="utf-8"))
        remote = [url for url in parser.loaded if REMOTE.match(url)]
        assert not remote, f"{page.name} loads from the network: {remote}"
        assert not [s for s in parser.inline_scripts if re.search(r"https?://", s)], page.name
        assert not [s for s in parser.styles if REMOTE_IN_CSS.search(s)], page.name
        mathjax = [url for url in parser.loaded if url.endswith("tex-chtml-full.js")]
        assert len(mathjax) == 1, f"{page.name} loads MathJax {len(mathjax)} times"
        script = page.parent / mathjax[0]
        assert script.is_file(), f"{page.name}: {mathjax[0]} does not exist"
        assert (script.parent / "output/chtml/fonts/woff-v2/MathJax_Main-Regular.woff").is_file()
        # The fonts the page ships (tools/course_fonts.py), next to it: text measures the same everywhere.
        styles = "".join(parser.styles)
        assert '@font-face { font-family: "Course Sans"' in styles, f"{page.name} does not ship its fonts"
        for url in re.findall(r"""url\(["']?([^"')]+)["']?\)""", styles):
            assert url.startswith("data:") or (page.parent / url).is_file(), (page.name, url)
        config = [s for s in parser.inline_scripts if "window.MathJax" in s]
        assert config and re.search(r"""inlineMath": \[\s*\["\$", "\$"\]""", config[0]), (
            f"{page.name}: MathJax 3 is not told about $...$"
        )
        assert "MathJax.Hub" not in "".join(parser.inline_scripts), f"{page.name} uses MathJax 2's API"
        if page.name.endswith(".slides.html"):
            for needed in ("dist/reveal.js", "plugin/notes/notes.js", "dist/reveal.css", "dist/theme/"):
                found = [url for url in parser.loaded if needed in url]
                assert found and all((page.parent / url).is_file() for url in found), (page.name, needed)
            assert any("Reveal.initialize" in s for s in parser.inline_scripts), page.name
    for sheet in folder.rglob("*.css"):  # e.g. the reveal.js theme: no web fonts
        assert not REMOTE_IN_CSS.search(sheet.read_text(encoding="utf-8")), sheet


def tiny_course(folder):
    """Two notebooks that link each other and an image, like the course's do."""
    folder.mkdir()
    (folder / "figures").mkdir()
    (folder / "figures" / "dot.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    for number, other in (("01", "02_b.ipynb"), ("02", "01_a.ipynb#Title")):
        cells = [
            new_markdown_cell(
                f"# Title {number}\n\nSee [the other]({other}) and ![a dot](figures/dot.png).",
                metadata={"slideshow": {"slide_type": "slide"}},
            ),
            new_code_cell(
                "1 + 1",
                execution_count=1,
                metadata={"slideshow": {"slide_type": "-"}},
                outputs=[new_output("execute_result", {"text/plain": "2"}, execution_count=1)],
            ),
        ]
        name = "01_a.ipynb" if number == "01" else "02_b.ipynb"
        nbformat.write(new_notebook(cells=cells), folder / name)
    return folder


# ---- every cell of every notebook says how it is shown as a slide --------------------------------


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_every_cell_has_slideshow_metadata(path):
    notebook = nbformat.read(path, as_version=4)
    missing = [
        i
        for i, cell in enumerate(notebook.cells)
        if cell.metadata.get("slideshow", {}).get("slide_type") not in SLIDE_TYPES
    ]
    assert not missing, f"{path.name}: cells {missing} have no valid metadata['slideshow']['slide_type']"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_title_and_every_section_have_a_teacher_note(path):
    problems = run_notebooks.slide_layout_problems(nbformat.read(path, as_version=4))
    assert not problems, f"{path.name}:\n" + "\n".join(problems)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_teacher_notes_write_math_in_unicode(path):
    # The speaker view copies a note without MathJax's style, so `$…$` would show as raw TeX there.
    notebook = nbformat.read(path, as_version=4)
    with_tex = [
        i
        for i, cell in enumerate(notebook.cells)
        if "teacher-note" in cell.metadata.get("tags", []) and re.search(r"\$[^$\n]+\$", cell.source)
    ]
    assert not with_tex, f"{path.name}: teacher notes in cells {with_tex} contain $…$; write Unicode (Tₖ, ωᵢ)"


def teacher_note():
    """A notes cell in the contract's shape."""
    return new_markdown_cell(
        '<details class="teacher-note">\n<summary>Teacher\'s note · about 5 min</summary>\n\n'
        "**Say.** Hello.\n\n</details>",
        metadata={"slideshow": {"slide_type": "notes"}, "tags": ["teacher-note"]},
    )


def test_slide_layout_problems_name_each_gap():
    slide = {"slideshow": {"slide_type": "slide"}}
    good = new_notebook(
        cells=[
            new_markdown_cell("# 01 — T", metadata=slide),
            teacher_note(),
            new_markdown_cell("## 1. A", metadata=slide),
            teacher_note(),
            new_markdown_cell("```\n# a comment, not a title\n```", metadata=slide),
        ]
    )
    assert run_notebooks.slide_layout_problems(good) == []
    bad = new_notebook(
        cells=[
            new_markdown_cell("# 01 — T", metadata=slide),
            new_markdown_cell("## 1. A", metadata=slide),
            teacher_note(),
            new_code_cell("1"),
        ]
    )
    problems = run_notebooks.slide_layout_problems(bad)
    assert len(problems) == 2, problems
    assert "cell 0, title # '01 — T'" in problems[0] and "cell 3 has no valid" in problems[1]


def test_make_outputs_keeps_slide_metadata_and_warns_on_gaps(tmp_path, capsys):
    cells = [
        new_markdown_cell("# 01 — Demo", metadata={"slideshow": {"slide_type": "slide"}}),
        new_code_cell(
            "x = 6 * 7\nprint(x)", metadata={"slideshow": {"slide_type": "fragment"}, "tags": ["keep-me"]}
        ),
    ]
    path = tmp_path / "01_demo.ipynb"
    nbformat.write(new_notebook(cells=cells), path)
    assert run_notebooks.main([str(path)]) == 0
    stored = nbformat.read(path, as_version=4).cells
    assert stored[0].metadata == {"slideshow": {"slide_type": "slide"}}
    assert stored[1].metadata == {"slideshow": {"slide_type": "fragment"}, "tags": ["keep-me"]}
    assert stored[1].outputs[0]["text"] == "42\n"
    assert "WARNING 01_demo.ipynb: cell 0, title # '01 — Demo', is not followed by a teacher-note cell" in (
        capsys.readouterr().err
    )


def test_every_notebook_starts_with_a_slide():
    for path in NOTEBOOKS:
        cells = nbformat.read(path, as_version=4).cells
        shown = [
            c for c in cells if c.metadata.get("slideshow", {}).get("slide_type") not in ("skip", "notes")
        ]
        assert shown and shown[0].metadata["slideshow"]["slide_type"] == "slide", path.name


# ---- the site and the decks ---------------------------------------------------------------------


# The whole course's site and decks are built once, by tests/course/test_browser.py, which checks them
# with assert_course_builds (below) and then in the browser.


def assert_course_builds(site, slides, notebooks):
    """The site and decks built from ``notebooks``: every page, in course order, offline, linked.

    The site (Sphinx, tools/site/) is checked by tests/tools/test_site.py's ``assert_site_builds``.
    """
    from tests.tools import test_site

    test_site.assert_site_builds(site, notebooks)
    decks = sorted(p.name for p in slides.glob("[0-9][0-9]_*.slides.html"))
    assert decks == [p.stem + ".slides.html" for p in notebooks]
    assert_links_resolve(slides)
    assert_offline(slides)
    for path in notebooks:  # the generated navigation now points at pages
        if "<!-- nav -->" in nbformat.read(path, as_version=4).cells[0].source:
            page = (site / (path.stem + ".html")).read_text(encoding="utf-8")
            assert 'href="00_contents.html"' in page or path.name.startswith("00_"), path.name


def test_slides_are_reveal_decks(tmp_path):
    course = tiny_course(tmp_path / "notebooks")
    build_slides.build(tmp_path / "slides", course)
    deck = (tmp_path / "slides" / "01_a.slides.html").read_text(encoding="utf-8")
    assert "reveal" in deck.lower() and 'href="02_b.slides.html"' in deck
    assert (tmp_path / "slides" / "index.html").exists()
    assert_links_resolve(tmp_path / "slides")
    assert_offline(tmp_path / "slides")


def figure_notebook(folder):
    """A notebook with a cell that draws a figure and a cell that prints."""
    folder.mkdir()
    png = {"image/png": "iVBORw0KGgo=", "text/plain": "<Figure>"}
    cells = [
        new_markdown_cell("# Figures", metadata={"slideshow": {"slide_type": "slide"}}),
        new_code_cell(
            "draw_the_figure()",
            execution_count=1,
            metadata={"slideshow": {"slide_type": "-"}},
            outputs=[new_output("display_data", png)],
        ),
        new_code_cell(
            "print_a_number()",
            execution_count=2,
            metadata={"slideshow": {"slide_type": "-"}},
            outputs=[new_output("stream", name="stdout", text="2\n")],
        ),
        new_code_cell(
            "show_the_figure()",
            execution_count=3,
            metadata={"slideshow": {"slide_type": "-"}},
            outputs=[
                new_output(
                    "display_data",
                    {
                        "text/html": '<img src="data:image/png;base64,iVBORw0KGgo=" '
                        'alt="A described figure.">',
                        "text/plain": "[figure] A described figure.",
                    },
                )
            ],
        ),
    ]
    nbformat.write(new_notebook(cells=cells), folder / "01_figures.ipynb")
    return folder


def test_decks_fit_a_projector_and_open_teacher_notes(tmp_path):
    course = tiny_course(tmp_path / "notebooks")
    notebook = nbformat.read(course / "01_a.ipynb", as_version=4)
    notebook.cells.insert(1, teacher_note())
    nbformat.write(notebook, course / "01_a.ipynb")
    build_slides.build(tmp_path / "slides", course)
    deck = (tmp_path / "slides" / "01_a.slides.html").read_text(encoding="utf-8")
    assert '<details class="teacher-note" open>' in deck, "notes open in the speaker view"
    assert 'slideNumber: "c/t"' in deck and "center: false" in deck
    assert "width: 1280" in deck and "height: 720" in deck
    style = deck[deck.index('<style id="course-slides">') :]
    assert style.index("</style>") < style.index("</head>")
    assert deck.index('id="theme"') < deck.index('<style id="course-slides">'), "the course's style wins"
    assert ".jp-InputPrompt" in style and "pre-wrap" in style


def test_pages_get_alt_text_and_focusable_cells_without_beautifulsoup():
    page = (
        '<div class="jp-Cell-inputWrapper"><img src="a.png"><img alt="A dot." src="b.png"></div>'
        '<div class="jp-RenderedText jp-OutputArea-output" data-mime-type="text/plain"></div>'
        '<div class="jp-OutputArea-child"></div>'
    )
    assert deck_html.accessible(page) == (
        '<div class="jp-Cell-inputWrapper" tabindex="0"><img alt="No description has been provided for this '
        'image" src="a.png"><img alt="A dot." src="b.png"></div>'
        '<div class="jp-RenderedText jp-OutputArea-output" tabindex="0" data-mime-type="text/plain"></div>'
        '<div class="jp-OutputArea-child"></div>'
    )


def test_open_teacher_notes_touches_only_notes():
    page = (
        '<details class="x">a</details><aside class="notes"><details class="teacher-note">'
        '<summary>s</summary></details></aside><aside class="notes"><details open>b</details></aside>'
    )
    assert build_slides.open_teacher_notes(page) == (
        '<details class="x">a</details><aside class="notes"><details class="teacher-note" open>'
        '<summary>s</summary></details></aside><aside class="notes"><details open>b</details></aside>'
    )


def test_build_only_some_decks(tmp_path):
    course = tiny_course(tmp_path / "notebooks")
    build_slides.build(tmp_path / "slides", course, only=[course / "02_b.ipynb"])
    assert sorted(p.name for p in (tmp_path / "slides").glob("0*.html")) == ["02_b.slides.html"]
    with pytest.raises(ValueError, match="only must name course notebooks"):
        build_slides.build(tmp_path / "slides", course, only=[tmp_path / "03_c.ipynb"])


@pytest.mark.parametrize("hide", [True, False])
def test_slides_show_figures_without_their_code(tmp_path, hide):
    course = figure_notebook(tmp_path / "notebooks")
    build_slides.build(tmp_path / "slides", course, hide_figure_code=hide)
    deck = (tmp_path / "slides" / "01_figures.slides.html").read_text(encoding="utf-8")
    assert "data:image/png;base64,iVBORw0KGgo=" in deck, "the figure stays"
    assert ("draw_the_figure" in deck) is not hide
    assert ("show_the_figure" in deck) is not hide, "a figure stored as <img> (show_figure) counts too"
    assert 'alt="A described figure."' in deck
    assert "print_a_number" in deck, "code without a figure stays"
    assert "draw_the_figure" in nbformat.read(course / "01_figures.ipynb", as_version=4).cells[1].source


# ---- workspace copies --------------------------------------------------------------------------


def test_workspace_copies_and_never_overwrites(tmp_path, capsys):
    course = tiny_course(tmp_path / "notebooks")
    (course / ".ipynb_checkpoints").mkdir()
    (course / ".ipynb_checkpoints" / "01_a-checkpoint.ipynb").write_text("{}")
    target = tmp_path / "workspace"

    workspace.main(["--notebooks", str(course), "--workspace", str(target)])
    assert sorted(p.relative_to(target).as_posix() for p in target.rglob("*") if p.is_file()) == [
        "01_a.ipynb",
        "02_b.ipynb",
        "figures/dot.png",
    ]
    assert "3 copied, 0 kept" in capsys.readouterr().out

    (target / "01_a.ipynb").write_text("my answers")
    (target / "02_b.ipynb").unlink()
    workspace.main(["--notebooks", str(course), "--workspace", str(target)])
    out = capsys.readouterr().out
    assert (target / "01_a.ipynb").read_text() == "my answers"
    assert "copied 02_b.ipynb" in out and "kept   01_a.ipynb" in out
    assert "1 copied, 2 kept" in out


def test_remembered_markdown_and_code_are_what_nbconvert_makes_and_are_made_once(monkeypatch):
    # The site and the decks render each markdown cell and highlight each code cell once per
    # process (deck_html.RememberedMarkdown, RememberedHighlight); a remembered result must be
    # the exporter's own, and whatever the exporter reads must tell two results apart.
    monkeypatch.setattr(deck_html.RememberedMarkdown, "_made", {})
    monkeypatch.setattr(deck_html.RememberedHighlight, "_made", {})
    exporter = deck_html.FastHTMLExporter(template_name="lab")
    calls = []
    plain = exporter.markdown2html

    def spy(context, source):
        calls.append(source)
        return plain(context, source)

    spy.jinja_pass_arg = plain.jinja_pass_arg
    monkeypatch.setattr(exporter, "markdown2html", spy)
    remembered = deck_html.RememberedMarkdown(exporter)
    pixel = {
        "image/png": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA"
        "60e6kgAAAABJRU5ErkJggg=="
    }
    source = "A formula $x_i$ and ![dot](attachment:dot.png)"
    grey = {"cell": {"attachments": {"dot.png": pixel}}, "resources": {"metadata": {"path": "/course"}}}
    other = {"image/png": pixel["image/png"][::-1]}  # other data under the same name
    white = {"cell": {"attachments": {"dot.png": other}}, "resources": {"metadata": {"path": "/course"}}}
    first = remembered(grey, source)
    assert first == plain(grey, source) and remembered(grey, source) == first
    assert len(calls) == 1  # the second came from memory
    second = remembered(white, source)
    assert second == plain(white, source) and second != first and len(calls) == 2
    assert deck_html.RememberedMarkdown(exporter).jinja_pass_arg == plain.jinja_pass_arg
    # The notebook's folder and the exporter's settings are read too: each is a new entry.
    elsewhere = {**grey, "resources": {"metadata": {"path": "/elsewhere"}}}
    assert remembered(elsewhere, source) == plain(elsewhere, source) and len(calls) == 3
    heading = "## A heading"
    remembered(grey, heading)
    exporter.anchor_link_text = "#"
    assert remembered(grey, heading) == plain(grey, heading) and len(calls) == 5
    exporter.embed_images = True  # reads image files from disk: never remembered
    remembered(grey, heading)
    remembered(grey, heading)
    assert len(calls) == 7

    highlight = deck_html.Highlight2HTML(pygments_lexer="ipython3")
    remembered_code = deck_html.RememberedHighlight(highlight)
    python = remembered_code("x = 1  # a comment")
    assert python == highlight("x = 1  # a comment") and remembered_code("x = 1  # a comment") == python
    assert remembered_code("x = 1  # a comment", "text") == highlight("x = 1  # a comment", "text") != python
