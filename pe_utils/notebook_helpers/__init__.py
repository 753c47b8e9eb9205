"""What the notebooks run the mathematics with (it imports the mathematics; never the reverse).

- ``setup``      ``rng = setup_notebook()``: printing precision, the course's plot style, PNG
  figures without version metadata (stored outputs do not change between runs), a seeded
  random generator. Introduced in notebook 01.
- ``figures``    the single figure style, ``show_figure`` (a figure stored with its description
  as alt text) and the figures several notebooks draw.
- ``reporting``  printing that gives the same digits on every CPU (notebook 10 onwards):
  ``rounded`` refuses a value too close to a rounding boundary, ``pct`` prints a share as a
  whole percent, ``mean_range`` prints "mean (smallest–largest)" of per-seed values.
- ``explorers/`` figures with sliders that run in the browser (Vega-Lite), one module per chart:
  ``from pe_utils.notebook_helpers import explorers``.
"""

from .reporting import (
    ROUNDING_MARGIN,
    mean_range,
    pct,
    rounded,
    rounds_stably,
)
from .setup import (
    DEFAULT_SEED,
    setup_notebook,
)

__all__ = [
    "DEFAULT_SEED",
    "ROUNDING_MARGIN",
    "mean_range",
    "pct",
    "rounded",
    "rounds_stably",
    "setup_notebook",
]
