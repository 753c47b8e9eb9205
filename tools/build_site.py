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
a CDN, is left out: no output of the course needs it.
"""

from __future__ import annotations

import argparse
import html
import re
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote, urlsplit

import nbformat
from nbconvert.exporters import Exporter, HTMLExporter

sys.path.insert(0, str(Path(__file__).resolve().parent))
import navigation  # noqa: E402  (a sibling tool: titles, summaries, course order)

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
OUT = ROOT / "_build" / "site"
COURSE_TITLE = "Sinusoidal positional encodings, from first principles"
_TARGET = re.compile(r"""(?P<attr>\b(?:href|src))=(?P<quote>["'])(?P<url>[^"']*)(?P=quote)""")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
# The course's npm packages (tools/npm_packages/package.json), installed by `make setup`.
NODE_MODULES = ROOT / "tools" / "npm_packages" / "node_modules"
MATHJAX_ES5 = NODE_MODULES / "mathjax-full" / "es5"
# All TeX extensions, HTML-CSS output (as JupyterLab), and the web fonts that output loads.
MATHJAX_FILES = ("tex-chtml-full.js", "output/chtml/fonts/woff-v2")
MATHJAX_URL = "mathjax/tex-chtml-full.js"  # relative to a page; mathjax/ sits next to it
# JupyterLab 4's TeX settings (@jupyterlab/mathjax-extension), so a page shows what the notebook
# shows. MathJax 3 reads window.MathJax before it starts.
MATHJAX_CONFIG = r"""window.MathJax = {
  tex: {
    inlineMath: [['$', '$'], ['\\(', '\\)']],
    displayMath: [['$$', '$$'], ['\\[', '\\]']],
    processEscapes: true,
    processEnvironments: true
  }
};"""
# The pages: nbconvert's lab template with its CDN scripts replaced (see the module docstring).
# mermaid.js is only fetched (from a CDN) for a page with a mermaid diagram; the course has none,
# and one could not be drawn offline anyway, so its loader is left out too.
SITE_TEMPLATE = """{%- extends 'index.html.j2' -%}
{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{%- block html_head_js_mathjax -%}
@MATHJAX@
{%- endblock html_head_js_mathjax -%}
"""


def mathjax_head(url: str) -> str:
    """The ``<script>`` tags that configure MathJax 3 and load it from ``url``."""
    return f'<script>\n{MATHJAX_CONFIG}\n</script>\n<script defer src="{html.escape(url)}"></script>'


def with_mathjax(template: str) -> str:
    """``template`` (Jinja) with ``@MATHJAX@`` replaced by the tags of ``mathjax_head``.

    The script's URL is nbconvert's ``mathjax_url`` trait (``resources.mathjax_url``).
    """
    tags = (
        "<script>\n{% raw %}" + MATHJAX_CONFIG + "{% endraw %}\n</script>\n"
        '<script defer src="{{ resources.mathjax_url }}"></script>'
    )
    return template.replace("@MATHJAX@", tags)


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
    exporter: Exporter, out: Path, suffix: str, folder: Path = NOTEBOOKS
) -> list[tuple[navigation.Entry, str]]:
    """Export every course notebook in ``folder`` into ``out``; return the entries and page names."""
    out.mkdir(parents=True, exist_ok=True)
    for stale in out.glob(f"[0-9][0-9]_*{suffix}"):
        stale.unlink()
    paths = navigation.course_notebooks(folder)
    names = {path.name for path in paths}
    pages = []

    def copy_asset(relative: str) -> None:
        source = (folder / relative).resolve()
        if source.is_file() and source.is_relative_to(folder.resolve()):
            target = out / source.relative_to(folder.resolve())
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)

    for path in paths:
        entry = navigation.describe(path)
        notebook = nbformat.read(path, as_version=4)
        resources = {"metadata": {"name": f"{entry.label}", "path": str(folder)}}
        body, _ = exporter.from_notebook_node(notebook, resources=resources)
        page = path.stem + suffix
        (out / page).write_text(rewrite_links(body, names, suffix, copy_asset), encoding="utf-8")
        print(f"  {path.name} -> {(out / page).relative_to(out.parent)}")
        pages.append((entry, page))
    return pages


def write_index(
    out: Path, pages: list[tuple[navigation.Entry, str]], heading: str, mathjax_url: str = MATHJAX_URL
) -> Path:
    """An index.html listing ``pages`` in course order, with each notebook's summary.

    Summaries may hold formulas: ``mathjax_url`` is the local MathJax (see ``install_mathjax``).
    """
    items = "\n".join(
        f'    <li><a href="{html.escape(page)}">{html.escape(entry.label)}</a>'
        + (f"<br>{html.escape(entry.summary)}" if entry.summary else "")
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
  <style>
    body {{ font-family: system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; line-height: 1.5; }}
    li {{ margin-bottom: 0.8rem; }}
  </style>
</head>
<body>
  <h1>{html.escape(heading)}</h1>
  <ol start="0">
{items}
  </ol>
</body>
</html>
""",
        encoding="utf-8",
    )
    return index


def build(out: Path = OUT, folder: Path = NOTEBOOKS) -> Path:
    """Build the site into ``out``; return its index.html."""
    mathjax_url = install_mathjax(out)
    exporter = HTMLExporter(
        template_name="lab", raw_template=with_mathjax(SITE_TEMPLATE), mathjax_url=mathjax_url
    )
    pages = export_course(exporter, out, ".html", folder)
    return write_index(out, pages, COURSE_TITLE, mathjax_url)


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
