"""The fonts the decks and the site ship, so that text measures the same on every machine.

A page that names the system's fonts (``sans-serif``, ``system-ui``, Arial…) is laid out with
whatever the machine has: Debian's ``fonts-liberation`` alone moved one slide's code under the
slide number. The decks and the site therefore bring their own fonts: DejaVu Sans and DejaVu
Sans Mono, from the npm package ``dejavu-fonts-ttf`` (pinned in tools/npm_packages/package.json,
installed by ``make setup``), copied into ``<out>/fonts/`` by :func:`install_fonts` and declared
by ``FONT_CSS`` under the course's own family names (``SANS``, ``MONO``), so that no installed
font of the same name can stand in for them. Their glyphs cover everything the course writes:
Latin, Greek, arrows, math operators (≤ ≈ √ ∑ ⊗), super- and subscripts (ᵀ ₖ ᵢ).
MathJax keeps its own fonts; a character they lack is drawn in ``SANS`` (``MATHJAX_TEXT_FAMILY``).

The browser check (tools/npm_packages/check_browser.mjs) fails a page on any text whose font is
not one of these (or MathJax's), and on any glyph drawn from a system font, so a page that
passes draws no text with the system's fonts, and its result depends on none of them.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tools.paths import NODE_MODULES

PACKAGE = NODE_MODULES / "dejavu-fonts-ttf"
FONTS_URL = "fonts"  # relative to a page; fonts/ sits next to it
SANS, MONO = "Course Sans", "Course Mono"
SANS_STACK, MONO_STACK = f'"{SANS}", sans-serif', f'"{MONO}", monospace'
# family -> (weight, style) -> file of the package's ttf/ folder. The obliques serve as italics.
FACES = {
    SANS: {
        ("400", "normal"): "DejaVuSans.ttf",
        ("700", "normal"): "DejaVuSans-Bold.ttf",
        ("400", "italic"): "DejaVuSans-Oblique.ttf",
        ("700", "italic"): "DejaVuSans-BoldOblique.ttf",
    },
    MONO: {
        ("400", "normal"): "DejaVuSansMono.ttf",
        ("700", "normal"): "DejaVuSansMono-Bold.ttf",
        ("400", "italic"): "DejaVuSansMono-Oblique.ttf",
        ("700", "italic"): "DejaVuSansMono-BoldOblique.ttf",
    },
}
# MathJax 3's HTML output draws a character its fonts lack, and an error's message, in this
# family (its default: serif).
MATHJAX_TEXT_FAMILY = SANS_STACK

_FACES_CSS = "\n".join(
    f'@font-face {{ font-family: "{family}"; src: url("{FONTS_URL}/{name}") format("truetype"); '
    f"font-weight: {weight}; font-style: {style}; font-display: block; }}"
    for family, faces in FACES.items()
    for (weight, style), name in faces.items()
)
# The faces, and every place the page's style sheets name a font: plain pages (body), form
# controls (which do not inherit a font by default), JupyterLab's variables (nbconvert's lab
# template: text, code, prompts), reveal.js's (the theme: text, headings, code; the slide number)
# and the site theme's (pydata-sphinx-theme, under sphinx-book-theme: text, headings, code).
FONT_CSS = f"""{_FACES_CSS}
:root {{ --jp-ui-font-family: {SANS_STACK}; --jp-content-font-family: {SANS_STACK};
  --jp-code-font-family-default: {MONO_STACK}; --jp-code-font-family: {MONO_STACK};
  --jp-cell-prompt-font-family: {MONO_STACK};
  --r-main-font: {SANS_STACK}; --r-heading-font: {SANS_STACK}; --r-code-font: {MONO_STACK};
  --pst-font-family-base: {SANS_STACK}; --pst-font-family-heading: {SANS_STACK};
  --pst-font-family-monospace: {MONO_STACK}; }}
body {{ font-family: {SANS_STACK}; }}
input, select, button, textarea {{ font-family: inherit; }}
pre, code, kbd, samp {{ font-family: {MONO_STACK}; }}
.reveal .slide-number, .reveal .speaker-notes {{ font-family: {SANS_STACK}; }}
"""


def install_fonts(out: Path) -> str:
    """Copy the font files and their licence into ``out/fonts``; return the folder's URL from a page."""
    target = out / FONTS_URL
    target.mkdir(parents=True, exist_ok=True)
    for name in [name for faces in FACES.values() for name in faces.values()] + ["LICENSE"]:
        source = PACKAGE / ("ttf" if name.endswith(".ttf") else "") / name
        if not source.is_file():
            raise FileNotFoundError(
                f"{source} is missing: run `make setup` (it installs the npm packages of tools/npm_packages)"
            )
        shutil.copy2(source, target / name)
    return FONTS_URL


def coverage() -> dict[str, dict[str, list[list[int]]]]:
    """The characters of each face: ``{family: {"700 italic": [[first, last], ...]}}`` (code points).

    The browser check fails a text whose font is one of these and whose character its face lacks:
    the browser would draw it from a system font, which differs from machine to machine (or, where
    no installed font has it, as an empty box, which only another machine would draw).
    """
    from fontTools.ttLib import TTFont

    found: dict[str, dict[str, list[list[int]]]] = {}
    for family, faces in FACES.items():
        for (weight, style), name in faces.items():
            ranges: list[list[int]] = []
            with TTFont(PACKAGE / "ttf" / name, lazy=True) as font:
                points = sorted(font.getBestCmap())
            for point in points:
                if ranges and ranges[-1][1] == point - 1:
                    ranges[-1][1] = point
                else:
                    ranges.append([point, point])
            found.setdefault(family, {})[f"{weight} {style}"] = ranges
    return found


def style_tag(element_id: str = "course-fonts") -> str:
    """A ``<style>`` element with ``FONT_CSS``, for a page next to the ``fonts/`` folder."""
    return f'<style id="{element_id}">\n{FONT_CSS}</style>'
