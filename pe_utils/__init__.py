"""Shared code of the sinusoidal positional-encoding course.

One module per idea, in the order the notebooks introduce them:

- ``attention``  (01) permutation matrices and one self-attention head
- ``binary``     (02) positions written in binary
- ``encoding``   (03) the sinusoidal formula, frequencies, layouts
- ``rotation``   (04) shifting is rotating: ``T_k``
- ``similarity`` (05) the dot-product identity
- ``plotting``   the course's single figure style
- ``exercises``  the "Check yourself" checkers
"""

from ._checks import LAYOUTS, MAX_TABLE_BYTES
from .attention import (
    attention_weights,
    fixed_weights,
    permutation_matrix,
    self_attention,
    softmax,
    token_embeddings,
)
from .binary import binary_codes
from .encoding import (
    encode_positions,
    frequencies,
    layout_permutation,
    sinusoidal_pe,
    wavelengths,
)
from .notebook import setup_notebook
from .rotation import shift, shift_matrix
from .similarity import similarity_profile

__version__ = "1.0.0"

__all__ = [
    "LAYOUTS",
    "MAX_TABLE_BYTES",
    "attention_weights",
    "binary_codes",
    "encode_positions",
    "fixed_weights",
    "frequencies",
    "layout_permutation",
    "permutation_matrix",
    "self_attention",
    "setup_notebook",
    "shift",
    "shift_matrix",
    "similarity_profile",
    "sinusoidal_pe",
    "softmax",
    "token_embeddings",
    "wavelengths",
]
