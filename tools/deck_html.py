"""The notebooks' HTML export that the slide decks use (tools/build_slides.py).

The course's web site is built by Sphinx (tools/site/, ``make site``); this module keeps what the
decks still need from the nbconvert site it used to build: the export of every notebook with its
stored outputs (nothing is executed), links between notebooks rewritten to the pages
(``03_formula.ipynb`` -> ``03_formula<suffix>``), local images copied next to them, an index in
course order, and a local MathJax 3 (npm ``mathjax-full``, copied into ``<out>/mathjax/`` and
configured as JupyterLab 4 configures it: ``$…$`` inline, ``$$…$$`` displayed, ``\\$`` a dollar
sign) instead of nbconvert's MathJax 2 from a CDN. The interactive explorers are drawn by local
vega builds (tools/explorers_web.py).
"""

from __future__ import annotations

import html
import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote, urlsplit

import nbformat
from nbconvert.exporters import Exporter, HTMLExporter, TemplateExporter
from nbconvert.filters.highlight import Highlight2HTML
from nbconvert.filters.widgetsdatatypefilter import WidgetsDataTypeFilter

from tools import (
    course_fonts,  # (the fonts the pages ship: text measures the same on every machine)
    navigation,  # (a sibling tool: titles, summaries, course order)
)
from tools.paths import NODE_MODULES, NOTEBOOKS

_TARGET = re.compile(r"""(?P<attr>\b(?:href|src))=(?P<quote>["'])(?P<url>[^"']*)(?P=quote)""")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
MATHJAX_ES5 = NODE_MODULES / "mathjax-full" / "es5"
# All TeX extensions, HTML-CSS output (as JupyterLab), and the web fonts that output loads.
MATHJAX_FILES = ("tex-chtml-full.js", "output/chtml/fonts/woff-v2")
MATHJAX_URL = "mathjax/tex-chtml-full.js"  # relative to a page; mathjax/ sits next to it
# JupyterLab 4's TeX settings (@jupyterlab/mathjax-extension), so a page shows what the notebook
# shows. MathJax 3 reads window.MathJax before it starts. The page's fonts (tools/course_fonts.py)
# are loaded before MathJax typesets: it scales each formula to the x-height of the text around
# it, measured as it typesets, and a font still loading would be measured as the machine's
# fallback. A character MathJax's fonts lack, and an error's message, are drawn in the page's font.
MATHJAX_SETTINGS = {
    "tex": {
        "inlineMath": [["$", "$"], ["\\(", "\\)"]],
        "displayMath": [["$$", "$$"], ["\\[", "\\]"]],
        "processEscapes": True,
        "processEnvironments": True,
    },
    "chtml": {
        "unknownFamily": course_fonts.MATHJAX_TEXT_FAMILY,
        "merrorFont": course_fonts.MATHJAX_TEXT_FAMILY,
    },
}
MATHJAX_CONFIG = (
    f"window.MathJax = {json.dumps(MATHJAX_SETTINGS)};\n"
    "window.MathJax.startup = { pageReady: () => Promise.all([...document.fonts].map("
    "(face) => face.load().catch(() => {}))).then(() => MathJax.startup.defaultPageReady()) };"
)
# A code cell's source, highlighted by Pygments (which escapes it), without the lab template's
# extra pass through bleach: that pass changes nothing here and took a third of the build time.
INPUT_BLOCK = """{% block input %}
<div class="jp-CodeMirrorEditor jp-Editor jp-InputArea-editor" data-type="inline">
     <div class="cm-editor cm-s-jupyter">
{{ cell.source | highlight_code(metadata=cell.metadata) }}
     </div>
</div>
{%- endblock input %}"""


# In a plain-text summary, a one-letter name with a subscript (T_k, ω_i, W_q): shown as T<sub>k</sub>.
_SUBSCRIPT = re.compile(r"(?<![\w$])([A-Za-z\u0370-\u03ff])_(\{([^{}$]*)\}|[A-Za-z0-9\u0370-\u03ff])")


def summary_html(summary: str) -> str:
    """``summary`` as HTML: escaped, ``T_k`` as T<sub>k</sub>; ``$…$`` is left for MathJax."""
    parts = re.split(r"(\$[^$]+\$)", summary)
    return "".join(
        html.escape(part)
        if part.startswith("$")
        else _SUBSCRIPT.sub(lambda m: f"{m[1]}<sub>{m[2] if m[3] is None else m[3]}</sub>", html.escape(part))
        for part in parts
    )


# What nbconvert's HTMLExporter does to a page after rendering it (nbconvert 7.17), done with
# regular expressions instead of a BeautifulSoup parse of the whole page, which took more than
# half of the build time: an <img> without alt gets nbconvert's stand-in text (so the browser
# check can flag it), and every cell's input and output can take the keyboard focus.
NO_ALT_TEXT = "No description has been provided for this image"
_IMG_TAG = re.compile(r"<img\b[^>]*>", re.IGNORECASE)
_FOCUSABLE = re.compile(r'<div class="(?:[^"]* )?(?:jp-Cell-inputWrapper|jp-OutputArea-output)(?: [^"]*)?"')


def accessible(page: str) -> str:
    """``page`` with alt text on every image and focusable cell inputs and outputs."""
    page = _IMG_TAG.sub(
        lambda m: (
            m[0]
            if re.search(r"\salt=", m[0], re.IGNORECASE)
            else m[0][:4] + f' alt="{NO_ALT_TEXT}"' + m[0][4:]
        ),
        page,
    )
    return _FOCUSABLE.sub(lambda m: m[0] + ' tabindex="0"', page)


class RememberedHighlight:
    """A code highlighting filter that keeps what it made: the site and the decks show the same code.

    Pygments took a third of the time of building both; each code cell is now highlighted once
    per process. The key holds everything the HTML depends on: the code, its language (the
    notebook's lexer by default), the formatter's options and the one field of the cell's
    metadata that nbconvert 7.17 reads, ``magics_language`` (the decks' exporter adds others).
    """

    _made: dict[tuple[str, ...], str] = {}

    def __init__(self, highlight: Highlight2HTML) -> None:
        self.highlight = highlight

    def __call__(self, source: str, language: str | None = None, metadata: dict | None = None) -> str:
        key = (
            source,
            str(language or self.highlight.pygments_lexer),
            str((metadata or {}).get("magics_language")),
            json.dumps(self.highlight.extra_formatter_options, sort_keys=True, default=str),
        )
        if key not in self._made:
            self._made[key] = self.highlight(source, language, metadata)
        return self._made[key]


class RememberedMarkdown:
    """The markdown filter of an exporter, keeping what it made: the site and the decks render the
    same markdown cells, each once per process.

    The key holds the exporter's markdown method and what nbconvert 7.17's
    ``HTMLExporter.markdown2html`` reads from the cell and the exporter: the source, the cell's
    attachments, the notebook's folder and the exporter's markdown settings. An exporter that
    embeds images (``embed_images``, which reads image files from disk) is not remembered.
    """

    _made: dict[tuple[str, ...], str] = {}

    def __init__(self, exporter: HTMLExporter) -> None:
        self.exporter = exporter
        self.jinja_pass_arg = self.exporter.markdown2html.jinja_pass_arg  # it reads the context, too

    def __call__(self, context, source: str) -> str:
        exporter = self.exporter
        if exporter.embed_images:
            return exporter.markdown2html(context, source)
        method = type(exporter).markdown2html
        key = (
            f"{method.__module__}.{method.__qualname__}",
            source,
            json.dumps(context.get("cell", {}).get("attachments", {}), sort_keys=True, default=str),
            str(context.get("resources", {}).get("metadata", {}).get("path", "")),
            json.dumps(
                [exporter.anchor_link_text, exporter.exclude_anchor_links, exporter.lexer_options],
                sort_keys=True,
                default=str,
            ),
        )
        if key not in self._made:
            self._made[key] = exporter.markdown2html(context, source)
        return self._made[key]


class WithoutSoup:
    """Mixin for an HTMLExporter (or SlidesExporter): its BeautifulSoup pass becomes ``accessible``.

    The rest is HTMLExporter.from_notebook_node as in nbconvert 7.17 (pinned in requirements.txt),
    with code highlighting and markdown remembered (``RememberedHighlight``, ``RememberedMarkdown``)
    and the notebook validated once, after all preprocessors instead of after each (nbconvert's
    ``optimistic_validation``).
    """

    def from_notebook_node(self, nb, resources=None, **kw):
        self.optimistic_validation = True
        langinfo = nb.metadata.get("language_info", {})
        lexer = langinfo.get("pygments_lexer", langinfo.get("name", None))
        highlight = self.filters.get("highlight_code", Highlight2HTML(pygments_lexer=lexer, parent=self))
        self.register_filter("highlight_code", RememberedHighlight(highlight))
        self.register_filter("markdown2html", RememberedMarkdown(self))
        resources = self._init_resources(resources)
        self.register_filter(
            "filter_data_type",
            WidgetsDataTypeFilter(notebook_metadata=self._nb_metadata, parent=self, resources=resources),
        )
        page, resources = TemplateExporter.from_notebook_node(self, nb, resources, **kw)
        return accessible(page), resources


class FastHTMLExporter(WithoutSoup, HTMLExporter):
    """nbconvert's HTMLExporter without the BeautifulSoup pass (the decks use WithoutSoup the same way)."""


def mathjax_head(url: str) -> str:
    """The ``<script>`` tags that configure MathJax 3 and load it from ``url``."""
    return f'<script>\n{MATHJAX_CONFIG}\n</script>\n<script defer src="{html.escape(url)}"></script>'


def with_mathjax(template: str) -> str:
    """``template`` (Jinja) with ``@MATHJAX@`` replaced by the tags of ``mathjax_head``.

    ``@INPUT@``, if present, becomes ``INPUT_BLOCK`` (code cells without a second sanitising pass).

    The script's URL is nbconvert's ``mathjax_url`` trait (``resources.mathjax_url``).
    """
    tags = (
        "<script>\n{% raw %}" + MATHJAX_CONFIG + "{% endraw %}\n</script>\n"
        '<script defer src="{{ resources.mathjax_url }}"></script>'
    )
    return template.replace("@MATHJAX@", tags).replace("@INPUT@", INPUT_BLOCK)


def copy_npm_files(package: Path, files: tuple[str, ...], target: Path) -> None:
    """Copy ``files`` (files or folders, relative to ``package``) into ``target``, same layout."""
    for name in files:
        source = package / name
        if not source.exists():
            raise FileNotFoundError(
                f"{source} is missing: run `make setup` (it installs the npm packages of tools/npm_packages)"
            )
        destination = target / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, destination, dirs_exist_ok=True)
        else:
            shutil.copy2(source, destination)


def install_mathjax(out: Path) -> str:
    """Copy MathJax into ``out/mathjax``; return its URL relative to a page in ``out``."""
    copy_npm_files(MATHJAX_ES5, MATHJAX_FILES, out / "mathjax")
    return MATHJAX_URL


def rewrite_links(page: str, names: set[str], suffix: str, on_asset: Callable[[str], None]) -> str:
    """``page`` with links to course notebooks (in ``names``) pointing at ``<stem><suffix>``.

    Every other relative target (an image, a data file) is passed to ``on_asset``.
    """

    def replace(match: re.Match[str]) -> str:
        url = html.unescape(match["url"])
        if not url or _SCHEME.match(url) or url.startswith(("#", "/")):
            return match.group(0)
        parts = urlsplit(url)
        path = unquote(parts.path)
        if path in names:
            new_url = path.removesuffix(".ipynb") + suffix + (f"#{parts.fragment}" if parts.fragment else "")
            return f"{match['attr']}={match['quote']}{html.escape(new_url)}{match['quote']}"
        on_asset(path)
        return match.group(0)

    return _TARGET.sub(replace, page)


def export_course(
    exporter: Exporter,
    out: Path,
    suffix: str,
    folder: Path = NOTEBOOKS,
    only: list[Path] | None = None,
    postprocess: Callable[[str], str] | None = None,
    on_page: Callable[[Path], None] | None = None,
) -> list[tuple[navigation.Entry, str]]:
    """Export the course notebooks of ``folder`` into ``out``; return the entries and page names.

    ``only`` (paths of course notebooks) exports just those and keeps the other pages already in
    ``out``; the list returned still names every notebook whose page exists, in course order.
    ``postprocess`` rewrites each page's HTML before it is written; ``on_page`` is called with
    each page's path once it is written (the browser check opens it while the next is built).
    """
    out.mkdir(parents=True, exist_ok=True)
    paths = navigation.course_notebooks(folder)
    names = {path.name for path in paths}
    wanted = {path.resolve() for path in only} if only is not None else None
    unknown = sorted(str(path) for path in (wanted or set()) - {path.resolve() for path in paths})
    if unknown:
        raise ValueError(f"only must name course notebooks of {folder}, got {unknown}")
    if wanted is None:
        for stale in out.glob(f"[0-9][0-9]_*{suffix}"):
            stale.unlink()
    pages = []

    def copy_asset(relative: str) -> None:
        source = (folder / relative).resolve()
        if source.is_file() and source.is_relative_to(folder.resolve()):
            target = out / source.relative_to(folder.resolve())
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)

    for path in paths:
        entry = navigation.describe(path)
        page = path.stem + suffix
        if wanted is None or path.resolve() in wanted:
            notebook = nbformat.read(path, as_version=4)
            resources = {"metadata": {"name": f"{entry.label}", "path": str(folder)}}
            body, _ = exporter.from_notebook_node(notebook, resources=resources)
            body = rewrite_links(body, names, suffix, copy_asset)
            if postprocess is not None:
                body = postprocess(body)
            (out / page).write_text(body, encoding="utf-8")
            print(f"  {path.name} -> {(out / page).relative_to(out.parent)}")
            if on_page is not None:
                on_page(out / page)
        if (out / page).exists():
            pages.append((entry, page))
    return pages


def write_index(
    out: Path,
    pages: list[tuple[navigation.Entry, str]],
    heading: str,
    mathjax_url: str = MATHJAX_URL,
) -> Path:
    """An index.html listing ``pages`` in course order, with each notebook's summary.

    Summaries may hold formulas: ``mathjax_url`` is the local MathJax (see ``install_mathjax``).
    """
    items = "\n".join(
        f'    <li><a href="{html.escape(page)}">{html.escape(entry.label)}</a>'
        + (f"<br>{summary_html(entry.summary)}" if entry.summary else "")
        + "</li>"
        for entry, page in pages
    )
    index = out / "index.html"
    index.write_text(
        f"""<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>{html.escape(heading)}</title>
  {mathjax_head(mathjax_url)}
  {course_fonts.style_tag()}
  <style>
    body {{ max-width: 46rem; margin: 2rem auto; line-height: 1.5; }}
    ul.course {{ list-style: none; padding-left: 0; }}
    li {{ margin-bottom: 0.8rem; }}
  </style>
</head>
<body>
  <h1>{html.escape(heading)}</h1>
  <ul class="course">
{items}
  </ul>
</body>
</html>
""",
        encoding="utf-8",
    )
    return index
