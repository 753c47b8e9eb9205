"""Build the course's web site with Sphinx, myst-nb and sphinx-book-theme (``make site``).

``python -m tools.site.build``                 into _build/site/; open _build/site/index.html from disk
``python -m tools.site.build --out DIR``       somewhere else (its sources are staged in DIR-src/)

Every notebook is a page, in course order, with its stored outputs (nothing is executed);
README.md is the home page (index.html), TEACHING.md a page, and the tracks of notebook 00 ("Who
reads what" and its one-hour path) a page of their own, ``tracks.html``, one section per reader
(``tracks_markdown``). The sidebar lists every page,
search works from disk (Sphinx's index, no server), each page has prev/next and an outline.
Nothing is fetched at build or view time (tools/site/course_site.py).

The sources are staged flat into ``<out>-src/`` so that every page keeps the old site's address
(``03_the_sinusoidal_formula.html``): the notebooks and the other files of the notebooks' folder
as they are, README.md as ``index.md`` with the contents (toctrees) appended, and every ``.md``
file with its links made site links: a link to a staged file stays, a link to a file that has no
page (``../CONTRIBUTING.md``) becomes plain text, an in-page GitHub anchor
(``#running-the-exercises-live``) becomes the heading's JupyterLab anchor. A staged file is only
rewritten when its content changes, so Sphinx rebuilds only what changed.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import warnings
from pathlib import Path

import nbformat

from tools import navigation  # titles, course order
from tools.paths import BUILD, NOTEBOOKS, README
from tools.site import course_site

HERE = Path(__file__).resolve().parent
OUT = BUILD / "site"
# The sidebar's groups: the contents notebook, the core notebooks (CONTRIBUTING: 00-06 are read
# first, main line first), the rest, then the teacher's guide and any other .md file.
GROUPS = (
    ("Start here", range(0, 1)),
    ("Core: the idea", range(1, 7)),
    ("Further: in practice", range(7, 100)),
)
# A markdown link (not an image): [text](url), the text may hold [brackets], the url (balanced) parentheses.
_LINK = re.compile(
    r"(?<!!)\[(?P<text>(?:[^\[\]]|\[[^\[\]]*\])*)\]"
    r"\((?P<url>[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)\)"
)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)


def github_slug(text: str) -> str:
    """GitHub's anchor of a ``.md`` heading (lower case, punctuation dropped, spaces as ``-``)."""
    plain = re.sub(r"<[^>]+>|[`*_]", "", text).strip().lower()
    return re.sub(r"[^\w\- ]", "", plain).replace(" ", "-")


def site_markdown(text: str, source: Path, staged: dict[Path, str]) -> str:
    """``text`` of the ``.md`` file ``source`` with its links made site links (module docstring).

    ``staged`` maps each staged file's original path (resolved) to its name on the site.
    """
    headings = {
        github_slug(heading): course_site.jupyter_slug(re.sub(r"[`*]", "", heading))
        for heading in _HEADING.findall(text)
    }

    def link(match: re.Match[str]) -> str:
        url, text_ = match["url"], match["text"]
        if _SCHEME.match(url):
            return match[0]
        path, _, fragment = url.partition("#")
        if not path:
            return f"[{text_}](#{headings.get(fragment, fragment)})"
        target = (source.parent / path).resolve()
        if target in staged:
            return f"[{text_}]({staged[target]}{'#' + fragment if fragment else ''})"
        return text_  # no page on the site for it

    return _LINK.sub(link, text)


TRACKS = "tracks"  # the page of 00's tracks, after 00 in the sidebar
_TRACKS_CELL = "## Who reads what"
_PATH_CELL = "### A one-hour path"


def tracks_markdown(notebooks: list[Path]) -> str | None:
    """The tracks page: 00's "Who reads what", one section per reader, then its one-hour path.

    Made from notebook 00's own cells (its table, one row per reader: who, what to read, how long),
    so the page never says other than 00; ``None`` when the course has no 00 with those cells.
    """
    contents = [path for path in notebooks if path.name.startswith("00_")]
    if not contents:
        return None
    cells = [
        cell.source for cell in nbformat.read(contents[0], as_version=4).cells if cell.cell_type == "markdown"
    ]
    tracks = next((cell for cell in cells if cell.startswith(_TRACKS_CELL)), None)
    one_hour = next((cell for cell in cells if cell.startswith(_PATH_CELL)), None)
    if tracks is None or one_hour is None:
        return None
    rows = [line for line in tracks.splitlines() if line.startswith("|")][2:]  # after header and rule
    after = tracks.split(rows[-1], 1)[1].strip() if rows else ""
    sections = []
    for row in rows:
        reader, read, time = (part.strip() for part in row.strip("|").split(" | "))
        sections.append(f"## {reader[0].upper()}{reader[1:]}\n\n**Read:** {read}.\n\n**Time:** {time}.")
    return "\n\n".join(
        [
            f"# Tracks through the course\n\nWho reads what, from [00 · Contents]({contents[0].name}): "
            "each reader's route through the notebooks and how long it takes.",
            *sections,
            after,
            one_hour[1:],  # "### A one-hour path" as a section of its own: "## A one-hour path"
        ]
    )


def toctrees(notebooks: list[Path], documents: list[str], start: tuple[str, ...] = ()) -> str:
    """The hidden toctrees of the sidebar: the notebooks in course order (``GROUPS``), each group's pages
    ``start`` after 00's, then ``documents``."""
    blocks = []
    for caption, numbers in GROUPS:
        names = [path.stem for path in notebooks if int(path.name[:2]) in numbers]
        if names and 0 in numbers:
            names += list(start)
        if names:
            blocks.append(f"```{{toctree}}\n:hidden:\n:caption: {caption}\n\n" + "\n".join(names) + "\n```")
    if documents:
        blocks.append("```{toctree}\n:hidden:\n:caption: Teaching\n\n" + "\n".join(documents) + "\n```")
    return "\n\n" + "\n\n".join(blocks) + "\n"


def _write(path: Path, text: str) -> None:
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def stage(src: Path, folder: Path = NOTEBOOKS, readme: Path = README) -> None:
    """Stage the site's sources into ``src`` (module docstring); remove what no longer has a source."""
    src.mkdir(parents=True, exist_ok=True)
    notebooks = navigation.course_notebooks(folder)
    files = [
        path
        for path in sorted(folder.rglob("*"))
        if path.is_file()
        and ".ipynb_checkpoints" not in path.parts
        and not (path.suffix == ".ipynb" and path not in notebooks)
    ]
    staged = {path.resolve(): path.relative_to(folder).as_posix() for path in files}
    staged[readme.resolve()] = "index.md"
    documents = sorted(path.stem for path in folder.glob("*.md"))
    for path in files:
        target = src / staged[path.resolve()]
        target.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix == ".md":
            _write(target, site_markdown(path.read_text(encoding="utf-8"), path, staged))
        elif not (
            target.is_file()
            and target.stat().st_mtime_ns == path.stat().st_mtime_ns
            and target.stat().st_size == path.stat().st_size
        ):
            shutil.copy2(path, target)
    home = (
        site_markdown(readme.read_text(encoding="utf-8"), readme, staged)
        if readme.is_file()
        else f"# {navigation.COURSE_TITLE}\n"
    )
    tracks = tracks_markdown(notebooks)
    if tracks is not None:
        staged[(folder / f"{TRACKS}.md").resolve()] = f"{TRACKS}.md"
        _write(src / f"{TRACKS}.md", site_markdown(tracks, folder / f"{TRACKS}.md", staged))
    _write(src / "index.md", home + toctrees(notebooks, documents, (TRACKS,) if tracks is not None else ()))
    wanted = {src / name for name in staged.values()}
    for path in sorted(src.rglob("*"), reverse=True):
        if path.is_file() and path not in wanted:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()


def build(
    out: Path = OUT, folder: Path = NOTEBOOKS, readme: Path = README, quiet: bool = True, jobs: int = 1
) -> Path:
    """Build the site into ``out`` (incrementally: only what changed is rebuilt); return its index.html.

    Raises ``RuntimeError`` if Sphinx reports an error or a warning (a broken link, an unknown output).
    """
    from sphinx.cmd.build import build_main

    out = Path(out)
    src = out.parent / f"{out.name}-src"
    stage(src, folder, readme)
    log = out.parent / f"{out.name}-warnings.txt"
    args = ["-b", "html", "-c", str(HERE), "-w", str(log), "-j", str(jobs), str(src), str(out)]
    with warnings.catch_warnings():  # the theme's use of APIs Sphinx will remove: not the course's to fix
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        code = build_main((["-q"] if quiet else []) + args)
    problems = log.read_text(encoding="utf-8").strip() if log.is_file() else ""
    if code != 0 or problems:
        raise RuntimeError(f"the site's build failed (exit {code}):\n{problems}")
    return out / "index.html"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder to write (default: _build/site)")
    parser.add_argument("--notebooks", type=Path, default=NOTEBOOKS, help="folder of the course's notebooks")
    parser.add_argument("--readme", type=Path, default=README, help="the home page (default: README.md)")
    parser.add_argument("--verbose", action="store_true", help="Sphinx's progress, not only its problems")
    args = parser.parse_args(argv)
    try:
        index = build(args.out, args.notebooks, args.readme, quiet=not args.verbose)
    except RuntimeError as error:
        print(error, file=sys.stderr)
        return 1
    print(f"open {index}")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "")
    sys.exit(main())
