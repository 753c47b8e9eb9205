"""Render every notebook, with its stored outputs, into a static site that opens from disk.

``python tools/build_site.py``            into _build/site/ (``make site``); open _build/site/index.html
``python tools/build_site.py --out DIR``  somewhere else

Nothing is executed: the pages show the outputs stored by ``make outputs``. Links between
notebooks (``03_formula.ipynb``) are rewritten to the pages (``03_formula.html``), so the
generated navigation works in the site; local images and files a notebook links to are
copied next to the pages. index.html lists the notebooks in course order.

Neither building nor reading needs a network: MathJax 3 (npm package ``mathjax-full``, installed
by ``make setup`` into tools/npm_packages/node_modules) is copied into ``<out>/mathjax/`` and the pages
load it from there, configured as JupyterLab 4 configures it (``$…$`` inline, ``$$…$$`` displayed,
``\\$`` a dollar sign). nbconvert's own MathJax block is replaced: it loads MathJax 2 from a CDN
and its ``tex2jax`` settings mean nothing to MathJax 3. require.js, which nbconvert also loads from
a CDN, is left out: no output of the course needs it. The pages' fonts (npm package
``dejavu-fonts-ttf``) are copied into ``<out>/fonts/``, so that text measures the same on every
machine (tools/course_fonts.py).

The interactive explorers (``pe_utils.explorers``, stored as Vega-Lite outputs, which nbconvert
does not render) are drawn in the browser by local copies of vega, vega-lite and vega-embed,
copied into ``<out>/vega/`` (tools/explorers_web.py).
"""

from __future__ import annotations

import argparse
import html
import json
import re
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote, urlsplit

import nbformat
from nbconvert.exporters import Exporter, HTMLExporter, TemplateExporter
from nbconvert.filters.highlight import Highlight2HTML
from nbconvert.filters.widgetsdatatypefilter import WidgetsDataTypeFilter

sys.path.insert(0, str(Path(__file__).resolve().parent))
import course_fonts  # noqa: E402  (the fonts the pages ship: text measures the same on every machine)
import explorers_web  # noqa: E402  (interactive explorers: Vega-Lite drawn by local vega-embed)
import navigation  # noqa: E402  (a sibling tool: titles, summaries, course order)

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
OUT = ROOT / "_build" / "site"
COURSE_TITLE = "Sinusoidal positional encodings, from first principles"
GUIDE = "Teaching the course: the teacher's guide"
_TARGET = re.compile(r"""(?P<attr>\b(?:href|src))=(?P<quote>["'])(?P<url>[^"']*)(?P=quote)""")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
# The course's npm packages (tools/npm_packages/package.json), installed by `make setup`.
NODE_MODULES = ROOT / "tools" / "npm_packages" / "node_modules"
MATHJAX_ES5 = NODE_MODULES / "mathjax-full" / "es5"
# All TeX extensions, HTML-CSS output (as JupyterLab), and the web fonts that output loads.
MATHJAX_FILES = ("tex-chtml-full.js", "output/chtml/fonts/woff-v2")
MATHJAX_URL = "mathjax/tex-chtml-full.js"  # relative to a page; mathjax/ sits next to it
# JupyterLab 4's TeX settings (@jupyterlab/mathjax-extension), so a page shows what the notebook
# shows. MathJax 3 reads window.MathJax before it starts. The page's fonts (tools/course_fonts.py)
# are loaded before MathJax typesets: it scales each formula to the x-height of the text around
# it, measured as it typesets, and a font still loading would be measured as the machine's
# fallback. A character MathJax's fonts lack, and an error's message, are drawn in the page's font.
MATHJAX_CONFIG = r"""window.MathJax = {
  tex: {
    inlineMath: [['$', '$'], ['\\(', '\\)']],
    displayMath: [['$$', '$$'], ['\\[', '\\]']],
    processEscapes: true,
    processEnvironments: true
  },
  chtml: { unknownFamily: @TEXT@, merrorFont: @TEXT@ },
  startup: {
    pageReady: () => Promise.all([...document.fonts].map((face) => face.load().catch(() => {})))
      .then(() => MathJax.startup.defaultPageReady())
  }
};""".replace("@TEXT@", json.dumps(course_fonts.MATHJAX_TEXT_FAMILY))
# The pages: nbconvert's lab template with its CDN scripts replaced (see the module docstring).
# mermaid.js is only fetched (from a CDN) for a page with a mermaid diagram; the course has none,
# and one could not be drawn offline anyway, so its loader is left out too.
SITE_TEMPLATE = """{%- extends 'index.html.j2' -%}
{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{%- block html_head_js_mathjax -%}
@MATHJAX@
{%- endblock html_head_js_mathjax -%}
@INPUT@
"""
# A code cell's source, highlighted by Pygments (which escapes it), without the lab template's
# extra pass through bleach: that pass changes nothing here and took a third of the build time.
INPUT_BLOCK = """{% block input %}
<div class="jp-CodeMirrorEditor jp-Editor jp-InputArea-editor" data-type="inline">
     <div class="cm-editor cm-s-jupyter">
{{ cell.source | highlight_code(metadata=cell.metadata) }}
     </div>
</div>
{%- endblock input %}"""


# The site's additions to the lab template's style: teacher notes (markdown cells of slide type
# "notes", contract shape <details class="teacher-note"><summary>Teacher's note · …</summary>…)
# read as a small, collapsed, clearly marked box, out of the learner's way; figures fit the page.
SITE_CSS = """
details.teacher-note { margin: 0.2em 0 0.8em 0; padding: 0.25em 0.8em; max-width: 46em;
  border-left: 4px solid #b07d00; background: #fbf5e6; border-radius: 3px; font-size: 0.9em; }
details.teacher-note > summary { cursor: pointer; color: #7a5600; font-weight: 600; }
details.teacher-note > summary::after { content: " (for teachers)"; font-weight: normal; color: #8a7440; }
details.teacher-note[open] { padding-bottom: 0.5em; }
.jp-RenderedHTMLCommon img, .jp-OutputArea-output img { max-width: 100%; height: auto; }
"""
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


def style_page(page: str) -> str:
    """A site page with the course's fonts and additions (``SITE_CSS``) after the template's style."""
    return page.replace(
        "</head>", f'{course_fonts.style_tag()}\n<style id="course-site">{SITE_CSS}</style>\n</head>', 1)


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
        lambda m: m[0] if re.search(r"\salt=", m[0], re.IGNORECASE)
        else m[0][:4] + f' alt="{NO_ALT_TEXT}"' + m[0][4:],
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
            json.dumps([exporter.anchor_link_text, exporter.exclude_anchor_links, exporter.lexer_options],
                       sort_keys=True, default=str),
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
    """The site's exporter: nbconvert's HTMLExporter without the BeautifulSoup pass."""


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
    documents: list[str] = (),
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
    guides = "".join(
        f'  <p><a href="{html.escape(Path(name).stem)}.html">{GUIDE}</a></p>\n' for name in documents
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
{guides}</body>
</html>
""",
        encoding="utf-8",
    )
    return index


def heading_id(text: str) -> str:
    """GitHub's id for a heading of a .md file (so that ``#anchors`` work on GitHub and here)."""
    plain = html.unescape(re.sub(r"<[^>]+>", "", text)).strip().lower()
    return re.sub(r"[^\w\- ]", "", plain).replace(" ", "-")


def write_documents(out: Path, folder: Path, mathjax_url: str = MATHJAX_URL) -> list[str]:
    """Render every ``.md`` file of ``folder`` (the teacher's guide) into ``out/<stem>.html``.

    Links into the course stay links (notebooks become their pages, other documents their
    pages); a link that leaves the folder (``../README.md``) has no page on the site, so it
    becomes plain text. Returns the names of the ``.md`` files rendered.
    """
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    documents = sorted(path.name for path in folder.glob("*.md"))

    def link(match: re.Match[str]) -> str:
        url, text = html.unescape(match["url"]), match["text"]
        if _SCHEME.match(url) or url.startswith("#"):
            return match.group(0)
        parts = urlsplit(url)
        if parts.path in documents or parts.path.endswith(".ipynb"):
            target = parts.path.removesuffix(".md").removesuffix(".ipynb") + ".html"
            target += f"#{parts.fragment}" if parts.fragment else ""
            return f'<a href="{html.escape(target)}">{text}</a>'
        return text

    for name in documents:
        body = markdown2html_mistune((folder / name).read_text(encoding="utf-8"))
        body = re.sub(r'<a class="anchor-link"[^>]*>.*?</a>', "", body)  # nbconvert's pilcrows
        body = re.sub(  # GitHub's heading ids, which the guide's own #links use
            r"<h([1-6])[^>]*>(.*?)</h\1>",
            lambda m: f'<h{m[1]} id="{heading_id(m[2])}">{m[2]}</h{m[1]}>',
            body,
        )
        body = re.sub(r'<a href="(?P<url>[^"]*)">(?P<text>.*?)</a>', link, body, flags=re.DOTALL)
        title = re.search(r"<h1[^>]*>(.*?)</h1>", body)
        (out / (Path(name).stem + ".html")).write_text(
            f"""<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>{re.sub(r"<[^>]+>", "", title[1]) if title else html.escape(name)}</title>
  {mathjax_head(mathjax_url)}
  {course_fonts.style_tag()}
  <style>
    body {{ max-width: 52rem; margin: 2rem auto; line-height: 1.5; }}
    table {{ border-collapse: collapse; }} td, th {{ border: 1px solid #ccc; padding: 0.3rem 0.5rem; }}
    pre {{ background: #f5f5f5; padding: 0.6rem; overflow-x: auto; }}
  </style>
</head>
<body>
<p><a href="index.html">Course index</a></p>
{body}
</body>
</html>
""",
            encoding="utf-8",
        )
    return documents


def build(out: Path = OUT, folder: Path = NOTEBOOKS, on_page: Callable[[Path], None] | None = None) -> Path:
    """Build the site into ``out``; return its index.html. ``on_page``: see ``export_course``."""
    mathjax_url = install_mathjax(out)
    course_fonts.install_fonts(out)
    exporter = FastHTMLExporter(
        template_name="lab", raw_template=with_mathjax(SITE_TEMPLATE), mathjax_url=mathjax_url
    )
    with_explorers = explorers_web.enable(exporter, out)
    documents = write_documents(out, folder, mathjax_url)

    def to_document_pages(page: str) -> str:
        # A notebook's link to a document (TEACHING.md) leads to the document's page.
        for name in documents:
            page = page.replace(f'href="{name}', f'href="{Path(name).stem}.html')
        return page

    pages = export_course(
        exporter,
        out,
        ".html",
        folder,
        postprocess=lambda page: with_explorers(style_page(to_document_pages(page))),
        on_page=on_page,
    )
    for name in documents:
        (out / name).unlink(missing_ok=True)  # copied as a linked file before the rewrite
    return write_index(out, pages, COURSE_TITLE, mathjax_url, documents)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder to write (default: _build/site)")
    parser.add_argument("--notebooks", type=Path, default=NOTEBOOKS, help="folder of the course's notebooks")
    args = parser.parse_args(argv)
    index = build(args.out, args.notebooks)
    print(f"open {index}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
