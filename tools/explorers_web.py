"""The interactive explorers (``pe_utils.notebook_helpers.explorers``) on the static site and in the slides.

JupyterLab renders an explorer's stored output (MIME type ``application/vnd.vegalite.v5+json``)
with its own Vega extension; nbconvert's templates do not render that type at all. The site
and the slide builders therefore

1. register :class:`ExplorersToHTML`, which gives every such output an HTML form: a
   ``<figure class="pe-explorer">`` holding the chart's spec (as JSON, inert) and an empty box
   the chart is drawn into, with the chart's description as its accessible name
   (``aria-label``);
2. call :func:`install_vega` once, which copies vega, vega-lite and vega-embed (npm packages
   pinned in tools/npm_packages/package.json, installed by ``make setup``) into
   ``<out>/vega/``;
3. pass each page through :func:`add_explorer_scripts`, which loads those local copies and
   draws every explorer of the page with ``vegaEmbed`` (SVG, no action menu), in the font the
   page ships (tools/course_fonts.py) once it has loaded. Pages without an explorer are left as
   they are.

Nothing is fetched from the network and no kernel is needed: the sliders recompute the chart
in the browser. ``window.peExplorers`` holds one promise per explorer, resolving to its Vega
View, for the browser check (``tools/npm_packages/explorers_check.mjs``).
"""

from __future__ import annotations

import html
import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path

from nbconvert.exporters import Exporter
from nbconvert.preprocessors import Preprocessor

from tools import course_fonts  # a sibling tool: the fonts the pages ship
from tools.paths import NODE_MODULES

VEGALITE_MIMETYPE = "application/vnd.vegalite.v5+json"
#: package -> its browser build (UMD, defines a global), loaded in this order.
VEGA_FILES = (
    ("vega", "build/vega.min.js"),
    ("vega-lite", "build/vega-lite.min.js"),
    ("vega-embed", "build/vega-embed.min.js"),
)
VEGA_URL = "vega"  # relative to a page; vega/ sits next to it
_MARKER = 'class="pe-explorer"'

EXPLORER_CSS = """
figure.pe-explorer { margin: 0.4em 0 0.8em 0; padding: 0; }
figure.pe-explorer .vega-embed { display: inline-block; }
figure.pe-explorer .vega-bindings { margin-top: 6px; padding-left: 4px; font-size: 14px;
  font-family: FONT; }
figure.pe-explorer .vega-bind { display: flex; align-items: center; gap: 8px; margin: 3px 0; }
figure.pe-explorer .vega-bind-name { display: inline-block; min-width: 9.5em; }
figure.pe-explorer .vega-bind input[type="range"] { width: 220px; margin: 0; }
figure.pe-explorer .vega-bind-radio label { margin-right: 0.8em; }
""".replace("FONT", course_fonts.SANS_STACK)

# Each chart is drawn in the font the page ships (its spec's config names the system's sans-serif,
# as JupyterLab draws it), once that font is loaded: Vega measures text (axis titles, labels) as
# it lays a chart out, and a font still loading would be measured as the system's fallback.
LOADER_JS = """
(function () {
  "use strict";
  var FONT = @FONT@;
  function drawExplorers() {
    var figures = document.querySelectorAll("figure.pe-explorer");
    var fonts = Promise.all(["12px ", "bold 12px "].map(function (size) {
      return document.fonts.load(size + FONT);
    })).catch(function () {});  // a font that does not load is reported by the browser check
    window.peExplorers = Array.prototype.map.call(figures, function (figure) {
      var spec = JSON.parse(figure.querySelector("script.pe-explorer-spec").textContent);
      spec.config = Object.assign({}, spec.config, { font: FONT });
      var box = figure.querySelector(".pe-explorer-view");
      var options = { mode: "vega-lite", actions: false, renderer: "svg" };
      return fonts.then(function () {
        return vegaEmbed(box, spec, options);
      }).then(function (result) {
        figure.setAttribute("data-rendered", "true");
        return result.view;
      }).catch(function (error) {
        console.error("explorer not drawn: " + error);
        throw error;
      });
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", drawExplorers);
  } else {
    drawExplorers();
  }
})();
""".replace("@FONT@", json.dumps(course_fonts.SANS_STACK))


def _json_for_script(spec: dict) -> str:
    """``spec`` as JSON that cannot end its ``<script>`` element early (``</`` and ``<!--`` escaped)."""
    text = json.dumps(spec, ensure_ascii=False, sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def explorer_html(spec: dict) -> str:
    """The HTML form of one explorer: figure (described by ``aria-label``), drawing box, inert spec."""
    description = spec.get("description") or "Interactive chart without a description."
    # The schema's URL is only a label (nothing fetches it); left out, a page holds no web address.
    spec = {key: value for key, value in spec.items() if key != "$schema"}
    # The description is the figure's accessible name (aria-label): read by a screen reader,
    # never laid out, so it cannot push a slide's content (vega also labels its own chart with it).
    return (
        f'<figure class="pe-explorer" role="figure" aria-label="{html.escape(description, quote=True)}">'
        '<div class="pe-explorer-view"></div>'
        f'<script type="application/json" class="pe-explorer-spec">{_json_for_script(spec)}</script>'
        "</figure>"
    )


class ExplorersToHTML(Preprocessor):
    """Give every Vega-Lite v5 output an HTML form (:func:`explorer_html`) that the page can draw.

    The exporter works on a copy of the notebook: the stored notebook is not changed. The
    output's Vega-Lite data are dropped from the copy; its text/plain form stays.
    """

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "code":
            for output in cell.get("outputs", []):
                data = output.get("data", {})
                if VEGALITE_MIMETYPE in data:
                    spec = data.pop(VEGALITE_MIMETYPE)
                    data["text/html"] = explorer_html(spec)
        return cell, resources


def install_vega(out: Path) -> str:
    """Copy the browser builds of vega, vega-lite and vega-embed (and their licences) into ``out/vega``.

    Returns their folder's URL relative to a page in ``out``.
    """
    target = out / VEGA_URL
    target.mkdir(parents=True, exist_ok=True)
    notices = []
    for package, build in VEGA_FILES:
        folder = NODE_MODULES / package
        source = folder / build
        if not source.exists():
            raise FileNotFoundError(
                f"{source} is missing: run `make setup` (it installs the npm packages of tools/npm_packages)"
            )
        shutil.copy2(source, target / Path(build).name)
        licence = folder / "LICENSE"
        if licence.exists():
            shutil.copy2(licence, target / f"LICENSE.{package}")
        meta = json.loads((folder / "package.json").read_text(encoding="utf-8"))
        notices.append(f"{package} {meta.get('version')} ({meta.get('license')}): {meta.get('homepage', '')}")
    (target / "NOTICE.txt").write_text(
        "Browser builds of these npm packages, copied by tools/explorers_web.py:\n"
        + "\n".join(notices)
        + "\n",
        encoding="utf-8",
    )
    return VEGA_URL


def add_explorer_scripts(page: str, vega_url: str = VEGA_URL) -> str:
    """``page`` with the explorers' style and scripts, if it has an explorer; otherwise unchanged."""
    if _MARKER not in page:
        return page
    scripts = "".join(
        f'<script src="{html.escape(vega_url)}/{Path(build).name}"></script>\n' for _, build in VEGA_FILES
    )
    page = page.replace("</head>", f'<style id="course-explorers">{EXPLORER_CSS}</style>\n</head>', 1)
    # Before the last </body>: the figures exist by then, and nothing else waits for these scripts.
    head, body_end, tail = page.rpartition("</body>")
    if not body_end:
        return page + scripts + f"<script>{LOADER_JS}</script>\n"
    return f"{head}{scripts}<script>{LOADER_JS}</script>\n{body_end}{tail}"


def enable(exporter: Exporter, out: Path) -> Callable[[str], str]:
    """Make ``exporter`` render explorers; return the page post-processor for pages written to ``out``.

    The one hook the site and slide builders need::

        with_explorers = explorers_web.enable(exporter, out)
        ... postprocess=lambda page: with_explorers(page) ...

    vega, vega-lite and vega-embed are copied into ``out/vega`` when the first page with an
    explorer is written (a build without explorers copies nothing).
    """
    exporter.register_preprocessor(ExplorersToHTML(), enabled=True)
    installed: list[str] = []

    def postprocess(page: str) -> str:
        if _MARKER not in page:
            return page
        if not installed:
            installed.append(install_vega(out))
        return add_explorer_scripts(page, installed[0])

    return postprocess


def count_explorers(page: str) -> int:
    """How many explorers a built page holds."""
    return len(re.findall(re.escape(_MARKER), page))
