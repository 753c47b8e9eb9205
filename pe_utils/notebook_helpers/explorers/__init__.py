"""Interactive explorers: figures with sliders that run in the browser, no kernel needed.

Each function returns an :class:`Explorer`, a Vega-Lite v5 chart whose numbers are computed
*inside* Vega-Lite (``sequence`` data, ``calculate``, ``flatten`` and ``aggregate``
transforms) from slider parameters, so moving a slider recomputes the figure in JupyterLab,
on the static site and in the slides alike. The data are a small grid generated in the chart
itself: nothing is stored but the recipe. ``tests/notebook_helpers/test_explorers.py`` runs each chart in
Vega (Node.js) at two slider settings and checks its numbers against the course's own
functions (``sinusoidal_pe``, ``similarity_profile``, ``shift_matrix``, ``rope_frequencies``,
``wavelengths``, ``sincos_2d`` and ``grid_shift_matrix``).

In a notebook an explorer shows as the chart (MIME type ``application/vnd.vegalite.v5+json``,
rendered by JupyterLab's built-in Vega extension); its text form, the one nbval compares, is
``[interactive figure] description``. ``tools/explorers_web.py`` renders the same chart on
the site and in the slides with local copies of vega, vega-lite and vega-embed.

====================  ========  ============================================================
explorer              notebook  sliders
====================  ========  ============================================================
table_explorer        03        ``d``, ``log10(base)``: the table PE as a heatmap
rotation_explorer     04        ``k``, ``p``, pair ``i``: one pair's point and its image by T_k
profile_explorer      05        ``d``, ``log10(base)``: ``f(k) = Σ_i cos(k ω_i)``
wavelength_explorer   09        ``log10(base)``, ``log2(L)``: wavelengths against a length L
scaling_explorer      09        ``s`` and the rule: the divisor ``ω_i / ω'_i`` per pair
grid_shift_explorer   12        ``k_x``, ``k_y``, pair ``i``: each axis block rotated
====================  ========  ============================================================
"""

from ._chart import (
    TEXT_PREFIX,
    VEGALITE_MIMETYPE,
    VEGALITE_SCHEMA,
    Explorer,
)
from .grid_shift import (
    grid_shift_explorer,
)
from .profile import (
    profile_explorer,
)
from .rotation import (
    rotation_explorer,
)
from .scaling import (
    SCALING_RULES,
    scaling_explorer,
)
from .table import (
    table_explorer,
)
from .wavelength import (
    wavelength_explorer,
)

__all__ = [
    "Explorer",
    "SCALING_RULES",
    "TEXT_PREFIX",
    "VEGALITE_MIMETYPE",
    "VEGALITE_SCHEMA",
    "grid_shift_explorer",
    "profile_explorer",
    "rotation_explorer",
    "scaling_explorer",
    "table_explorer",
    "wavelength_explorer",
]
