"""Build a reveal.js slide deck of every notebook, with its stored outputs.

``python tools/build_slides.py``                     into _build/slides/ (``make slides``)
``python tools/build_slides.py --out DIR``           somewhere else
``python tools/build_slides.py --show-figure-code``  keep the code above each figure

Each cell's ``metadata["slideshow"]["slide_type"]`` (set by the notebook's author) decides
its place: "slide", "subslide", "fragment", "-" (same slide), "skip", "notes". Nothing is
executed. Links between notebooks point at the other decks; _build/slides/index.html lists them.

A deck shows the figure a code cell drew without the code that drew it (the plotting code
would push the figure off the slide); ``--show-figure-code`` keeps that code. Other code
cells keep their code.

Neither building nor presenting needs a network: reveal.js (npm package ``reveal.js``) and
MathJax 3 (``mathjax-full``), installed by ``make setup`` into tools/npm_packages/node_modules, are
copied into ``<out>/reveal.js/`` and ``<out>/mathjax/``. nbconvert's reveal template loads
both, jQuery and require.js from CDNs and drives MathJax 2's API; its head scripts and its
closing script are replaced here by plain ``<script>`` tags for the local copies.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from nbconvert.exporters import SlidesExporter
from nbconvert.preprocessors import Preprocessor

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_site import (  # noqa: E402
    COURSE_TITLE,
    NODE_MODULES,
    NOTEBOOKS,
    ROOT,
    copy_npm_files,
    export_course,
    install_mathjax,
    with_mathjax,
    write_index,
)

OUT = ROOT / "_build" / "slides"
SUFFIX = ".slides.html"
REVEAL = NODE_MODULES / "reveal.js"
REVEAL_URL = "reveal.js"  # relative to a deck; reveal.js/ sits next to it
THEME = "simple"
# What the deck loads: the script, its style sheet, the theme, the speaker-notes plugin (key S).
REVEAL_FILES = ("dist/reveal.js", "dist/reveal.css", f"dist/theme/{THEME}.css", "plugin/notes/notes.js")
# A theme's fonts from a web font service (the "simple" theme's from Google): left out of the copy,
# the theme's own fallbacks (sans-serif) are used, and the deck makes no request to that service.
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
{%- block footer_js -%}
<script src="{{ reveal_url_prefix }}/dist/reveal.js"></script>
<script src="{{ reveal_url_prefix }}/plugin/notes/notes.js"></script>
<script>
Reveal.initialize({
    controls: true,
    progress: true,
    history: true,
    transition: "{{ reveal_transition }}",
    slideNumber: "{{ reveal_number }}",
    plugins: [RevealNotes],
    width: {{ reveal_width }},
    height: {{ reveal_height }}
});
</script>
{%- endblock footer_js -%}
"""


class HideFigureCode(Preprocessor):
    """Leave out the code of every code cell that has an image output; the image stays.

    Sets ``cell.metadata.transient.remove_source``, the flag nbconvert's templates honour
    (it is what ``TagRemovePreprocessor.remove_input_tags`` sets). The exporter works on a
    copy of the notebook: the stored notebook is not changed.
    """

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "code" and any(
            mime.startswith("image/") for output in cell.get("outputs", []) for mime in output.get("data", {})
        ):
            cell.metadata.setdefault("transient", {})["remove_source"] = True
        return cell, resources


def install_reveal(out: Path) -> str:
    """Copy reveal.js into ``out/reveal.js``; return its URL relative to a deck in ``out``."""
    target = out / REVEAL_URL
    copy_npm_files(REVEAL, REVEAL_FILES, target)
    theme = target / "dist" / "theme" / f"{THEME}.css"
    theme.write_text(_REMOTE_IMPORT.sub("", theme.read_text(encoding="utf-8")), encoding="utf-8")
    return REVEAL_URL


def build(out: Path = OUT, folder: Path = NOTEBOOKS, hide_figure_code: bool = True) -> Path:
    """Build every deck into ``out``; return the index.html that lists them."""
    mathjax_url = install_mathjax(out)
    exporter = SlidesExporter(
        raw_template=with_mathjax(SLIDES_TEMPLATE),
        mathjax_url=mathjax_url,
        reveal_url_prefix=install_reveal(out),
        reveal_theme=THEME,
        reveal_transition="none",
        reveal_width="960",
        reveal_height="700",
    )
    if hide_figure_code:
        exporter.register_preprocessor(HideFigureCode(), enabled=True)
    pages = export_course(exporter, out, SUFFIX, folder)
    return write_index(out, pages, f"{COURSE_TITLE}: slides", mathjax_url)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder to write (default: _build/slides)")
    parser.add_argument("--notebooks", type=Path, default=NOTEBOOKS, help="folder of the course's notebooks")
    parser.add_argument("--show-figure-code", action="store_true",
                        help="keep the code of cells that draw a figure (default: the figure alone)")
    args = parser.parse_args(argv)
    index = build(args.out, args.notebooks, hide_figure_code=not args.show_figure_code)
    print(f"open {index}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
