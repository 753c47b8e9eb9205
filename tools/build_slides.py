"""Build a reveal.js slide deck of every notebook, with its stored outputs.

``python -m tools.build_slides``                     into _build/slides/ (``make slides``)
``python -m tools.build_slides --out DIR``           somewhere else
``python -m tools.build_slides --show-figure-code``  keep the code above each figure

Each cell's ``metadata["slideshow"]["slide_type"]`` (set by the notebook's author) decides
its place: "slide", "subslide", "fragment", "-" (same slide), "skip", "notes". Nothing is
executed. Links between notebooks point at the other decks; _build/slides/index.html lists them.

A deck is laid out at 1280x720 (reveal.js scales it to the window), top-aligned, with slide
numbers ("c/t"), no In/Out prompt column, code and outputs that wrap instead of scrolling, and
figures scaled to the slide (``SLIDES_CSS``). The first slide, ``# NN — Title`` with the course
line and the question, is styled as a title slide. Notes cells (teacher notes,
``<details class="teacher-note">``) go into the speaker view (key S), opened.
``tools/browser_check.py`` opens the decks in a headless browser and reports what is cut.

A deck shows the figure a code cell drew without the code that drew it (the plotting code
would push the figure off the slide); ``--show-figure-code`` keeps that code. Other code
cells keep their code.

Neither building nor presenting needs a network: reveal.js (npm package ``reveal.js``),
MathJax 3 (``mathjax-full``) and the decks' fonts (``dejavu-fonts-ttf``, see tools/course_fonts.py),
installed by ``make setup`` into tools/npm_packages/node_modules, are copied into
``<out>/reveal.js/``, ``<out>/mathjax/`` and ``<out>/fonts/``. nbconvert's reveal template loads
both, jQuery and require.js from CDNs and drives MathJax 2's API; its head scripts and its
closing script are replaced here by plain ``<script>`` tags for the local copies.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path

from nbconvert.exporters import SlidesExporter
from nbconvert.preprocessors import Preprocessor

from tools import (
    course_fonts,  # (the fonts the decks ship: text measures the same on every machine)
    explorers_web,  # (interactive explorers: Vega-Lite drawn by local vega-embed)
)
from tools.deck_html import (
    WithoutSoup,
    copy_npm_files,
    export_course,
    install_mathjax,
    with_mathjax,
    write_index,
)
from tools.navigation import COURSE_TITLE
from tools.paths import BUILD, NODE_MODULES, NOTEBOOKS

OUT = BUILD / "slides"
SUFFIX = ".slides.html"
REVEAL = NODE_MODULES / "reveal.js"
REVEAL_URL = "reveal.js"  # relative to a deck; reveal.js/ sits next to it
THEME = "simple"
# The size a deck is laid out at (reveal.js scales it to the window): a 16:9 projector.
SLIDE_WIDTH, SLIDE_HEIGHT = 1280, 720
# What the deck loads: the script, its style sheet, the theme, the speaker-notes plugin (key S).
REVEAL_FILES = ("dist/reveal.js", "dist/reveal.css", f"dist/theme/{THEME}.css", "plugin/notes/notes.js")
# A theme's fonts from a web font service (the "simple" theme's from Google): left out of the copy,
# so the deck makes no request to that service; the deck uses the fonts it ships (course_fonts).
_REMOTE_IMPORT = re.compile(r"^@import url\((?:https?:)?//[^)]*\);\n?", re.MULTILINE)
# nbconvert's reveal template with its CDN scripts replaced (see the module docstring). The
# template's own variables (reveal_url_prefix, reveal_transition, …) are set from the exporter.
SLIDES_TEMPLATE = """{%- extends 'index.html.j2' -%}
{%- block html_head_js_jquery -%}{%- endblock html_head_js_jquery -%}
{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{%- block html_head_js_mathjax -%}
@MATHJAX@
{%- endblock html_head_js_mathjax -%}
@INPUT@
{%- block footer_js -%}
<script src="{{ reveal_url_prefix }}/dist/reveal.js"></script>
<script src="{{ reveal_url_prefix }}/plugin/notes/notes.js"></script>
<script>
Reveal.initialize({
    controls: true,
    progress: true,
    history: true,
    hash: true,
    center: false,
    transition: "{{ reveal_transition }}",
    slideNumber: "{{ reveal_number }}",
    showSlideNumber: "all",
    plugins: [RevealNotes],
    width: {{ reveal_width }},
    height: {{ reveal_height }}
});
</script>
{%- endblock footer_js -%}
"""


# The deck's own style, added after the theme so it wins. Lengths are in the slide's own pixels
# (SLIDE_WIDTH x SLIDE_HEIGHT); reveal.js scales the whole slide to the window.
SLIDES_CSS = """
/* Type sizes for a 1280x720 slide: about 14 lines of text, code and output per slide. */
.reveal { --r-main-font-size: 26px; --r-heading1-size: 1.9em; --r-heading2-size: 1.45em;
  --r-heading3-size: 1.15em; --r-heading4-size: 1em; --r-block-margin: 12px;
  --jp-content-font-size1: 26px; --jp-code-font-size: 20px; --jp-code-line-height: 1.3;
  --jp-cell-prompt-width: 0px; }
.reveal .slides { text-align: left; }
.reveal .slides section { padding: 0; box-sizing: border-box; }
.reveal h1, .reveal h2, .reveal h3, .reveal h4 { text-transform: none; margin: 0 0 0.35em 0;
  line-height: 1.15; }
.reveal p, .reveal li { line-height: 1.35; }
.reveal p { margin: 0.3em 0; }
.reveal ul, .reveal ol { margin-left: 1.1em; }
.reveal .jp-RenderedHTMLCommon { font-size: 26px; line-height: 1.35; padding-right: 0; }
.reveal .jp-RenderedHTMLCommon p, .reveal .jp-RenderedHTMLCommon li { font-size: 26px; }
/* No In [n]: / Out[n]: column: the whole width is the slide's. */
.reveal .jp-InputPrompt, .reveal .jp-OutputPrompt, .reveal .jp-Collapser { display: none !important; }
.reveal .jp-Cell, .reveal .jp-Cell-inputWrapper, .reveal .jp-Cell-outputWrapper,
.reveal .jp-InputArea, .reveal .jp-OutputArea-child { display: block; padding: 0; margin: 0; }
.reveal .jp-InputArea-editor, .reveal .jp-OutputArea-output { display: block; width: 100%; max-width: 100%;
  margin: 0; padding: 0; overflow: visible; }
.reveal .jp-Cell, .reveal .jp-InputArea, .reveal .jp-InputArea-editor, .reveal .highlight,
.reveal .jp-OutputArea-output, .reveal pre { box-sizing: border-box; max-width: 100%; min-width: 0; }
.reveal .jp-RenderedHTMLCommon, .reveal .jp-OutputArea, .reveal .jp-Cell, .reveal .jp-InputArea,
.reveal .jp-Cell-inputWrapper, .reveal .jp-Cell-outputWrapper { overflow: visible; }
.reveal .jp-InputArea-editor { border: none; }
.reveal .jp-CodeCell + .jp-Cell, .reveal .jp-Cell + .jp-CodeCell { margin-top: 10px; }
.reveal .jp-OutputArea-child { margin-top: 4px; }
/* Code wraps and is never cut or scrolled; outputs wrap between words. */
.reveal pre, .reveal .highlight pre, .reveal .jp-OutputArea-output pre, .reveal pre code {
  width: auto; max-width: 100%; max-height: none; margin: 0; box-shadow: none;
  font-size: 20px; line-height: 1.3; overflow: visible;
  white-space: pre-wrap; word-break: normal; overflow-wrap: break-word; }
.reveal .highlight { margin: 0; padding: 6px 10px; border-radius: 4px; }
.reveal .jp-OutputArea-output pre { padding: 2px 10px; }
.reveal .jp-RenderedHTMLCommon code { font-size: 0.85em; overflow-wrap: anywhere; }
/* Display math is as wide as its formula: never a scroll box (the check reports it if too wide). */
.reveal mjx-container[jax="CHTML"][display="true"] { overflow: visible !important; margin: 0.4em 0;
  max-width: 100%; }
.reveal mjx-container[jax="CHTML"] { font-size: 100% !important; }
/* Tables: compact, at most the slide's width. */
.reveal table { font-size: 22px; margin: 6px 0; max-width: 100%; }
.reveal .jp-RenderedHTMLCommon table { font-size: 22px; }
.reveal table th, .reveal table td { padding: 2px 10px; }
/* Figures scale to the slide: a figure output grows to the slide's width or to 400 px high,
   whichever comes first, keeping its proportions (room is left for a heading, two lines of
   text or a short check). Other images shrink to fit. */
.reveal img { max-width: 100%; max-height: 480px; width: auto; height: auto; object-fit: contain;
  margin: 4px 0; }
.reveal .jp-OutputArea-output img { width: 100%; height: auto; max-height: 400px;
  object-fit: contain; object-position: left center; }
.reveal .jp-RenderedImage, .reveal .jp-RenderedHTML { max-width: 100%; }
/* Title slide: "# NN — Title", the course line, the question, why it matters. */
.reveal .slides > section:first-of-type:has(h1) .jp-MarkdownCell h1 { font-size: 56px;
  margin: 70px 0 18px 0; padding-bottom: 14px; border-bottom: 4px solid #2a76dd; }
.reveal .slides > section:first-of-type:has(h1) .jp-MarkdownCell h1 + p { color: #555;
  font-size: 24px; letter-spacing: 0.02em; margin-bottom: 30px; }
.reveal .slides > section:first-of-type:has(h1) .jp-MarkdownCell p:nth-of-type(2) {
  font-size: 32px; line-height: 1.3; margin-bottom: 24px; }
.reveal .slides > section:first-of-type:has(h1) .jp-MarkdownCell p:nth-of-type(n+3) {
  font-size: 24px; color: #333; }
/* The slide number, bottom left (the arrows are bottom right). */
.reveal .slide-number { font-size: 16px; left: 8px; right: auto; bottom: 8px;
  background: rgba(0, 0, 0, 0.5); }
/* Teacher notes live in the speaker view (key S), never on the slide. */
.reveal aside.notes { display: none; }
"""
# A teacher note (contract: <details class="teacher-note">) inside a notes cell; in the speaker
# view it must be open.
_NOTES = re.compile(r'<aside class="notes">.*?</aside>', re.DOTALL)
_CLOSED_NOTE = re.compile(r"<details(?![^>]*\bopen\b)([^>]*)>")
# A figure stored by pe_utils.show_figure: an <img> with inline PNG data in a text/html output.
_INLINE_IMAGE = re.compile(r"<img\b[^>]*\bsrc=[\"']data:image/", re.IGNORECASE)


def open_teacher_notes(page: str) -> str:
    """``page`` with every ``<details>`` inside a notes ``<aside>`` open (the speaker view shows it)."""
    return _NOTES.sub(lambda match: _CLOSED_NOTE.sub(r"<details\1 open>", match.group(0)), page)


def style_deck(page: str) -> str:
    """A deck with its teacher notes open, and the course's fonts and slide style after the theme's."""
    page = open_teacher_notes(page)
    return page.replace(
        "</head>", f'{course_fonts.style_tag()}\n<style id="course-slides">{SLIDES_CSS}</style>\n</head>', 1
    )


def draws_figure(output: dict) -> bool:
    """True for an image output (PNG, SVG…) or a figure stored as an inline ``<img>`` (HTML)."""
    data = output.get("data", {})
    return any(mime.startswith("image/") for mime in data) or bool(
        _INLINE_IMAGE.search("".join(data.get("text/html", "")))
    )


class FastSlidesExporter(WithoutSoup, SlidesExporter):
    """nbconvert's SlidesExporter without its BeautifulSoup pass (see deck_html.WithoutSoup)."""


class HideFigureCode(Preprocessor):
    """Leave out the code of every code cell that draws a figure; the figure stays.

    Sets ``cell.metadata.transient.remove_source``, the flag nbconvert's templates honour
    (it is what ``TagRemovePreprocessor.remove_input_tags`` sets). The exporter works on a
    copy of the notebook: the stored notebook is not changed.
    """

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "code" and any(draws_figure(output) for output in cell.get("outputs", [])):
            cell.metadata.setdefault("transient", {})["remove_source"] = True
        return cell, resources


def install_reveal(out: Path) -> str:
    """Copy reveal.js into ``out/reveal.js``; return its URL relative to a deck in ``out``."""
    target = out / REVEAL_URL
    copy_npm_files(REVEAL, REVEAL_FILES, target)
    theme = target / "dist" / "theme" / f"{THEME}.css"
    theme.write_text(_REMOTE_IMPORT.sub("", theme.read_text(encoding="utf-8")), encoding="utf-8")
    return REVEAL_URL


def build(
    out: Path = OUT,
    folder: Path = NOTEBOOKS,
    hide_figure_code: bool = True,
    only: list[Path] | None = None,
    on_page: Callable[[Path], None] | None = None,
) -> Path:
    """Build every deck (or those of the notebooks in ``only``) into ``out``; return index.html.

    ``on_page`` is called with each deck's path once it is written (see ``export_course``).
    """
    mathjax_url = install_mathjax(out)
    course_fonts.install_fonts(out)
    exporter = FastSlidesExporter(
        raw_template=with_mathjax(SLIDES_TEMPLATE),
        mathjax_url=mathjax_url,
        reveal_url_prefix=install_reveal(out),
        reveal_theme=THEME,
        reveal_transition="none",
        reveal_width=str(SLIDE_WIDTH),
        reveal_height=str(SLIDE_HEIGHT),
        reveal_number="c/t",
    )
    if hide_figure_code:
        exporter.register_preprocessor(HideFigureCode(), enabled=True)
    with_explorers = explorers_web.enable(exporter, out)
    pages = export_course(
        exporter,
        out,
        SUFFIX,
        folder,
        only=only,
        postprocess=lambda page: with_explorers(style_deck(page)),
        on_page=on_page,
    )
    return write_index(out, pages, f"{COURSE_TITLE}: slides", mathjax_url)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder to write (default: _build/slides)")
    parser.add_argument("--notebooks", type=Path, default=NOTEBOOKS, help="folder of the course's notebooks")
    parser.add_argument(
        "--show-figure-code",
        action="store_true",
        help="keep the code of cells that draw a figure (default: the figure alone)",
    )
    args = parser.parse_args(argv)
    index = build(args.out, args.notebooks, hide_figure_code=not args.show_figure_code)
    print(f"open {index}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
