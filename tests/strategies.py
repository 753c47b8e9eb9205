"""Hypothesis strategies for the course's arguments."""

from hypothesis import strategies as st

#: Even model sizes 2 … 64.
d_models = st.integers(min_value=1, max_value=32).map(lambda half: 2 * half)
#: Bases from just above 1 to well beyond the paper's 10000.
bases = st.floats(min_value=1.5, max_value=1e5, allow_nan=False, allow_infinity=False)
#: Positions and offsets where float64 angles are still accurate to ~1e-9.
positions = st.floats(min_value=-1e4, max_value=1e4, allow_nan=False, allow_infinity=False)
integer_positions = st.integers(min_value=0, max_value=10_000)
offsets = st.integers(min_value=-500, max_value=500)
layouts = st.sampled_from(["interleaved", "concatenated"])
