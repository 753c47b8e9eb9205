"""Exercises of notebook 02, "Counting in binary: clocks at many speeds".

Each object offers ``check(answer)``, ``hint()`` and ``solution()``::

    from pe_utils.exercises import nb02
    answer = ...
    nb02.bits_for_1000_positions.check(answer)
"""

from __future__ import annotations

import numpy as np

from . import Exercise, FunctionExercise

__all__ = [
    "angle_from_pair",
    "bits_for_1000_positions",
    "hamming_15_16",
    "period_of_bit_9",
    "position_on_circle",
]

bits_for_1000_positions = Exercise(
    "How many bits B are needed to give each of the positions 0 … 999 its own binary code? "
    "Give a whole number.",
    10,
    hint="B bits give 2**B different codes. Find the smallest B with 2**B ≥ 1000.",
    solution=(
        "answer = 10\n"
        "# 2**9 = 512 < 1000 ≤ 1024 = 2**10. In code: (1000 - 1).bit_length() or\n"
        "# int(np.ceil(np.log2(1000)))."
    ),
    mistakes=[
        (9, "2**9 = 512 codes only: 9 bits cannot tell 1000 positions apart."),
        (11, "11 bits work but are one more than needed: 2**10 = 1024 ≥ 1000 already."),
        (
            float(np.log2(1000)),
            "log2(1000) ≈ 9.97 is right in spirit, but bits come in whole numbers: round up.",
        ),
        (1000, "One bit per position is one-hot coding; binary needs far fewer bits."),
        (
            1024,
            "1024 = 2**10 is the number of different codes that 10 bits give. The question asks "
            "for the number of bits B.",
        ),
    ],
)

hamming_15_16 = Exercise(
    "What is the Hamming distance (the number of bits that differ) between the binary codes "
    "of positions 15 and 16? Give a whole number.",
    5,
    hint="Write both numbers with 5 bits: 15 = 01111 and 16 = 10000. Count the places that differ.",
    solution=(
        "answer = 5\n"
        "# 01111 and 10000 differ in all five places; in code: bin(15 ^ 16).count('1').\n"
        "# Two neighbouring positions, five flipped bits: Hamming distance does not follow |p − q|."
    ),
    mistakes=[
        (1, "1 is |p − q|. The Hamming distance counts differing bits: 01111 against 10000."),
        (4, "15 = 01111 has four ones, but 16 = 10000 also differs in its top bit: that is a fifth."),
    ],
)

period_of_bit_9 = Exercise(
    "As p counts 0, 1, 2, …, bit 9 of p (the bit worth 512) traces a square wave. "
    "What is its period, in positions? Give a whole number.",
    1024,
    hint="Bit b stays constant for 2**b steps, then flips. How many steps until it is back where it began?",
    solution=(
        "answer = 2 ** (9 + 1)   # 1024\n"
        "# Bit 9 is 0 for p = 0 … 511 and 1 for p = 512 … 1023, then repeats: period 2**(b+1).\n"
        "# Check: pe_utils.binary_codes(4096, 12)[:, 9]"
    ),
    mistakes=[
        (
            512,
            "512 = 2**9 is how long bit 9 stays constant before it flips. A full period is one "
            "stretch of 0s and one of 1s: 2 · 512 = 1024.",
        ),
        (2048, "2048 is the period of bit 10. Bits are counted from 0: bit 9 is worth 2**9 = 512."),
        (
            1 / 1024,
            "1/1024 is the frequency, in cycles per position; the period is its reciprocal.",
        ),
        (
            np.pi / 512,
            "π/512 is the angular frequency ω_9 = π / 2**9 of section 4, in radians per position. "
            "The period is 2π/ω_9, in positions.",
        ),
        (
            1023,
            "1023 is the last position of the first period, which runs over p = 0 … 1023: "
            "count the positions.",
        ),
    ],
)


def _angle_reference(s: object, c: object) -> np.ndarray:
    return np.mod(np.arctan2(s, c), 2 * np.pi)


# Angles with all their digits, so that a function that rounds its result fails, and θ = 0.
# Scalars first, the array last. (No point a hair below the x axis: there np.mod(θ, 2π) rounds
# up to exactly 2π, a floating-point corner this exercise is not about.)
_ANGLES = (
    0.0,
    0.5772156649,
    2.7182818285,
    3.6055512755,
    5.4365636569,
    np.array([0.3183098862, 1.9318516526, 2.8284271247, 4.0824829046, 4.9348022005, 6.0827625303]),
)
_ANGLE_CASES = [
    *((np.sin(theta), np.cos(theta)) for theta in _ANGLES[:-1]),
    (np.sin(_ANGLES[-1]), np.cos(_ANGLES[-1])),
]

angle_from_pair = FunctionExercise(
    "Write a function angle(s, c) that returns θ in [0, 2π) from s = sin θ and c = cos θ "
    "(scalars or arrays). It must work in all four quadrants.",
    _angle_reference,
    cases=_ANGLE_CASES,
    hint=(
        "(c, s) is the point (cos θ, sin θ) on the unit circle: x = c, y = s. np.arctan2(y, x) gives "
        "its angle in (−π, π]; then move negative angles into [0, 2π). It must take arrays too: "
        "math.atan2 takes one number at a time, np.arctan2 whole arrays."
    ),
    solution=(
        "def angle(s, c):\n"
        "    return np.mod(np.arctan2(s, c), 2 * np.pi)\n"
        "answer = angle\n"
        "# arctan2 uses the signs of both numbers, so it tells all four quadrants apart;\n"
        "# np.mod(…, 2π) adds 2π to the negative angles."
    ),
    mistakes=[
        (
            lambda s, c: np.arcsin(s),
            "arcsin uses the sine alone and returns angles in [−π/2, π/2]: it cannot tell θ from "
            "π − θ. Use both numbers.",
        ),
        (
            lambda s, c: np.arccos(c),
            "That gives angles in [0, π] only: np.arccos(c), like abs(np.arctan2(s, c)), drops the "
            "sign of the sine, so it cannot tell θ from 2π − θ. A negative angle of np.arctan2 "
            "needs 2π added, not its sign removed: np.mod(θ, 2 * np.pi).",
        ),
        (
            lambda s, c: np.arctan2(s, c),
            "Nearly: np.arctan2 returns angles in (−π, π]. Wrap the negative ones into [0, 2π) "
            "with np.mod(θ, 2 * np.pi).",
        ),
        (
            lambda s, c: np.arctan2(c, s),
            "The arguments are swapped: np.arctan2 takes y (the sine) first, then x (the cosine). "
            "Then wrap its negative angles into [0, 2π) with np.mod(θ, 2 * np.pi).",
        ),
        (
            lambda s, c: np.degrees(np.mod(np.arctan2(s, c), 2 * np.pi)),
            "That is the angle in degrees. The course measures angles in radians, θ in [0, 2π): "
            "leave out np.degrees.",
        ),
        (
            lambda s, c: np.mod(np.arctan2(c, s), 2 * np.pi),
            "The arguments are swapped: np.arctan2 takes y (the sine) first, then x (the cosine).",
        ),
        (
            lambda s, c: np.mod(-np.arctan2(s, c), 2 * np.pi),
            "That is 2π − θ: the angle measured clockwise. The course measures θ counter-clockwise "
            "from the x axis (x = cos θ, y = sin θ), as np.arctan2(s, c) does.",
        ),
        (
            lambda s, c: np.arctan(s / c),
            "np.arctan(s / c) sees only the ratio, and θ and θ + π have the same ratio: it cannot "
            "tell opposite quadrants apart. np.arctan2(s, c) uses the signs of both numbers.",
        ),
        (
            lambda s, c: np.mod(np.arctan(s / c), 2 * np.pi),
            "np.arctan(s / c) sees only the ratio, and θ and θ + π have the same ratio: it cannot "
            "tell opposite quadrants apart. np.arctan2(s, c) uses the signs of both numbers.",
        ),
        (
            lambda s, c: np.arctan2(s, c) + 2 * np.pi,
            "Adding 2π to every angle also moves the positive ones out of [0, 2π). Add it only to "
            "the negative ones, or use np.mod(θ, 2 * np.pi).",
        ),
    ],
)


_CLOCK = 16  # the clock of section 4: omega = 2π/16, one step is 22.5°
_SQRT_HALF = round(float(np.sqrt(0.5)), 4)  # 0.7071, as the question prints it


def _position_on_circle_reference() -> int:
    # Computed, not typed: the position whose (cos pω, sin pω) is nearest the point asked about.
    omega = 2 * np.pi / _CLOCK
    p = np.arange(_CLOCK)
    points = np.stack([np.cos(p * omega), np.sin(p * omega)], axis=1)
    return int(np.argmin(np.linalg.norm(points - [-_SQRT_HALF, -_SQRT_HALF], axis=1)))


position_on_circle = Exercise(
    "On the clock of period 16 (ω = 2π/16), which position p in 0 … 15 has "
    f"(cos pω, sin pω) = (−{_SQRT_HALF}, −{_SQRT_HALF})? Read it off the circle of labelled "
    "positions. Give a whole number.",
    _position_on_circle_reference,
    hint=(
        "x = cos pω is the horizontal coordinate and y = sin pω the vertical one. Both are negative: "
        "in which quarter of the circle is the point? Which labelled position sits in its middle?"
    ),
    solution=(
        "answer = 10\n"
        "# Both coordinates negative: the lower left, halfway between 8 (angle π) and 12 (3π/2).\n"
        "# The angle is 5π/4 = 10 · 2π/16. In code: np.mod(np.arctan2(-0.7071, -0.7071), 2 * np.pi)\n"
        "# / (2 * np.pi / 16) ≈ 10. Neither number alone tells: 14 shares the sine, 6 the cosine."
    ),
    mistakes=[
        (
            14,
            "Position 14 has the same sine, −0.7071, but its cosine is +0.7071: it lies on the right. "
            "Here both numbers are negative, so the point is on the lower left.",
        ),
        (
            6,
            "Position 6 has the same cosine, −0.7071, but its sine is +0.7071: it lies at the top. "
            "Here both numbers are negative, so the point is on the lower left.",
        ),
        (
            2,
            "Position 2 is (+0.7071, +0.7071), the opposite point: the ratio sin/cos is the same, the "
            "signs are not. Both numbers are negative here: the lower left.",
        ),
        (
            -6,
            "−6 is np.arctan2's angle −3π/4 divided by ω: arctan2 answers in (−π, π]. Positions run "
            "0 … 15, so add one turn of 16 positions.",
        ),
        (
            5 * np.pi / 4,
            "5π/4 ≈ 3.927 is the angle in radians. The position is the angle divided by one step, ω = 2π/16.",
        ),
        (
            225,
            "225 is the angle in degrees. The position is the angle divided by one step, 360°/16 = 22.5°.",
        ),
        (
            -3 * np.pi / 4,
            "−3π/4 ≈ −2.356 is np.arctan2's angle in radians, in (−π, π]. Add one turn, 2π, to get "
            "5π/4, then divide by one step, ω = 2π/16, to get the position.",
        ),
        (
            -135,
            "−135 is np.arctan2's angle in degrees, in (−180°, 180°]. Add 360° to get 225°, then "
            "divide by one step, 360°/16 = 22.5°, to get the position.",
        ),
    ],
)
