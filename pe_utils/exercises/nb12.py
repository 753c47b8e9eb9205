"""Exercises of notebook 12: sinusoids beyond text.

Usage::

    from pe_utils.exercises import nb12
    print(nb12.mystery_table_1d())
    answer = ...
    nb12.mystery_1d.check(answer)
"""

from __future__ import annotations

import math

import numpy as np

from ..beyond_text import rosetta_encoding, sincos_2d
from . import Exercise

# --- 1. which convention made this 1-D table? -----------------------------------------

MYSTERY_1D_NAME, MYSTERY_1D_DIM = "ddpm", 8
CHOICES_1D = ("ddpm", "guided_diffusion", "vaswani2017", "marian")


def mystery_table_1d() -> np.ndarray:
    """The unlabelled table of exercise 1: rows t = 0, 1, 2, 3, eight channels."""
    return rosetta_encoding(MYSTERY_1D_NAME, np.arange(4.0), MYSTERY_1D_DIM)


mystery_1d = Exercise(
    question=(
        "nb12.mystery_table_1d() is a table of t = 0, 1, 2, 3 with 8 channels, made by one of the "
        f"conventions {', '.join(CHOICES_1D)} (names of pe_utils.ROSETTA). Which one? Answer with its "
        "name as text."
    ),
    expected=MYSTERY_1D_NAME,
    choices=CHOICES_1D,
    aliases={
        "guided-diffusion": "guided_diffusion",
        "guided diffusion": "guided_diffusion",
        "Vaswani": "vaswani2017",
        "Vaswani et al. 2017": "vaswani2017",
        # another library whose table is the same: right, with a note
        "tensor2tensor": (
            "ddpm",
            "tensor2tensor's get_timing_signal_1d gives this very table (denominator "
            "h − 1, [sin | cos]): DDPM's function says it matches tensor2tensor. Among "
            "the four names offered, that is 'ddpm'.",
        ),
    },
    hint=(
        "Row t = 0 shows where the sines (0) and the cosines (1) are: interleaved, or halves, and which "
        "half first. Row t = 1 holds sin(ω_i) and cos(ω_i): is the last frequency 10000^(−3/4) = 0.001 "
        "(denominator h = 4) or exactly 10000^(−3/3) = 0.0001 (denominator h − 1 = 3)?"
    ),
    solution=(
        "from pe_utils.exercises import nb12\n"
        "table = nb12.mystery_table_1d()\n"
        "for name in ('ddpm', 'guided_diffusion', 'vaswani2017', 'marian'):\n"
        "    candidate = pe_utils.rosetta_encoding(name, np.arange(4.0), 8)\n"
        "    print(name, np.allclose(candidate, table))\n"
        "# row 0 is [0 0 0 0 1 1 1 1]: [sin | cos] halves; row 1, column 3 is sin(1e-4): denominator h − 1\n"
        "answer = 'ddpm'"
    ),
    mistakes=[
        (
            "marian",
            "Right layout ([sin | cos] halves), wrong frequencies: look at row t = 1, column 3. It is "
            "sin(0.0001), so the last frequency is exactly 1/10000: the denominator is h − 1, not h.",
        ),
        (
            "guided_diffusion",
            "guided-diffusion puts the cosines first: its row t = 0 would start with four 1s. Here the "
            "first half of row 0 is 0 (sines).",
        ),
        (
            "vaswani2017",
            "The paper's table is interleaved (sin, cos, sin, cos): row t = 0 would read 0, 1, 0, 1, … "
            "Here it reads 0, 0, 0, 0, 1, 1, 1, 1.",
        ),
    ],
)

# --- 2. which convention made this grid table? -------------------------------------------

MYSTERY_GRID_NAME, MYSTERY_GRID_SIZE, MYSTERY_GRID_D = "timm", 2, 8
CHOICES_GRID = ("mae", "big_vision", "timm", "mocov3")


def mystery_table_grid() -> np.ndarray:
    """The unlabelled table of exercise 2: a 2 × 2 grid, row by row, eight channels."""
    return sincos_2d(MYSTERY_GRID_SIZE, MYSTERY_GRID_SIZE, MYSTERY_GRID_D, convention=MYSTERY_GRID_NAME)


mystery_grid = Exercise(
    question=(
        "nb12.mystery_table_grid() is the table of a 2 × 2 grid of patches, row by row (rows: (x, y) = "
        "(0, 0), (1, 0), (0, 1), (1, 1)), with 8 channels, made by one of the conventions "
        f"{', '.join(CHOICES_GRID)}. Which one? Answer with its name as text."
    ),
    expected=MYSTERY_GRID_NAME,
    choices=CHOICES_GRID,
    aliases={
        "big vision": "big_vision",
        "MoCo v3": "mocov3",
        "moco": "mocov3",
        "timm (default)": "timm",
        "pytorch-image-models": "timm",
    },
    hint=(
        "Row 1 is the patch (x, y) = (1, 0): only the column changed. Which channels moved away from "
        "sin 0 = 0 and cos 0 = 1? Are the sines of both axes before the cosines, or does each axis keep "
        "its own [sin | cos] block?"
    ),
    solution=(
        "from pe_utils.exercises import nb12\n"
        "table = nb12.mystery_table_grid()\n"
        "for name in ('mae', 'big_vision', 'timm', 'mocov3'):\n"
        "    print(name, np.allclose(pe_utils.sincos_2d(2, 2, 8, convention=name), table))\n"
        "# row (x, y) = (1, 0) changes channels 2, 3 (sin x) and 6, 7 (cos x):\n"
        "# [sin y | sin x | cos y | cos x]\n"
        "answer = 'timm'"
    ),
    mistakes=[
        (
            "mae",
            "MAE gives each axis a block [sin | cos], the column first: the patch (1, 0) would change "
            "channels 0–3. Here it changes channels 2, 3, 6 and 7.",
        ),
        (
            "big_vision",
            "big_vision has MAE's block order (the column x first, [sin | cos] within it): the patch "
            "(1, 0) would change channels 0–3. Here it changes channels 2, 3, 6 and 7.",
        ),
        (
            "mocov3",
            "MoCo v3 puts the row block first, but each axis keeps its [sin | cos] block: the patch "
            "(1, 0) would change channels 4–7. Here the changed channels are 2, 3 (sines) and 6, 7 "
            "(cosines): all sines come first.",
        ),
    ],
)

# --- 3. MAE's emb_h -----------------------------------------------------------------------

MAE_DIM, MAE_GRID, MAE_TOKEN, MAE_CHANNEL = 16, 4, 6, 4


def _mae_entry() -> float:
    column = MAE_TOKEN % MAE_GRID  # emb_h encodes the column (meshgrid(w, h))
    m = MAE_DIM // 4  # frequencies per axis; channels 0 … m−1 are sines, m … 2m−1 cosines
    return math.cos(column * 10000.0 ** (-(MAE_CHANNEL - m) / m))


mae_emb_h = Exercise(
    question=(
        f"MAE's get_2d_sincos_pos_embed({MAE_DIM}, {MAE_GRID}) (no cls token): tokens are numbered row "
        f"by row. What is channel {MAE_CHANNEL} of token {MAE_TOKEN}? Channel {MAE_CHANNEL} belongs to "
        "the block MAE names emb_h. Give it to 4 decimals."
    ),
    expected=_mae_entry(),
    decimals=4,
    hint=(
        f"Token {MAE_TOKEN} on a {MAE_GRID}-wide grid is row {MAE_TOKEN // MAE_GRID}, column "
        f"{MAE_TOKEN % MAE_GRID}. The block named emb_h is computed from grid[0] of meshgrid(w, h): which "
        f"index is that? Within the block, m = {MAE_DIM // 4} sines come first, then {MAE_DIM // 4} "
        f"cosines, with ω_i = 10000^(−i/{MAE_DIM // 4})."
    ),
    solution=(
        "column, row = 6 % 4, 6 // 4        # token 6: row 1, column 2\n"
        "m = 16 // 4                         # 4 frequencies per axis: channels 0-3 sin, 4-7 cos\n"
        "answer = math.cos(column * 10000.0 ** (-(4 - m) / m))   # emb_h encodes the column: cos(2)\n"
        "# check: pe_utils.sincos_2d(4, 4, 16)[6, 4]"
    ),
    mistakes=[
        (
            math.cos(MAE_TOKEN // MAE_GRID),
            "That encodes the row (1). The block MAE names emb_h is built from grid[0] of "
            "meshgrid(w, h), which holds the column index (2).",
        ),
        (
            math.cos(MAE_TOKEN),
            "That uses the token index 6 as the position. Each axis block encodes a grid coordinate, "
            "here the column of token 6.",
        ),
        (
            math.sin(MAE_TOKEN % MAE_GRID),
            "Within a block MAE puts the 4 sines first, then the 4 cosines ([sin | cos]): channel 4 is "
            "the first cosine.",
        ),
        (
            math.sin((MAE_TOKEN % MAE_GRID) * 10000.0 ** (-2 / 4)),
            "That reads the block as interleaved pairs (sin, cos, sin, cos). MAE's blocks are "
            "[sin | cos]: channel 4 is the cosine of frequency 0.",
        ),
        (
            -math.cos(MAE_TOKEN % MAE_GRID),
            "Right channel and column, wrong sign: cos(2) is negative, since 2 radians lies past "
            "π/2 ≈ 1.571, in the second quarter of the circle.",
        ),
    ],
)

# --- 4. M-RoPE's axis of one channel -------------------------------------------------------

MROPE_HEAD_DIM, MROPE_SECTION, MROPE_CHANNEL = 128, (16, 24, 24), 100

mrope_axis = Exercise(
    question=(
        f"Qwen2-VL's M-RoPE with head_dim {MROPE_HEAD_DIM} and mrope_section {list(MROPE_SECTION)} "
        f"(rotate_half layout). Which axis turns channel {MROPE_CHANNEL} of a query: 'time', 'height' "
        "or 'width'? Answer with the word as text."
    ),
    expected="height",
    choices=("time", "height", "width"),
    aliases={
        "temporal": "time",
        "t": "time",
        "h": "height",
        "w": "width",
        "time axis": "time",
        "height axis": "height",
        "width axis": "width",
    },
    hint=(
        "In the rotate_half layout channel c and channel c + 64 form pair c mod 64. Pairs 0–15 follow time, "
        "16–39 height, 40–63 width (mrope_section * 2 repeats the list for the second half)."
    ),
    solution=(
        "pair = 100 % 64                    # 36: channels 36 and 100 form one pair\n"
        "answer = 'time' if pair < 16 else 'height' if pair < 16 + 24 else 'width'\n"
        "# check: np.flatnonzero(pe_utils.mrope_frequencies(128, [16, 24, 24])[:, 36])"
    ),
    mistakes=[
        (
            "width",
            "Channel 100 lies in the second half, but mrope_section * 2 repeats [16, 24, 24] there: "
            "channel 100 is pair 100 − 64 = 36, which is in the h band (pairs 16–39).",
        ),
        (
            "time",
            "Channel 100 is pair 100 − 64 = 36 (the second half repeats the pairs); pairs 0–15 are t, "
            "16–39 are h.",
        ),
    ],
)

# --- 5. NeRF's channel count ----------------------------------------------------------------

NERF_MULTIRES_VIEWS = 4

nerf_channels = Exercise(
    question=(
        "NeRF's code encodes view directions (3-D unit vectors) with multires_views = "
        f"{NERF_MULTIRES_VIEWS}. How many channels does the encoding have? Give a whole number."
    ),
    expected=3 + 3 * 2 * NERF_MULTIRES_VIEWS,
    hint=(
        "get_embedder uses multires octaves 2^0 … 2^(multires − 1), sin and cos of each of the 3 "
        "coordinates for each, and include_input=True."
    ),
    solution=(
        "answer = 3 + 3 * 2 * 4     # the input, then sin and cos of 3 coordinates at 4 octaves\n"
        "# check: pe_utils.nerf_encoding(np.zeros((1, 3)), 4).shape[-1]"
    ),
    mistakes=[
        (
            3 * 2 * NERF_MULTIRES_VIEWS,
            "NeRF's code also puts the input itself first (include_input=True): 3 more.",
        ),
        (2 * NERF_MULTIRES_VIEWS + 1, "That counts one coordinate. Directions have 3 coordinates."),
        (2 * NERF_MULTIRES_VIEWS, "That counts one coordinate without the input. Directions have 3."),
        (3 + 3 * 2 * 10, "That is multires = 10, the encoding of positions (63 channels). Directions use 4."),
    ],
    rtol=0.0,
    atol=1e-6,  # whole numbers: any float within 1e-6 of it is the same answer
)
