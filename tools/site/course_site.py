"""The course's Sphinx extension for its web site (tools/site/conf.py loads it).

- :func:`read_notebook` reads a notebook for myst-nb (``nb_custom_formats``) and gives every
  interactive explorer (a stored ``application/vnd.vegalite.v5+json`` output) the HTML form the
  decks use (``explorers_web.explorer_html``); pages that hold one load vega, vega-lite and
  vega-embed from ``_static/vega/`` and draw it with the course's loader (``explorers_web.LOADER_JS``).
- :func:`jupyter_slug` gives each heading JupyterLab's anchor (its text, spaces as ``-``), so that a
  link such as ``03_the_sinusoidal_formula.ipynb#6.-Two-layouts,-one-permutation`` works on the
  site as in JupyterLab.
- MathJax 3 (npm ``mathjax-full``) is copied into ``_static/mathjax/`` and loaded on every page.
- The course's fonts, as the decks ship them (tools/course_fonts.py, the one place that names them):
  the font files are copied into ``_static/fonts/`` and ``course_fonts.FONT_CSS`` is written into
  ``_static/course-fonts.css``, linked from every page. MathJax typesets once they are loaded.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat

from tools import (
    course_fonts,  # the fonts the decks and the site ship
    explorers_web,  # the explorers' HTML form and loader, shared with the decks
)
from tools.deck_html import MATHJAX_CONFIG, MATHJAX_ES5, MATHJAX_FILES

HERE = Path(__file__).resolve().parent

MATHJAX_URL = "mathjax/tex-chtml-full.js"  # Sphinx reads it relative to _static/
FONT_CSS = "course-fonts.css"  # in _static/, written from course_fonts.FONT_CSS
EXPLORER_CSS = "vega/explorers.css"  # in _static/, written from explorers_web.EXPLORER_CSS


def code_digest() -> str:
    """A hash of the code that shapes every page: tools/site/, explorers_web.py and course_fonts.py."""
    import hashlib

    digest = hashlib.sha256()
    for path in sorted(
        [
            *HERE.rglob("*.py"),
            *HERE.rglob("*.css"),
            HERE.parent / "explorers_web.py",
            HERE.parent / "course_fonts.py",
        ]
    ):
        if "__pycache__" not in path.parts:
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def jupyter_slug(text: str) -> str:
    """JupyterLab's anchor of a heading: its text, spaces as ``-`` (``6. A b`` has ``6.-A-b``)."""
    return text.strip().replace(" ", "-")


def with_explorers(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """``notebook`` with every explorer output in its HTML form (``explorers_web.explorer_html``).

    The Vega-Lite data are replaced by ``text/html``; the ``text/plain`` form stays.
    """
    for cell in notebook.cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            data = output.get("data", {})
            if explorers_web.VEGALITE_MIMETYPE in data:
                data["text/html"] = explorers_web.explorer_html(data.pop(explorers_web.VEGALITE_MIMETYPE))
    return notebook


def read_notebook(text: str) -> nbformat.NotebookNode:
    """myst-nb's reader for ``.ipynb`` (conf.py ``nb_custom_formats``): the notebook, explorers as HTML.

    A notebook that does not name its language (one written by a script) is read as Python, the
    course's only kernel.
    """
    notebook = nbformat.reads(text, as_version=4)
    notebook.metadata.setdefault("language_info", {"name": "python"})
    return with_explorers(notebook)


def _copy(source: Path, target: Path) -> None:
    """Copy a file or folder, leaving files whose size and time agree (a warm build copies nothing)."""
    if not source.exists():
        raise FileNotFoundError(
            f"{source} is missing: run `make setup` (it installs the npm packages of tools/npm_packages)"
        )
    files = [source] if source.is_file() else sorted(p for p in source.rglob("*") if p.is_file())
    for path in files:
        destination = target if source.is_file() else target / path.relative_to(source)
        stat = path.stat()
        if (
            destination.is_file()
            and destination.stat().st_size == stat.st_size
            and destination.stat().st_mtime_ns == stat.st_mtime_ns
        ):
            continue
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, destination)


def install_assets(app) -> None:
    """Copy MathJax, vega and the course's fonts into the site's ``_static/``."""
    if app.builder.format != "html":
        return
    static = Path(app.outdir) / "_static"
    for name in MATHJAX_FILES:
        _copy(MATHJAX_ES5 / name, static / "mathjax" / name)
    explorers_web.install_vega(static)
    (static / EXPLORER_CSS).write_text(explorers_web.EXPLORER_CSS, encoding="utf-8")
    course_fonts.install_fonts(static)  # _static/fonts/, which FONT_CSS's url("fonts/…") names
    (static / FONT_CSS).write_text(course_fonts.FONT_CSS, encoding="utf-8")


def add_explorer_scripts(app, pagename, templatename, context, doctree) -> None:
    """On a page with an explorer: load vega, vega-lite and vega-embed, and the course's loader."""
    if 'class="pe-explorer"' not in context.get("body", ""):
        return
    app.builder.add_css_file(EXPLORER_CSS)
    for _, build in explorers_web.VEGA_FILES:
        app.builder.add_js_file(f"{explorers_web.VEGA_URL}/{Path(build).name}")
    app.builder.add_js_file(None, body=explorers_web.LOADER_JS)


def add_jupyter_anchors(app, doctree, docname) -> None:
    """Give every section JupyterLab's anchor as well (``#6.-Two-layouts,-one-permutation``).

    Links between pages already point at Sphinx's ids; this keeps the addresses of the old site,
    and of JupyterLab, working when typed or bookmarked.
    """
    from docutils import nodes

    for section in doctree.findall(nodes.section):
        title = next(iter(section.findall(nodes.title)), None)
        if title is not None:
            anchor = jupyter_slug(title.astext())
            if anchor and anchor not in section["ids"]:
                section["ids"].append(anchor)


# The theme draws its icons with FontAwesome's script, which by default watches every change of the
# page (a MutationObserver) for new icons: an explorer redrawn with its sliders adds thousands of
# SVG elements, and FontAwesome then scanned them for 10-30 s (notebook 03's table explorer). The
# theme's icons are all in the page when it loads, and are drawn then.
FONTAWESOME_CONFIG = "window.FontAwesomeConfig = { observeMutations: false };"


def setup(app):
    app.set_html_assets_policy("always")  # MathJax on every page: the browser check waits on it
    app.add_js_file(None, body=FONTAWESOME_CONFIG, priority=100)  # before the theme's deferred scripts
    app.add_js_file(None, body=MATHJAX_CONFIG, priority=100)  # read by MathJax as it starts
    app.add_css_file(FONT_CSS, priority=900)  # after the theme's sheets: its font variables win
    app.connect("builder-inited", install_assets)
    app.connect("html-page-context", add_explorer_scripts)
    app.connect("doctree-resolved", add_jupyter_anchors)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
