"""The course's single plotting style and its recurring figures.

Every figure function draws on the axes it is given (or a new one), labels
the axes in the course's notation and returns the axes, so a notebook can
add to it. The style is set by ``setup_notebook`` from notebook 01 on; the
table figures come in notebook 03, the similarity figures in notebook 05.

matplotlib is imported by the functions that use it, not with the module:
``import pe_utils`` stays quick for code that draws nothing (the contents notebook,
the exercise checkers, the tools). The style is seaborn's theme, written out as
matplotlib settings (``SEABORN_THEME``) so that no notebook pays for importing
seaborn (a quarter of a second per kernel); tests/notebook_helpers/test_figures.py proves the two agree.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .._checks import _is_integer, check_finite_array, check_matrix

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: Diverging map for signed values in [−1, 1] (ColorBrewer RdBu, colour-blind safe).
DIVERGING_CMAP = "RdBu_r"
#: Sequential map for non-negative values (perceptually uniform, colour-blind safe).
SEQUENTIAL_CMAP = "viridis"
#: Qualitative palette for lines (seaborn's colour-blind palette).
PALETTE = "colorblind"
#: seaborn's colour-blind palette (``seaborn.color_palette("colorblind").as_hex()``).
COLORBLIND_HEX = (
    "#0173b2",
    "#de8f05",
    "#029e73",
    "#d55e00",
    "#cc78bc",
    "#ca9161",
    "#fbafe4",
    "#949494",
    "#ece133",
    "#56b4e9",
)

#: What seaborn's theme makes matplotlib's one-letter colours mean: its "colorblind6" palette
#: for b, g, r, m, y, c and a dark grey for k (``seaborn.set_color_codes``).
COLOR_CODES: dict[str, str | tuple[float, float, float]] = {
    "b": "#0173b2",
    "g": "#029e73",
    "r": "#d55e00",
    "m": "#cc78bc",
    "y": "#ece133",
    "c": "#56b4e9",
    "k": (0.1, 0.1, 0.1),
}

#: The matplotlib settings that ``seaborn.set_theme(context="notebook", style="whitegrid",
#: palette=PALETTE)`` makes (seaborn 0.13), without its ``image.cmap`` (the course sets
#: ``SEQUENTIAL_CMAP``). tests/notebook_helpers/test_figures.py checks them against seaborn itself.
SEABORN_THEME: dict[str, Any] = {
    "axes.axisbelow": True,
    "axes.edgecolor": ".8",
    "axes.grid": True,
    "axes.labelcolor": ".15",
    "axes.labelsize": 12.0,
    "axes.linewidth": 1.25,
    "axes.titlesize": 12.0,
    "font.sans-serif": ["Arial", "DejaVu Sans", "Liberation Sans", "Bitstream Vera Sans", "sans-serif"],
    "font.size": 12.0,
    "grid.color": ".8",
    "grid.linewidth": 1.0,
    "legend.fontsize": 11.0,
    "legend.title_fontsize": 12.0,
    "lines.solid_capstyle": "round",
    "patch.edgecolor": "w",
    "patch.force_edgecolor": True,
    "text.color": ".15",
    "xtick.bottom": False,
    "xtick.color": ".15",
    "xtick.labelsize": 11.0,
    "xtick.major.size": 6.0,
    "xtick.major.width": 1.25,
    "xtick.minor.size": 4.0,
    "xtick.minor.width": 1.0,
    "ytick.color": ".15",
    "ytick.labelsize": 11.0,
    "ytick.left": False,
    "ytick.major.size": 6.0,
    "ytick.major.width": 1.25,
    "ytick.minor.size": 4.0,
    "ytick.minor.width": 1.0,
}


def use_course_style() -> None:
    """Set the course's fonts, sizes, palette and figure resolution (80 dpi).

    seaborn's "whitegrid" theme at the "notebook" scale with its colour-blind palette
    (``SEABORN_THEME``, ``COLORBLIND_HEX``, ``COLOR_CODES``), then the course's sizes. Called by
    :func:`pe_utils.setup_notebook`. Introduced in notebook 01.
    """
    import matplotlib.colors
    import matplotlib.pyplot as plt
    from cycler import cycler

    for code, colour in COLOR_CODES.items():  # as seaborn.set_color_codes does
        matplotlib.colors.colorConverter.colors[code] = matplotlib.colors.to_rgb(colour)
    plt.rcParams.update(SEABORN_THEME)
    plt.rcParams.update(
        {
            "axes.prop_cycle": cycler(color=list(COLORBLIND_HEX)),
            "figure.figsize": (7.0, 3.6),
            "figure.dpi": 80,
            "savefig.dpi": 80,
            "axes.titlesize": 12,
            "axes.labelsize": 11,
            "image.cmap": SEQUENTIAL_CMAP,
            "figure.autolayout": True,
        }
    )


#: Where a figure keeps its description (alt text) until it is shown.
_DESCRIPTION_ATTRIBUTE = "_pe_utils_description"
#: What a figure without a description shows instead of its alt text.
MISSING_DESCRIPTION = "FIGURE WITHOUT A DESCRIPTION: show it with pe_utils.show_figure(description)"


def show_figure(description: str, fig: Figure | None = None) -> None:
    """Show ``fig`` (default: the current figure) with ``description`` as its alt text.

    Every figure of the course is shown this way instead of ``plt.show()``. The
    description is one sentence for a reader who cannot see the figure: what is
    plotted against what, and the point to notice. In a notebook the figure is
    stored as an ``<img>`` whose ``alt`` is the description, so JupyterLab, the
    site and the slides all carry it; its text form is ``[figure] description``.
    Introduced in notebook 01.

    Parameters
    ----------
    description : str
        Non-empty, one or two sentences.
    fig : matplotlib.figure.Figure, optional
    """
    if not isinstance(description, str) or len(description.split()) < 4:
        raise ValueError(
            "description must be a sentence (at least four words) saying what the figure shows, "
            f"got {description!r}"
        )
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure

    if fig is None:
        fig = plt.gcf()
    elif not isinstance(fig, Figure):
        raise TypeError(f"fig must be a matplotlib Figure, got {type(fig).__name__}")
    setattr(fig, _DESCRIPTION_ATTRIBUTE, " ".join(description.split()))
    plt.show()


def _figure_description(fig: Figure) -> str | None:
    """The description given to ``fig`` by :func:`show_figure`, or ``None``."""
    return getattr(fig, _DESCRIPTION_ATTRIBUTE, None)


def _figure_png(fig: Figure) -> bytes:
    """``fig`` as PNG bytes, cropped as the inline backend crops, with no version metadata.

    The image is stored with a palette of at most 256 colours (no dithering): a course figure
    (lines, a colour map of 256 steps, text) looks the same and stores about three times
    smaller, which keeps each notebook under its 300 kB budget.
    """
    from PIL import Image  # matplotlib's own dependency

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", bbox_inches="tight", metadata={"Software": None})
    buffer.seek(0)
    with Image.open(buffer) as image:
        palette = image.convert("RGB").quantize(
            colors=256, method=Image.Quantize.MAXCOVERAGE, dither=Image.Dither.NONE
        )
    quantized = io.BytesIO()
    palette.save(quantized, format="PNG")
    return quantized.getvalue()


def figure_html(fig: Figure) -> str:
    """``<img>`` of ``fig`` (PNG, inline) with its description as ``alt``: how notebooks store figures."""
    description = _figure_description(fig) or MISSING_DESCRIPTION
    data = base64.b64encode(_figure_png(fig)).decode("ascii")
    return f'<img src="data:image/png;base64,{data}" alt="{html.escape(description, quote=True)}">'


def figure_text(fig: Figure) -> str:
    """The text form of ``fig`` in a notebook: ``[figure] description``."""
    return f"[figure] {_figure_description(fig) or MISSING_DESCRIPTION}"


def _axes(ax: Axes | None, figsize: tuple[float, float] | None = None) -> Axes:
    """``ax`` itself, or the axes of a new figure."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, new_ax = plt.subplots(figsize=figsize)
    return new_ax


def plot_table_heatmap(
    table: Any,
    ax: Axes | None = None,
    *,
    title: str = "Positional encoding table PE",
    colorbar: bool = True,
) -> Axes:
    """Heatmap of an ``(n, d)`` table: position ``p`` down, dimension across.

    Entry ``table[p, j]`` is drawn on the fixed diverging scale ``[−1, 1]``
    that every sinusoidal entry lies in. Introduced in notebook 03.
    """
    table = check_matrix(table, "table")
    ax = _axes(ax)
    image = ax.imshow(table, aspect="auto", cmap=DIVERGING_CMAP, vmin=-1, vmax=1, interpolation="nearest")
    ax.set_xlabel("dimension (2i: sin, 2i+1: cos)")
    ax.set_ylabel("position p")
    ax.set_title(title)
    ax.grid(False)
    if colorbar:
        ax.figure.colorbar(image, ax=ax, label="value")
    return ax


def plot_waves(
    table: Any,
    dims: Sequence[int],
    ax: Axes | None = None,
    *,
    positions: Any = None,
    title: str = "Selected dimensions of PE as functions of position",
) -> Axes:
    """Plot columns ``dims`` of a table against position, one line each.

    Column ``j`` is ``sin(p ω_{j//2})`` for even ``j`` and ``cos(p ω_{j//2})``
    for odd ``j`` (interleaved layout); ``positions`` (default ``0 … n−1``)
    gives the ``p`` of each row. Introduced in notebook 03.
    """
    table = check_matrix(table, "table")
    if isinstance(dims, str) or not isinstance(dims, Sequence):
        raise TypeError(f"dims must be a sequence of column indices, got {dims!r}")
    bad = [dim for dim in dims if not (_is_integer(dim) and 0 <= dim < table.shape[1])]
    if bad:
        raise ValueError(f"dims must be column indices 0 … {table.shape[1] - 1}, got {bad}")
    if positions is None:
        positions = np.arange(table.shape[0])
    positions = check_finite_array(positions, "positions")
    if positions.shape != table.shape[:1]:
        raise ValueError(
            f"positions must hold one position per row of table, shape {table.shape[:1]}, "
            f"got shape {positions.shape}"
        )
    ax = _axes(ax)
    for dim in dims:
        kind = "sin" if dim % 2 == 0 else "cos"
        ax.plot(positions, table[:, dim], label=f"dim {dim} ({kind}, i={dim // 2})")
    ax.set_xlabel("position p")
    ax.set_ylabel("PE(p)[dim]")
    ax.set_ylim(-1.1, 1.1)
    ax.set_title(title)
    ax.legend(loc="upper right", fontsize="small")
    return ax


def plot_similarity_matrix(
    gram: Any,
    ax: Axes | None = None,
    *,
    title: str = "PE(p)·PE(q)",
) -> Axes:
    """Heatmap of a Gram matrix ``G[p, q] = PE(p)·PE(q)`` (``p`` down, ``q`` across).

    The diverging scale is symmetric, ``[−max|G|, max|G|]``. Introduced in
    notebook 05.
    """
    gram = check_matrix(gram, "gram")
    if gram.shape[0] != gram.shape[1]:
        raise ValueError(f"gram must be a square 2-D array, got shape {gram.shape}")
    limit = float(np.max(np.abs(gram))) if gram.size else 1.0
    ax = _axes(ax, figsize=(5.0, 4.2))
    image = ax.imshow(gram, cmap=DIVERGING_CMAP, vmin=-limit, vmax=limit, interpolation="nearest")
    ax.set_xlabel("position q")
    ax.set_ylabel("position p")
    ax.set_title(title)
    ax.grid(False)
    ax.figure.colorbar(image, ax=ax, label="dot product")
    return ax


def plot_offset_profile(
    offsets: Any,
    profiles: Any,
    ax: Axes | None = None,
    *,
    labels: Sequence[str] | None = None,
    title: str = "f(k) = Σ cos(k ω_i)",
) -> Axes:
    """Plot one or more similarity profiles ``f(k) = Σ_i cos(k ω_i)`` against the offset ``k``.

    ``profiles`` is one array shaped like the 1-D ``offsets`` or a sequence of
    them. Introduced in notebook 05.
    """
    offsets = check_finite_array(offsets, "offsets")
    if offsets.ndim != 1:
        raise ValueError(f"offsets must be a 1-D array, got shape {offsets.shape}")
    profiles = check_finite_array(profiles, "profiles")
    if profiles.ndim == 1:
        profiles = profiles[None, :]
    if profiles.ndim != 2 or profiles.shape[-1] != offsets.shape[-1]:
        raise ValueError(
            f"profiles must have {offsets.shape[-1]} values per curve to match offsets, "
            f"got shape {profiles.shape}"
        )
    if labels is not None and len(labels) != profiles.shape[0]:
        raise ValueError(f"labels must name {profiles.shape[0]} curves, got {len(labels)}")
    ax = _axes(ax)
    for index, profile in enumerate(profiles):
        ax.plot(offsets, profile, label=None if labels is None else labels[index])
    ax.set_xlabel("offset k = q − p")
    ax.set_ylabel("PE(p)·PE(p+k)")
    ax.set_title(title)
    if labels is not None:
        ax.legend(fontsize="small")
    return ax


def plot_course_picture(
    n: int = 24,
    d_model: int = 16,
    *,
    k: int = 3,
    starts: Sequence[int] = (2, 13),
    pair: int = 1,
) -> Figure:
    """The course's central picture: the table ``PE``, and one pair turning on its circle.

    Left: the ``n × d`` table (as :func:`plot_table_heatmap` draws it) with rows ``p`` and
    ``p + k`` outlined for each ``p`` in ``starts``, and the columns ``2i, 2i+1`` of pair
    ``i = pair`` marked. Right: that pair as the point ``(cos pω_i, sin pω_i)`` (cos across,
    sin up) for ``p = 0 … n−1``, with an arrow from ``p`` to ``p + k`` for each start. Every
    arrow spans the same arc ``kω_i``, because ``PE(p + k) = T_k PE(p)`` with one rotation
    ``T_k`` for every ``p``. Introduced in notebook 00.

    Parameters
    ----------
    n : int
        Number of positions ``p = 0 … n−1``.
    d_model : int
        Even dimension ``d`` of the table.
    k : int
        Positive offset drawn as the arrows.
    starts : sequence of int
        Positions ``p`` with ``0 ≤ p`` and ``p + k < n``; at least one.
    pair : int
        Pair index ``i``, ``0 ≤ i < d/2``.

    Returns
    -------
    matplotlib.figure.Figure
        Two axes: the heatmap (left) and the circle (right).
    """
    from matplotlib.patches import Rectangle

    from .._checks import check_count, check_d_model, check_positive_count
    from ..encoding import frequencies, sinusoidal_pe

    n = check_positive_count(n, "n")
    d_model = check_d_model(d_model)
    k = check_positive_count(k, "k")
    pair = check_count(pair, "pair")
    if pair >= d_model // 2:
        raise ValueError(f"pair must be a pair index 0 … {d_model // 2 - 1}, got {pair}")
    if isinstance(starts, str) or not isinstance(starts, Sequence) or not starts:
        raise TypeError(f"starts must be a non-empty sequence of positions, got {starts!r}")
    bad = [p for p in starts if not (_is_integer(p) and 0 <= p and p + k < n)]
    if bad:
        raise ValueError(f"starts must be positions p with 0 ≤ p and p + k < n = {n}, got {bad}")
    starts = [int(p) for p in starts]

    import matplotlib.pyplot as plt

    table = sinusoidal_pe(n, d_model)
    omega = float(frequencies(d_model)[pair])
    fig, (left, right) = plt.subplots(1, 2, figsize=(8.6, 3.9), width_ratios=(1.15, 1.0))
    plot_table_heatmap(table, left, title="the table PE: row p is PE(p)", colorbar=False)
    for colour, width, style in (("w", 3.5, "-"), ("k", 1.6, (0, (3, 2)))):  # dashes on white
        left.add_patch(
            Rectangle((2 * pair - 0.5, -0.5), 2, n, fill=False, ec=colour, lw=width, ls=style, zorder=3)
        )
    for p in starts:
        for row in (p, p + k):
            left.add_patch(
                Rectangle((-0.5, row - 0.5), d_model, 1, fill=False, ec=COLORBLIND_HEX[3], lw=1.8, zorder=4)
            )
        left.annotate(
            f"p = {p} → {p + k}",
            (d_model - 0.3, p + k / 2),
            xytext=(6, 0),
            textcoords="offset points",
            va="center",
            fontsize=10,
            annotation_clip=False,
        )
    left.set_xlabel(f"dimension (pair i = {pair}: dashed)")

    circle = np.linspace(0.0, 2 * np.pi, 200)
    right.plot(np.cos(circle), np.sin(circle), color="0.8", lw=1)
    right.scatter(table[:, 2 * pair + 1], table[:, 2 * pair], s=14, color=COLORBLIND_HEX[0], zorder=3)
    for p in starts:
        for q in (p, p + k):
            right.annotate(
                f"p={q}",
                (1.2 * np.cos(q * omega), 1.2 * np.sin(q * omega)),
                ha="center",
                va="center",
                fontsize=9,
            )
        right.annotate(
            "",
            xy=(table[p + k, 2 * pair + 1], table[p + k, 2 * pair]),
            xytext=(table[p, 2 * pair + 1], table[p, 2 * pair]),
            arrowprops={
                "arrowstyle": "->",
                "color": COLORBLIND_HEX[3],
                "lw": 2,
                "connectionstyle": f"arc3,rad={0.2 if k * omega < np.pi else -0.2}",
            },
        )
    right.set(xlim=(-1.4, 1.4), ylim=(-1.4, 1.4), aspect="equal")
    right.set_xlabel(rf"$\cos(p\,\omega_{{{pair}}})$  (dimension {2 * pair + 1})")
    right.set_ylabel(rf"$\sin(p\,\omega_{{{pair}}})$  (dimension {2 * pair})")
    right.set_title(rf"pair {pair}: $p \to p + {k}$ turns by ${k}\,\omega_{{{pair}}}$ every time")
    fig.suptitle(
        rf"$\mathrm{{PE}}(p + {k}) = T_{{{k}}}\,\mathrm{{PE}}(p)$: one rotation for every $p$", fontsize=13
    )
    return fig
