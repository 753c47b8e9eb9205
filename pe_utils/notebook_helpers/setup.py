"""The first cell of every notebook (notebook 01): ``setup_notebook`` sets printing, the figure style and a
seeded generator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._checks import check_count
from .figures import figure_html, figure_text, use_course_style

if TYPE_CHECKING:
    from matplotlib.figure import Figure


#: The seed every notebook uses unless it says otherwise.
DEFAULT_SEED = 0


def setup_notebook(seed: int = DEFAULT_SEED) -> np.random.Generator:
    """Configure printing and plotting for a notebook; return ``default_rng(seed)``.

    Sets NumPy printing to 4 decimals, the course style
    (:func:`pe_utils.notebook_helpers.figures.use_course_style`) and, inside IPython, PNG
    figures without version metadata. Introduced in notebook 01.

    Parameters
    ----------
    seed : int
        Non-negative seed of the returned generator.

    Returns
    -------
    np.random.Generator
        ``np.random.default_rng(seed)``.
    """
    seed = check_count(seed, "seed")
    np.set_printoptions(precision=4, suppress=True, linewidth=100)
    use_course_style()
    try:
        from IPython import get_ipython
        from matplotlib_inline.backend_inline import set_matplotlib_formats
    except ImportError:  # plain Python: nothing to configure for the inline backend
        return np.random.default_rng(seed)
    shell = get_ipython()
    if shell is not None:
        from matplotlib.figure import Figure

        # A figure is stored as <img alt="description"> (text/html), so JupyterLab, the site and
        # the slides show its description as alt text; no separate PNG copy (twice the size).
        # nbval compares the HTML with the image data masked (tests/nbval_sanitize.cfg).
        set_matplotlib_formats("png", metadata={"Software": None})
        formatters = shell.display_formatter.formatters
        formatters["image/png"].pop(Figure, None)
        formatters["text/html"].for_type(Figure, figure_html)
        # Instead of "<Figure size 640x480 with 1 Axes>": "[figure] description".
        formatters["text/plain"].for_type(Figure, _figure_text)
    return np.random.default_rng(seed)


def _figure_text(figure: Figure, printer: Any, cycle: bool) -> None:
    """IPython's plain-text form of a figure: ``[figure] description``."""
    printer.text(figure_text(figure))
