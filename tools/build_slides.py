"""Build a reveal.js slide deck of every notebook, with its stored outputs.

``python tools/build_slides.py``            into _build/slides/ (``make slides``)
``python tools/build_slides.py --out DIR``  somewhere else

Each cell's ``metadata["slideshow"]["slide_type"]`` (set by the notebook's author) decides
its place: "slide", "subslide", "fragment", "-" (same slide), "skip", "notes". Nothing is
executed and building needs no network; the decks load reveal.js from a CDN when viewed.
Links between notebooks point at the other decks; _build/slides/index.html lists them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from nbconvert.exporters import SlidesExporter

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_site import COURSE_TITLE, NOTEBOOKS, ROOT, export_course, write_index  # noqa: E402

OUT = ROOT / "_build" / "slides"
SUFFIX = ".slides.html"


def build(out: Path = OUT, folder: Path = NOTEBOOKS) -> Path:
    """Build every deck into ``out``; return the index.html that lists them."""
    exporter = SlidesExporter(reveal_theme="simple", reveal_transition="none")
    pages = export_course(exporter, out, SUFFIX, folder)
    return write_index(out, pages, f"{COURSE_TITLE}: slides")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder to write (default: _build/slides)")
    parser.add_argument("--notebooks", type=Path, default=NOTEBOOKS, help="folder of the course's notebooks")
    args = parser.parse_args(argv)
    index = build(args.out, args.notebooks)
    print(f"open {index}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
