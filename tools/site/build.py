"""Build the course's web site with Sphinx, myst-nb and sphinx-book-theme (``make site``).

``python -m tools.site.build``                 into _build/site/; open _build/site/index.html from disk
``python -m tools.site.build --out DIR``       somewhere else (its sources are staged in DIR-src/)

Every notebook is a page, in course order, with its stored outputs (nothing is executed);
README.md is the home page (index.html), TEACHING.md a page. The sidebar lists every page,
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


def toctrees(notebooks: list[Path], documents: list[str]) -> str:
    """The hidden toctrees of the sidebar: the notebooks in course order (``GROUPS``), then ``documents``."""
    blocks = []
    for caption, numbers in GROUPS:
        names = [path.stem for path in notebooks if int(path.name[:2]) in numbers]
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
        else f"# {course_site.COURSE_TITLE}\n"
    )
    _write(src / "index.md", home + toctrees(notebooks, documents))
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
