"""Write the generated navigation of the course: nav lines, the contents list, the README list.

``python -m tools.navigation``          rewrite every generated part that is stale (``make navigation``)
``python -m tools.navigation --check``  change nothing; exit 1 naming every stale or missing part
``python -m tools.navigation notebooks/00_contents.ipynb``  rewrite only the files named
``python -m tools.navigation --set-summary notebooks/03_x.ipynb "One line."``  store a summary

The course is every ``NN_*.ipynb`` in ``notebooks/``, in the order of its two-digit
prefix. Five kinds of markdown are generated, each found again by a marker comment at
the start of its cell, so a re-run replaces it instead of adding another copy:

- ``<!-- nav -->``: the first and the last cell of every notebook, a line
  "← previous · Contents · next →" of relative links;
- ``<!-- contents -->``: in any notebook that has such a cell (``00_contents``), the
  list of notebooks with their titles and one-line summaries;
- the README's list between ``<!-- contents:start -->`` and ``<!-- contents:end -->``;
- the series line of each title slide, "notebook NN of MM", where MM is the last notebook's
  number (the rest of the title cell is written by hand);
- the README's "Questions learners ask" between ``<!-- questions:start -->`` and
  ``<!-- questions:end -->``: a copy of the cells of ``00_contents`` that start with
  ``<!-- questions -->`` (written by hand there), with notebook links made relative to the README.

A notebook's title is its first ``# `` heading (a leading "NN —" is dropped); its
summary is ``metadata["course"]["summary"]`` when set, otherwise the first sentence of
the first paragraph after the title. Only markdown cells are added or changed, so stored
outputs and execution counts stay as they are. See CONTRIBUTING.md.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat

from tools.paths import NOTEBOOKS, README, course_notebooks

#: The course's title, as the site, the decks' index and the notebooks' title slides give it.
COURSE_TITLE = "Sinusoidal positional encodings, from first principles"
NAV_MARKER = "<!-- nav -->"
CONTENTS_MARKER = "<!-- contents -->"
README_START = "<!-- contents:start -->"
README_END = "<!-- contents:end -->"
#: Hand-written cells of ``00_contents`` that the README repeats ("Questions learners ask").
QUESTIONS_MARKER = "<!-- questions -->"
QUESTIONS_START = "<!-- questions:start -->"
QUESTIONS_END = "<!-- questions:end -->"
NAV_IDS = ("nav-top", "nav-bottom")
#: Metadata of a generated cell: skipped in slides, not editable by accident in JupyterLab.
GENERATED_METADATA = {"slideshow": {"slide_type": "skip"}, "editable": False}
#: Notebooks per generated contents cell: each cell is one slide at 1280×720.
CONTENTS_PER_SLIDE = 4
#: Metadata of the contents cells after the first: each is a sub-slide.
CONTENTS_CONTINUED_METADATA = {"slideshow": {"slide_type": "subslide"}, "editable": False}


@dataclass(frozen=True)
class Entry:
    """One notebook of the course as the generated lists show it."""

    path: Path
    number: str
    title: str
    summary: str

    @property
    def label(self) -> str:
        return f"{self.number} · {self.title}"


# ---- reading titles and summaries -------------------------------------------------------


def is_generated(cell: nbformat.NotebookNode, marker: str) -> bool:
    """True if ``cell`` is a markdown cell generated under ``marker``."""
    return cell.cell_type == "markdown" and cell.source.lstrip().startswith(marker)


def _plain(markdown: str) -> str:
    """One line of markdown without links' targets (they would not resolve elsewhere)."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", markdown)
    return " ".join(text.split())


def _first_sentence(paragraph: str) -> str:
    # A sentence ends at . ! or ? followed by a space and a capital letter, outside $…$.
    outside_math = re.split(r"(\$[^$]*\$)", paragraph)
    sentence = ""
    for index, chunk in enumerate(outside_math):
        if index % 2 == 0:
            match = re.search(r"(?<!e\.g)(?<!i\.e)[.!?](?=\s+[A-Z(])", chunk)
            if match:
                return sentence + chunk[: match.end()]
        sentence += chunk
    return sentence


def _paragraphs(markdown: str) -> list[str]:
    return [block.strip() for block in re.split(r"\n\s*\n", markdown) if block.strip()]


def describe(path: Path) -> Entry:
    """Read the title and the one-line summary of the notebook at ``path``."""
    notebook = nbformat.read(path, as_version=4)
    number = path.name[:2]
    title, summary = "", ""
    after_title: list[str] = []
    for cell in notebook.cells:
        if cell.cell_type != "markdown" or is_generated(cell, NAV_MARKER):
            continue
        for block in _paragraphs(cell.source):
            if not title:
                heading = re.match(r"^#\s+(.+)$", block.splitlines()[0])
                if heading:
                    title = heading.group(1).strip()
                    rest = "\n".join(block.splitlines()[1:]).strip()
                    after_title.extend([rest] if rest else [])
                continue
            after_title.append(block)
        if title and after_title:
            break
    if not title:
        raise ValueError(f"{path.name}: no '# ' title heading in any markdown cell")
    title = re.sub(rf"^{number}\s*[—–:.\-]\s*", "", title)
    course = notebook.metadata.get("course", {})
    if course.get("summary"):
        summary = str(course["summary"])
    else:
        prose = [block for block in after_title if not block.startswith(("#", "-", "*", "|", ">", "<"))]
        summary = _first_sentence(prose[0]) if prose else ""
    return Entry(path=path, number=number, title=_plain(title), summary=_plain(summary))


# ---- what the generated parts should say -----------------------------------------------


def nav_line(entries: list[Entry], index: int) -> str:
    """The navigation cell of notebook ``entries[index]``: previous · contents · next."""
    contents = next((entry for entry in entries if entry.number == "00"), None)
    parts = []
    if index > 0:
        previous = entries[index - 1]
        parts.append(f"[← {previous.label}]({previous.path.name})")
    if contents is not None and contents is entries[index]:
        parts.append("**Contents**")
    elif contents is not None and (index == 0 or entries[index - 1] is not contents):
        parts.append(f"[Contents]({contents.path.name})")
    if index + 1 < len(entries):
        following = entries[index + 1]
        parts.append(f"[{following.label} →]({following.path.name})")
    return f"{NAV_MARKER}\n" + " · ".join(parts)


def contents_list(entries: list[Entry], prefix: str = "", *, include_contents: bool = False) -> str:
    """A markdown bullet list of the notebooks, linked with ``prefix`` before each file name.

    The contents notebook (``00``) is listed only with ``include_contents`` (the README does).
    """
    lines = []
    for entry in entries:
        if entry.number == "00" and not include_contents:
            continue
        line = f"- [{entry.label}]({prefix}{entry.path.name})"
        lines.append(f"{line}: {entry.summary}" if entry.summary else line)
    return "\n".join(lines)


def contents_cells(entries: list[Entry]) -> list[str]:
    """The contents list split into cells of at most ``CONTENTS_PER_SLIDE`` notebooks each, so
    that each fits one slide (the first stays on the slide of its heading, the others are
    sub-slides)."""
    listed = [entry for entry in entries if entry.number != "00"]
    size = CONTENTS_PER_SLIDE
    chunks = [listed[start : start + size] for start in range(0, len(listed), size)]
    return [f"{CONTENTS_MARKER}\n{contents_list(chunk)}" for chunk in chunks or [[]]]


def questions_text(entries: list[Entry], prefix: str) -> str | None:
    """The "Questions learners ask" cells of the contents notebook, joined, with every link to a
    notebook prefixed by ``prefix`` (so that it resolves from the README); ``None`` if it has none."""
    contents = next((entry for entry in entries if entry.number == "00"), None)
    if contents is None:
        return None
    notebook = nbformat.read(contents.path, as_version=4)
    blocks = [
        cell.source.lstrip()[len(QUESTIONS_MARKER) :].strip()
        for cell in notebook.cells
        if is_generated(cell, QUESTIONS_MARKER)
    ]
    if not blocks:
        return None
    text = "\n\n".join(blocks).replace("](#", f"]({contents.path.name}#")  # links within 00 itself
    return re.sub(r"\]\((\d\d_[A-Za-z0-9_]+\.ipynb(?:#[^)]*)?)\)", lambda m: f"]({prefix}{m.group(1)})", text)


def readme_block(entries: list[Entry], readme: Path, folder: Path) -> str:
    prefix = Path(folder.resolve()).relative_to(readme.resolve().parent).as_posix() + "/"
    return f"{README_START}\n{contents_list(entries, prefix=prefix, include_contents=True)}\n{README_END}"


# ---- applying them ---------------------------------------------------------------------


def _generated_cell(
    notebook: nbformat.NotebookNode, source: str, cell_id: str, metadata: dict = GENERATED_METADATA
) -> nbformat.NotebookNode:
    cell = nbformat.v4.new_markdown_cell(source, metadata=dict(metadata))
    if (notebook.nbformat, notebook.nbformat_minor) >= (4, 5):
        cell["id"] = cell_id  # fixed ids: a re-run rewrites nothing
    else:
        cell.pop("id", None)  # nbformat 4.4 and older have no cell ids
    return cell


def _with_contents(
    notebook: nbformat.NotebookNode, body: list, entries: list[Entry], stale: list[str]
) -> list:
    """``body`` with its run of contents cells replaced by ``contents_cells`` (if it has one)."""
    where = [index for index, cell in enumerate(body) if is_generated(cell, CONTENTS_MARKER)]
    if not where:
        return body
    first, last = where[0], where[-1]
    old = body[first : last + 1]
    sources = contents_cells(entries)
    if (
        len(where) != last - first + 1
        or [cell.source for cell in old] != sources
        or any(cell.get("metadata", {}) != CONTENTS_CONTINUED_METADATA for cell in old[1:])
    ):
        stale.append("contents list is stale")
    old[0].source = sources[0]  # the first cell keeps its place on the slide of its heading
    new = [old[0]]
    for number, source in enumerate(sources[1:], start=2):
        new.append(_generated_cell(notebook, source, f"contents-{number}", CONTENTS_CONTINUED_METADATA))
    return [*body[:first], *new, *body[last + 1 :]]


#: The series line of a title slide: "… · notebook 03 of 13" (CONTRIBUTING, "Slides").
SERIES_LINE = re.compile(r"· notebook (\d\d) of (\d+)")


def _with_series_number(body: list, entries: list[Entry], index: int, stale: list[str]) -> None:
    """Set "notebook NN of MM" on the title slide to this notebook's number and the last one's."""
    wanted = f"· notebook {entries[index].number} of {entries[-1].number}"
    for cell in body:
        if cell.cell_type == "markdown" and cell.source.lstrip().startswith("# "):
            if SERIES_LINE.search(cell.source) and SERIES_LINE.search(cell.source).group(0) != wanted:
                stale.append("series line of the title slide is stale")
                cell.source = SERIES_LINE.sub(wanted, cell.source, count=1)
            return


def updated_notebook(notebook: nbformat.NotebookNode, entries: list[Entry], index: int) -> list[str]:
    """Update ``notebook`` in place; return what was stale (empty if it was up to date)."""
    stale = []
    line = nav_line(entries, index)
    cells = notebook.cells
    body = [cell for cell in cells if not is_generated(cell, NAV_MARKER)]
    if len(body) != len(cells) - 2 or not cells:
        stale.append("navigation cells missing or duplicated")
    else:
        for cell, where in ((cells[0], "top"), (cells[-1], "bottom")):
            if not is_generated(cell, NAV_MARKER):
                stale.append(f"navigation line not at the {where}")
            elif cell.source != line or cell.get("metadata", {}) != GENERATED_METADATA:
                stale.append(f"navigation line at the {where} is stale")
    body = _with_contents(notebook, body, entries, stale)
    _with_series_number(body, entries, index, stale)
    top, bottom = (_generated_cell(notebook, line, cell_id) for cell_id in NAV_IDS)
    notebook.cells = [top, *body, bottom]
    return stale


def updated_readme(
    text: str, block: str, start: str = README_START, end: str = README_END, what: str = "contents list"
) -> tuple[str, list[str]]:
    """The README text with ``block`` between the markers ``start`` … ``end``; and what was stale."""
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.DOTALL)
    if not pattern.search(text):
        return text, [f"markers {start} … {end} not found"]
    new_text = pattern.sub(lambda _: block, text, count=1)
    return new_text, ([f"{what} is stale"] if new_text != text else [])


def run(folder: Path, readme: Path | None, check: bool, only: list[Path] | None = None) -> list[str]:
    """Bring every generated part up to date (or only report, with ``check``); return the problems."""
    paths = course_notebooks(folder)
    entries = [describe(path) for path in paths]
    wanted = None if only is None else {path.resolve() for path in only}
    problems = []
    for index, entry in enumerate(entries):
        if wanted is not None and entry.path.resolve() not in wanted:
            continue
        notebook = nbformat.read(entry.path, as_version=4)
        stale = updated_notebook(notebook, entries, index)
        problems += [f"{entry.path.name}: {message}" for message in stale]
        if stale and not check:
            nbformat.validate(notebook)
            nbformat.write(notebook, entry.path)
            print(f"updated {entry.path.name}")
    if readme is not None and (wanted is None or readme.resolve() in wanted):
        text = readme.read_text(encoding="utf-8")
        new_text, stale = updated_readme(text, readme_block(entries, readme, folder))
        prefix = Path(folder.resolve()).relative_to(readme.resolve().parent).as_posix() + "/"
        questions = questions_text(entries, prefix)
        if questions is not None:
            block = f"{QUESTIONS_START}\n{questions}\n{QUESTIONS_END}"
            new_text, stale_questions = updated_readme(
                new_text, block, QUESTIONS_START, QUESTIONS_END, "questions section"
            )
            stale += stale_questions
        problems += [f"{readme.name}: {message}" for message in stale]
        if new_text != text and not check:
            readme.write_text(new_text, encoding="utf-8")
            print(f"updated {readme.name}")
    return problems


def set_summary(path: Path, summary: str) -> None:
    """Store ``summary`` as ``metadata["course"]["summary"]`` of the notebook at ``path`` (nothing else)."""
    summary = " ".join(summary.split())
    if not summary:
        raise ValueError("summary: expected one line of text, got nothing")
    notebook = nbformat.read(path, as_version=4)
    notebook.metadata.setdefault("course", {})["summary"] = summary
    nbformat.validate(notebook)
    nbformat.write(notebook, path)
    print(f"summary of {path.name}: {summary}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, help="only these notebooks/README (default: all)")
    parser.add_argument("--check", action="store_true", help="change nothing; fail if anything is stale")
    parser.add_argument("--notebooks", type=Path, default=NOTEBOOKS, help="folder of the course's notebooks")
    parser.add_argument("--readme", type=Path, default=README, help="README whose contents list to update")
    parser.add_argument("--no-readme", action="store_true", help="leave the README alone")
    parser.add_argument(
        "--set-summary",
        nargs=2,
        metavar=("NOTEBOOK", "TEXT"),
        help="store the one-line summary of NOTEBOOK in its metadata, then update",
    )
    args = parser.parse_args(argv)
    if args.set_summary:
        set_summary(Path(args.set_summary[0]), args.set_summary[1])
    readme = None if args.no_readme else args.readme
    problems = run(args.notebooks, readme, check=args.check, only=args.paths or None)
    if args.check and problems:
        print("Stale navigation (run `make navigation`):", file=sys.stderr)
        for problem in problems:
            print(f"  {problem}", file=sys.stderr)
        return 1
    if not problems:
        print("navigation is up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
