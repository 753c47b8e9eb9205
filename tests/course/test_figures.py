"""Every stored figure carries a description, shown as its alt text (issue: figure descriptions).

Figures are stored by ``pe_utils.show_figure`` as ``<img src="data:image/png;base64,…" alt="…">``
(text/html) with the text form ``[figure] description``. A figure shown without a description,
or stored as a bare PNG (which JupyterLab shows with no alt text), fails here.
"""

import html
import re

import matplotlib
import nbformat
import pytest

import pe_utils
from pe_utils.notebook_helpers.figures import MISSING_DESCRIPTION, figure_html, figure_text
from tools.paths import course_notebooks

NOTEBOOKS = course_notebooks()
IMG = re.compile(r'<img src="data:image/png;base64,[A-Za-z0-9+/=]+" alt="([^"]*)">')


def stored_figures(path):
    notebook = nbformat.read(path, as_version=4)
    for index, cell in enumerate(notebook.cells):
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            data = output.get("data", {})
            if any(key.startswith("image/") for key in data) or "<img" in data.get("text/html", ""):
                yield index, data


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_every_stored_figure_has_a_description(path):
    for index, data in stored_figures(path):
        assert not any(key.startswith("image/") for key in data), (
            f"{path.name} cell {index}: a bare image output has no alt text; end the cell with "
            "show_figure('description') and run `make outputs`"
        )
        match = IMG.fullmatch(data.get("text/html", ""))
        assert match, f"{path.name} cell {index}: figure HTML is not <img src=… alt=…>"
        description = html.unescape(match.group(1))
        assert description != MISSING_DESCRIPTION and len(description.split()) >= 6, (
            f"{path.name} cell {index}: figure without a real description: {description!r}"
        )
        assert data.get("text/plain") == f"[figure] {description}", f"{path.name} cell {index}"


def test_show_figure_stores_its_description_as_alt_text():
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    description = 'A straight line from (0, 0) to (1, 1), "quoted" & escaped.'
    pe_utils.show_figure(description, fig)
    match = IMG.fullmatch(figure_html(fig))
    assert match and html.unescape(match.group(1)) == description
    assert figure_text(fig) == f"[figure] {description}"
    bare, _ = plt.subplots()
    assert MISSING_DESCRIPTION in figure_html(bare) and MISSING_DESCRIPTION in figure_text(bare)
    plt.close("all")


@pytest.mark.parametrize("description", ["", "   ", "a plot", None, 42, ["a", "list", "of", "words"]])
def test_show_figure_refuses_a_missing_or_token_description(description):
    matplotlib.use("Agg")
    with pytest.raises(ValueError, match="description must be a sentence"):
        pe_utils.show_figure(description)


def test_show_figure_refuses_a_non_figure():
    with pytest.raises(TypeError, match="fig must be a matplotlib Figure"):
        pe_utils.show_figure("A description of four words or more.", fig="not a figure")


def test_stored_figures_use_a_palette_and_keep_their_colours():
    # Figures are stored as palette PNGs (≤ 256 colours): a heatmap keeps its colour map.
    import base64
    import io

    import matplotlib.pyplot as plt
    import numpy as np
    from PIL import Image

    from pe_utils.notebook_helpers.figures import _figure_png

    fig, ax = plt.subplots(figsize=(4, 3))
    ax.imshow(np.linspace(-1, 1, 64 * 64).reshape(64, 64), cmap="RdBu_r")
    png = _figure_png(fig)
    with Image.open(io.BytesIO(png)) as image:
        assert image.mode == "P"
        rgb = np.asarray(image.convert("RGB"), dtype=float)
    fig.canvas.draw()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", bbox_inches="tight")
    with Image.open(buffer) as full:
        reference = np.asarray(full.convert("RGB"), dtype=float)
    assert rgb.shape == reference.shape
    assert np.abs(rgb - reference).mean() < 2.0  # under one percent of the colour range, on average
    assert (rgb[0, 0] == reference[0, 0]).all() and (reference[0, 0] == 255).all()  # white stays white
    assert len(base64.b64encode(png)) < len(base64.b64encode(buffer.getvalue()))
    plt.close("all")
