"""Shared code of the sinusoidal positional-encoding course.

One module per idea, in the order the notebooks introduce them:

- ``_checks``     argument checks shared by every public function
- ``notebook``    (01) ``setup_notebook``: printing, figure style, seeded generator
- ``attention``   (01) permutation matrices and one self-attention head
- ``binary``      (02) positions written in binary
- ``encoding``    (03) the sinusoidal formula, frequencies, layouts
- ``plotting``    (01, 03, 05) the course's figure style and its recurring figures
- ``rotation``    (04) shifting is rotating: ``T_k``
- ``similarity``  (05) the dot-product identity
- ``precision``   (07) an extended-precision reference; angles in low precision
- ``conventions`` (07) the conventions of real libraries: build, convert, detect
- ``rope``        (07) rotary position embedding: rotate instead of add
- ``exercises``   the "Check yourself" checkers, one module ``nbNN`` per notebook
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
from .conventions import (
    CONVENTIONS,
    convention_table,
    convert_layout,
    detect_convention,
    frequencies_variant,
    sinusoidal_pe_variant,
)
from .encoding import (
    encode_positions,
    frequencies,
    layout_permutation,
    sinusoidal_pe,
    wavelengths,
)
from .notebook import setup_notebook
from .plotting import show_figure
from .precision import encode_with_angle_dtype, reference_encoding
from .rope import rope
from .rotation import shift, shift_matrix
from .similarity import similarity_profile

__version__ = "1.0.0"

__all__ = [
    "CONVENTIONS",
    "LAYOUTS",
    "MAX_TABLE_BYTES",
    "attention_weights",
    "binary_codes",
    "convention_table",
    "convert_layout",
    "detect_convention",
    "encode_positions",
    "encode_with_angle_dtype",
    "fixed_weights",
    "frequencies",
    "frequencies_variant",
    "layout_permutation",
    "permutation_matrix",
    "reference_encoding",
    "rope",
    "self_attention",
    "setup_notebook",
    "shift",
    "shift_matrix",
    "show_figure",
    "similarity_profile",
    "sinusoidal_pe",
    "sinusoidal_pe_variant",
    "softmax",
    "token_embeddings",
    "wavelengths",
]
