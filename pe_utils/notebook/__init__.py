"""One-line setup for every notebook of the course.

``rng = setup_notebook()`` sets the printing precision, the course's plot
style and PNG figures without version metadata (so stored outputs do not
change between runs), and returns a seeded random generator. Introduced in
notebook 01.

The printing helpers (notebook 10) round what a notebook prints so that another
CPU prints the same digits: ``rounded`` refuses a value too close to a rounding
boundary, ``pct`` prints a share as a whole percent, ``mean_range`` prints
"mean (smallest–largest)" of per-seed values.
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
