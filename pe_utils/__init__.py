"""The course's code: the mathematics the notebooks teach, and what the notebooks run it with.

The mathematics, one module (or folder) per idea, in the order the notebooks introduce them:

- ``_checks``       argument checks shared by every public function
- ``attention``     (01) permutation matrices, one self-attention head, an encoder block
- ``binary``        (02) positions written in binary
- ``encoding``      (03) the sinusoidal formula, frequencies, layouts
- ``rotation``      (04) shifting is rotating: ``T_k``
- ``fast``          (04, appendix) ``sinusoidal_pe_fast``: the same table built by rotations
- ``similarity``    (05) the dot-product identity
- ``precision``     (07, 08) an extended-precision reference; angles in low precision; bfloat16
- ``conventions``   (07) the conventions of real libraries: build, convert, detect
- ``rope``          (08) rotary position embedding: rotate instead of add
- ``rope_scaling``  (09) longer contexts: the context-extension rules as frequency rescaling
- ``alibi``         (09) ALiBi's slopes, the contrast: a bias linear in the distance
- ``training/``     (10) a head that learns to look back: ``task``, ``head``, ``gradient``,
  ``train`` (Adam and the training loop), notebook 10's ``recipe``, and the ``analysis`` of what it
  learned (also notebook 13's p-RoPE head)
- ``pipeline/``     (11) ``positions`` from masks and packing, a ``decoder`` with a KV cache,
  converting ``checkpoints`` between pairings
- ``beyond_text/``  (12) diffusion ``timesteps``, ``images`` grids, ``fourier`` features,
  ``rope_nd`` on several axes, one parametrised table (``sinusoid_table``) and the ``rosetta`` stone
- ``frequency_use`` (13) which RoPE frequencies a model uses and which a length needs

Apart from the mathematics (they import it; it never imports them, tests/test_import_rules.py):

- ``notebook_helpers/`` what a notebook runs: ``setup`` (``setup_notebook``), ``figures`` (the
  course's style and recurring figures), ``reporting`` (printed results that are the same on
  every machine), ``explorers/`` (figures with sliders, one module per chart)
- ``exercises/``    the "Check yourself" engine and one module ``nbNN`` per notebook

The build-and-check toolchain (slides, site, navigation, browser check) is ``tools/``, a
separate package run with ``python -m tools.<name>``; nothing here imports it.
"""

from ._checks import LAYOUTS, MAX_TABLE_BYTES
from .alibi import alibi_slopes
from .attention import (
    EncoderWeights,
    attention_weights,
    encoder_block,
    encoder_weights,
    feed_forward,
    fixed_weights,
    layer_norm,
    permutation_matrix,
    self_attention,
    softmax,
    token_embeddings,
)
from .beyond_text import (
    NESTING_NAMES,
    NESTINGS,
    ROSETTA,
    SINCOS_2D_CONVENTIONS,
    Convention,
    axial_rope_frequencies,
    fourier_features,
    gaussian_fourier_matrix,
    geometric_frequencies,
    grid_positions,
    grid_shift_matrix,
    mixed_rope_frequencies,
    mrope_frequencies,
    nerf_encoding,
    octave_frequencies,
    ridge_predict,
    rope_nd,
    rosetta_encoding,
    sincos_2d,
    sinusoid_table,
    timestep_embedding,
    timestep_frequencies,
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
from .fast import sinusoidal_pe_fast
from .frequency_use import (
    critical_dimension,
    first_negative_offset,
    p_rope_frequencies,
    smallest_base,
)
from .notebook_helpers import setup_notebook
from .notebook_helpers.figures import show_figure
from .pipeline import (
    DecoderWeights,
    KVCache,
    block_causal_mask,
    decode_step,
    decoder_forward,
    decoder_weights,
    packed_positions,
    permute_qk_rows,
    positions_from_mask,
    prefill,
)
from .precision import encode_with_angle_dtype, float32_angle_error, reference_encoding, round_to_bfloat16
from .rope import rope
from .rope_scaling import rope_frequencies, yarn_attention_scale
from .rotation import shift, shift_matrix
from .similarity import commuting_part, similarity_profile
from .training import (
    LookBackHead,
    commuting_share,
    init_head,
    look_back_accuracy,
    look_back_task,
    train_head,
)

__version__ = "1.0.0"

__all__ = [
    "CONVENTIONS",
    "DecoderWeights",
    "EncoderWeights",
    "KVCache",
    "LAYOUTS",
    "LookBackHead",
    "MAX_TABLE_BYTES",
    "NESTING_NAMES",
    "NESTINGS",
    "ROSETTA",
    "Convention",
    "SINCOS_2D_CONVENTIONS",
    "alibi_slopes",
    "attention_weights",
    "axial_rope_frequencies",
    "binary_codes",
    "block_causal_mask",
    "commuting_part",
    "commuting_share",
    "convention_table",
    "convert_layout",
    "critical_dimension",
    "decode_step",
    "decoder_forward",
    "decoder_weights",
    "detect_convention",
    "encode_positions",
    "encode_with_angle_dtype",
    "encoder_block",
    "encoder_weights",
    "feed_forward",
    "first_negative_offset",
    "float32_angle_error",
    "fixed_weights",
    "fourier_features",
    "frequencies",
    "frequencies_variant",
    "gaussian_fourier_matrix",
    "geometric_frequencies",
    "grid_positions",
    "grid_shift_matrix",
    "init_head",
    "layer_norm",
    "layout_permutation",
    "look_back_accuracy",
    "look_back_task",
    "mixed_rope_frequencies",
    "mrope_frequencies",
    "nerf_encoding",
    "octave_frequencies",
    "p_rope_frequencies",
    "packed_positions",
    "permutation_matrix",
    "permute_qk_rows",
    "positions_from_mask",
    "prefill",
    "reference_encoding",
    "ridge_predict",
    "rope",
    "rope_frequencies",
    "rope_nd",
    "rosetta_encoding",
    "round_to_bfloat16",
    "self_attention",
    "setup_notebook",
    "shift",
    "shift_matrix",
    "show_figure",
    "similarity_profile",
    "sincos_2d",
    "sinusoid_table",
    "sinusoidal_pe",
    "sinusoidal_pe_fast",
    "sinusoidal_pe_variant",
    "smallest_base",
    "softmax",
    "timestep_embedding",
    "timestep_frequencies",
    "token_embeddings",
    "train_head",
    "wavelengths",
    "yarn_attention_scale",
]
