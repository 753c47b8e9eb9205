"""The learner's tools: the static site, the slide decks, the workspace copies, slideshow metadata."""

import importlib
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
build_site = importlib.import_module("build_site")
build_slides = importlib.import_module("build_slides")
workspace = importlib.import_module("workspace")

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
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


def tiny_course(folder):
    """Two notebooks that link each other and an image, like the course's do."""
    folder.mkdir()
    (folder / "figures").mkdir()
    (folder / "figures" / "dot.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    for number, other in (("01", "02_b.ipynb"), ("02", "01_a.ipynb#Title")):
        cells = [
            new_markdown_cell(f"# Title {number}\n\nSee [the other]({other}) and ![a dot](figures/dot.png).",
                              metadata={"slideshow": {"slide_type": "slide"}}),
            new_code_cell("1 + 1", execution_count=1, metadata={"slideshow": {"slide_type": "-"}},
                          outputs=[new_output("execute_result", {"text/plain": "2"}, execution_count=1)]),
        ]
        name = "01_a.ipynb" if number == "01" else "02_b.ipynb"
        nbformat.write(new_notebook(cells=cells), folder / name)
    return folder


# ---- every cell of every notebook says how it is shown as a slide --------------------------------


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_every_cell_has_slideshow_metadata(path):
    notebook = nbformat.read(path, as_version=4)
    missing = [i for i, cell in enumerate(notebook.cells)
               if cell.metadata.get("slideshow", {}).get("slide_type") not in SLIDE_TYPES]
    assert not missing, f"{path.name}: cells {missing} have no valid metadata['slideshow']['slide_type']"


def test_every_notebook_starts_with_a_slide():
    for path in NOTEBOOKS:
        cells = nbformat.read(path, as_version=4).cells
        shown = [c for c in cells
                 if c.metadata.get("slideshow", {}).get("slide_type") not in ("skip", "notes")]
        assert shown and shown[0].metadata["slideshow"]["slide_type"] == "slide", path.name


# ---- the static site ---------------------------------------------------------------------------


def test_site_of_the_course_opens_from_disk(tmp_path):
    index = build_site.build(tmp_path / "site")
    pages = sorted(p.name for p in (tmp_path / "site").glob("[0-9][0-9]_*.html"))
    assert pages == [p.stem + ".html" for p in NOTEBOOKS]
    linked = [t for t in local_targets(index) if t.endswith(".html")]
    assert linked == pages, "index.html lists the pages in course order"
    assert_links_resolve(tmp_path / "site")
    for path in NOTEBOOKS:  # the generated navigation now points at pages
        if "<!-- nav -->" in nbformat.read(path, as_version=4).cells[0].source:
            page = (tmp_path / "site" / (path.stem + ".html")).read_text(encoding="utf-8")
            assert 'href="00_contents.html"' in page or path.name.startswith("00_"), path.name


def test_site_rewrites_notebook_links_and_copies_images(tmp_path):
    course = tiny_course(tmp_path / "notebooks")
    build_site.build(tmp_path / "site", course)
    first = (tmp_path / "site" / "01_a.html").read_text(encoding="utf-8")
    assert 'href="02_b.html"' in first
    assert 'href="01_a.html#Title"' in (tmp_path / "site" / "02_b.html").read_text(encoding="utf-8")
    assert (tmp_path / "site" / "figures" / "dot.png").exists()
    assert_links_resolve(tmp_path / "site")


def test_slides_are_reveal_decks(tmp_path):
    course = tiny_course(tmp_path / "notebooks")
    build_slides.build(tmp_path / "slides", course)
    deck = (tmp_path / "slides" / "01_a.slides.html").read_text(encoding="utf-8")
    assert "reveal" in deck.lower() and 'href="02_b.slides.html"' in deck
    assert (tmp_path / "slides" / "index.html").exists()
    assert_links_resolve(tmp_path / "slides")


# ---- workspace copies --------------------------------------------------------------------------


def test_workspace_copies_and_never_overwrites(tmp_path, capsys):
    course = tiny_course(tmp_path / "notebooks")
    (course / ".ipynb_checkpoints").mkdir()
    (course / ".ipynb_checkpoints" / "01_a-checkpoint.ipynb").write_text("{}")
    target = tmp_path / "workspace"

    workspace.main(["--notebooks", str(course), "--workspace", str(target)])
    assert sorted(p.relative_to(target).as_posix() for p in target.rglob("*") if p.is_file()) == [
        "01_a.ipynb", "02_b.ipynb", "figures/dot.png"]
    assert "3 copied, 0 kept" in capsys.readouterr().out

    (target / "01_a.ipynb").write_text("my answers")
    (target / "02_b.ipynb").unlink()
    workspace.main(["--notebooks", str(course), "--workspace", str(target)])
    out = capsys.readouterr().out
    assert (target / "01_a.ipynb").read_text() == "my answers"
    assert "copied 02_b.ipynb" in out and "kept   01_a.ipynb" in out
    assert "1 copied, 2 kept" in out
