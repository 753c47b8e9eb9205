"""The warm-up exercise of notebook 00 (contents), showing how every exercise works.

An encoding of dimension ``d`` holds ``d/2`` pairs ``(sin(p ω_i), cos(p ω_i))``,
``i = 0 … d/2 − 1``. Usage::

    from pe_utils.exercises import nb00
    answer = ...
    nb00.pairs_in_encoding.check(answer)
"""

from __future__ import annotations

from . import Exercise

PAIRS_D = 8

pairs_in_encoding = Exercise(
    question=(
        f"An encoding of dimension d = {PAIRS_D} puts a (sin, cos) pair in dimensions 2i and 2i+1. "
        "How many pairs does it hold? Give a whole number."
    ),
    expected=PAIRS_D // 2,
    hint="Each pair i fills two dimensions, 2i and 2i+1, and together they fill all d dimensions.",
    solution=f"d = {PAIRS_D}\nanswer = d // 2   # pairs i = 0 … d/2 − 1",
    mistakes=[
        (PAIRS_D, "That is d, the number of dimensions; each pair uses two of them."),
        (
            PAIRS_D // 2 - 1,
            "That is the index of the last pair, d/2 − 1. Pairs are counted from i = 0, "
            "so there is one more pair than that.",
        ),
    ],
)
