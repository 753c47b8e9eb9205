"""The course's web site (tools/site/: Sphinx + myst-nb + sphinx-book-theme), built from a tiny course.

tests/course/test_browser.py builds the whole course's site once and checks it with
``assert_site_builds`` (below) and then in the browser (sidebar, search, math, explorers).
"""

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from pe_utils.notebook_helpers import explorers
from tests.tools import test_tools  # Links, Resources, REMOTE: the pages' parsers
from tools.paths import ROOT, course_notebooks
from tools.site import build as site_build
from tools.site import course_site


def sidebar_links(page: Path) -> list[str]:
    """The pages the sidebar (the theme's ``nav.bd-docs-nav``) of ``page`` links, in order."""
    text = page.read_text(encoding="utf-8")
    nav = re.search(r'<nav class="bd-links bd-docs-nav".*?</nav>', text, re.DOTALL)
    assert nav, f"{page.name} has no sidebar"
    links = re.findall(r'<a class="[^"]*reference internal[^"]*" href="([^"]*)"', nav[0])
    return [page.name if href in ("", "#") else href.split("#")[0] for href in links]


def assert_site_builds(site: Path, notebooks: list[Path]) -> None:
    """The site built from ``notebooks``: every page, in course order in every sidebar, offline, linked."""
    pages = [path.stem + ".html" for path in notebooks]
    assert sorted(p.name for p in site.glob("[0-9][0-9]_*.html")) == pages
    guides = [f"{path.stem}.html" for path in sorted(notebooks[0].parent.glob("*.md"))] if notebooks else []
    # 00's tracks have a page of their own, right after 00 (a course without 00 has none)
    tracks = [f"{site_build.TRACKS}.html"] if pages and pages[0].startswith("00_") else []
    sidebar = ["index.html", *pages[:1], *tracks, *pages[1:], *guides]
    for page in [site / "index.html", *(site / name for name in pages + tracks + guides)]:
        assert sidebar_links(page) == sidebar, f"{page.name}: sidebar in course order"
        html = page.read_text(encoding="utf-8")
        parser = test_tools.Resources()
        parser.feed(html)
        remote = [url for url in parser.loaded if test_tools.REMOTE.match(url)]
        assert not remote, f"{page.name} loads from the network: {remote}"
        assert not [s for s in parser.inline_scripts if re.search(r"https?://", s)], page.name
        mathjax = [url for url in parser.loaded if urlsplit(url).path.endswith("tex-chtml-full.js")]
        assert len(mathjax) == 1, f"{page.name} loads MathJax {len(mathjax)} times"
        script = site / urlsplit(mathjax[0]).path
        fonts = script.parent / "output/chtml/fonts/woff-v2"
        assert script.is_file() and (fonts / "MathJax_Main-Regular.woff").is_file(), page.name
        config = [s for s in parser.inline_scripts if "window.MathJax" in s]
        assert config and re.search(r"""\[\s*["']\$["'],\s*["']\$["']\s*\]""", config[0]), page.name
        links = test_tools.Links()
        links.feed(html)
        for target in links.targets:
            if re.match(r"^[a-z][a-z0-9+.-]*:|^//", target, re.I):
                continue
            path, fragment = unquote(urlsplit(target).path), urlsplit(target).fragment
            if path.startswith("_sources/"):  # the download button gives the notebook
                assert (site / path).is_file(), f"{page.name}: {target} does not exist"
                continue
            assert not path.endswith((".ipynb", ".md")), f"{page.name} still links a source file: {target}"
            linked = page if not path else site / path
            assert linked.is_file(), f"{page.name}: {target} does not exist"
            if fragment and linked.suffix == ".html":
                ids = linked.read_text(encoding="utf-8")
                assert f'id="{fragment}"' in ids, f"{page.name}: {target}: no such id"
    for sheet in site.rglob("*.css"):
        assert not test_tools.REMOTE_IN_CSS.search(sheet.read_text(encoding="utf-8")), sheet
    assert (site / "searchindex.js").is_file() and (site / "search.html").is_file()


def tiny_course(folder: Path) -> Path:
    """Two notebooks (a figure, a teacher note, an explorer, a Going deeper part) and a guide."""
    folder.mkdir()
    (folder / "figures").mkdir()
    (folder / "figures" / "dot.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    note = new_markdown_cell(
        '<details class="teacher-note">\n'
        "<summary>Teacher's note · about 5 min</summary>\n\n**Say.** Hi.\n\n</details>",
        metadata={"tags": ["teacher-note"]},
    )
    explorer = explorers.table_explorer(8, 4)._repr_mimebundle_()[0]
    first = [
        new_markdown_cell(
            "# 01 — Title\n\nSee [the next one](02_b.ipynb), "
            "[its part](02_b.ipynb#2.-Part-two,-later) and ![a dot](figures/dot.png). "
            "The word zebrafinch, and $\\omega_i = 10000^{-2i/d}$."
        ),
        note,
        new_code_cell(
            "explorers.table_explorer(8, 4)",
            execution_count=1,
            outputs=[new_output("display_data", explorer)],
        ),
        new_markdown_cell("## Going deeper\n\nFor later."),
    ]
    second = [
        new_markdown_cell(
            "# 02 — Second\n\nBack to [01](01_a.ipynb#01-—-Title); teachers: [the guide](GUIDE.md#part-two)."
        ),
        new_markdown_cell("## 2. Part two, later\n\nText."),
        new_code_cell(
            "1 + 1",
            execution_count=1,
            outputs=[new_output("execute_result", {"text/plain": "2"}, execution_count=1)],
        ),
    ]
    nbformat.write(new_notebook(cells=first), folder / "01_a.ipynb")
    nbformat.write(new_notebook(cells=second), folder / "02_b.ipynb")
    (folder / "GUIDE.md").write_text(
        "# Guide\n\nSee [part two](#part-two), [notebook 01](01_a.ipynb), [the README](../README.md) and "
        "[the rules](../CONTRIBUTING.md).\n\n## Part two\n\nText.\n",
        encoding="utf-8",
    )
    (folder.parent / "README.md").write_text(
        "# A tiny course\n\nStart with [01](notebooks/01_a.ipynb) or read [the guide](notebooks/GUIDE.md).\n",
        encoding="utf-8",
    )
    return folder


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The tiny course's site, built once for the tests of this file."""
    course = tiny_course(tmp_path_factory.mktemp("course") / "notebooks")
    site = course.parent / "site"
    site_build.build(site, course, course.parent / "README.md")
    return course, site


def test_every_page_is_built_offline_with_a_sidebar_in_course_order(built):
    course, site = built
    assert_site_builds(site, course_notebooks(course))


def test_links_between_notebooks_guides_and_the_readme_resolve_to_pages(built):
    _, site = built
    first = (site / "01_a.html").read_text(encoding="utf-8")
    assert 'href="02_b.html"' in first and 'href="02_b.html#part-two-later"' in first
    second = (site / "02_b.html").read_text(encoding="utf-8")
    assert 'id="2.-Part-two,-later"' in second, "JupyterLab's anchor"
    assert re.search(r'<img[^>]*src="_images/dot\.png"', first), "the image is copied and linked"
    guide = (site / "GUIDE.html").read_text(encoding="utf-8")
    assert 'href="#part-two"' in guide and 'href="01_a.html"' in guide and 'href="index.html"' in guide
    assert "CONTRIBUTING" not in re.sub(r"<[^>]+>", "", guide) or "CONTRIBUTING.md" not in guide
    assert 'href="GUIDE.html#part-two"' in (site / "02_b.html").read_text(encoding="utf-8")
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="01_a.html"' in index and 'href="GUIDE.html"' in index


def test_teacher_notes_stay_collapsed_and_marked(built):
    _, site = built
    first = (site / "01_a.html").read_text(encoding="utf-8")
    assert '<details class="teacher-note">' in first and '<details class="teacher-note" open' not in first
    css = (site / "_static" / "course-site.css").read_text(encoding="utf-8")
    assert "details.teacher-note > summary::after" in css and "(for teachers)" in css
    assert 'section[id^="going-deeper"]' in css
    assert '<section id="going-deeper">' in first, "the part the style marks"


def test_explorers_get_the_decks_html_form_and_local_vega(built):
    _, site = built
    first = (site / "01_a.html").read_text(encoding="utf-8")
    assert first.count('<figure class="pe-explorer"') == 1 and "vnd.vegalite" not in first
    for name in ("vega.min.js", "vega-lite.min.js", "vega-embed.min.js", "explorers.css"):
        assert (site / "_static" / "vega" / name).is_file()
        assert f"_static/vega/{name}" in first
    second = (site / "02_b.html").read_text(encoding="utf-8")
    assert "_static/vega/vega.min.js" not in second, "only where needed"


def test_search_index_holds_the_words_of_every_page(built):
    _, site = built
    index = (site / "searchindex.js").read_text(encoding="utf-8")
    assert '"zebrafinch"' in index and '"01_a"' in index


def test_the_tracks_page_is_00s_who_reads_what_one_section_per_reader():
    notebooks = course_notebooks()
    page = site_build.tracks_markdown(notebooks)
    contents = nbformat.read(notebooks[0], as_version=4)
    table = next(cell.source for cell in contents.cells if cell.source.startswith("## Who reads what"))
    readers = [
        line.strip("|").split(" | ")[0].strip() for line in table.splitlines() if line.startswith("|")
    ][2:]
    assert len(readers) >= 4
    headings = re.findall(r"^## (.+)$", page, re.MULTILINE)
    # every reader of 00's table is a section (an entry of the page's outline), then the path
    assert [heading.lower() for heading in headings] == [
        *(reader.lower() for reader in readers),
        "a one-hour path",
    ]
    assert "](#A-one-hour-path)" in page  # 00's in-page link finds the path's section here too
    # a course whose 00 lacks the table, or that has no 00, gets no tracks page
    assert site_build.tracks_markdown(notebooks[1:]) is None


def test_slugs_and_markdown_links():
    assert course_site.jupyter_slug(" 6. Two layouts, one permutation ") == "6.-Two-layouts,-one-permutation"
    assert site_build.github_slug("Running the exercises live") == "running-the-exercises-live"
    assert site_build.github_slug("`make test`: what it runs") == "make-test-what-it-runs"
    folder = ROOT / "notebooks"
    staged = {(folder / "01_x.ipynb").resolve(): "01_x.ipynb", (ROOT / "README.md").resolve(): "index.md"}
    text = (
        "# T\n\n## Part two\n\n[a](#part-two) [b](01_x.ipynb#1.-A) [c](../README.md) "
        "[d](../CONTRIBUTING.md) [e](https://example.org/x.md) ![f](figure.png)"
    )
    assert site_build.site_markdown(text, folder / "GUIDE.md", staged) == (
        "# T\n\n## Part two\n\n[a](#Part-two) [b](01_x.ipynb#1.-A) [c](index.md) d "
        "[e](https://example.org/x.md) ![f](figure.png)"
    )


def test_a_rebuild_follows_a_changed_notebook_and_a_broken_link_fails_it(built):
    # Last in this file: it changes the tiny course. One build: what changed is rebuilt (and found
    # by the search), what did not is neither staged again nor changed, and a link to a heading
    # that does not exist fails the build, naming it.
    course, site = built
    unchanged = (site / "01_a.html").read_bytes()
    staged = course.parent / "site-src" / "01_a.ipynb"
    staged_time = staged.stat().st_mtime_ns
    notebook = nbformat.read(course / "02_b.ipynb", as_version=4)
    notebook.cells[1].source += "\n\nA new word: quetzalcoatl. See [nowhere](01_a.ipynb#No-such-heading)."
    nbformat.write(notebook, course / "02_b.ipynb")
    with pytest.raises(RuntimeError, match="No-such-heading"):
        site_build.build(site, course, course.parent / "README.md")
    assert "quetzalcoatl" in (site / "02_b.html").read_text(encoding="utf-8")
    assert '"quetzalcoatl"' in (site / "searchindex.js").read_text(encoding="utf-8")
    assert staged.stat().st_mtime_ns == staged_time, "an unchanged notebook is not staged again"
    assert (site / "01_a.html").read_bytes() == unchanged, "the same source, the same page"
